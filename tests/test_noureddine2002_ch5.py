"""experiments/noureddine2002 chapter 5 (bandwidth needs of TCP and video): the generated
scenarios match their generator, and the --quick run of the chapter runs every part and checks
the published need of unlayered video alone (Fig 5.5)."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

from conftest import ROOT, run_cli

STUDY = ROOT / "experiments" / "noureddine2002"


def test_generated_scenarios_match_the_generator() -> None:
    spec = importlib.util.spec_from_file_location("gen_ch5", STUDY / "scenarios" / "gen_ch5.py")
    gen = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(gen)  # type: ignore[union-attr]
    for name in gen.CONFIGS:
        assert (STUDY / "scenarios" / f"{name}.toml").read_text() == gen.scenario(name), f"run scenarios/gen_ch5.py ({name})"


def test_noureddine2002_ch5_quick_runs(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(STUDY), "--chapter", "5", "--quick", "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {row["id"]: row for row in csv.DictReader((tmp_path / "results.csv").open())}
    assert "ch5_mixed.video_need_mbps" in rows and "ch5_tcpds.need_mbps" in rows
    need = rows["ch5_video.need_mbps"]
    assert need["evidence"] == "published" and need["status"] == "pass", need
