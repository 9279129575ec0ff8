"""Bad input never panics or prints a traceback: exit 2 and a message naming file, field, reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli

GOOD = """
name = "t"
duration = "1s"
hosts = ["a", "b"]
[[links]]
between = ["a", "b"]
rate = "1Mb"
delay = "1ms"
[[flows]]
from = "a"
to = "b"
app = { kind = "cbr", rate = "100kb" }
"""

# (case id, scenario text, field path expected in the message, words expected in the reason)
CASES = [
    ("unknown top-level key", GOOD + "colour = 'red'\n", "", "unknown field `colour`"),
    ("unknown link key", GOOD.replace('rate = "1Mb"', 'rate = "1Mb"\nrat = 3'), "links[0]", "unknown field `rat`"),
    ("bad rate unit", GOOD.replace('"1Mb"', '"1Mx"'), "links[0].rate", "unknown rate unit 'Mx'"),
    ("negative rate", GOOD.replace('"1Mb"', '"-1Mb"'), "links[0].rate", "negative"),
    ("bad time unit", GOOD.replace('"1ms"', '"1 fortnight"'), "links[0].delay", "unknown time unit"),
    ("unknown node in link", GOOD.replace('["a", "b"]\nrate', '["a", "c"]\nrate'), "links[0].between[1]", "unknown node 'c'"),
    ("link to itself", GOOD.replace('["a", "b"]\nrate', '["a", "a"]\nrate'), "links[0].between", "to itself"),
    ("unknown flow source", GOOD.replace('from = "a"', 'from = "x"'), "flows[0].from", "unknown node 'x'"),
    ("no route", GOOD.replace('hosts = ["a", "b"]', 'hosts = ["a", "b", "c"]').replace('to = "b"', 'to = "c"'), "flows[0].to", "no route"),
    ("malformed toml", GOOD.replace('name = "t"', 'name = "t'), "", "malformed TOML"),
    ("duplicate node", GOOD.replace('hosts = ["a", "b"]', 'hosts = ["a", "b", "a"]'), "hosts[2]", "duplicate node name 'a'"),
    ("unknown queue kind", GOOD.replace('delay = "1ms"', 'delay = "1ms"\nqueue = { kind = "fancy" }'), "links[0].queue", "unknown variant `fancy`"),
    ("error rate above one", GOOD.replace('delay = "1ms"', 'delay = "1ms"\nerror = { kind = "uniform", rate = 1.5 }'), "links[0].error.rate", "not a probability"),
    ("drop list from zero", GOOD.replace('delay = "1ms"', 'delay = "1ms"\nerror = { kind = "drop_list", packets = [0, 3] }'), "links[0].error.packets", "numbered from 1"),
    ("no duration for endless flow", GOOD.replace('duration = "1s"', ""), "duration", "is required"),
    ("rate and interval", GOOD.replace('rate = "100kb" }', 'rate = "100kb", interval = "1ms" }'), "flows[0].app", "exactly one of `rate` or `interval`"),
    ("stop before start", GOOD.replace('to = "b"', 'to = "b"\nstart = "2s"\nstop = "1s"'), "flows[0].stop", "not after its start"),
    ("wrong type", GOOD + '[dumbbell]\npairs = "four"\n', "dumbbell.pairs", "invalid type"),
    ("duplicate link", GOOD + '[[links]]\nbetween = ["b", "a"]\nrate = "1Mb"\ndelay = "1ms"\n', "links[1]", "duplicate link"),
    ("zero packet size", GOOD.replace('rate = "100kb" }', 'rate = "100kb", size = 0 }'), "flows[0].app.size", "packet size"),
    ("jitter out of range", GOOD.replace('rate = "100kb" }', 'rate = "100kb", jitter = 2.0 }'), "flows[0].app.jitter", "not in [0, 1]"),
    ("bad route override", GOOD + '[[routing.routes]]\nat = "a"\nto = "b"\nnext = "a"\n', "routing.routes[0].next", "not a neighbour"),
]


@pytest.mark.parametrize("case,text,path,reason", CASES, ids=[c[0] for c in CASES])
def test_bad_scenario_gets_a_clear_error_and_exit_2(tmp_path: Path, case: str, text: str, path: str, reason: str) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(text)
    for cmd in (["validate", str(f)], ["run", str(f), "-o", str(tmp_path / "out")]):
        p = run_cli(*cmd)
        assert p.returncode == 2, (case, p.stdout, p.stderr)
        err = p.stderr
        assert "Traceback" not in err and "panicked" not in err, err
        assert str(f) in err, err
        if path:
            assert f"field `{path}" in err, err
        assert reason in err, err
    assert not (tmp_path / "out" / "flows.csv").exists(), "no partial output"


def test_missing_file_is_exit_2(tmp_path: Path) -> None:
    p = run_cli("run", str(tmp_path / "nope.toml"))
    assert p.returncode == 2 and "cannot read" in p.stderr and "Traceback" not in p.stderr


def test_bad_until_option_is_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "ok.toml"
    f.write_text(GOOD)
    p = run_cli("run", str(f), "--until", "soon", "-o", str(tmp_path / "o"))
    assert p.returncode == 2 and "until" in p.stderr and "Traceback" not in p.stderr


def test_malformed_toml_names_the_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(GOOD.replace('rate = "100kb"', 'rate = = "100kb"'))
    p = run_cli("validate", str(f))
    assert p.returncode == 2
    assert f"{f}:12" in p.stderr, p.stderr


@pytest.mark.parametrize("cmd", [["plot", "{d}", "--kind", "queue"], ["report", "{d}"]])
def test_commands_on_a_directory_without_results_exit_2(tmp_path: Path, cmd: list[str]) -> None:
    p = run_cli(*[c.format(d=tmp_path) for c in cmd])
    assert p.returncode == 2 and "not a results directory" in p.stderr and "Traceback" not in p.stderr


def test_unwritable_output_directory_is_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "ok.toml"
    f.write_text(GOOD)
    blocker = tmp_path / "file"
    blocker.write_text("")
    p = run_cli("run", str(f), "-o", str(blocker / "out"))
    assert p.returncode == 2 and "cannot write results" in p.stderr and "Traceback" not in p.stderr
