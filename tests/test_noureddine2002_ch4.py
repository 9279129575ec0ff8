"""experiments/noureddine2002 chapter 4 (800-host Telnet/web/FTP mix): the chapter's
--quick run passes and measures the 80 ms-RTT Telnet echoes."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, run_cli


def test_noureddine2002_ch4_quick_passes(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(ROOT / "experiments" / "noureddine2002"), "--chapter", "4", "--quick",
                "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = (tmp_path / "results.csv").read_text()
    assert "ch4_baseline.r100.echo80_median_s" in rows and ",pass," in rows
