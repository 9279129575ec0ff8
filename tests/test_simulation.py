"""Steering a run from Python (nsim.Simulation): a run split at any pause points, or changed
by callbacks, is bit-identical to the same run in one go or with the same [[event]] tables;
live state; errors named like the scenario's."""

from __future__ import annotations

import pandas as pd
import pytest

import nsim
from conftest import ROOT

FAILOVER = ROOT / "scenarios" / "failover_longer_path.toml"
PAUSE = ROOT / "scenarios" / "flow_pause_resume.toml"


def _same(a: nsim.Results, b: nsim.Results, extra_events: int = 0) -> None:
    """Every table of two runs is identical (wall-clock figures aside); ``b`` ran
    ``extra_events`` more events."""
    assert a.summary["events"] + extra_events == b.summary["events"]
    for k in ("sim_time_s", "interrupted"):
        assert a.summary[k] == b.summary[k], k
    assert a.accounting == b.accounting
    pd.testing.assert_frame_equal(a.flows, b.flows)
    pd.testing.assert_frame_equal(a.queues, b.queues)
    assert a.series_kinds == b.series_kinds
    for kind in a.series_kinds:
        pd.testing.assert_frame_equal(a.series(kind), b.series(kind))
    pd.testing.assert_frame_equal(a.event_log, b.event_log)


@pytest.mark.parametrize("pauses", [["5s"], [0.3, "4.999s", "5s", 7.77, "10s", 14.5], [f"{t / 10}s" for t in range(1, 150, 7)]])
def test_a_run_split_at_pause_points_is_bit_identical(pauses: list) -> None:
    whole = nsim.run(FAILOVER)
    sim = nsim.Simulation(FAILOVER)
    for t in pauses:
        sim.run(until=t)
        sim.flows()  # looking changes nothing
    sim.run()
    _same(sim.results(), whole)


def test_changes_from_callbacks_equal_the_same_events_in_the_file() -> None:
    # Off the 100 ms sampling instants: at the same instant a file's change runs before the
    # sample (it was scheduled first), a callback after every event due then.
    events = nsim.Scenario.load(FAILOVER)
    for e in events.config["event"]:
        e["at"] = {"5s": "5.05s", "10s": "10.05s"}[e["at"]]
    sc = nsim.Scenario.load(FAILOVER)
    sc.config.pop("event")
    sim = nsim.Simulation(sc)
    sim.at("5.05s", lambda s: s.set_link("r1-r2", up=False))
    sim.at("10.05s", lambda s: s.set_link("r1-r2", up=True))
    sim.run(until="7s")
    sim.run()
    # The file's two changes are events of the run; a callback's changes are not.
    _same(sim.results(), events.run(), extra_events=2)


def _pauses_shifted() -> nsim.Scenario:
    """The pause scenario with its events off the 250 ms sampling instants (as above)."""
    sc = nsim.Scenario.load(PAUSE)
    for e in sc.config["event"]:
        e["at"] = f"{float(e['at'].rstrip('s')) + 0.05}s"
    return sc


def test_flow_pauses_from_python_equal_the_same_events_in_the_file() -> None:
    file = _pauses_shifted()
    sc = nsim.Scenario.load(PAUSE)
    sc.config.pop("event")
    sim = nsim.Simulation(sc)
    sim.run(until="2s")
    sim.pause_flow("tcp2", at="5.05s")  # scheduled: an event of the run, as the file's
    sim.resume_flow("tcp2", at="10.05s")
    sim.at("12.05s", lambda s: s.pause_flow("cbr"))  # made at once: not an event
    sim.at("13.05s", lambda s: s.resume_flow("cbr"))
    sim.run(until="11s")
    sim.run()
    _same(sim.results(), file.run(), extra_events=2)


def test_flow_start_and_stop_from_python_equal_the_flows_times_in_the_file() -> None:
    base = nsim.Scenario.load(PAUSE)
    base.config.pop("event")
    base.config["flows"][1]["start"] = "14s"
    file = nsim.Scenario.from_dict(base.to_dict())
    file.config["flows"][1]["start"] = "3.05s"
    file.config["flows"][2]["stop"] = "11.05s"
    sim = nsim.Simulation(base)
    sim.run(until="1s")
    sim.start_flow("tcp2", at="3.05s")
    sim.at("11.05s", lambda s: s.stop_flow("cbr"))
    sim.run()
    # Steered: tcp2's first start timer (14 s) still fires and is ignored, and the CBR's next
    # send timer after the stop fires and sends nothing; in the file neither is armed.
    _same(file.run(), sim.results(), extra_events=2)


def test_bad_flow_changes_name_the_field() -> None:
    sc = nsim.Scenario.load(PAUSE)
    sc.config["flows"][2]["start"] = "8s"
    sim = nsim.Simulation(sc)
    sim.run(until="6s")
    for call, match in [
        (lambda: sim.pause_flow("nope"), r"field `event.flow`: unknown flow 'nope'"),
        (lambda: sim.pause_flow("tcp2"), r"field `event.action`: flow 'tcp2' is already paused at 6 s \(since 5 s\)"),
        (lambda: sim.resume_flow("tcp1"), r"field `event.action`: flow 'tcp1' is not paused at 6 s"),
        (lambda: sim.resume_flow("tcp2", at="4s"), r"field `event.at`: 4 s is in the past"),
        (lambda: sim.stop_flow("cbr", at="7s"), r"field `event.at`: flow 'cbr' starts at 8 s: it cannot stop before"),
        (lambda: sim.start_flow("tcp1", at="7s"), r"field `event.action`: flow 'tcp1' already started at 0 s"),
        (lambda: sim.pause_flow("cbr", at="7s"), r"field `event.at`: flow 'cbr' starts at 8 s"),
        (lambda: sim.pause_flow("tcp1", at="20s"), r"field `event.at`: 20 s is after the run ends"),
    ]:
        with pytest.raises(nsim.ScenarioError, match=match):
            call()
    sim.start_flow("cbr", at="6.5s")
    with pytest.raises(nsim.ScenarioError, match=r"flow 'cbr' was given a new start already \(6.5 s\)"):
        sim.start_flow("cbr", at="7s")
    sim.stop_flow("tcp1", at="9s")
    with pytest.raises(nsim.ScenarioError, match=r"field `event.at`: flow 'tcp1' stops at 9 s: a resume at 9.5 s comes after"):
        sim.pause_flow("tcp1", at="8s") or sim.resume_flow("tcp1", at="9.5s")
    sim.run()
    res = sim.results()
    assert res.balanced
    f = res.flows.set_index("name")
    assert f.loc["cbr", "start_s"] == 6.5 and f.loc["tcp1", "stop_s"] == 9.0


def test_live_state_shows_the_failure_and_the_tcp_sender() -> None:
    sim = nsim.Simulation(FAILOVER)
    sim.run(until="6s")
    assert sim.now == 6.0
    links = sim.links()
    down = links[(links["from"] == "r1") & (links["to"] == "r2")].iloc[0]
    assert not down.up and down.len_pkts == 0
    flows = sim.flows().set_index("name")
    assert flows.loc["tcp", "cwnd"] > 0 and 0.02 < flows.loc["tcp", "srtt_s"] < 1.0
    assert pd.isna(flows.loc["cbr", "cwnd"])
    before = flows.loc["cbr", "delivered_bytes"]
    sim.set_link("r1->r3", rate="3Mb", limit="40p")
    sim.run(until="7s")
    assert sim.flows().set_index("name").loc["cbr", "delivered_bytes"] > before
    log = sim.results().event_log
    assert list(log["action"]) == ["down", "reroute", "set rate", "set limit"]
    assert list(log["time_s"]) == [5.0, 5.0, 6.0, 6.0]


def test_bad_changes_name_the_field() -> None:
    sim = nsim.Simulation(FAILOVER)
    sim.run(until="1s")
    with pytest.raises(nsim.ScenarioError, match=r"field `event.link`: no link 'r1-r9'"):
        sim.set_link("r1-r9", up=False)
    with pytest.raises(nsim.ScenarioError, match=r"field `event.at`: 0.5 s is in the past"):
        sim.set_link("r1-r2", up=False, at="0.5s")
    with pytest.raises(nsim.ScenarioError, match=r"field `event.min_th`: a DropTail queue has no `min_th`"):
        sim.set_link("r1-r2", min_th=5)
    with pytest.raises(nsim.ScenarioError, match=r"field `event.at`: 20 s is after the run ends"):
        sim.set_link("r1-r2", up=False, at="20s")
    with pytest.raises(ValueError, match="in the past"):
        sim.at("0.5s", lambda s: None)
    res = sim.results()
    # Only the refused queue change reached the network, and the log says it was refused.
    assert list(res.event_log["action"]) == ["set min_th (refused: a DropTail queue has no `min_th` (only `limit` can change))"]
    assert res.balanced


def test_time_plots_mark_the_changes() -> None:
    res = nsim.run(FAILOVER)
    for fig in (res.plot.throughput(), res.plot.queue(), res.plot.cwnd()):
        ax = fig.axes[0]
        marks = [line for line in ax.get_lines() if list(line.get_xdata()) in ([5.0, 5.0], [10.0, 10.0])]
        assert len(marks) == 2
        assert [t.get_text() for t in ax.texts if "r1-r2" in t.get_text()] == ["down r1-r2", "up r1-r2"]


def test_the_builder_writes_event_tables() -> None:
    sc = nsim.Scenario.load(FAILOVER)
    written = sc.config.pop("event")
    sc.event("5s", "down", link="r1-r2").event("10s", "up", link="r1-r2")
    assert sc.config["event"] == written
    sc.event("12s", "set", link="r1->r3", rate="3Mb", limit="40p")
    assert list(sc.run().event_log["action"])[-2:] == ["set rate", "set limit"]
    with pytest.raises(nsim.ScenarioError, match=r"field `event\[3\].w_q`: 2 is not in \(0, 1\]"):
        sc.event("13s", "set", link="r1->r3", w_q=2.0).validate()


def _capped() -> nsim.Scenario:
    """The failover scenario with a window cap of 5 segments on the TCP flow at r1."""
    sc = nsim.Scenario.load(FAILOVER)
    sc.middlebox("r1", {"kind": "window_cap", "segments": 5}, flows=["tcp"], name="proxy")
    return sc


def test_a_middlebox_change_from_python_equals_the_same_event_in_the_file() -> None:
    in_file = _capped().event("7.05s", "set", middlebox="proxy", segments=9)
    steered = nsim.Simulation(_capped())
    steered.set_middlebox("proxy", segments=9, at="7.05s")
    steered.run(until="3s")
    steered.run()
    res = steered.results()
    _same(res, in_file.run())
    assert list(res.event_log.query("target == 'proxy'")["action"]) == ["set segments"]
    # The cap binds: the uncapped run delivers more.
    assert res.flows.set_index("name").loc["tcp", "delivered_pkts"] < nsim.run(FAILOVER).flows.set_index("name").loc["tcp", "delivered_pkts"]


def test_bad_middlebox_changes_name_the_field() -> None:
    sim = nsim.Simulation(_capped())
    sim.run(until="1s")
    with pytest.raises(nsim.ScenarioError, match=r"field `event.middlebox`: no middlebox 'nat'"):
        sim.set_middlebox("nat", segments=3)
    with pytest.raises(nsim.ScenarioError, match=r"field `event.n`: middlebox 'proxy': a 'window_cap' middlebox has no `n`"):
        sim.set_middlebox("proxy", n=3)
    with pytest.raises(nsim.ScenarioError, match=r"field `event.segments`: must be at least 1"):
        sim.set_middlebox("proxy", segments=0)
    with pytest.raises(nsim.ScenarioError, match=r"needs at least one of delay, n, rwnd"):
        sim.set_middlebox("proxy")


def test_live_queue_counters_add_up_and_end_as_the_results() -> None:
    """The live link state's counters (ns-2 queue monitors read them): what arrived is what
    left, was dropped or waits, at any time; at the end they and the length's integral are
    the results' per-queue counts and mean length."""
    sim = nsim.Simulation(ROOT / "scenarios" / "cbr_dumbbell.toml")
    sim.run(until="3s")
    mid = sim.links()
    assert (mid.arrivals == mid.departures + mid.drops + mid.len_pkts).all()
    assert (mid.arrival_bytes == mid.departure_bytes + mid.dropped_bytes + mid.len_bytes).all()
    assert mid.drops.sum() > 0 and (mid.changed_s <= 3.0).all()
    sim.run()
    end, live = sim.now, sim.links()
    q = sim.results().queues
    pd.testing.assert_series_equal(live.arrivals, q.arrivals, check_names=False)
    pd.testing.assert_series_equal(live.departures, q.departures, check_names=False)
    pd.testing.assert_series_equal(live.drops, q.dropped_pkts, check_names=False)
    mean = (live.area_bytes_s + (end - live.changed_s) * live.len_bytes) / end
    assert mean.tolist() == pytest.approx(q.mean_len_bytes.tolist(), rel=1e-12)
