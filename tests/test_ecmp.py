"""ECMP from Python (issue 27): the leaf-spine example as docs/guide/dynamics.md shows it."""

from __future__ import annotations

from pathlib import Path

import nsim

ROOT = Path(__file__).resolve().parent.parent


def test_leaf_spine_example_reports_paths_and_avoids_the_failed_link() -> None:
    res = nsim.run(ROOT / "scenarios" / "leaf_spine_ecmp.toml")
    paths = res.flows["path"].str.split(">")
    assert (paths.str.len() == 5).all(), "host > leaf > spine > leaf > host"
    to_leaf2 = paths[paths.str[3] == "leaf2"]
    assert len(to_leaf2) == 8
    assert "spine0" not in set(to_leaf2.str[2]), "leaf2-spine0 failed at 1 s"
    assert paths.str[2].nunique() > 1, "flows spread over spines"
    assert list(res.event_log["action"]) == ["down", "reroute"]
    acc = res.accounting
    assert acc["created"] == acc["delivered"] + acc["dropped"] + acc["queued"] + acc["in_flight"]
