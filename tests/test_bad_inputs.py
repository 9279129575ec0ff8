"""Bad input never panics or prints a traceback: exit 2 and a message naming file, field, reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import TWO_HOSTS_CBR as GOOD
from conftest import run_cli

# (case id, scenario text, field path expected in the message, words expected in the reason)
CASES = [
    ("unknown top-level key", GOOD + "colour = 'red'\n", "", "unknown field `colour`"),
    ("unknown link key", GOOD.replace('rate = "1Mb"', 'rate = "1Mb"\nrat = 3'), "links[0]", "unknown field `rat`"),
    ("bad rate unit", GOOD.replace('"1Mb"', '"1Mx"'), "links[0].rate", "unknown rate unit 'Mx'"),
    ("negative rate", GOOD.replace('"1Mb"', '"-1Mb"'), "links[0].rate", "negative"),
    ("bad time unit", GOOD.replace('"1ms"', '"1fortnight"'), "links[0].delay", "unknown time unit"),
    ("unknown node in link", GOOD.replace('["a", "b"]\nrate', '["a", "c"]\nrate'), "links[0].between[1]", "unknown node 'c'"),
    ("link to itself", GOOD.replace('["a", "b"]\nrate', '["a", "a"]\nrate'), "links[0].between", "to itself"),
    ("unknown flow source", GOOD.replace('from = "a"', 'from = "x"'), "flows[0].from", "unknown node 'x'"),
    ("no route", GOOD.replace('hosts = ["a", "b"]', 'hosts = ["a", "b", "c"]').replace('to = "b"', 'to = "c"'), "flows[0].to", "no route"),
    ("malformed toml", GOOD.replace('name = "t"', 'name = "t'), "", "malformed TOML"),
    ("duplicate node", GOOD.replace('hosts = ["a", "b"]', 'hosts = ["a", "b", "a"]'), "hosts[2]", "duplicate node name 'a'"),
    ("unknown queue kind", GOOD.replace('delay = "1ms"', 'delay = "1ms"\nqueue = { kind = "fancy" }'), "links[0].queue", "unknown variant `fancy`"),
    ("unknown tie order", GOOD + "[run]\ntie_order = 'ns3'\n", "run.tie_order", "unknown variant `ns3`, expected `fifo` or `ns2`"),
    ("error rate above one", GOOD.replace('delay = "1ms"', 'delay = "1ms"\nerror = { kind = "uniform", rate = 1.5 }'), "links[0].error.rate", "not a probability"),
    ("drop list from zero", GOOD.replace('delay = "1ms"', 'delay = "1ms"\nerror = { kind = "drop_list", packets = [0, 3] }'), "links[0].error.packets", "numbered from 1"),
    ("no duration for endless flow", GOOD.replace('duration = "1s"', ""), "duration", "is required"),
    ("rate and interval", GOOD.replace('rate = "100kb" }', 'rate = "100kb", interval = "1ms" }'), "flows[0].app", "exactly one of `rate` or `interval`"),
    ("stop before start", GOOD.replace('to = "b"', 'to = "b"\nstart = "2s"\nstop = "1s"'), "flows[0].stop", "not after its start"),
    ("wrong type", GOOD + '[dumbbell]\npairs = "four"\n', "dumbbell.pairs", "invalid type"),
    ("duplicate link", GOOD + '[[links]]\nbetween = ["b", "a"]\nrate = "1Mb"\ndelay = "1ms"\n', "links[1]", "duplicate link"),
    ("zero packet size", GOOD.replace('rate = "100kb" }', 'rate = "100kb", size = 0 }'), "flows[0].app.size", "packet size"),
    ("jitter out of range", GOOD.replace('rate = "100kb" }', 'rate = "100kb", jitter = 2.0 }'), "flows[0].app.jitter", "not in [0, 1]"),
    ("negative telnet gap", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp" }\napp = { kind = "telnet", gap = { dist = "exponential", mean = "-200ms" } }'),
     "flows[0].app.gap.mean", "negative"),
    ("negative http think", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp" }\napp = { kind = "http", version = "1.1", think = { dist = "uniform", mean = "-1s" } }'),
     "flows[0].app.think.mean", "negative"),
    ("unknown rto clock", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", rto_clock = "bsd" }\napp = { kind = "bulk" }'),
     "flows[0].transport", "unknown variant `bsd`"),
    ("bugfix not a bool", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", bugfix = "no" }\napp = { kind = "bulk" }'),
     "flows[0].transport", "invalid type"),
    ("bad route override", GOOD + '[[routing.routes]]\nat = "a"\nto = "b"\nnext = "a"\n', "routing.routes[0].next", "not a neighbour"),
    # Issue 29 item 11: keys that were accepted and ignored.
    ("unknown key in a bulk app", GOOD.replace('app = { kind = "cbr", rate = "100kb" }',
                                               'transport = { kind = "tcp" }\napp = { kind = "bulk", rate = "1Mb" }'),
     "flows[0].app", "unknown field `rate`"),
    ("unknown key in a udp transport", GOOD.replace('app = { kind = "cbr", rate = "100kb" }',
                                                    'app = { kind = "cbr", rate = "100kb" }\ntransport = { kind = "udp", window = 3 }'),
     "flows[0].transport", "unknown field `window`"),
    # Issue 26: the new congestion controls and the step-marking queue.
    ("dctcp without ecn", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", variant = "dctcp" }\napp = { kind = "bulk" }'),
     "flows[0].transport.ecn", "variant 'dctcp' reacts to ECN marks"),
    ("cubic beta out of range", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", variant = "cubic", cubic = { beta = 1.2 } }\napp = { kind = "bulk" }'),
     "flows[0].transport.cubic", "0 < beta < 1"),
    ("bbr without pacing", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", variant = "bbr", pacing = false }\napp = { kind = "bulk" }'),
     "flows[0].transport.pacing", "variant 'bbr' sets its sending rate by pacing"),
    ("bbr gain not above 1", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", variant = "bbr", bbr = { high_gain = 0.5 } }\napp = { kind = "bulk" }'),
     "flows[0].transport.bbr.high_gain", "must be above 1"),
    ("bbr send quantum zero", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", variant = "bbr", bbr = { send_quantum = 0 } }\napp = { kind = "bulk" }'),
     "flows[0].transport.bbr.send_quantum", "at least 1 packet"),
    ("bbr3 beta not a fraction", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", variant = "bbr3", bbr3 = { beta = 1.5 } }\napp = { kind = "bulk" }'),
     "flows[0].transport.bbr3.beta", "must be between 0 and 1"),
    ("pacing rate without pacing", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", variant = "reno", pacing_rate = "1Mb" }\napp = { kind = "bulk" }'),
     "flows[0].transport.pacing_rate", "has no effect without pacing = true"),
    ("pacing quantum zero", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", pacing = true, pacing_quantum = 0 }\napp = { kind = "bulk" }'),
     "flows[0].transport.pacing_quantum", "at least 1 packet"),
    ("step marking threshold above the limit", GOOD.replace('delay = "1ms"', 'delay = "1ms"\nqueue = { kind = "step_mark", limit = "50p", k = "60p" }'),
     "links[0].queue", "must be below the limit"),
    ("delay_growth not a bool", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", variant = "reno", delay_growth = 1 }\napp = { kind = "bulk" }'),
     "flows[0].transport.delay_growth", "invalid type: integer `1`, expected a boolean"),
    ("vegas fine_retransmit not a bool", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", variant = "vegas", vegas = { fine_retransmit = "yes" } }\napp = { kind = "bulk" }'),
     "flows[0].transport.vegas.fine_retransmit", "invalid type: string \"yes\", expected a boolean"),
    ("vegas packet no bigger than its header", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", variant = "vegas", packet_size = "40B" }\napp = { kind = "bulk" }'),
     "flows[0].transport.packet_size", "leaves no payload after the 40 B header"),
    ("vegas SYN with ns-2 sizes", GOOD.replace('app = { kind = "cbr", rate = "100kb" }', 'transport = { kind = "tcp", variant = "vegas", syn = true }\napp = { kind = "bulk" }'),
     "flows[0].transport.syn", "ns-2's Vegas sends no SYN"),
    ("three names in between", GOOD.replace('hosts = ["a", "b"]', 'hosts = ["a", "b", "c"]').replace('["a", "b"]\nrate', '["a", "b", "c"]\nrate'),
     "links[0].between", "expected the two endpoints of the link, got 3 names"),
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


# Checked in process (CliRunner) to keep the suite fast: (case id, text, field path, line,
# words expected in the reason).
STRICT_CASES = [
    ("unitless time string", GOOD.replace('duration = "1s"', 'duration = "20"'), "duration", 3, "has no unit"),
    ("pkts is not a unit", GOOD.replace('delay = "1ms"', 'delay = "1ms"\nqueue = { kind = "droptail", limit = "25pkts" }'),
     "links[0].queue.limit", 9, "unknown queue limit unit 'pkts'"),
    ("space inside", GOOD.replace('delay = "1ms"', 'delay = "1ms"\nqueue = { kind = "droptail", limit = "25 p" }'),
     "links[0].queue.limit", 9, "contains a space"),
    ("unitless rate string", GOOD.replace('"1Mb"', '"1000000"'), "links[0].rate", 7, "has no unit"),
    ("cwnd series without TCP", GOOD + '[record]\nseries = ["queue", "cwnd"]\n', "record.series[1]", 14,
     "need at least one TCP, TFRC or STP flow"),
    ("unknown node has its line", GOOD.replace('["a", "b"]\nrate', '["a", "c"]\nrate'), "links[0].between[1]", 6,
     "unknown node 'c'"),
    ("huge repeat", GOOD.replace('to = "b"', 'to = "b"\nrepeat = 10000000'), "flows[0].repeat", 12, "limits.max_flows"),
    ("tiny interval", GOOD + '[record]\nseries = ["queue"]\ninterval = "1ns"\n', "record.interval", 15,
     "limits.max_series_samples"),
    ("huge queue", GOOD.replace('delay = "1ms"', 'delay = "1ms"\nqueue = { kind = "droptail", limit = "100000000p" }'),
     "links[0].queue.limit", 9, "limits.max_queue_packets"),
    ("huge dumbbell", GOOD + '[dumbbell]\npairs = 1000000\nbottleneck = { rate = "1Mb", delay = "1ms" }\n'
     'access = { rate = "1Mb", delay = "1ms" }\n', "dumbbell.pairs", 14, "limits.max_nodes"),
    ("source far too fast", GOOD.replace('rate = "100kb" }', 'rate = "10000000Mb" }'), "flows[0].app", 12,
     "limits.max_source_packets"),
    ("wrong type inside a tagged table", GOOD.replace('rate = "100kb" }', 'rate = true }'), "flows[0].app.rate", 12,
     "invalid type: boolean `true`, expected a rate"),
    ("wrong type in delay_range", GOOD + '[dumbbell]\npairs = 2\nbottleneck = { rate = "1Mb", delay = "1ms" }\n'
     'access = { rate = "1Mb", delay_range = ["1ms", true] }\n', "dumbbell.access.delay_range[1]", 16,
     'invalid type: boolean `true`, expected a time such as "450ms"'),
]


def _cli(*args: str) -> "object":
    from click.testing import CliRunner

    from nsim.cli import main

    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("case,text,path,line,reason", STRICT_CASES, ids=[c[0] for c in STRICT_CASES])
def test_silent_acceptance_is_an_error_with_field_and_line(tmp_path: Path, case: str, text: str, path: str,
                                                           line: int, reason: str) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(text)
    r = _cli("validate", str(f))
    assert r.exit_code == 2, (case, r.output)
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"error: {f}:{line}: field `{path}`"), err
    assert reason in err, err


def test_no_limits_lifts_the_budget(tmp_path: Path) -> None:
    f = tmp_path / "big.toml"
    f.write_text(GOOD.replace('delay = "1ms"', 'delay = "1ms"\nqueue = { kind = "droptail", limit = "100000000p" }'))
    assert _cli("validate", str(f)).exit_code == 2
    assert _cli("validate", "--no-limits", str(f)).exit_code == 0
    f.write_text(f.read_text() + "[limits]\nmax_queue_packets = 100000000\n")
    assert _cli("validate", str(f)).exit_code == 0
    out = tmp_path / "o"
    assert _cli("run", str(f), "-q", "-o", str(out), "--until", "0.1s").exit_code == 0


def test_validate_reports_every_bad_file(tmp_path: Path) -> None:
    good, bad1, bad2 = tmp_path / "good.toml", tmp_path / "bad1.toml", tmp_path / "bad2.toml"
    good.write_text(GOOD)
    bad1.write_text(GOOD.replace('"1Mb"', '"1Mx"'))
    bad2.write_text(GOOD.replace('from = "a"', 'from = "x"'))
    r = _cli("validate", str(bad1), str(good), str(bad2))
    assert r.exit_code == 2
    assert f"{good}: ok" in r.stdout
    assert f"error: {bad1}:7: field `links[0].rate`" in r.stderr
    assert f"error: {bad2}:10: field `flows[0].from`" in r.stderr
    assert "2 of 3 files are invalid" in r.stderr


@pytest.mark.parametrize("data,where", [
    (GOOD.encode().replace(b'"t"', b'"t\xff\xfe"'), ":2: not valid UTF-8 text: byte 0xff at offset 10"),
    (b"\x00\x01garbage\x9c" + bytes(range(200, 256)), ":1: not valid UTF-8 text: byte 0x9c at offset 9"),
])
def test_bytes_that_are_not_utf8_exit_2_with_the_offset(tmp_path: Path, data: bytes, where: str) -> None:
    f = tmp_path / "bytes.toml"
    f.write_bytes(data)
    for args in (["validate", str(f)], ["run", str(f), "-o", str(tmp_path / "o")]):
        r = _cli(*args)
        assert r.exit_code == 2 and r.stderr.strip() == f"error: {f}{where}", r.stderr


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    f = tmp_path / "bom.toml"
    f.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert _cli("validate", str(f)).exit_code == 0


def test_builder_values_json_cannot_hold_name_the_field() -> None:
    import nsim

    sc = nsim.Scenario("x", duration="1s")
    sc.hosts("a", "b").link("a", "b", rate=float("nan"), delay="1ms")
    with pytest.raises(nsim.ScenarioError, match=r"field `links\[0\]\.rate`: nan is not a number"):
        sc.validate()
    sc = nsim.Scenario("x", duration="1s").hosts("a", "b").link("a", "b", rate="1Mb", delay="1ms",
                                                                  queue=nsim.queue("droptail", limit="25pkts"))
    with pytest.raises(nsim.ScenarioError, match=r"field `links\[0\]\.queue\.limit`: unknown queue limit unit 'pkts'"):
        sc.validate()


def test_files_that_are_not_scenarios_are_refused_before_reading(tmp_path: Path) -> None:
    """Issue 29 (6): /dev/zero, a FIFO, a directory or an oversized file is refused by name,
    without reading it whole and without blocking on the FIFO."""
    import os
    import subprocess
    import sys

    from nsim.textfile import MAX_TEXT_BYTES

    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    big = tmp_path / "big.toml"
    with open(big, "wb") as f:
        f.truncate(MAX_TEXT_BYTES + 1)  # sparse: no disk used
    cases = [("/dev/zero", "not a regular file"), (str(fifo), "not a regular file"),
             (str(big), f"{MAX_TEXT_BYTES + 1:,} bytes, more than")]
    for path, words in cases:
        for args in (["validate", path], ["run", path, "-o", str(tmp_path / "o")]):
            r = subprocess.run([sys.executable, "-m", "nsim", *args], capture_output=True, text=True, timeout=60)
            assert r.returncode == 2 and f"{path}: cannot read: " in r.stderr and words in r.stderr, (args, r.stderr)
            assert "Traceback" not in r.stderr
    assert not (tmp_path / "o").exists()
    from nsim.errors import ScenarioError
    from nsim.textfile import read_text

    with pytest.raises(ScenarioError, match="cannot read: a directory"):
        read_text(str(tmp_path))  # the CLI's argument check already refuses one (exit 2)
