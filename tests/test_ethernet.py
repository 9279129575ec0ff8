"""Ethernet ports and 802.3x PAUSE (docs/models/ethernet.md): the example scenario from the
CLI and the Python builder, a bad table names its field, and chapter 3 of the noureddine2002
study passes its --quick reproduction (Noureddine 2002); three of its reducers (Figs 3.3, 3.7,
3.24) on hand-made tables."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import nsim
from conftest import ROOT, load_module, run_cli

SCENARIO = ROOT / "scenarios" / "ethernet_pause.toml"
NOUREDDINE = ROOT / "experiments" / "noureddine2002"


def test_example_loses_nothing_and_reports_pause() -> None:
    res = nsim.run(SCENARIO)
    q = res.queues.set_index(["from", "to"])
    assert res.flows["dropped_pkts"].sum() == 0
    assert q.loc[("sw", "s"), "pause_sent"] > 0
    assert q.loc[("s", "sw"), "pause_received"] == q.loc[("sw", "s"), "pause_sent"] + q.loc[("sw", "s"), "resume_sent"]
    assert q.loc[("s", "sw"), "paused_s"] > 1.0
    assert set(res.classes["class"]) == {"cos0"}


def test_python_builder_selects_ethernet() -> None:
    scn = (nsim.Scenario("eth", duration="1s").hosts("s", "d").routers("sw")
           .link("s", "sw", "100Mb", "10us", ethernet=dict(buffer="10MB"), reverse_ethernet=dict(buffer="500KB"))
           .link("sw", "d", "10Mb", "10us", ethernet=dict(buffer="70KB", pause="simple"), reverse_ethernet=dict(buffer="10MB"))
           .flow("s", "d", app=dict(kind="cbr", rate="50Mb", size="1000B"), stop="0.1s"))
    res = nsim.run(scn)
    assert res.flows["dropped_pkts"].sum() == 0 and res.queues["pause_sent"].sum() > 0


@pytest.mark.parametrize("table, field", [
    ('{ buffer = "70KB", high = 0.5, low = 0.6 }', "links[1].ethernet.low"),
    ('{ buffer = "70KB", quanta = 10 }', "links[1].ethernet.quanta"),
    ('{ buffer = "70KB", pause = "sometimes" }', "ethernet"),
])
def test_bad_ethernet_table_names_its_field(tmp_path: Path, table: str, field: str) -> None:
    text = SCENARIO.read_text().replace('ethernet = { buffer = "70KB", framing = true, pause = "simple", high = 0.8, low = 0.7 }',
                                        f"ethernet = {table}")
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    r = run_cli("run", str(bad), "-o", str(tmp_path / "out"))
    assert r.returncode == 2 and field in r.stderr, r.stderr


def test_noureddine2002_chapter3_quick_passes(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(ROOT / "experiments" / "noureddine2002"), "--chapter", "3", "--quick",
                "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_non_responsive_sender_overflows_the_port_it_congests(tmp_path: Path) -> None:
    """Noureddine 2002 Fig 3.19's set-up: under simple back-pressure s1 ignores PAUSE, so the port it
    congests overflows (drops) although it pauses s1. The thesis's claim that s2's flows then
    lose heavily is not what nsim shows (README.md): s1's Reno flows back off on their losses,
    the queue falls below the low watermark, and s2 is blocked less than with a responsive s1."""
    base = (ROOT / "experiments" / "noureddine2002" / "scenarios" / "ch3_destination.toml").read_text()
    base = base.replace('duration = "21s"', 'duration = "6s"')
    nic = 'ethernet = { buffer = "10MB" }\nreverse_ethernet = { buffer = "500KB" }'
    assert nic in base
    runs = {}
    for name, text in {"responsive": base, "ignores": base.replace(nic, nic.replace('"10MB"', '"10MB", ignore_pause = true'), 1)}.items():
        path = tmp_path / f"{name}.toml"
        path.write_text(text)
        res = nsim.run(path)
        f = res.flows.set_index("name")
        done = f[f.index.str.startswith("f32k_")].dropna(subset=["completion_s"])
        runs[name] = (float((32_000 * 8 / done["completion_s"]).mean()) if len(done) else 0.0,
                      int(f[f.index.str.startswith("s1_")]["dropped_pkts"].sum()),
                      res.queues.set_index(["from", "to"]).loc[("s1", "sw"), "pause_received"])
    assert runs["responsive"][1] == 0 and runs["ignores"][1] > 0
    assert runs["ignores"][2] > 0, "the non-responsive NIC still receives PAUSE frames"
    assert runs["ignores"][0] > runs["responsive"][0], runs


def test_fig3_3_reducer_reads_the_jump_and_its_decline_against_the_rtt() -> None:
    # One seed, one connection a run; (size, one-way port delay) -> (Mb/s, drops, transfers); the
    # extractor's RTT is 2 x (delay + the 10 us access link): 0.04, 40.02 and 60.02 ms.
    rtt_ms = {"10us": 0.04, "20ms": 40.02, "30ms": 60.02}
    points = {("100KB", "10us"): (1.0, 10, 10), ("100KB", "20ms"): (2.0, 0, 10), ("100KB", "30ms"): (1.5, 0, 10),
              ("250KB", "10us"): (2.0, 30, 10), ("250KB", "20ms"): (8.0, 0, 10), ("250KB", "30ms"): (4.0, 0, 10),
              ("1MB", "10us"): (4.0, 5, 10), ("1MB", "20ms"): (9.0, 0, 10), ("1MB", "30ms"): (8.0, 0, 10),
              ("5MB", "10us"): (8.0, 5, 10), ("5MB", "20ms"): (9.5, 0, 10), ("5MB", "30ms"): (9.0, 0, 10)}
    table = pd.DataFrame([{"flows[0].app.size": size, "rtt_ms": rtt_ms[delay], "seed": 1, "transfer_bytes": 1e6,
                           "transfer_s": 8.0 / mbps, "transfers": n, "dropped_pkts": drops}
                          for (size, delay), (mbps, drops, n) in points.items()])
    out = load_module(NOUREDDINE / "reduce.py").ch3_rtt(table, [])
    assert out["ch3_rtt.shortest.f100kb_drops_per_transfer"] == 1.0
    assert out["ch3_rtt.shortest.f250kb_drops_per_transfer"] == 3.0
    assert out["ch3_rtt.shortest.f1mb_over_f250kb"] == pytest.approx(2.0)
    assert out["ch3_rtt.f250kb.jump"] == pytest.approx(4.0)
    assert out["ch3_rtt.jump_f250kb_minus_f5mb"] == pytest.approx(4.0 - 9.5 / 8.0)
    assert out["ch3_rtt.f250kb.lossfree_rtt_ms"] == pytest.approx(40.02)
    assert out["ch3_rtt.f100kb.rtt40_over_shortest"] == pytest.approx(2.0)
    assert out["ch3_rtt.f250kb.jump_left_at_longest"] == pytest.approx((4.0 - 2.0) / (8.0 - 2.0))


def test_fig3_3_extractor_reads_the_paths_round_trip_from_the_scenario(tmp_path: Path) -> None:
    """ch3_rtt_run: Fig 3.3's RTT is the path's round-trip propagation, twice the port's and
    the access link's delays of scenarios/ch3_transfers.toml (20 ms + 10 us -> 40.02 ms)."""
    text = (NOUREDDINE / "scenarios" / "ch3_transfers.toml").read_text()
    port = '[[links]]\nbetween = ["sw", "d"]\nrate = "10Mb"\ndelay = "10us"'
    assert port in text
    path = tmp_path / "rtt.toml"
    path.write_text(text.replace(port, port.replace("10us", "20ms")))
    res = nsim.run(path)
    out = load_module(NOUREDDINE / "reduce.py").ch3_rtt_run(res)
    assert list(out["rtt_ms"]) == [40.02] * len(res.flows)


def test_fig3_7_reducer_compares_red_with_drop_tail_point_by_point() -> None:
    # (queue, N) -> S1's and S2's goodput in Mb/s, the same at both file sizes.
    red = {"kind": "red", "limit": "70KB", "min_th": 7, "max_th": 21}
    goodput = {("droptail", 1): (1, 9), ("droptail", 5): (1, 9), ("red", 1): (3, 3), ("red", 5): (6, 2)}
    table = pd.DataFrame([{"links[0].queue": red if q == "red" else {"kind": "droptail", "limit": "70KB"},
                           "flows[0].repeat": n, "flows[0].app.size": size, "seed": 1, "name": name, "goodput_bps": mbps * 1e6}
                          for (q, n), (s1, s2) in goodput.items() for size in ("20KB", "1MB")
                          for name, mbps in (("s1_0", s1), ("s2", s2))])
    out = load_module(NOUREDDINE / "reduce.py").ch3_link_sharing_red(table)
    assert out["ch3_link_sharing_red.n1.s1_red_over_droptail"] == pytest.approx(3.0)
    assert out["ch3_link_sharing_red.n5.s1_share_red_minus_droptail"] == pytest.approx(0.75 - 0.1)
    assert out["ch3_link_sharing_red.total_red_over_droptail"] == pytest.approx((0.6 + 0.8) / 2)
    assert set(out["__frames__"]["ch3_link_sharing_red"]["file_kb"]) == {20.0, 1000.0}


def test_fig3_24_reducer_reads_the_margin_as_high_minus_low() -> None:
    # Per run one video row (the extractor's run columns repeat on every flow's row).
    table = pd.DataFrame([{"links[0].ethernet.high + links[0].ethernet.low": [0.8, low], "seed": seed, "name": name,
                           "video_late": late, "video_p99_s": p99}
                          for low, late, p99 in ((0.7, 0.001, 0.01), (0.1, 0.002, 0.05))
                          for seed in (1, 2) for name in ("video", "data0")])
    out = load_module(NOUREDDINE / "reduce.py").ch3_video_same_link(table)
    assert out["ch3_video_same_link.small_margin.late"] == pytest.approx(0.001)
    assert out["ch3_video_same_link.p99_large_over_small_margin"] == pytest.approx(5.0)
    frame = out["__frames__"]["ch3_video_same_link"]
    assert list(frame["margin"]) == [0.7, 0.1] and list(frame["video_p99_ms"]) == pytest.approx([50.0, 10.0])
