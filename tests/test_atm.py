"""ATM cell links from Python (builder and TOML give the same run; per-VC cell rows; bad
input names the field). The goyal1997 study's own tests are in test_goyal1997.py."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import nsim
from conftest import ROOT, SCENARIOS, run_cli


def lan_in_code(policy: str = "tail_drop") -> nsim.Scenario:
    """scenarios/atm_ubr_lan.toml, built in code."""
    sc = nsim.Scenario("TCP over ATM UBR, LAN (Goyal-Jain 1997)", duration="10s", seed=1)
    sc.hosts(*[f"s{i}" for i in range(5)], *[f"d{i}" for i in range(5)])
    sc.routers("sw1", "sw2")
    sc.link("sw1", "sw2", "155.52Mb", "5us", atm=dict(buffer=1000, policy=policy))
    for i in range(5):
        sc.link(f"s{i}", "sw1", "155.52Mb", "5us", atm=dict(buffer=100000))
    for i in range(5):
        sc.link("sw2", f"d{i}", "155.52Mb", "5us", atm=dict(buffer=1000))
    tcp = dict(kind="tcp", variant="sack1", window=128, packet_size="512B", initial_window=1, syn=False, tick="500ms")
    sc.flow("s{i}", "d{i}", dict(kind="bulk"), transport=tcp, name="sack{i}", repeat=5)
    return sc


def test_builder_and_toml_give_the_same_atm_run() -> None:
    a = lan_in_code().run(until="0.3s")
    b = nsim.run(SCENARIOS / "atm_ubr_lan.toml", until="0.3s")
    pd.testing.assert_frame_equal(a.flows, b.flows)
    assert a.balanced
    vcs = a.classes[a.classes["class"].str.startswith("vc")]
    assert {"vc0", "vc0/ack"} <= set(vcs["class"])
    assert (vcs["arrivals"] == vcs["departures"] + vcs["dropped_pkts"] + vcs["queued_pkts"]).all()


def test_atm_errors_name_the_field(tmp_path: Path) -> None:
    text = (SCENARIOS / "atm_ubr_lan.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('policy = "tail_drop"', 'policy = "tail_drop", z = 0.5', 1))
    p = run_cli("validate", str(bad))
    assert p.returncode == 2 and "links[0].atm.z" in p.stderr and "tail_drop policy has no z" in p.stderr, p.stderr
    bad.write_text(text.replace('policy = "tail_drop"', 'policy = "early"', 1))
    p = run_cli("validate", str(bad))
    assert p.returncode == 2 and "early" in p.stderr, p.stderr
