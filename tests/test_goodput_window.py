"""Application goodput over a time window (``record.windows``, the ``goodput`` series and
``Results.goodput_window``), checked against CBR arithmetic and the Mathis et al. bound."""

from __future__ import annotations

from pathlib import Path

import pytest

import nsim
from nsim.analytic import mathis_bps


def cbr_line(windows: list[list[str]] | None = None, series: bool = False) -> nsim.Scenario:
    """One 92 B / 8 ms CBR flow (92 kb/s, Holl's call) over an uncongested 10 Mb/s line."""
    rec: dict[str, object] = {}
    if windows:
        rec["windows"] = windows
    if series:
        rec.update(series=["goodput"], interval="500ms")
    return nsim.Scenario.from_dict({
        "name": "cbr line", "duration": "6s", "hosts": ["a", "b"],
        "links": [{"between": ["a", "b"], "rate": "10Mb", "delay": "5ms"}],
        # Starts off the 8 ms grid so that no delivery falls on a window end.
        "flows": [{"name": "call", "from": "a", "to": "b", "start": "0.0013s",
                   "app": {"kind": "cbr", "interval": "8ms", "size": "92B"}}],
        "record": rec,
    })


def test_cbr_goodput_over_a_window_is_rate_times_window() -> None:
    res = cbr_line([["2s", "5s"], ["0s", "1s"]]).run()
    w = res.goodput_window(2.0, 5.0)
    # 3 s / 8 ms = 375 datagrams of 92 B: exactly 92 kb/s.
    assert w["goodput_bytes"].tolist() == [375 * 92]
    assert w["goodput_bps"].tolist() == [pytest.approx(92_000.0, rel=1e-12)]
    # Window from time zero: the first delivery is at 1.3 + 5 + 0.0736 ms, so 125 in [0, 1] s.
    assert res.goodput_window(0.0, 1.0)["goodput_bytes"].tolist() == [125 * 92]
    assert res.flows["window0_goodput_bps"].tolist() == [pytest.approx(92_000.0, rel=1e-12)]
    assert set(res.windows.columns) >= {"window", "t0_s", "t1_s", "flow", "name", "goodput_bytes", "goodput_bps"}


def test_goodput_series_is_a_running_total_and_serves_windows() -> None:
    res = cbr_line(series=True).run()
    g = res.series("goodput")
    assert g["goodput_bytes"].is_monotonic_increasing
    # Each 500 ms interval holds 62 or 63 datagrams (62.5 on average).
    assert set(g["goodput_bps"].iloc[1:].round()) <= {round(62 * 92 * 8 / 0.5), round(63 * 92 * 8 / 0.5)}
    assert res.goodput_window(2.0, 5.0)["goodput_bytes"].tolist() == [375 * 92]


def test_missing_window_says_what_to_record() -> None:
    res = cbr_line([["2s", "5s"]]).run()
    with pytest.raises(KeyError, match=r"record\.windows"):
        res.goodput_window(1.0, 2.5)


def test_window_past_the_end_is_a_config_error() -> None:
    with pytest.raises(nsim.ScenarioError, match=r"record\.windows\[0\].*after the run ends"):
        cbr_line([["2s", "7s"]]).run()
    with pytest.raises(nsim.ScenarioError, match=r"record\.windows\[0\].*end after it starts"):
        cbr_line([["3s", "3s"]]).run()


def test_a_run_stopped_before_a_window_closes_reports_it_empty() -> None:
    res = cbr_line([["2s", "5s"]]).run(until="3s")
    assert res.goodput_window(2.0, 5.0)["goodput_bytes"].isna().all()


def test_windows_survive_save_and_load(tmp_path: Path) -> None:
    res = cbr_line([["2s", "5s"]]).run()
    res.save(tmp_path)
    back = nsim.Results.load(tmp_path)
    assert back.goodput_window(2.0, 5.0)["goodput_bytes"].tolist() == [375 * 92]


def bulk_tcp(loss: float) -> nsim.Scenario:
    """One NewReno bulk flow, 1000 B segments, RTT 100 ms, random data loss ``loss``."""
    return nsim.Scenario.from_dict({
        "name": "tcp under random loss", "duration": "300s", "seed": 3, "hosts": ["a", "b"],
        "links": [{"between": ["a", "b"], "rate": "100Mb", "delay": "50ms",
                   "queue": {"kind": "droptail", "limit": 1000}, "error": {"kind": "uniform", "rate": loss}}],
        "flows": [{"name": "bulk", "from": "a", "to": "b", "app": {"kind": "bulk"},
                   "transport": {"kind": "tcp", "variant": "newreno", "window": 10_000, "packet_size": "1000B"}}],
        "record": {"windows": [["100s", "300s"]], "series": ["goodput"], "interval": "10s"},
    })


def test_tcp_windowed_goodput_is_the_series_difference_and_near_mathis() -> None:
    p = 0.005
    res = bulk_tcp(p).run()
    win = res.goodput_window(100.0, 300.0)
    g = res.series("goodput").set_index("time_s")["goodput_bytes"]
    assert win["goodput_bytes"].iloc[0] == g[300.0] - g[100.0]
    # Mathis et al. 1997: 8 MSS / RTT * sqrt(3/2) / sqrt(p) for periodic loss; random loss
    # and timeouts lower it (Padhye et al. 1998), so a band below the bound, not equality.
    bound = mathis_bps(1000, 0.1, p)
    assert 0.55 * bound < win["goodput_bps"].iloc[0] < 1.1 * bound
