"""Ctrl-C and awkward values (issue 29 item 13): `nsim sweep` interrupted exits 130 at once
and leaves no worker; a second Ctrl-C in `nsim run` leaves either the previous results or a
whole new folder, never a partial one; an error echoing a value with a newline stays one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import run_cli

LONG = """
name = "long"
duration = "{duration}"
[dumbbell]
pairs = 4
bottleneck = {{ rate = "10Mb", delay = "10ms", queue = {{ kind = "droptail", limit = "20p" }} }}
access = {{ rate = "100Mb", delay = "1ms" }}
[[flows]]
name = "f{{i}}"
repeat = 4
from = "s{{i}}"
to = "d{{i}}"
app = {{ kind = "bulk" }}
transport = {{ kind = "tcp", variant = "reno", window = 100 }}
"""


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry))
    return out


def _start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "nsim", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def test_ctrl_c_stops_a_sweep_at_once_with_exit_130(tmp_path: Path) -> None:
    (tmp_path / "sc.toml").write_text(LONG.format(duration="5000s"))
    (tmp_path / "sw.toml").write_text('scenario = "sc.toml"\nseeds = 8\n')
    p = _start(["sweep", "sw.toml", "-o", "out", "-j", "2", "-q"], tmp_path)
    deadline = time.monotonic() + 120
    workers: list[int] = []
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = _children(p.pid)
    assert workers, "the sweep started no worker"
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    sent = time.monotonic()
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert time.monotonic() - sent < 10
    assert "interrupted: the runs that finished are cached in out/" in err and "Traceback" not in err
    time.sleep(0.5)
    assert not [w for w in workers if os.path.exists(f"/proc/{w}") and open(f"/proc/{w}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"]


def test_a_second_ctrl_c_leaves_whole_results(tmp_path: Path) -> None:
    (tmp_path / "short.toml").write_text(LONG.format(duration="2s"))
    (tmp_path / "long.toml").write_text(LONG.format(duration="100000s"))
    assert run_cli("run", "short.toml", "-o", "out", "-q", cwd=tmp_path).returncode == 0
    before = {f.name: f.read_bytes() for f in (tmp_path / "out").iterdir()}
    p = _start(["run", "long.toml", "-o", "out", "-q"], tmp_path)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not [d for d in os.listdir(tmp_path) if ".partial-" in d]:
        time.sleep(0.1)
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=60)
    assert p.returncode != 0
    # Either the second Ctrl-C came before the new folder was complete (the previous results
    # stay as they were) or after (a whole new folder marked interrupted): never half of one.
    after = {f.name: f.read_bytes() for f in (tmp_path / "out").iterdir()}
    if after != before:
        import json

        assert {"summary.json", "scenario.json", "flows.csv", "queues.csv"} <= set(after)
        assert json.loads(after["summary.json"])["interrupted"] is True
    assert not [d for d in os.listdir(tmp_path) if ".partial-" in d]


def test_a_value_with_a_newline_stays_on_one_line(tmp_path: Path) -> None:
    f = tmp_path / "nl.toml"
    f.write_text('name = "t"\nduration = "1s"\nhosts = ["a", "b"]\n[[links]]\nbetween = ["a", "zz\\nq"]\n'
                 'rate = "1Mb"\ndelay = "1ms"\n')
    for args in (["validate", str(f)], ["run", str(f), "-o", str(tmp_path / "o")]):
        r = run_cli(*args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
        assert "unknown node 'zz\\nq'" in r.stderr
