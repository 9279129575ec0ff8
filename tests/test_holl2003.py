"""The Holl 2003 study (experiments/holl2003): its generated files are current, its expected
rows are well formed, and its quick reproduction passes."""

from __future__ import annotations

import csv
import statistics
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from nsim import reproduce
from conftest import load_module

STUDY = Path(__file__).resolve().parent.parent / "experiments" / "holl2003"


def module(name: str) -> ModuleType:
    return load_module(STUDY / f"{name}.py")


def test_generated_scenarios_and_sweeps_are_current(tmp_path: Path) -> None:
    module("generate").main(tmp_path)
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.toml"))
    assert made, "generate.py wrote nothing"
    for rel in made:
        assert (tmp_path / rel).read_text() == (STUDY / rel).read_text(), f"{rel} is stale: run generate.py"


def test_expected_rows_name_their_part_source_evidence_and_tolerance() -> None:
    study = tomllib.loads((STUDY / "study.toml").read_text())
    parts = {p["name"] for p in study["part"]}
    doc = tomllib.loads((STUDY / "expected.toml").read_text())
    rows = doc["row"]
    ids = {r["id"] for r in rows}
    assert len(ids) == len(rows)
    for r in rows:
        assert r["id"].split(".")[0] in parts, r["id"]
        if r["evidence"] == "ns2":  # the same quantity as its row, against ns-2.35 (reference/ns2/holl2003_ch4, _ch6)
            assert r["source"].startswith(("ns-2.35, reference/ns2/holl2003_ch4/", "ns-2.35, reference/ns2/holl2003_ch6/")), r["id"]
            assert r["id"].endswith("_ns235") and r["id"].removesuffix("_ns235") in ids, r["id"]
        else:
            assert r["source"].startswith("Holl 2003"), r["id"]
            assert r["evidence"] in ("published", "consistency"), r["id"]
        assert ("tol_abs" in r) != ("tol_rel" in r), r["id"]
        assert r["reason"], r["id"]
        assert r.get("kind", "value") in ("value", "max", "min"), r["id"]
        for other in r.get("of", []):
            assert other in ids, (r["id"], other)
        if r.get("status") == "known-fail":
            assert "issue" in r["why"], r["id"]
            # measured numbers come from the run ({nsim}, {row:...}), not typed into the text
            assert "{nsim}" in r["why"] or "{row:" in r["why"], r["id"]
    keys = doc["key"]
    assert len({k["id"] for k in keys}) == len(keys) >= 25
    for k in keys:
        assert k["source"].startswith("Holl 2003"), k["id"]
        assert k["rows"] or k["why"], k["id"]


def test_ns2_rows_hold_the_ns235_runs_of_the_reference_csv() -> None:
    """The ns-2.35 rows' values are the means of reference/ns2/holl2003_ch4/ch4.csv over its
    jittered runs (seeds 1-3, the study's start jitter): NewReno's CBR loss, the six TCPs' BE
    means and RED's cost to them."""
    ref = STUDY.parent.parent / "reference" / "ns2" / "holl2003_ch4" / "ch4.csv"
    runs = [r for r in csv.DictReader(ref.open()) if r["jitter"] == "1"]

    def mean(col: str, queue: str, tcp: str | None = None) -> float:
        x = [float(r[col]) for r in runs if r["queue"] == queue and (tcp is None or r["tcp"] == tcp)]
        assert len(x) == (3 if tcp else 18), (col, queue, tcp)
        return statistics.mean(x)

    dt, red = mean("be_mean_bps", "DropTail"), mean("be_mean_bps", "RED")
    want = {"ch4.droptail.newreno.cbr_loss_pct.n17_ns235": mean("cbr_loss_pct", "DropTail", "Newreno"),
            "ch4.red.newreno.cbr_loss_pct.n17_ns235": mean("cbr_loss_pct", "RED", "Newreno"),
            "ch4.droptail.tcp.be_mean_bps.n17_ns235": dt,
            "ch4.red.tcp.be_mean_bps.n17_ns235": red,
            "ch4.red_vs_droptail.be_mean_drop_pct.n17_ns235": 100.0 * (dt - red) / dt}
    rows = {r["id"]: r for r in tomllib.loads((STUDY / "expected.toml").read_text())["row"]}
    for row_id, value in want.items():
        assert rows[row_id]["evidence"] == "ns2"
        assert rows[row_id]["value"] == pytest.approx(value, rel=5e-4), row_id


def test_ns2_rows_of_chapters_4_to_6_hold_the_runs_of_their_reference_csvs() -> None:
    """The other ns-2.35 rows' values are the means of their reference runs with the study's
    start jitter: RED's std-dev change over 1-12 calls (holl2003_ch4/std.csv, six TCPs, seeds
    1-3), the BER points (holl2003_ch4/ch5.csv, seeds 1-3) and the step response under CBQ
    (holl2003_ch6/ch6.csv, seeds 1-5), each reduced as the study's reducer does."""
    ref = STUDY.parent.parent / "reference" / "ns2"
    rows = {r["id"]: r for r in tomllib.loads((STUDY / "expected.toml").read_text())["row"]}

    std = [r for r in csv.DictReader((ref / "holl2003_ch4" / "std.csv").open()) if r["jitter"] == "1"]
    assert len(std) == 6 * 2 * 12 * 3
    by_queue = {q: statistics.mean(float(r["be_std_bps"]) for r in std if r["queue"] == q) for q in ("DropTail", "RED")}
    want = {"ch4.red_minus_droptail.be_std_kbps.n1_12_ns235": (by_queue["RED"] - by_queue["DropTail"]) / 1e3}

    ber = list(csv.DictReader((ref / "holl2003_ch4" / "ch5.csv").open()))
    assert len(ber) == 4 * 6 * 3 and all(r["jitter"] == "1" for r in ber)

    def ber_mean(queue: str, b: str, tcp: str | None = None) -> float:
        x = [float(r["be_mean_bps"]) for r in ber if r["queue"] == queue and r["ber"] == b and tcp in (None, r["tcp"])]
        assert len(x) == (3 if tcp else 18), (queue, b, tcp)
        return statistics.mean(x)

    hi = {t: statistics.mean(ber_mean("DropTail", b, t) for b in ("1e-5", "3e-5", "1e-4")) for t in ("Sack1", "Fack", "Vegas")}
    want |= {"ch5.droptail.sackfack_over_vegas.be_mean.ber1e-5_1e-4_ns235": (hi["Sack1"] + hi["Fack"]) / 2 / hi["Vegas"],
             "ch5.droptail.tcp.be_mean_bps.ber1e-4_ns235": ber_mean("DropTail", "1e-4"),
             "ch5.red_minus_droptail.tcp.be_mean_bps.ber1e-4_ns235": ber_mean("RED", "1e-4") - ber_mean("DropTail", "1e-4")}

    step = [r for r in csv.DictReader((ref / "holl2003_ch6" / "ch6.csv").open()) if r["jitter"] == "1"]

    def step_mean(col: str, tcp: str, wl: str) -> float:
        x = [float(r[col]) for r in step if r["tcp"] == tcp and r["wl"] == wl]
        assert len(x) == 5, (col, tcp, wl)
        return statistics.mean(x)

    want |= {"ch6wl_newreno.temporal_cov_median_ns235": step_mean("temporal_cov_median", "Newreno", "1"),
             "ch6wl_vegas.short_rtt_share_of_fair_after_ns235": step_mean("short_rtt_share_of_fair_after", "Vegas", "1"),
             "ch6wl401_newreno.temporal_cov_median_ns235": step_mean("temporal_cov_median", "Newreno", "2"),
             "ch6step.cbq.vegas_over_newreno.temporal_cov_ns235":
                 step_mean("temporal_cov_median", "Vegas", "0") / step_mean("temporal_cov_median", "Newreno", "0")}
    timeline = [r for r in csv.DictReader((ref / "holl2003_ch6" / "timeline.csv").open()) if r["jitter"] == "1"]
    assert len(timeline) == 5
    want["ch6timeline.newreno.ss_after_timeout_s_ns235"] = statistics.mean(float(r["ss_median_s"]) for r in timeline)
    for row_id, value in want.items():
        assert rows[row_id]["evidence"] == "ns2"
        assert rows[row_id]["value"] == pytest.approx(value, rel=5e-4, abs=1e-9), row_id


def test_ns2_episode_reader_follows_the_studys_rules() -> None:
    """reference/ns2/holl2003_ch6/episodes.py reads ns-2's cwnd_/ssthresh_ lines as the study's
    `_episodes` reads nsim's series: a timeout opens a slow start that ends at ssthresh, a
    backed-off timeout at cwnd 1 does not open another, a fast retransmit ends it, and each
    flow's first episode is left out."""
    mod = load_module(STUDY.parent.parent / "reference" / "ns2" / "holl2003_ch6" / "episodes.py")
    lines = [  # flow 0 (node 2): a first timeout (left out), a slow start with a backed-off
        # timeout (3.6 s to ssthresh 3), congestion avoidance, a fast retransmit, a timeout whose
        # slow start a fast retransmit cuts after 0.5 s; flow 1's timeout lies before the span
        "160.0 2 0 3 0 ssthresh_ 4", "160.0 2 0 3 0 cwnd_ 1.000", "161.0 2 0 3 0 cwnd_ 4.000",
        "170.0 2 0 3 0 ssthresh_ 3", "170.0 2 0 3 0 cwnd_ 1.000",
        "172.0 2 0 3 0 ssthresh_ 2", "172.0 2 0 3 0 cwnd_ 1.000",
        "173.5 2 0 3 0 cwnd_ 2.000", "173.6 2 0 3 0 cwnd_ 3.000",
        "180.0 2 0 3 0 ssthresh_ 2", "180.0 2 0 3 0 cwnd_ 2.000",
        "190.0 2 0 3 0 ssthresh_ 2", "190.0 2 0 3 0 cwnd_ 1.000",
        "190.5 2 0 3 0 ssthresh_ 2", "190.5 2 0 3 0 cwnd_ 2.000",
        "0.0 -1 -1 -1 -1 cwnd_ 1.000", "100.0 4 0 5 0 ssthresh_ 2", "100.0 4 0 5 0 cwnd_ 1.000"]
    got = mod.slow_starts(lines)
    assert got == [(0, 170.0, pytest.approx(3.6), 3.0), (0, 190.0, pytest.approx(0.5), 2.0)]


def test_table_4_7_is_eq_4_2() -> None:
    eq = module("generate").eq_4_2
    assert [eq(n) for n in range(18)] == [2 * n for n in range(17)] + [51]


def test_quick_reproduction_passes(tmp_path: Path) -> None:
    """What CI runs: `nsim reproduce experiments/holl2003 --quick` (43 runs, one seed each).
    It checks a published value of every figure group: the CBR loss at 17 calls with Drop-Tail
    and RED (Figs 4.5, 4.8), the CBQ delays at 1 and 16 calls (Figs 4.10, 4.12), full TCP at 17
    calls, TCP and STP at BER 1e-4 (Fig. 5.3), and one seed of every 428.6 s run of chapters 6
    and 7 (step, Table 6.4's timeline, window-limited, near/far, IP-ABR)."""
    res = reproduce(STUDY, quick=True, out=tmp_path, workers=2)
    rows = res.rows.set_index("id")
    assert res.passed, rows[rows["status"] == "FAIL"][["paper", "nsim", "note"]]
    assert rows.loc["ch4cbq1.cbq.cbr_delay_ms.n1", "nsim"] == pytest.approx(462.0, abs=1.5)
    assert rows.loc["ch4cbq1.cbq.cbr_loss_pct.n1", "nsim"] == 0.0
    checked = rows[(rows["evidence"] == "published") & rows["status"].isin(["pass", "known-fail"])]
    for part in ("ch4", "ch4full", "ch4cbq", "ch5", "ch6step", "ch6timeline", "ch6wl401_newreno", "ch6wl_stp", "ch6nf",
                 "ch7step", "ch7nf"):
        assert (checked["part"] == part).any(), f"--quick checks no published value of {part}"


def test_seeds_differ() -> None:
    """The BE flows' jittered starts (start_jitter, README) make seeds differ even for STP at
    BER 0, which has no other randomness (the thesis' setup had none)."""
    from nsim import Scenario

    doc = Scenario.load(STUDY / "scenarios" / "ch5.toml").to_dict()
    doc["flows"][0]["transport"] = {"kind": "stp", "window": 20, "packet_size": "536B"}
    scn = Scenario.from_dict(doc)
    a, b = (scn.run(seed=s, until="8s").flows for s in (1, 2))
    assert list(a["start_s"]) != list(b["start_s"])
    assert list(a["delivered_bytes"]) != list(b["delivered_bytes"])
