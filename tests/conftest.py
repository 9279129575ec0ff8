"""Shared fixtures: paths and a CLI runner that calls the installed `nsim` entry point."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


@pytest.fixture
def root() -> Path:
    return ROOT


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
