"""The analysis guides show their examples verbatim: code and output as in docs/examples
(whose output test_docs_examples checks), so a guide cannot drift from what runs."""

import pytest

from conftest import ROOT

GUIDES = [
    ("dynamics", "dynamics_failover"),
    ("dynamics", "dynamics_pause"),
    ("metrics", "fairness_metrics"),
    ("plotting", "plots_gallery"),
    ("reports", "html_report"),
    ("sweeps", "buffer_sweep"),
]


@pytest.mark.parametrize("guide,example", GUIDES)
def test_guide_embeds_its_example_and_output(guide, example):
    text = (ROOT / "docs" / "guide" / f"{guide}.md").read_text(encoding="utf-8")
    code = (ROOT / "docs" / "examples" / f"{example}.py").read_text(encoding="utf-8")
    out = (ROOT / "docs" / "examples" / f"{example}.out").read_text(encoding="utf-8")
    assert f"```python\n{code}```" in text
    assert f"```text\n{out}```" in text
