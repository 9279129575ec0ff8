"""TCP Reno transfers through a 10 Mb/s drop-tail LAN port (Noureddine 2002 §3.2, Figs 3.2-3.4,
3.6, 3.8) against ns-2.35 on the twin scripts in reference/ns2/noureddine2002_transfers: chains of
back-to-back transfers, each a fresh connection (ns-2: a fresh agent pair), and one long transfer,
1 s minimum RTO, the port's buffer in bytes or in packets. Without start jitter the runs are
deterministic, and nsim's must be ns-2's: the same transfers, drops and transfer times."""

from __future__ import annotations

import csv
import tomllib

import pytest

import nsim
from conftest import ROOT, load_module
from nsim.sweeps import set_path

STUDY = ROOT / "experiments/noureddine2002"
SCENARIOS = STUDY / "scenarios"
NS2 = ROOT / "reference/ns2/noureddine2002_transfers"
TWIN = {"parallel": "ch3_transfers.toml", "sharing": "ch3_link_sharing.toml", "reverse": "ch3_link_sharing_rev.toml"}


def _run(scenario: str, chain: int, n: int, size: int, limit: str, delay: str | None = None) -> nsim.Results:
    config = tomllib.loads((SCENARIOS / scenario).read_text())
    set_path(config, f"flows[{chain}].repeat", n)
    set_path(config, f"flows[{chain}].app.size", f"{size}B")
    set_path(config, "links[0].queue.limit", limit)
    if delay is not None:
        set_path(config, "links[0].delay", delay)
    for flow in config["flows"]:
        flow["start_jitter"] = "0s"
    return nsim.Scenario.from_dict(config).run(seed=1)


def _chains_bps(res: nsim.Results) -> float:
    """Per chain the completed transfers' bytes over their summed durations, summed over chains:
    the study's measure, from its own extractor."""
    per = load_module(STUDY / "reduce.py").ch3_transfer_times(res)
    per = per[per["transfer_s"] > 0]
    return float((8 * per["transfer_bytes"] / per["transfer_s"]).sum())


# One chain (transfers.tcl, summary.csv): lossless and lossy points of Figs 3.2 and 3.3, both
# buffer readings, including 100 KB files through a 50 KB (48-packet) buffer.
ONE_CHAIN = [
    (100_000, "30KB", "10us"),
    (100_000, "50KB", "10us"),
    (100_000, "50p", "10us"),
    (100_000, "70KB", "10us"),
    (250_000, "50KB", "2.5ms"),
    (250_000, "50KB", "15ms"),
    (1_000_000, "30KB", "20ms"),
    (5_000_000, "50p", "1ms"),
]


@pytest.mark.parametrize("size,limit,delay", ONE_CHAIN)
def test_one_chain_matches_ns2(size: int, limit: str, delay: str) -> None:
    rows = {(int(r["size"]), r["limit"], r["delay"]): r for r in csv.DictReader((NS2 / "summary.csv").open())}
    ref = rows[(size, limit, delay)]
    res = _run("ch3_transfers.toml", 0, 1, size, limit, delay)
    assert len(res.transfers) == int(ref["transfers"])
    assert int(res.flows["dropped_pkts"].sum()) == int(ref["drops"])
    assert _chains_bps(res) == pytest.approx(8 * int(ref["bytes"]) / float(ref["seconds"]), rel=1e-6)


# Several connections (sharing.csv, seed 0 = no jitter): Fig 3.4's parallel chains, Fig 3.6's
# chains from the fast source against a long transfer from the slow one, Fig 3.8 reversed.
# These depend on each connection starting as a fresh ns-2 agent: its first segment sent
# without the header and the old connection's late ACKs not reaching it.
SEVERAL = [
    ("parallel", 2, 100_000, "30KB"),
    ("parallel", 4, 100_000, "60KB"),
    ("sharing", 1, 100_000, "70KB"),
    ("sharing", 5, 1_000_000, "70KB"),
    ("reverse", 2, 20_000, "70KB"),
    ("reverse", 8, 100_000, "70KB"),
]


@pytest.mark.parametrize("mode,n,size,limit", SEVERAL)
def test_several_connections_match_ns2(mode: str, n: int, size: int, limit: str) -> None:
    rows = {(r["mode"], int(r["n"]), int(r["size"]), r["limit"]): r
            for r in csv.DictReader((NS2 / "sharing.csv").open()) if r["seed"] == "0"}
    ref = rows[(mode, n, size, limit)]
    res = _run(TWIN[mode], 1 if mode == "reverse" else 0, n, size, limit)
    assert len(res.transfers) == int(ref["transfers"])
    assert int(res.flows["dropped_pkts"].sum()) == int(ref["drops"])
    assert _chains_bps(res) == pytest.approx(float(ref["chains_bps"]), rel=1e-6)
