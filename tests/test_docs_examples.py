"""Every docs/examples/*.py runs and prints exactly its committed .out (SimPy's docs habit)."""

from __future__ import annotations

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
