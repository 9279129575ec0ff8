"""experiments/noureddine2002 chapter 5 (bandwidth needs of TCP and video): the generated
scenarios match their generator, the stated and SURGE workloads differ only where the README
says, §5.5.1's markings set only the applications' priorities, and the --quick run of the
chapter runs every part (the data load at L2777's source counts and the markings included),
checks the published need of unlayered video alone (Fig 5.5) and that each marking reaches
the packets."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pandas as pd
from conftest import ROOT, load_module, run_cli

STUDY = ROOT / "experiments" / "noureddine2002"


def _generator() -> Any:
    return load_module(STUDY / "scenarios" / "gen_ch5.py")


def test_generated_scenarios_match_the_generator() -> None:
    gen = _generator()
    for name in gen.CONFIGS:
        assert (STUDY / "scenarios" / f"{name}.toml").read_text() == gen.scenario(name), f"run scenarios/gen_ch5.py ({name})"
    assert (STUDY / "scenarios" / "ch5_load.toml").read_text() == gen.load_scenario(), "run scenarios/gen_ch5.py"
    assert (STUDY / "ch5_load.sweep.toml").read_text() == gen.load_sweep(), "run scenarios/gen_ch5.py"
    assert (STUDY / "ch5_marking.sweep.toml").read_text() == gen.marking_sweep(), "run scenarios/gen_ch5.py"
    assert (STUDY / "scenarios" / "ch5_excess.toml").read_text() == gen.excess_scenario(), "run scenarios/gen_ch5.py"
    for n in gen.EXCESS_RATES:
        assert (STUDY / f"ch5_excess{n}.sweep.toml").read_text() == gen.excess_sweep(n), "run scenarios/gen_ch5.py"
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


def test_a_marking_only_sets_each_applications_priority() -> None:
    """§5.5.1's markings (C5-9 to C5-12) change nothing of the data sessions but their drop
    priority: Telnet, web (the probes too) and FTP (both ways) each get the marking's one."""
    gen = _generator()
    plain = gen.data_flows(False)
    for marking, (telnet, web, ftp) in gen.MARKINGS.items():
        marked = gen.data_flows(False, marking=marking)
        assert [dict(f)["name"] for f in marked] == [dict(f)["name"] for f in plain]
        for a, b in zip(marked, plain):
            a = dict(a)
            name = a.pop("name").strip('"')
            want = telnet if name.startswith("tel") else ftp if name.startswith(("ftp", "rftp")) else web
            assert a.pop("prio") == str(want), (marking, name)
            assert a == {k: v for k, v in dict(b).items() if k != "name"}


def _reduce() -> Any:
    return load_module(STUDY / "reduce.py")


def test_a_runs_marking_is_read_from_its_scenario() -> None:
    reduce = _reduce()
    tcp = {"kind": "tcp"}
    flows = lambda prios, extra=None: [  # noqa: E731
        {"name": n, "prio": p, "transport": dict(tcp, **(extra or {}))} for n, p in zip(("tel{i}", "web{i}", "ftp{i}"), prios)]
    assert reduce.ch5_marking_of({"flows": flows((2, 2, 2))}) == "low"
    assert reduce.ch5_marking_of({"flows": flows((0, 1, 2))}) == "appl"
    assert reduce.ch5_marking_of({"flows": flows((0, 0, 0), {"tcp_ds": {"high": 4, "med": 8}})}) == "tcp_ds"
    assert reduce.ch5_marking_of({"flows": flows((1, 2, 0))}) == "prio 1/2/0"
    assert reduce.ch5_marking_of({"flows": [{"name": "video{i}"}]}) == "none"


def test_fig_5_8s_sweeps_pair_each_load_with_its_buffer() -> None:
    """Fig 5.8 (C5-5): at each load the TCP-alone runs have the 500-packet buffer and no video,
    the mixed runs the 1000-packet buffer and the 20 video streams on the pairs after the data
    sources; both are crossed with every rate, and nothing else differs."""
    from nsim.sweeps import load_sweep

    gen = _generator()
    for n, rates in gen.EXCESS_RATES.items():
        runs = load_sweep(STUDY / f"ch5_excess{n}.sweep.toml").runs()
        assert len(runs) == 2 * len(rates) * 5
        for run in runs:
            sc = run.scenario
            video = [f for f in sc["flows"] if f["name"].startswith("video")]
            ftp = [f for f in sc["flows"] if f["name"].startswith("ftp")]
            assert sum(f["repeat"] for f in ftp) == n
            limit = sc["dumbbell"]["bottleneck"]["queue"]["limit"]
            assert (limit, len(video)) in (("500p", 0), ("1000p", 2))
            assert {f["from"] for f in video} <= {f"s{n // 10}{{i}}", f"s{n // 10 + 1}{{i}}"}
        assert {r.scenario["dumbbell"]["bottleneck"]["rate"] for r in runs} == {f"{r}Mb" for r in rates}


def test_the_load_scale_reads_l2777_linearly() -> None:
    """L2777: 20 Mb/s at 80 sources, 170 at 480; the study's 180 sources sit at 57.5."""
    reduce = _reduce()
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
    # §5.5.1's markings reach the packets: every data packet of an application carries the
    # marking's priority for it (0 HIGH, 1 MED, 2 LOW).
    table = pd.read_parquet(tmp_path / "ch5_marking" / "table.parquet")
    gen = _generator()
    assert set(table["marking"]) == set(gen.MARKINGS)
    column = {0: "sent_high_pkts", 1: "sent_med_pkts", 2: "sent_low_pkts"}
    for marking, prios in gen.MARKINGS.items():
        run = table[table["marking"] == marking]
        for app, pattern, prio in zip(("telnet", "web", "ftp"), (r"^tel\d", r"^web\d", r"^r?ftp\d"), prios):
            flows = run[run["name"].str.match(pattern)]
            assert flows["sent_pkts"].sum() > 0, (marking, app)
            assert (flows[column[prio]] == flows["sent_pkts"]).all(), (marking, app)
