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
