"""The `nsim` command on the example scenarios: files, summary, help, determinism, traces."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from conftest import SCENARIOS, run_cli

EXAMPLES = sorted(p for p in SCENARIOS.glob("*.toml") if not p.name.startswith("bench_"))


@pytest.mark.parametrize("scenario", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_runs_and_balances(tmp_path: Path, scenario: Path) -> None:
    p = run_cli("run", str(scenario), "-o", str(tmp_path), "--until", "2s")
    assert p.returncode == 0, p.stderr
    assert "packets:" in p.stdout
    summary = json.loads((tmp_path / "summary.json").read_text())
    a = summary["accounting"]
    assert a["created"] == a["delivered"] + a["dropped"] + a["queued"] + a["in_flight"]
    assert a["created"] > 0
    flows = pd.read_csv(tmp_path / "flows_all.csv")  # every column (flows.csv: those that apply)
    queues = pd.read_csv(tmp_path / "queues.csv")
    assert len(flows) > 0 and len(queues) > 0
    # Per-flow drops add up to the network-wide drops of data and ack packets, except the
    # flooded copies MAC learning switches discard (`filtered`: no flow's and no link's loss).
    lost = a["dropped"] - a["dropped_by_reason"].get("filtered", 0)
    assert flows["dropped_pkts"].sum() + flows["ack_dropped_pkts"].sum() == lost
    assert queues["dropped_pkts"].sum() == lost
    # Per link: every arrival departs, is dropped before transmission, or is still queued
    # (checked where nothing drops a packet after it departs: no error model, and no failure
    # of the link while a packet was on its wire).
    after_departure = queues["drops_error_model"] + queues.get("drops_link_down", 0)
    q = queues[after_departure == 0]
    assert (q["arrivals"] == q["departures"] + q["dropped_pkts"] + q["queued_pkts"]).all()


def test_help_everywhere() -> None:
    for cmd in ([], ["run"], ["validate"], ["schema"]):
        p = run_cli(*cmd, "--help")
        assert p.returncode == 0 and "Usage:" in p.stdout, (cmd, p.stderr)


def test_same_seed_gives_identical_files_and_another_seed_changes_random_ones(tmp_path: Path) -> None:
    sc = SCENARIOS / "onoff_mix.toml"
    outs = []
    for i, seed in enumerate([7, 7, 8]):
        out = tmp_path / f"o{i}"
        p = run_cli("run", str(sc), "-o", str(out), "--seed", str(seed), "-q")
        assert p.returncode == 0, p.stderr
        outs.append(out)
    for name in ("flows.csv", "queues.csv"):
        a, b, c = ((o / name).read_bytes() for o in outs)
        assert a == b, f"{name} differs between two runs with seed 7"
        assert a != c, f"{name} identical for seeds 7 and 8: randomness not seeded"


def test_parquet_and_trace_on_request(tmp_path: Path) -> None:
    p = run_cli("run", str(SCENARIOS / "cbr_dumbbell.toml"), "-o", str(tmp_path), "--until", "1s", "--trace", "--parquet", "-q")
    assert p.returncode == 0, p.stderr
    assert pd.read_parquet(tmp_path / "flows.parquet").equals(pd.read_parquet(tmp_path / "flows.parquet"))
    lines = (tmp_path / "trace.tr").read_text().splitlines()
    ops = {l.split()[0] for l in lines}
    assert {"+", "-", "r"} <= ops
    # ns-2 column layout: op time from to type size flags fid src.port dst.port seq uid
    f = lines[0].split()
    assert len(f) == 12 and f[4] == "cbr" and f[5] == "1000" and f[6] == "-------"
    assert "." in f[8] and "." in f[9]
    summary = json.loads((tmp_path / "summary.json").read_text())
    a = summary["accounting"]
    n_r_at_dest = sum(1 for l in lines if l.startswith("r ") and l.split()[3] == l.split()[9].split(".")[0])
    assert n_r_at_dest == a["delivered"]
    assert sum(1 for l in lines if l.startswith("d ")) == a["dropped"]


def test_schema_is_json_with_the_top_level_keys() -> None:
    p = run_cli("schema")
    schema = json.loads(p.stdout)
    assert {"flows", "links", "dumbbell", "duration"} <= set(schema["properties"])


def test_bench_reports_rates_for_a_small_scenario() -> None:
    p = run_cli("bench", str(SCENARIOS / "cbr_dumbbell.toml"))
    assert p.returncode == 0, p.stderr
    assert "events/s" in p.stdout and "cbr_dumbbell.toml" in p.stdout
