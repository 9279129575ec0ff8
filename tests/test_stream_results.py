"""Results streamed to disk (issue 29 item 5): `nsim run` writes the transfers and the time
series into its folder while the run goes, so its memory does not grow with them (before:
about 1.6 KB per transfers row and 300 B per series sample, all held at once while writing),
and the files are the ones the in-memory results give.

The byte-for-byte check against results written whole is the core's unit test
(`record::stream::tests`, several spill chunks and series batches); here the CLI's files are
read back and compared with the Python API's tables of the same run."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

import nsim

#: Ten TCP flows making 1000 B transfers 1 ms apart over a 1 Gb/s link: about 8,000
#: transfers per simulated second, so 13 s give more than 10^5 rows of transfers.csv.
SHORT_TRANSFERS = """
name = "many short transfers"
duration = "{duration}"
hosts = ["a", "b"]

[[links]]
between = ["a", "b"]
rate = "1Gb"
delay = "100us"

[[flows]]
name = "f{{i}}"
repeat = 10
from = "a"
to = "b"
app = {{ kind = "repeat", size = "1000B", think = "1ms" }}
transport = {{ kind = "tcp", variant = "newreno", packet_size = "1000B" }}
{record}
"""

#: What streaming may add to the peak memory of a run however many rows it writes: the
#: bound docs/performance.md states ("Results written while the run goes"). Held whole, as
#: before streaming, 10^5 transfers rows added about 150 MB.
STREAM_BOUND_MB = 32


#: Runs its arguments as a child and prints the child's peak resident memory in KB. A child
#: of pytest itself would report pytest's memory at the fork as its peak (Linux keeps the
#: high-water mark across exec), so the run is started from this small process instead.
PEAK_OF_CHILD = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
                 "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def _peak_rss_mb(args: list[str], cwd: Path) -> float:
    """Runs `nsim ARGS` and returns its peak resident memory in MB."""
    done = subprocess.run([sys.executable, "-c", PEAK_OF_CHILD, sys.executable, "-m", "nsim", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return int(done.stdout) / 1024  # ru_maxrss is in KB on Linux


def test_a_run_writing_1e5_transfers_stays_within_the_memory_bound(tmp_path: Path) -> None:
    (tmp_path / "long.toml").write_text(SHORT_TRANSFERS.format(duration="13s", record=""))
    (tmp_path / "short.toml").write_text(SHORT_TRANSFERS.format(duration="10ms", record=""))
    base = _peak_rss_mb(["run", "short.toml", "-o", "short", "-q"], tmp_path)
    peak = _peak_rss_mb(["run", "long.toml", "-o", "long", "-q", "--no-limits"], tmp_path)
    with open(tmp_path / "long" / "transfers.csv") as f:
        rows = sum(1 for _ in f) - 1
    assert rows >= 100_000
    assert not [n for n in os.listdir(tmp_path / "long") if "spill" in n]
    assert peak - base < STREAM_BOUND_MB, f"{rows} transfers: peak {peak:.0f} MB, {base:.0f} MB for a 10 ms run"


def _same(cli: pd.DataFrame, api: pd.DataFrame) -> None:
    """Equal tables: same columns in the same order and the same values (the CLI's file read
    back by pandas; missing values as NaN on both sides). A float may differ in its last
    place: the core's CSV writer passes values through serde_json's parser, which can be one
    unit off (the same on main; the Python API reads the JSON with Python's exact parser)."""
    assert list(cli.columns) == list(api.columns)
    assert len(cli) == len(api)
    for c in cli.columns:
        for a, b in zip(cli[c], api[c]):
            if isinstance(b, float) or b is None:
                b = math.nan if b is None else b
                assert (math.isnan(a) and math.isnan(b)) or abs(a - b) <= math.ulp(b), (c, a, b)
            else:
                assert a == b, (c, a, b)


def test_streamed_files_hold_the_tables_of_the_python_api(tmp_path: Path) -> None:
    record = '[record]\nseries = ["queue", "flow_throughput", "goodput", "tcp", "cwnd"]\ninterval = "1ms"\n'
    (tmp_path / "sc.toml").write_text(SHORT_TRANSFERS.format(duration="3s", record=record))
    done = subprocess.run([sys.executable, "-m", "nsim", "run", "sc.toml", "-o", "out", "-q"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    res = nsim.run(tmp_path / "sc.toml")
    assert len(res.transfers) > 20_000
    _same(pd.read_csv(tmp_path / "out" / "transfers.csv"), res.transfers)
    for kind in ["queue", "flow_throughput", "goodput", "tcp", "cwnd"]:
        _same(pd.read_csv(tmp_path / "out" / f"series_{kind}.csv"), res.series(kind))
