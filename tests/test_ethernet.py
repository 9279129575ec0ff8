"""Ethernet ports and 802.3x PAUSE (docs/models/ethernet.md): the example scenario from the
CLI and the Python builder, a bad table names its field, and chapter 3 of the noureddine2002
study passes its --quick reproduction (Noureddine 2002)."""

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


def test_a_non_responsive_sender_overflows_the_port_it_congests(tmp_path: Path) -> None:
    """Noureddine 2002 Fig 3.19's set-up: under simple back-pressure s1 ignores PAUSE, so the port it
    congests overflows (drops) although it pauses s1. The thesis's claim that s2's flows then
    lose heavily is not what nsim shows (README.md): s1's Reno flows back off on their losses,
    the queue falls below the low watermark, and s2 is blocked less than with a responsive s1."""
    base = (ROOT / "experiments" / "noureddine2002" / "scenarios" / "ch3_destination.toml").read_text()
    base = base.replace('duration = "21s"', 'duration = "6s"')
    nic = 'ethernet = { buffer = "10MB" }\nreverse_ethernet = { buffer = "500KB" }'
    assert nic in base
    runs = {}
    for name, text in {"responsive": base, "ignores": base.replace(nic, nic.replace('"10MB"', '"10MB", ignore_pause = true'), 1)}.items():
        path = tmp_path / f"{name}.toml"
        path.write_text(text)
        res = nsim.run(path)
        f = res.flows.set_index("name")
        done = f[f.index.str.startswith("f32k_")].dropna(subset=["completion_s"])
        runs[name] = (float((32_000 * 8 / done["completion_s"]).mean()) if len(done) else 0.0,
                      int(f[f.index.str.startswith("s1_")]["dropped_pkts"].sum()),
                      res.queues.set_index(["from", "to"]).loc[("s1", "sw"), "pause_received"])
    assert runs["responsive"][1] == 0 and runs["ignores"][1] > 0
    assert runs["ignores"][2] > 0, "the non-responsive NIC still receives PAUSE frames"
    assert runs["ignores"][0] > runs["responsive"][0], runs
