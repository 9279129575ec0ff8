"""experiments/noureddine2002 chapter 4 (800-host Telnet/web/FTP mix): the chapter's --quick
run passes and checks a published value of each figure group (Fig 4.3/4.8 baseline, Fig
4.22/4.25 TCP-DS, Fig 4.29 FTPlong)."""

from __future__ import annotations

import csv
from pathlib import Path

from conftest import ROOT, run_cli


def test_noureddine2002_ch4_quick_passes(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(ROOT / "experiments" / "noureddine2002"), "--chapter", "4", "--quick",
                "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {row["id"]: row for row in csv.DictReader((tmp_path / "results.csv").open())}
    for rid in ("ch4_baseline.r100.echo80_median_s", "ch4_tcpds.tcp_ds.r100.echo80_over_0.5s",
                "ch4_ftplong.droptail.share_200ms"):
        assert rows[rid]["evidence"] == "published" and rows[rid]["status"] in ("pass", "known-fail"), rows[rid]
