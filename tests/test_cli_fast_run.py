"""`nsim run`'s path without click (issue 14): a plain `nsim run SCENARIO [options]` imports
none of the heavy modules, and gives the same files, output, exit status and messages as the
click command, which every other command line still goes through. Start-up time is a
benchmark (benches/vs_ns2.py), not asserted here."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SCENARIOS
from nsim.cli.fast_run import parse_plain_run

HEAVY = ("click", "rich", "pandas", "numpy", "pyarrow", "matplotlib", "dask")
#: Standard modules the plain run does without (with what they import, about half of its
#: Python start-up: docs/performance.md).
STARTUP = ("json", "csv", "re", "enum", "typing", "signal", "contextlib", "tomllib", "importlib")
#: Runs the console script's entry point, then lists the heavy modules it loaded.
FAST = ("import sys; from nsim.cli import entry\n"
        "try:\n    entry()\nexcept SystemExit as e:\n    code = e.code\n"
        f"print('loaded', sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n"
        "sys.exit(code)")
#: The click command, as before the fast path.
CLICK = "from nsim.cli import main; main()"
#: Summary fields that are wall-clock measurements.
TIMING = ("wall_s", "setup_wall_s", "run_wall_s", "events_per_s")


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def _loaded(stderr: str) -> tuple[str, str]:
    """(stderr without the `loaded [...]` line, that line)."""
    rest, _, line = stderr.rstrip("\n").rpartition("\n")
    return (rest + "\n" if rest else ""), line


def _untimed(text: str) -> str:
    """The printed summary with its wall time, event rate and set-up time masked."""
    return re.sub(r"events in [0-9.]+ s \([0-9,]+ events/s; set-up [0-9.]+ ms\)", "events in T", text)


def test_plain_run_imports_no_heavy_module(tmp_path: Path) -> None:
    p = _run(FAST, "run", str(SCENARIOS / "cbr_dumbbell.toml"), "-o", str(tmp_path), "-q")
    assert p.returncode == 0, p.stderr
    assert _loaded(p.stderr) == ("", "loaded []")


@pytest.mark.parametrize("args", [["-q"], []], ids=["quiet", "summary"])
def test_plain_run_imports_no_costly_standard_module(tmp_path: Path, args: list[str]) -> None:
    code = FAST.replace(repr(HEAVY), repr(STARTUP))
    p = _run(code, "run", str(SCENARIOS / "cbr_dumbbell.toml"), "-o", str(tmp_path), *args)
    assert p.returncode == 0, p.stderr
    assert _loaded(p.stderr) == ("", "loaded []")


@pytest.mark.parametrize("args", [
    ["-q"],
    [],
    ["--seed", "7", "--until=3s", "--trace"],
    ["--pcap-links", "r0-r1", "--no-limits", "--quiet"],
], ids=["quiet", "summary", "seed-until-trace", "pcap-links"])
def test_plain_run_writes_what_the_click_command_writes(tmp_path: Path, args: list[str]) -> None:
    scenario = str(SCENARIOS / "cbr_dumbbell.toml")
    fast = _run(FAST, "run", scenario, "-o", str(tmp_path / "out"), *args)
    fast_files = {f.relative_to(tmp_path / "out"): f.read_bytes() for f in (tmp_path / "out").rglob("*") if f.is_file()}
    slow = _run(CLICK, "run", scenario, "-o", str(tmp_path / "out"), *args)
    slow_files = {f.relative_to(tmp_path / "out"): f.read_bytes() for f in (tmp_path / "out").rglob("*") if f.is_file()}
    stderr, loaded = _loaded(fast.stderr)
    assert loaded == "loaded []"
    assert (fast.returncode, _untimed(fast.stdout), stderr) == (slow.returncode, _untimed(slow.stdout), slow.stderr)
    assert sorted(fast_files) == sorted(slow_files)
    summaries = [json.loads(files.pop(Path("summary.json"))) for files in (fast_files, slow_files)]
    for s in summaries:
        for k in TIMING:
            s.pop(k)
    assert summaries[0] == summaries[1]
    assert fast_files == slow_files  # every other file byte for byte


@pytest.mark.parametrize("case", ["missing file", "invalid scenario", "bad unit", "bad seed", "directory",
                                  "output is a file", "help", "unknown option", "two scenarios"])
def test_bad_command_lines_end_as_with_click(tmp_path: Path, case: str) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('duration = "1s"\nnodes = 3\n')
    a_file = tmp_path / "file"
    a_file.write_text("")
    good = str(SCENARIOS / "cbr_dumbbell.toml")
    out = str(tmp_path / "out")
    args = {"missing file": [str(tmp_path / "none.toml")],
            "invalid scenario": [str(bad)],
            "bad unit": [good, "--until", "3 parsecs", "-o", out],
            "bad seed": [good, "--seed", "1.5"],
            "directory": [str(tmp_path)],
            "output is a file": [good, "-o", str(a_file)],
            "help": [good, "--help"],
            "unknown option": [good, "--fast"],
            "two scenarios": [good, good]}[case]
    fast, slow = _run(FAST, "run", *args), _run(CLICK, "run", *args)
    stderr, _ = _loaded(fast.stderr)
    assert fast.returncode == slow.returncode != 0 or case == "help"
    # Usage lines name the program, which differs between `-c` runs only by how it was started.
    assert stderr.splitlines()[-1:] == slow.stderr.splitlines()[-1:]
    assert fast.stdout.replace("Usage: -c", "Usage:") == slow.stdout.replace("Usage: -c", "Usage:")


@pytest.mark.parametrize("argv", [
    ["run"], ["run", "a.toml", "b.toml"], ["run", "a.toml", "--help"], ["run", "-h", "a.toml"],
    ["run", "a.toml", "--seed"], ["run", "a.toml", "--seed", "x"], ["run", "a.toml", "-q", "-q"],
    ["run", "a.toml", "-qo", "d"], ["run", "a.toml", "--quiet=1"], ["run", "--", "a.toml"], ["run", "-"],
    ["run", "a.toml", "-o", "-x"], ["validate", "a.toml"], ["--version"], [],
])
def test_anything_not_plain_goes_to_click(argv: list[str]) -> None:
    assert parse_plain_run(argv) is None


def test_plain_forms_are_parsed() -> None:
    assert parse_plain_run(["run", "a.toml", "--seed=3", "-o", "d", "--until", "2s", "-q", "--pcap"]) == {
        "scenario": "a.toml", "seed": 3, "out": "d", "until": "2s", "quiet": True, "pcap": True}
    assert parse_plain_run(["run", "--trace", "a.toml"]) == {"scenario": "a.toml", "trace": True}


EVERY_TOML = sorted(p for d in ("scenarios", "benches", "experiments", "sweeps", "tests") for p in (ROOT / d).rglob("*.toml"))


def test_core_writes_every_toml_file_as_tomllib_and_json_do() -> None:
    """scenario.json is written by the core on the fast path; Python's tomllib and json (the
    reference, and the fallback for dates, NaN and infinities) must give the same text: same
    document, keys in the same order, same escapes and float digits."""
    import tomllib

    from nsim import _core

    assert len(EVERY_TOML) > 50
    for path in EVERY_TOML:
        text = path.read_text(encoding="utf-8")
        doc = _core.toml_document_json(text)
        assert doc is not None, path
        assert doc == json.dumps(tomllib.loads(text), indent=2), path


@pytest.mark.parametrize("text", [
    '[x.y]\nk = 1\n[x]\nz = 2.5e-7\nw = 1e300\n',
    'a.b.c = 1\nd = { e = [1, { f = "\\u00e9\\t" }], g = -0.0 }\n[[a.h]]\ni = 0o17\n[[a.h]]\ni = 0b11\n',
    'k = "\\"q\\" \\\\ \\u007f \\u20ac \\U0001F600 \\b\\f\\r\\u0001"\n"é ü" = []\nt = {}\n',
    "f = [1e-5, 1e-4, 1e15, 1e16, 1.5e16, 123.456, 0.1, 5e-324, 1.7976931348623157e308, 9007199254740993.0, 1_000.0]\n",
    "i = [-9223372036854775808, 9223372036854775807, 0xff, -0]\n",
    "t = 1979-05-27T07:32:00Z\n", "x = nan\n", "y = [inf]\n",
])
def test_edge_documents_written_as_tomllib_and_json_do(text: str) -> None:
    import tomllib

    from nsim.cli.fast_run import _scenario_json

    assert _scenario_json(text) == json.dumps(tomllib.loads(text), indent=2, default=str)
