"""experiments/noureddine2002 chapter 5 (bandwidth needs of TCP and video): the generated
scenarios match their generator, the stated and SURGE workloads differ only where the README
says, §5.5.1's markings set only the applications' priorities, and the --quick run of the
chapter runs every part (the data load at L2777's source counts and the markings included),
checks the published need of unlayered video alone (Fig 5.5) and that each marking reaches
the packets."""

from __future__ import annotations

import csv
import json
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
    assert (STUDY / "scenarios" / "ch5_aggregation.toml").read_text() == gen.aggregation_scenario(), "run scenarios/gen_ch5.py"
    for n in (gen.DATA_HOSTS, max(gen.EXCESS_RATES)):
        assert (STUDY / f"ch5_agg{n}.sweep.toml").read_text() == gen.aggregation_sweep(n), "run scenarios/gen_ch5.py"
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


def test_fig_5_9s_network_has_the_thesis_tiers() -> None:
    """Fig 5.9 (C5-6) runs on Fig 5.1's tiers (notes §2.3): each central router fed by four
    2nd-level routers over 100 Mb/s links with 250-packet buffers, ten hosts per 45 Mb/s
    1st-level router (128 packets), 10 Mb/s host links; the study's 200 pairs fill five
    1st-level routers under each 2nd-level router, as the thesis's tree. The 180-source sweep
    moves every tier link together, with the central link out of the way."""
    import tomllib

    from nsim.sweeps import load_sweep

    sc = tomllib.loads((STUDY / "scenarios" / "ch5_aggregation.toml").read_text())
    links = {tuple(link["between"]): link for link in sc["links"]}
    assert sc["links"][0]["between"] == ["r0", "r1"]
    tier = sc["links"][1:9]
    assert {tuple(t["between"]) for t in tier} == {(f"a{k}", "r0") for k in range(4)} | {("r1", f"b{k}") for k in range(4)}
    assert all(t["rate"] == "100Mb" and t["queue"]["limit"] == "250p" for t in tier)
    up = {a: b for (a, b) in links if a.startswith("s")}
    for i in range(200):  # the study's pairs: five 1st-level routers of ten hosts per 2nd-level router
        left = up[f"s{i}"]
        right = "f" + left[1:]
        assert links[(f"s{i}", left)]["rate"] == links[(right, f"d{i}")]["rate"] == "10Mb"
        for edge in (links[(left, f"a{i % 4}")], links[(f"b{i % 4}", right)]):
            assert edge["rate"] == "45Mb" and edge["queue"]["limit"] == "128p"
    used = [up[f"s{i}"] for i in range(200)]
    assert len(set(used)) == 20 and all(used.count(e) == 10 for e in set(used))
    runs = load_sweep(STUDY / "ch5_agg180.sweep.toml").runs()
    gen = _generator()
    assert len(runs) == len(gen.AGG180_AGGREGATES) * 5
    for run in runs:
        rates = {link["rate"] for link in run.scenario["links"][1:9]}
        assert run.scenario["links"][0]["rate"] == "1Gb" and len(rates) == 1
        video = [f for f in run.scenario["flows"] if f["name"].startswith("video")]
        assert sum(f["repeat"] for f in run.scenario["flows"] if f["name"].startswith("ftp")) == gen.DATA_HOSTS and len(video) == 2
    aggregates = sorted({4 * float(r.scenario["links"][1]["rate"].removesuffix("Mb")) for r in runs})
    assert aggregates == list(gen.AGG180_AGGREGATES)


def test_fig_5_9s_reducers_read_loss_and_drop_places() -> None:
    """ch5_agg480: the video loss at 400 Mb/s minus at 380, the tier's share of the drops at
    400 and the central link's at 380, seeds averaged first; ch5_agg180: the lowest aggregate
    from which every larger one meets the 1e-3 video criterion."""
    reduce = _reduce()
    rows = []
    for seed in (1, 2):
        for rate, loss, central, tier in (("380Mb", 0.001, 300, 100), ("400Mb", 0.003, 0, 500)):
            rows.append({"links[0].rate": rate, "seed": seed, "name": "video0", "video_loss": loss + seed * 1e-4,
                         "central_drops": central, "tier_drops": tier})
    out = reduce.ch5_agg480(pd.DataFrame(rows))
    assert abs(out["ch5_agg480.video_loss_400_minus_380"] - 0.002) < 1e-12
    assert out["ch5_agg480.tier_drop_share_400"] == 1.0 and out["ch5_agg480.central_drop_share_380"] == 0.75
    axis = " + ".join(f"links[{k}].rate" for k in range(1, 9))
    rows = [{"links[0].rate": "1Gb", axis: json.dumps([f"{a / 4:g}Mb"] * 8), "seed": 1, "name": "video0",
             "video_loss": loss, "central_drops": 0, "tier_drops": 10}
            for a, loss in ((230, 3e-3), (250, 8e-4), (270, 2e-3), (280, 9e-4), (300, 1e-4))]
    out = reduce.ch5_agg180(pd.DataFrame(rows))
    assert out["ch5_agg180.video_need_mbps"] == 280.0 and out["ch5_agg180.central_drops"] == 0.0


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
