"""Video source and host scheduler from Python: trace files, per-layer counts, per-packet
delays with the layer, deadline misses, and errors that name the field and the trace line."""

from __future__ import annotations

from pathlib import Path

import pytest

import nsim
from conftest import ROOT, SCENARIOS

TOY = ROOT / "tests" / "data" / "video" / "toy_layered.trace"


def toy_video(pacing: str = "spread") -> nsim.Scenario:
    """The toy layered trace (4499 B in 6 packets per 160 ms play) over a fast link."""
    sc = nsim.Scenario("toy video", duration="1.59s", seed=1)
    sc.hosts("a", "b")
    sc.link("a", "b", rate="100Mb", delay="1ms")
    video = nsim.app("video", sequences=[{"trace": str(TOY)}], frame_rate=25, gap="0s", pacing=pacing)
    sc.flow("a", "b", video, name="video", deadline="50ms")
    sc.config["record"] = {"packet_delays": True}
    return sc


def test_trace_arithmetic_in_a_whole_run() -> None:
    # 1.59 s holds 10 plays of 160 ms: 60 packets, 44,990 B; per play base 3 packets, middle 1,
    # enhancement 2 (toy_layered.trace), all delivered well within the deadline.
    res = toy_video().run()
    f = res.flows.iloc[0]
    assert (f["sent_pkts"], f["sent_bytes"]) == (60, 44_990)
    assert (f["sent_high_pkts"], f["sent_med_pkts"], f["sent_low_pkts"]) == (30, 10, 20)
    assert f["delivered_pkts"] == 60 and f["deadline_miss_fraction"] == 0.0
    pd_ = res.packet_delays()
    assert sorted(pd_["prio"].unique()) == [0, 1, 2]
    ccdf = nsim.metrics.ccdf(pd_["delay_s"])
    assert ccdf["ccdf"].iloc[-1] == 0.0


def test_layered_video_scenario_protects_the_base_layer() -> None:
    res = nsim.run(SCENARIOS / "video_layered_af.toml", until="10s")
    v = res.flows[res.flows["app"] == "video"]
    base_loss = 1 - v["delivered_high_pkts"] / v["sent_high_pkts"]
    enh_loss = 1 - v["delivered_low_pkts"] / v["sent_low_pkts"]
    assert (base_loss < 0.01).all() and (enh_loss > base_loss).all()
    assert v["deadline_miss_fraction"].notna().all()


def test_host_scheduler_keeps_telnet_on_time() -> None:
    res = nsim.run(SCENARIOS / "host_sched_telnet_bulk.toml", until="5s")
    telnet = res.flows.set_index("name").loc["telnet"]
    assert telnet["deadline_miss_fraction"] == 0.0
    assert list(res.classes["class"])[:3] == ["class1", "class2", "class3"]


@pytest.mark.parametrize(
    "seq, match",
    [
        ({"trace": "no/such/file.trace"}, r"sequences\[0\]\.trace.*cannot read trace file"),
        ({"synthetic": "barca", "format": "time_size"}, r"sequences\[0\]\.format.*is for trace files"),
        ({}, r"sequences\[0\]\.trace.*exactly one of"),
    ],
)
def test_bad_video_sequences_name_the_field(seq: dict[str, str], match: str) -> None:
    sc = toy_video()
    sc.config["flows"][0]["app"]["sequences"] = [seq]
    with pytest.raises(nsim.ScenarioError, match=match):
        sc.run()


def test_a_bad_trace_line_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trace"
    bad.write_text("0 I 100\n1 X 100\n")
    sc = toy_video()
    sc.config["flows"][0]["app"]["sequences"] = [{"trace": str(bad)}]
    with pytest.raises(nsim.ScenarioError, match=r"line 2: frame type 'X' is not I, P or B"):
        sc.run()


def test_deadline_is_for_udp_only() -> None:
    sc = toy_video()
    sc.flow("a", "b", nsim.app("bulk"), name="tcp", transport={"kind": "tcp"}, deadline="1s")
    with pytest.raises(nsim.ScenarioError, match=r"flows\[1\]\.deadline.*only UDP flows"):
        sc.run()
