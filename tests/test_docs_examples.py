"""Every docs/examples/*.py runs and prints exactly its committed .out (SimPy's docs habit)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.py"))


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_output_matches(example: Path) -> None:
    p = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr
    expected = example.with_suffix(".out").read_text()
    assert p.stdout == expected, f"{example.name} output changed; if intended, regenerate {example.stem}.out"


# -- the quickstart's shown outputs ---------------------------------------------------------

#: Wall-clock figures vary from run to run; everything else in the output must match.
_WALL = re.compile(r"in [\d.]+ s \([\d,]+ events/s; set-up [\d.]+ ms\)")


def _shown_outputs(doc: str) -> list[tuple[str, str]]:
    """(command, output) pairs: each ```sh block with one `nsim` command followed directly by
    a ```text block."""
    pairs = re.findall(r"```sh\n([^\n]*nsim [^\n]*)\n```\n\n```text\n(.*?)```", doc, re.S)
    return [(cmd.split("uv run ", 1)[-1], out) for cmd, out in pairs]


def test_quickstart_shows_what_the_commands_print(tmp_path: Path) -> None:
    doc = (ROOT / "docs" / "quickstart.md").read_text(encoding="utf-8")
    pairs = _shown_outputs(doc)
    assert len(pairs) >= 2
    for cmd, shown in pairs:
        args = shlex.split(cmd)
        assert args[0] == "nsim", cmd
        for i, a in enumerate(args):
            if a.endswith(".toml") and not Path(a).is_absolute():
                args[i] = str(ROOT / a)
        p = subprocess.run([sys.executable, "-m", "nsim", *args[1:]], capture_output=True, text=True,
                           cwd=tmp_path, timeout=300)
        printed = (p.stdout + p.stderr).replace(str(ROOT) + "/", "")
        assert _WALL.sub("in <wall>", printed) == _WALL.sub("in <wall>", shown), \
            f"docs/quickstart.md: the output of `{cmd}` changed; paste the new output"
