"""Metrics against hand-computed values (Holl 2003 §6.2.1, Bakthavachalu 2004 §4)."""

import math

import numpy as np
import pandas as pd
import pytest

import nsim  # noqa: F401  (registers df.nsim)
from nsim import metrics


def flows_table(goodputs, sent=None, dropped=None):
    """A minimal per-flow table shaped like Results.flows."""
    n = len(goodputs)
    return pd.DataFrame(
        {
            "flow": range(n),
            "name": [f"f{i}" for i in range(n)],
            "sent_pkts": sent if sent is not None else [100] * n,
            "dropped_pkts": dropped if dropped is not None else [0] * n,
            "goodput_bps": goodputs,
        }
    )


def test_jain_equal_shares_is_one():
    assert metrics.jain([5e6, 5e6, 5e6, 5e6]) == pytest.approx(1.0)


@pytest.mark.parametrize("n", [2, 4, 10])
def test_jain_one_hog_is_one_over_n(n):
    assert metrics.jain([1e6] + [0.0] * (n - 1)) == pytest.approx(1.0 / n)


def test_jain_by_hand():
    # x = (1, 2, 3): (1+2+3)^2 / (3 * (1+4+9)) = 36 / 42 = 6/7
    assert metrics.jain([1, 2, 3]) == pytest.approx(6 / 7)
    assert math.isnan(metrics.jain([0, 0]))


def test_cov_by_hand():
    # x = (2, 4, 4, 4, 5, 5, 7, 9): mean 5, population std 2 -> CoV 0.4
    assert metrics.cov([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(0.4)
    # sample std (ddof=1): sqrt(32/7) / 5
    assert metrics.cov([2, 4, 4, 4, 5, 5, 7, 9], ddof=1) == pytest.approx(math.sqrt(32 / 7) / 5)


def test_ccdf_known_sample():
    # P(X > 1) = 3/4, P(X > 2) = 1/4, P(X > 3) = 0
    c = metrics.ccdf([2, 1, 3, 2, np.nan])
    assert c["value"].tolist() == [1.0, 2.0, 3.0]
    assert c["ccdf"].tolist() == pytest.approx([0.75, 0.25, 0.0])


def test_windowed_rate_by_hand():
    # 100-byte arrivals at 0.5, 1, 1, 2.5, 3 s; W = 1 s; R(t) = 8 * bytes in (t-1, t] / 1
    t = [3.0, 0.5, 1.0, 1.0, 2.5]
    b = [100] * 5
    r = metrics.windowed_rate(t, b, 1.0, at_s=[1.0, 2.0, 3.0])
    assert r.tolist() == pytest.approx([2400.0, 0.0, 1600.0])  # 300 B, 0 B, 200 B


def test_instantaneous_rate_by_hand():
    # arrivals at 0, 1, 1 (merged: 20 B), 3 s (40 B): r = 8*20/1, 8*40/2
    r = metrics.instantaneous_rate([0, 1, 1, 3], [10, 10, 10, 40])
    assert r["time_s"].tolist() == [0.0, 1.0, 3.0]
    assert math.isnan(r["rate_bps"][0])
    assert r["rate_bps"][1:].tolist() == pytest.approx([160.0, 160.0])


def flow_series():
    """Two flows sampled every 0.5 s for 3 s: f0 delivers 1000 B per interval, f1 500 B."""
    times = np.arange(1, 7) * 0.5
    rows = [
        {"time_s": t, "flow": f, "name": f"f{f}", "delivered_bytes": nb, "throughput_bps": nb * 16.0}
        for t in times
        for f, nb in ((0, 1000), (1, 500))
    ]
    return pd.DataFrame(rows)


def test_windowed_throughput_and_mean_rate():
    w = flow_series().nsim.windowed(1.0)
    f0 = w[w["name"] == "f0"]
    # At 0.5 s only one 0.5 s interval (1000 B) is inside the 1 s window: 8000 bit/s;
    # from 1.0 s on two intervals: 16000 bit/s.
    assert f0["throughput_bps"].tolist() == pytest.approx([8000.0] + [16000.0] * 5)
    m = flow_series().nsim.mean_rate(1.0, 3.0)  # four intervals of 1000 B over 2 s
    assert m["f0"] == pytest.approx(16000.0)
    assert m["f1"] == pytest.approx(8000.0)


def test_fair_share_and_normalized_throughput():
    assert metrics.fair_share(10e6, 4) == 2.5e6
    # two flows on 10 Mb/s: fair share 5 Mb/s
    assert metrics.normalized_throughput([5e6, 2.5e6], capacity_bps=10e6).tolist() == [1.0, 0.5]
    assert metrics.normalized_throughput([3.0, 1.0]).tolist() == [1.5, 0.5]


def test_loss_rate():
    assert metrics.loss_rate(5, 100) == 0.05
    out = metrics.loss_rate([1, 0], [4, 0])
    assert out[0] == 0.25 and math.isnan(out[1])


def test_delta_fair_convergence_time():
    # B = 10 Mb/s, delta = 0.1: converged when low >= 4.5 Mb/s and high <= 5.5 Mb/s.
    t = np.array([20.0, 21.0, 22.0, 23.0, 24.0])
    low = np.array([0.1, 2.0, 4.4, 4.6, 5.0]) * 1e6
    high = np.array([9.9, 8.0, 5.6, 5.4, 5.0]) * 1e6
    assert metrics.delta_fair_convergence_time(t, low, high, 10e6, 0.1, start_s=20.0) == 3.0
    assert math.isnan(metrics.delta_fair_convergence_time(t, low / 10, high, 10e6))


def test_t_quantile_matches_tables():
    # Student t, two-sided 95 %: 12.706 (1 dof), 2.776 (4), 2.262 (9), 2.042 (30)
    for dof, q in ((1, 12.7062), (4, 2.7764), (9, 2.2622), (30, 2.0423)):
        assert metrics.t_quantile(0.975, dof) == pytest.approx(q, abs=1e-4)


def test_mean_ci_by_hand():
    # 1..5: mean 3, s = sqrt(2.5), half = 2.7764 * sqrt(2.5) / sqrt(5) = 1.9632
    mean, half = metrics.mean_ci([1, 2, 3, 4, 5])
    assert mean == 3.0
    assert half == pytest.approx(2.776445 * math.sqrt(2.5) / math.sqrt(5))


def test_accessor_on_flows_and_sweep_tables():
    df = flows_table([4e6, 4e6, 2e6], sent=[100, 100, 50], dropped=[10, 0, 5])
    assert df.nsim.kind == "flows"
    assert df.nsim.goodput()["f2"] == 2e6
    assert df.nsim.jain() == pytest.approx(100 / 108)  # (10)^2 / (3 * 36)
    assert df.nsim.loss_rate().tolist() == [0.1, 0.0, 0.1]
    sweep = pd.concat([df.assign(seed=1), df.assign(seed=2, goodput_bps=[3e6] * 3)])
    per_run = sweep.nsim.jain(by="seed")
    assert per_run[1] == pytest.approx(100 / 108) and per_run[2] == pytest.approx(1.0)
    # within each run: mean share of (4, 4, 2) Mb/s is 10/3 Mb/s
    norm = sweep.nsim.normalized(by="seed")
    assert norm.iloc[:3].tolist() == pytest.approx([1.2, 1.2, 0.6])
    assert norm.iloc[3:].tolist() == pytest.approx([1.0, 1.0, 1.0])
    s = sweep.nsim.summary("goodput_bps", by="name")
    assert list(s.columns) == ["name", "goodput_bps_mean", "goodput_bps_ci95", "goodput_bps_n"]
    assert s.set_index("name").loc["f0", "goodput_bps_mean"] == 3.5e6


def test_accessor_rejects_other_frames():
    with pytest.raises(AttributeError, match="not an nsim table"):
        pd.DataFrame({"a": [1]}).nsim
