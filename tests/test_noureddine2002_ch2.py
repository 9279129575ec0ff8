"""experiments/noureddine2002 chapters 2 and 3 (full TCP connection timings, Ethernet PAUSE): the --quick run passes.
Chapters 4 and 5 have their own tests (tests/test_noureddine2002_ch4.py, _ch5.py)."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, run_cli


def test_noureddine2002_ch2_quick_passes(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(ROOT / "experiments" / "noureddine2002"), "--chapter", "2", "--chapter", "3", "--quick", "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = (tmp_path / "results.csv").read_text()
    assert "ch2_nagle.with_nagle_per_s" in rows and "ch2_delack.mean_wait_s" in rows
    assert ",ch3_transfers,published," in rows and ",ch3_fairness,published," in rows
