"""Goyal, Jain et al. 1997 (experiments/goyal1997): the --quick run CI does, which checks at
least one published value of each of the paper's Tables 1-4 and of its analyses of the senders
(§4.2, Fig. 2, §7.2); that the analysis rows tell the paper's TCP from ns-2's defaults; that
Table 3's satellite Reno collapse follows from the paper's Reno and synchronised starts, and not
without either; and that the study's seeds differ (random source starts, `start_jitter`)."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import nsim
from conftest import ROOT, load_module, run_cli

STUDY = ROOT / "experiments" / "goyal1997"


def test_goyal1997_quick_checks_every_table(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(STUDY), "--quick", "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = pd.read_csv(tmp_path / "results.csv")
    checked = rows[(rows["status"] != "skip") & (rows["evidence"] == "published")]
    for table in ("Table 1", "Table 2", "Table 3", "Table 4", "§4.2", "Fig. 2", "§7.2"):
        assert checked["source"].str.contains(table).any(), f"--quick checks nothing of {table}"
    assert (checked["status"].isin(["pass", "known-fail"])).all(), checked[["id", "status"]]


@pytest.mark.parametrize("scenario", ["lan15.toml", "wan15.toml", "sat5.toml"])
def test_goyal1997_seeds_differ(scenario: str) -> None:
    """The paper's sources are identical; without random start times every seed gave the same
    LAN run. With start_jitter (one segment time; one cell time on the satellite) the runs of
    every network differ from seed to seed."""
    config = tomllib.loads((STUDY / "scenarios" / scenario).read_text())
    config["flows"][0]["repeat"] = 5
    config["flows"][0]["transport"]["variant"] = "vanilla"
    until = {"lan15.toml": "0.5s", "wan15.toml": "3s", "sat5.toml": "40s"}[scenario]
    goodputs = []
    for seed in (1, 2):
        sc = nsim.Scenario.from_dict({**config, "seed": seed})
        goodputs.append(tuple(sc.run(until=until).flows["goodput_bps"].round(0)))
    assert goodputs[0] != goodputs[1]


def _satellite_reno_efficiency(buffer: int, policy: str, bugfix: bool, start_jitter: str) -> float:
    """Table 3's efficiency (§6.2: 125.2 Mb/s) of the five satellite Reno sources, seed 1."""
    config = tomllib.loads((STUDY / "scenarios" / "sat5.toml").read_text())
    config["links"][0]["atm"] = {"buffer": buffer, "policy": policy}
    config["flows"][0]["start_jitter"] = start_jitter
    config["flows"][0]["transport"].update(variant="reno", bugfix=bugfix)
    goodput = nsim.Scenario.from_dict(config).run().flows["goodput_bps"].sum()
    return float(goodput / _reduce().max_goodput_bps())


def test_goyal1997_satellite_reno_collapse_needs_bsd_reno_and_synchronised_starts() -> None:
    """Table 3: the paper's Reno reads 0.12 at 200000 cells (EPD) and 0.30 at 600000 (UBR).
    nsim gets there with 4.3BSD-Reno (`bugfix = false`, §2.3 Fig. 2) and sources starting within
    one cell time; ns-2's guarded Reno does not collapse, and at 600000 cells neither does BSD
    Reno when the starts are one segment time (526 us) apart (README, 'Randomness')."""
    cell, segment = "2.7us", "526us"
    assert _satellite_reno_efficiency(200000, "epd", False, cell) < 0.2
    assert _satellite_reno_efficiency(200000, "epd", True, cell) > 0.6
    assert _satellite_reno_efficiency(600000, "tail_drop", False, cell) < 0.35
    assert _satellite_reno_efficiency(600000, "tail_drop", False, segment) > 0.9


def _reduce() -> Any:
    return load_module(STUDY / "reduce.py")


def _analysis_table(scenario: str, extract: Any, **transport: Any) -> pd.DataFrame:
    """One run of an analysis scenario with transport overrides, as the sweep's table row."""
    config = tomllib.loads((STUDY / "scenarios" / scenario).read_text())
    config["flows"][0]["transport"].update(transport)
    res = nsim.Scenario.from_dict(config).run()
    row = res.flows.iloc[0][["timeouts", "fast_retransmits"]].to_dict()
    return pd.DataFrame([{**row, **extract(res), **{f"flows[0].transport.{k}": v for k, v in transport.items()}}])


def test_goyal1997_analysis_rows_fail_for_ns2_defaults() -> None:
    """The Fig. 2 and §7.2 rows can fail: ns-2's guarded Reno (`bugfix = true`) does one fast
    retransmit where the paper's BSD Reno does two, and floating-point congestion avoidance
    grows where the paper's integer arithmetic stalls."""
    reduce = _reduce()
    rows = [{"id": "analysis_reno.fast_retransmits", "value": 2}]
    bsd = reduce.analysis_reno(_analysis_table("reno_three_losses.toml", reduce.reno_three_losses, bugfix=False), rows)
    ns2 = reduce.analysis_reno(_analysis_table("reno_three_losses.toml", reduce.reno_three_losses, bugfix=True), rows)
    assert (bsd["analysis_reno.fast_retransmits"], ns2["analysis_reno.fast_retransmits"]) == (2, 1)
    growth = {m: reduce.analysis_ca(_analysis_table("ca_stall.toml", reduce.ca_growth, ca_increase=m))[f"analysis_ca.{m}.growth_per_rtt"]
              for m in ("integer", "float")}
    assert growth["integer"] == 0 and growth["float"] > 0.9, growth


def test_goyal1997_newreno_row_fails_for_reno() -> None:
    """§2.3's New Reno row can fail: ns-2's NewReno retransmits three losses of a 40-segment
    window in three round trips with no timeout; Reno with the same drops times out."""
    reduce = _reduce()
    drops = lambda variant: _drop_run(reduce, variant, [300, 301, 302])  # noqa: E731
    assert reduce.analysis_newreno(drops("newreno"))["analysis_newreno.rounds_minus_losses.max_abs"] == 0
    assert reduce.analysis_newreno(drops("reno"))["analysis_newreno.rounds_minus_losses.max_abs"] == math.inf


def _drop_run(reduce: Any, variant: str, packets: list[int]) -> pd.DataFrame:
    """One run of scenarios/sack_drops.toml with `variant` and the drop list `packets`."""
    config = tomllib.loads((STUDY / "scenarios" / "sack_drops.toml").read_text())
    config["flows"][0]["transport"]["variant"] = variant
    config["links"][0]["error"]["packets"] = packets
    res = nsim.Scenario.from_dict(config).run()
    return pd.DataFrame([{"timeouts": res.flows.iloc[0]["timeouts"], **reduce.sack_rounds(res)}])
