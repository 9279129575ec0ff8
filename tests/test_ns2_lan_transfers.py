"""Back-to-back TCP Reno transfers through a 10 Mb/s drop-tail LAN port (Noureddine 2002
§3.2.1, Figs 3.2 and 3.3) against ns-2.35 on the twin script
reference/ns2/noureddine2002_transfers/transfers.tcl: each transfer a fresh connection, 1 s
minimum RTO, the port's buffer in bytes or in packets. ns-2 is deterministic here; nsim's seed
moves only the flow's start (< 10 ms)."""

from __future__ import annotations

import copy
import csv
import tomllib
from pathlib import Path

import pytest

import nsim
from nsim.sweeps import set_path

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "experiments/noureddine2002/scenarios/ch3_transfers.toml"
NS2 = ROOT / "reference/ns2/noureddine2002_transfers/summary.csv"

# (file bytes, port buffer, port delay): lossless and lossy points of both figures, both buffer
# readings, including the boundary case of 100 KB files through a 50 KB (48-packet) buffer.
POINTS = [
    (100_000, "30KB", "10us"),
    (100_000, "50KB", "10us"),
    (100_000, "50p", "10us"),
    (100_000, "70KB", "10us"),
    (250_000, "50KB", "2.5ms"),
    (250_000, "50KB", "15ms"),
    (1_000_000, "30KB", "20ms"),
    (5_000_000, "50p", "1ms"),
]


def _ns2() -> dict[tuple[int, str, str], dict[str, str]]:
    return {(int(r["size"]), r["limit"], r["delay"]): r for r in csv.DictReader(NS2.open())}


@pytest.mark.parametrize("size,limit,delay", POINTS)
def test_transfers_match_ns2(size: int, limit: str, delay: str) -> None:
    ref = _ns2()[(size, limit, delay)]
    config = copy.deepcopy(tomllib.loads(SCENARIO.read_text()))
    set_path(config, "flows[0].app.size", f"{size}B")
    set_path(config, "links[0].queue.limit", limit)
    set_path(config, "links[0].delay", delay)
    res = nsim.Scenario.from_dict(config).run(seed=1)
    t = res.transfers
    nsim_bps = 8 * t["bytes"].sum() / t["duration_s"].sum()
    ns2_bps = 8 * int(ref["bytes"]) / float(ref["seconds"])
    assert nsim_bps == pytest.approx(ns2_bps, rel=0.01), (nsim_bps, ns2_bps)
    assert abs(len(t) - int(ref["transfers"])) <= 1
    assert int(res.flows["dropped_pkts"].sum()) == int(ref["drops"])
