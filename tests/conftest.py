"""Shared fixtures: paths, a CLI runner that calls the installed `nsim` entry point, a loader
for a study's own Python files (reducers, generators), and a one-link TCP scenario runner for
hand-computed timings."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


@pytest.fixture
def root() -> Path:
    return ROOT


def load_module(path: Path) -> ModuleType:
    """A Python file that is not part of a package (a study's reduce.py, a scenario generator),
    loaded as a module named after its folder and file."""
    spec = importlib.util.spec_from_file_location(f"{path.parent.name}_{path.stem}", path)
    assert spec is not None and spec.loader is not None, path
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Runs `python -m nsim.cli ...` in a subprocess (as a user would run `nsim`)."""
    return subprocess.run(
        [sys.executable, "-m", "nsim", *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env={**os.environ, "COLUMNS": "120"},
        timeout=300,
    )


# Two hosts a -> b over one 1 Mb/s link, one 100 kb/s CBR flow for 1 s: the smallest valid
# scenario, which tests mutate with str.replace.
TWO_HOSTS_CBR = """
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


# One link s -> d, `delay` each way, one NewReno flow without SYN carrying `app`.
ONE_LINK_TCP = """
duration = "{duration}"
hosts = ["s", "d"]
[[links]]
between = ["s", "d"]
rate = "{rate}"
delay = "{delay}"
queue = {{ kind = "droptail", limit = "{limit}p" }}
[[flows]]
name = "f"
from = "s"
to = "d"
app = {app}
transport = {{ kind = "tcp", variant = "newreno", window = {window}, syn = false{tcp} }}
"""


def one_link_tcp(app: str, duration: str, rate: str, delay: str, limit: int, window: int, tcp: str = "") -> str:
    """ONE_LINK_TCP filled in (`tcp`: extra transport keys, e.g. `packet_size = "1000B"`)."""
    return ONE_LINK_TCP.format(app=app, duration=duration, rate=rate, delay=delay, limit=limit, window=window, tcp=f", {tcp}" if tcp else "")


def run_one_link_tcp(app: str, duration: str, rate: str, delay: str, limit: int, window: int, tcp: str = "") -> "nsim.Results":
    """Runs :func:`one_link_tcp`'s scenario."""
    import nsim

    text = one_link_tcp(app, duration, rate, delay, limit, window, tcp)
    return nsim.Scenario.from_dict(tomllib.loads(text), source="one_link.toml").run()
