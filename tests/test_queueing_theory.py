"""External references for the engine: queueing theory and exact CBR arithmetic."""

from __future__ import annotations

import statistics

import pytest

import nsim

MU = 1000.0  # service rate, packets/s: 1000 B packets on an 8 Mb/s link


def md1_scenario(load: float, seconds: int) -> nsim.Scenario:
    sc = nsim.Scenario(f"M/D/1 rho={load}", duration=f"{seconds}s")
    sc.hosts("src", "dst")
    sc.link("src", "dst", rate="8Mb", delay=0, queue=nsim.queue("droptail", limit="1000000p"))
    sc.flow("src", "dst", nsim.app("poisson", rate=load * 8e6, size="1000B"))
    return sc


@pytest.mark.parametrize("load,seconds", [(0.5, 1000), (0.9, 2500)])
def test_md1_mean_wait_matches_pollaczek_khinchine(load: float, seconds: int) -> None:
    """Poisson arrivals of fixed-size packets into one link: W_q = rho / (2 mu (1 - rho))."""
    theory = load / (2 * MU * (1 - load))
    waits = []
    for seed in (1, 2, 3, 4):
        res = md1_scenario(load, seconds).run(seed=seed)
        f = res.flows.iloc[0]
        assert f["dropped_pkts"] == 0
        waits.append(f["delay_mean_s"] - 1 / MU)  # one-way delay = wait + service (no propagation)
    mean_wait = statistics.fmean(waits)
    assert abs(mean_wait / theory - 1) < 0.03, (waits, theory)


def test_cbr_on_a_lossless_path_has_exact_throughput_and_delay() -> None:
    # 1000 B every 8 ms over two 10 Mb/s, 20 ms hops: each packet takes 2 x 0.8 ms + 2 x 20 ms.
    sc = nsim.Scenario("cbr exact", duration="10s")
    sc.hosts("a", "b").routers("r")
    sc.link("a", "r", rate="10Mb", delay="20ms").link("r", "b", rate="10Mb", delay="20ms")
    sc.flow("a", "b", nsim.app("cbr", rate="1Mb", size="1000B"))
    res = sc.run()
    f = res.flows.iloc[0]
    assert f["delay_mean_s"] == pytest.approx(0.0416, abs=1e-12)
    assert f["delay_max_s"] == pytest.approx(0.0416, abs=1e-12)
    assert f["delay_std_s"] == pytest.approx(0.0, abs=1e-12)
    assert f["jitter_s"] == pytest.approx(0.0, abs=1e-12)
    # Sent at 0, 8 ms, ..., 10.000 s (1251 packets); delivered if sent by 10 s - 41.6 ms (1245).
    assert f["sent_pkts"] == 1251 and f["delivered_pkts"] == 1245
    assert res.accounting["in_flight"] + res.accounting["queued"] == 6
    assert f["throughput_bps"] == pytest.approx(1245 * 8000 / 10.0, rel=1e-12)
    util = res.queues.set_index(["from", "to"]).loc[("a", "r"), "utilization"]
    # 1250 whole transmissions; the one that starts at exactly 10 s contributes nothing yet.
    assert util == pytest.approx(1250 * 0.0008 / 10.0, rel=1e-12)
