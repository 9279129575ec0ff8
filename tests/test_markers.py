"""Colour markers (RFC 2697 srTCM, RFC 2698 trTCM) chosen from Python: the builder gives the
same run as the TOML example, and bad parameters name the field and the RFC rule."""

from __future__ import annotations

import pandas as pd
import pytest

import nsim
from conftest import SCENARIOS


def srtcm_edge(mode: str = "aware") -> nsim.Scenario:
    """scenarios/colour_marker_srtcm.toml, built in code."""
    sc = nsim.Scenario("colour marker: srTCM into AF", duration="30s", seed=1)
    sc.hosts("gold", "bulk", "dst").routers("edge", "core")
    sc.link("gold", "edge", rate="10Mb", delay="1ms")
    sc.link("bulk", "edge", rate="10Mb", delay="1ms")
    marker = nsim.queue("srtcm", cir="1.1Mb", cbs="10KB", ebs="10KB", mode=mode, queue=nsim.queue("droptail", limit=100))
    sc.link("edge", "core", rate="10Mb", delay="1ms", queue=marker)
    sc.link("core", "dst", rate="1.2Mb", delay="10ms", queue=nsim.queue("af", limit=60, mode="hard", thresholds=[1.0, 0.6, 0.3]))
    sc.flow("gold", "dst", nsim.app("poisson", rate="1Mb", size="500B"), name="gold", prio=0)
    sc.flow("bulk", "dst", nsim.app("poisson", rate="0.5Mb", size="500B"), name="bulk", prio=2)
    return sc


def test_srtcm_builder_matches_the_toml_example() -> None:
    a = srtcm_edge().run()
    b = nsim.run(SCENARIOS / "colour_marker_srtcm.toml")
    pd.testing.assert_frame_equal(a.flows, b.flows)
    loss = (a.flows.set_index("name")["dropped_pkts"] / a.flows.set_index("name")["sent_pkts"])
    assert loss["gold"] < 0.01 < 0.5 < loss["bulk"]


def test_trtcm_parameters_follow_rfc_2698() -> None:
    sc = srtcm_edge()
    sc.config["links"][2]["queue"] = nsim.queue("trtcm", pir="1Mb", pbs="10KB", cir="2Mb", cbs="5KB")
    with pytest.raises(nsim.ScenarioError, match=r"links\[2\]\.queue.*pir: must be at least cir"):
        sc.run()


def test_tcp_ds_from_python_and_its_threshold_rules() -> None:
    """scenarios/tcp_ds_af.toml loads and runs from Python; a zero HIGH threshold names the field."""
    res = nsim.run(SCENARIOS / "tcp_ds_af.toml")
    small = res.flows.set_index("name").loc["small"]
    assert small["dropped_pkts"] == 0
    sc = nsim.load(SCENARIOS / "tcp_ds_af.toml")
    sc.config["flows"][0]["transport"]["tcp_ds"]["high"] = 0
    with pytest.raises(nsim.ScenarioError, match=r"flows\[0\]\.transport\.tcp_ds\.high.*at least 1"):
        sc.run()
