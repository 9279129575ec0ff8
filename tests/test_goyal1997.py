"""Goyal, Jain et al. 1997 (experiments/goyal1997): the --quick run CI does, which checks at
least one published value of each of the paper's Tables 1-4, and that the study's seeds differ
(random source starts, `start_jitter`)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pandas as pd

import nsim
from conftest import ROOT, run_cli

STUDY = ROOT / "experiments" / "goyal1997"


def test_goyal1997_quick_checks_every_table(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(STUDY), "--quick", "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = pd.read_csv(tmp_path / "results.csv")
    checked = rows[(rows["status"] != "skip") & (rows["evidence"] == "published")]
    for table in ("Table 1", "Table 2", "Table 3", "Table 4"):
        assert checked["source"].str.contains(table).any(), f"--quick checks nothing of {table}"
    assert (checked["status"].isin(["pass", "known-fail"])).all(), checked[["id", "status"]]


def test_goyal1997_seeds_differ() -> None:
    """The paper's sources are identical; without random start times every seed gave the same
    run. With start_jitter the LAN runs differ from seed to seed."""
    config = tomllib.loads((STUDY / "scenarios" / "lan15.toml").read_text())
    config["flows"][0]["repeat"] = 5
    goodputs = []
    for seed in (1, 2):
        sc = nsim.Scenario.from_dict({**config, "seed": seed})
        goodputs.append(tuple(sc.run(until="0.5s").flows["goodput_bps"].round(0)))
    assert goodputs[0] != goodputs[1]
