"""Ethernet ports and 802.3x PAUSE (docs/models/ethernet.md): the example scenario from the
CLI and the Python builder, a bad table names its field, and chapter 3 of the noureddine2002
study passes its --quick reproduction (seed 002)."""

from __future__ import annotations

from pathlib import Path

import pytest

import nsim
from conftest import ROOT, run_cli

SCENARIO = ROOT / "scenarios" / "ethernet_pause.toml"


def test_example_loses_nothing_and_reports_pause() -> None:
    res = nsim.run(SCENARIO)
    q = res.queues.set_index(["from", "to"])
    assert res.flows["dropped_pkts"].sum() == 0
    assert q.loc[("sw", "s"), "pause_sent"] > 0
    assert q.loc[("s", "sw"), "pause_received"] == q.loc[("sw", "s"), "pause_sent"] + q.loc[("sw", "s"), "resume_sent"]
    assert q.loc[("s", "sw"), "paused_s"] > 1.0
    assert set(res.classes["class"]) == {"cos0"}


def test_python_builder_selects_ethernet() -> None:
    scn = (nsim.Scenario("eth", duration="1s").hosts("s", "d").routers("sw")
           .link("s", "sw", "100Mb", "10us", ethernet=dict(buffer="10MB"), reverse_ethernet=dict(buffer="500KB"))
           .link("sw", "d", "10Mb", "10us", ethernet=dict(buffer="70KB", pause="simple"), reverse_ethernet=dict(buffer="10MB"))
           .flow("s", "d", app=dict(kind="cbr", rate="50Mb", size="1000B"), stop="0.1s"))
    res = nsim.run(scn)
    assert res.flows["dropped_pkts"].sum() == 0 and res.queues["pause_sent"].sum() > 0


@pytest.mark.parametrize("table, field", [
    ('{ buffer = "70KB", high = 0.5, low = 0.6 }', "links[1].ethernet.low"),
    ('{ buffer = "70KB", quanta = 10 }', "links[1].ethernet.quanta"),
    ('{ buffer = "70KB", pause = "sometimes" }', "ethernet"),
])
def test_bad_ethernet_table_names_its_field(tmp_path: Path, table: str, field: str) -> None:
    text = SCENARIO.read_text().replace('ethernet = { buffer = "70KB", framing = true, pause = "simple", high = 0.8, low = 0.7 }',
                                        f"ethernet = {table}")
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    r = run_cli("run", str(bad), "-o", str(tmp_path / "out"))
    assert r.returncode == 2 and field in r.stderr, r.stderr


def test_noureddine2002_chapter3_quick_passes(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(ROOT / "experiments" / "noureddine2002"), "--chapter", "3", "--quick",
                "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stdout + r.stderr
