"""experiments/noureddine2002 chapter 5 (bandwidth needs of TCP and video): the generated
scenarios match their generator, the stated and SURGE workloads differ only where the README
says, and the --quick run of the chapter runs every part (the data load at L2777's source
counts included) and checks the published need of unlayered video alone (Fig 5.5)."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path
from typing import Any

from conftest import ROOT, run_cli

STUDY = ROOT / "experiments" / "noureddine2002"


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("gen_ch5", STUDY / "scenarios" / "gen_ch5.py")
    gen = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(gen)  # type: ignore[union-attr]
    return gen


def test_generated_scenarios_match_the_generator() -> None:
    gen = _generator()
    for name in gen.CONFIGS:
        assert (STUDY / "scenarios" / f"{name}.toml").read_text() == gen.scenario(name), f"run scenarios/gen_ch5.py ({name})"
    assert (STUDY / "scenarios" / "ch5_load.toml").read_text() == gen.load_scenario(), "run scenarios/gen_ch5.py"
    assert (STUDY / "ch5_load.sweep.toml").read_text() == gen.load_sweep(), "run scenarios/gen_ch5.py"
    surge = (STUDY / "scenarios" / "ch5_tcp_surge.toml").read_text()
    assert surge == gen.scenario("ch5_tcp", "surge"), "run scenarios/gen_ch5.py --workload surge"


def test_the_two_workloads_differ_only_in_the_stated_choices() -> None:
    """The stated workload is the SURGE one with WebTraf pages, no SYN, initial window 1 and
    web servers that wait for the request's acknowledgment (README "Workload load", "At the
    stated load"): nothing else of the data sessions moves."""
    gen = _generator()
    stated, surge = gen.data_flows(False, "stated"), gen.data_flows(False, "surge")
    assert [dict(f)["name"] for f in stated] == [dict(f)["name"] for f in surge]
    for a, b in zip(stated, surge):
        a, b = dict(a), dict(b)
        assert a["transport"] == b["transport"].replace(" }", ", initial_window = 1, syn = false }")
        app = b["app"].replace('{ kind = "surge" }', '{ kind = "webtraf", objects = 3 }')
        if '"http"' in app:
            app = app.removesuffix(" }") + ', serve_after = "request_ack" }'
        assert a["app"] == app
        assert {k: v for k, v in a.items() if k not in ("transport", "app")} == {k: v for k, v in b.items() if k not in ("transport", "app")}


def test_the_load_scale_reads_l2777_linearly() -> None:
    """L2777: 20 Mb/s at 80 sources, 170 at 480; the study's 180 sources sit at 57.5."""
    spec = importlib.util.spec_from_file_location("nd_reduce", STUDY / "reduce.py")
    reduce = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(reduce)  # type: ignore[union-attr]
    assert [reduce.ch5_thesis_load_mbps(n) for n in (80, 180, 480)] == [20.0, 57.5, 170.0]


def test_noureddine2002_ch5_quick_runs(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(STUDY), "--chapter", "5", "--quick", "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {row["id"]: row for row in csv.DictReader((tmp_path / "results.csv").open())}
    assert "ch5_mixed.video_need_mbps" in rows and "ch5_tcpds.need_mbps" in rows
    # The lossless data load is measured at each of L2777's source counts (and SURGE's at 180).
    for row in ("s80", "s180", "s480", "web", "surge_s180"):
        assert rows[f"ch5_load.{row}_mbps"]["evidence"] == "consistency"
    need = rows["ch5_video.need_mbps"]
    assert need["evidence"] == "published" and need["status"] == "pass", need
