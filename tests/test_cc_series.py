"""The ``cc`` series: congestion-control state as a long-form DataFrame, through the Python
API, the saved files and ``nsim plot --kind cc``."""

from pathlib import Path

import pandas as pd

import nsim
from conftest import SCENARIOS, run_cli


def test_bbr_and_cubic_state_arrive_as_a_dataframe(tmp_path: Path) -> None:
    res = nsim.run(SCENARIOS / "tcp_bbr.toml", until="6s")
    cc = res.series("cc")
    assert list(cc.columns[:5]) == ["time_s", "flow", "name", "variable", "value"]
    bbr = cc[cc["name"] == "bbr"].pivot_table(index="time_s", columns="variable", values="value")
    assert set(bbr.columns) == {"state", "pacing_gain", "cwnd_gain", "btl_bw_bps", "min_rtt_s", "pacing_rate_bps"}
    # After STARTUP: PROBE_BW (state 2) with the draft's gains, BtlBw at most the 10 Mb/s link,
    # RTprop at least the 40 ms propagation delay.
    late = bbr.loc[bbr.index > 3.0]
    assert set(late["state"]) <= {2.0, 3.0} and 2.0 in set(late["state"])
    assert set(late["pacing_gain"]) <= {1.25, 0.75, 1.0}
    assert (late["btl_bw_bps"] <= 10e6 * 1.001).all()
    assert (late["min_rtt_s"] >= 0.040).all()
    cubic = cc[cc["name"] == "cubic"]
    assert set(cubic["variable"]) == {"pacing_rate_bps", "w_max_pkts"}
    res.save(tmp_path / "out")
    saved = pd.read_csv(tmp_path / "out" / "series_cc.csv")
    assert len(saved) == len(cc)
    p = run_cli("plot", str(tmp_path / "out"), "--kind", "cc")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "out" / "cc.png").stat().st_size > 0


def test_bbr3_state_and_inflight_bounds_arrive_as_a_dataframe() -> None:
    res = nsim.run(SCENARIOS / "tcp_bbr3.toml", until="8s")
    cc = res.series("cc")
    a = cc[cc["name"] == "bbr3_a"].pivot_table(index="time_s", columns="variable", values="value", dropna=False)
    assert {"state", "max_bw_bps", "bw_bps", "min_rtt_s", "inflight_hi", "inflight_lo", "pacing_rate_bps"} <= set(a.columns)
    # States are the draft's seven (0 Startup ... 6 ProbeRTT); after Startup it cycles through
    # ProbeBW's DOWN, CRUISE, REFILL and UP (2-5) on this shallow buffer, and a probe that lost
    # more than 2 % has set inflight_hi (finite).
    late = a.loc[a.index > 3.0]
    assert set(late["state"]) <= set(range(7))
    assert {2.0, 3.0, 5.0} <= set(late["state"])
    assert late["inflight_hi"].notna().any()
    assert (late["max_bw_bps"] <= 10e6 * 1.001).all()
    assert (late["min_rtt_s"] >= 0.040).all()
