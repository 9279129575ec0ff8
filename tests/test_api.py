"""The Python API: building scenarios in code, loading TOML, Results frames and files."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import nsim
from conftest import SCENARIOS


def dumbbell_in_code() -> nsim.Scenario:
    sc = nsim.Scenario("CBR dumbbell", duration="20s", seed=1)
    sc.dumbbell(
        pairs=4,
        bottleneck=dict(rate="1.5Mb", delay="20ms", queue=nsim.queue("droptail", limit="25p")),
        access=dict(rate="10Mb", delay_range=["2ms", "8ms"]),
    )
    sc.flow("s{i}", "d{i}", nsim.app("cbr", rate="450kb", size="1000B"), name="cbr{i}", repeat=4, start="0.1s", stagger={"every": "0.5s"})
    sc.record(series=["queue", "flow_throughput"], interval="500ms")
    return sc


def test_builder_and_toml_give_identical_results() -> None:
    a = dumbbell_in_code().run()
    b = nsim.run(SCENARIOS / "cbr_dumbbell.toml")
    pd.testing.assert_frame_equal(a.flows, b.flows)
    pd.testing.assert_frame_equal(a.queues, b.queues)
    assert a.accounting == b.accounting


def test_results_frames_have_units_in_names_and_balance() -> None:
    res = dumbbell_in_code().run()
    assert res.balanced
    assert {"throughput_bps", "goodput_bps", "delay_p99_s", "jitter_s", "drops_overflow"} <= set(res.flows.columns)
    assert {"utilization", "mean_len_pkts", "max_len_bytes", "drops_red_early"} <= set(res.queues.columns)
    q = res.series("queue")
    assert list(q.columns[:4]) == ["time_s", "link", "from", "to"]
    assert q["len_pkts"].max() <= 25
    thr = res.series("flow_throughput")
    # Delivered bytes per interval add up to the flow totals (minus nothing: sampling covers the run).
    per_flow = thr.groupby("name")["delivered_bytes"].sum()
    totals = res.flows.set_index("name")["delivered_bytes"]
    assert (per_flow == totals[per_flow.index]).all()
    with pytest.raises(KeyError, match="not recorded"):
        res.series("tcp")


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    res = dumbbell_in_code().run()
    res.save(tmp_path, parquet=True)
    back = nsim.Results.load(tmp_path)
    pd.testing.assert_frame_equal(back.flows, res.flows, check_dtype=False)
    assert back.accounting == res.accounting
    assert back.series_kinds == res.series_kinds
    assert back.scenario["dumbbell"]["pairs"] == 4


def test_builder_errors_name_the_field() -> None:
    sc = nsim.Scenario(duration="1s").hosts("a", "b").link("a", "b", rate="fast", delay="1ms")
    with pytest.raises(nsim.ScenarioError) as e:
        sc.validate()
    assert e.value.path == "links[0].rate" and "does not start with a number" in e.value.reason
    assert e.value.file == "<python>"


def test_two_simulators_in_one_process_agree() -> None:
    sc = nsim.load(SCENARIOS / "onoff_mix.toml")
    r1, r2 = sc.run(seed=3), sc.run(seed=3)
    pd.testing.assert_frame_equal(r1.flows, r2.flows)
    pd.testing.assert_frame_equal(r1.series("queue"), r2.series("queue"))


def test_progress_callback_can_stop_a_run() -> None:
    sc = nsim.Scenario(duration="1000s").hosts("a", "b").link("a", "b", rate="100Mb", delay="1ms")
    sc.flow("a", "b", nsim.app("cbr", rate="50Mb", size="1000B"))
    calls = []
    res = sc.run(progress=lambda t, end, ev: calls.append((t, end, ev)) or len(calls) < 2)
    assert res.summary["interrupted"] and len(calls) == 2
    assert calls[0][1] == 1000.0
    assert res.summary["sim_time_s"] < 1000 and res.balanced


def test_class_table_of_a_priority_scheduler(tmp_path: Path) -> None:
    res = nsim.run(SCENARIOS / "prio_voice_over_be.toml", until="3s")
    c = res.classes
    assert len(c) >= 2 and {"link", "from", "to", "class", "arrivals", "departures", "drops_overflow", "queued_pkts"} <= set(c.columns)
    link = c["link"].iloc[0]
    q = res.queues.set_index("link").loc[link]
    per_link = c[c["link"] == link]
    # The classes of a scheduler partition its traffic.
    assert per_link["arrivals"].sum() == q["arrivals"]
    assert per_link["departures"].sum() == q["departures"]
    res.save(tmp_path)
    back = nsim.Results.load(tmp_path)
    assert list(back.classes["class"]) == list(c["class"])
