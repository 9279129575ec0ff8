"""Packet hooks at nodes from Python: the builder method, the drop column, clear errors, and
the IP-ABR example scenario (docs/models/middlebox.md)."""

from __future__ import annotations

import pytest

import nsim
from conftest import SCENARIOS


def two_hops(hook: dict[str, object]) -> nsim.Scenario:
    sc = nsim.Scenario("hooked", duration="20s", seed=1)
    sc.hosts("s", "d").routers("r")
    sc.link("s", "r", rate="10Mb", delay="20ms")
    sc.link("r", "d", rate="10Mb", delay="30ms")
    sc.flow("s", "d", nsim.app("cbr", rate="100kb", size="500B"), name="udp", stop="15s")
    sc.middlebox("r", hook, flows=["udp"])
    return sc


def test_drop_every_is_counted_in_its_own_column() -> None:
    res = two_hops({"kind": "drop_every", "n": 5}).run()
    f = res.flows.iloc[0]
    assert f["drops_middlebox"] == f["sent_pkts"] // 5
    assert res.balanced


def test_unknown_node_is_a_clear_error() -> None:
    sc = two_hops({"kind": "delay", "delay": "1ms"})
    sc.config["middlebox"][0]["node"] = "nowhere"
    with pytest.raises(nsim.ScenarioError, match=r"middlebox\[0\]\.node.*unknown node 'nowhere'"):
        sc.validate()


def test_ip_abr_example_evens_out_flows_of_different_rtt() -> None:
    """scenarios/ipabr_satellite.toml: 8 Reno flows with 4..100 ms access delays over a GEO
    hop. With the proxy every flow gets close to its share; without it they spread out."""
    sc = nsim.load(SCENARIOS / "ipabr_satellite.toml")
    with_proxy = sc.run().flows["window0_goodput_bps"]
    del sc.config["middlebox"]
    without = sc.run().flows["window0_goodput_bps"]
    spread = lambda x: x.std(ddof=0) / x.mean()  # noqa: E731
    assert spread(with_proxy) < 0.5 * spread(without), (with_proxy.tolist(), without.tolist())
