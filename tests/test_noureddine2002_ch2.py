"""experiments/noureddine2002 chapter 2 (full TCP connection timings): the --quick run passes."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, run_cli


def test_noureddine2002_ch2_quick_passes(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(ROOT / "experiments" / "noureddine2002"), "--quick", "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = (tmp_path / "results.csv").read_text()
    assert "ch2_nagle.with_nagle_per_s" in rows and "ch2_delack.mean_wait_s" in rows
