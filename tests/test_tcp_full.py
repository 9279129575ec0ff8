"""Full TCP from Python: the example scenario's connection columns, and field-named errors."""

from __future__ import annotations

import tomllib

import pytest

import nsim
from conftest import SCENARIOS


def test_fulltcp_example_reports_connection_timings() -> None:
    res = nsim.run(SCENARIOS / "fulltcp_transactions.toml")
    f = res.flows.set_index("name")
    assert set(f["transport"]) == {"tcp_full"}
    # One round trip of two 40 B segments over 1 ms + 20 ms + 1 ms (100 Mb/s, 2 Mb/s links).
    assert f.loc["rpc", "setup_s"] == pytest.approx(2 * (0.022 + 40 * 8 / 100e6 * 2 + 40 * 8 / 2e6), rel=1e-6)
    assert f.loc["rpc", "transactions"] > 10
    assert f.loc["rpc", "transaction_mean_s"] > 0.2  # waits for delayed-ACK ticks (see the scenario)


def test_minshall_without_nagle_names_the_field() -> None:
    text = (SCENARIOS / "fulltcp_transactions.toml").read_text().replace("nagle = true", "nagle = false, minshall = true")
    with pytest.raises(nsim.ScenarioError, match=r"flows\[0\]\.transport\.minshall"):
        nsim.Scenario.from_dict(tomllib.loads(text), source="t.toml").validate()
