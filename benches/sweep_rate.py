"""Sweep throughput: runs/s of a sweep of short runs with 1 and 2 workers, local and on Dask.

Usage: python benches/sweep_rate.py [--seeds N] [--workers 1 2] [--duration 2s] [--dask]

The sweep is scenarios/cbr_dumbbell.toml shortened to 2 s (by default): 10 buffer sizes x 2 jitter
settings x 10 seeds = 200 runs. For each worker count it runs the sweep into a fresh
directory (no cache hits) and prints runs/s. As baselines it also times the same runs in
this process: the simulation core alone (`_core` time reported by each run) and the
worker's whole per-run path (`_run_one`: scenario to JSON, core, rows), whose difference is
the per-run overhead. With `--dask` it also runs the sweep on a local Dask cluster of each
worker count. `--seeds 50` makes it the 1,000-run sweep of issue 14. Besides runs/s it prints
the driver's CPU time per run (this process: submitting, collecting, the table and summary),
which bounds how far adding workers can scale, and the load average. Numbers depend on the
machine's load; the figures in docs/performance.md state theirs.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import nsim
from nsim.metrics import t_quantile
from nsim.sweeps import SweepSpec, _run_one, sweep

LIMITS = [f"{n}p" for n in (5, 10, 15, 20, 25, 30, 40, 50, 75, 100)]
JITTERS = [0.0, 0.5]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10, help="seeds per grid point (default 10)")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--duration", default="2s", help="simulated time per run (default 2s)")
    ap.add_argument("--dask", action="store_true", help="also run on a local Dask cluster")
    args = ap.parse_args()

    base = nsim.load("scenarios/cbr_dumbbell.toml").to_dict()
    base["duration"] = args.duration
    spec = SweepSpec(base, {"dumbbell.bottleneck.queue.limit": LIMITS, "flows[0].app.jitter": JITTERS},
                     seeds=list(range(1, args.seeds + 1)))
    runs = spec.runs()
    t_quantile(0.975, 9)  # the summary's one-time import (scipy.special), outside the timings

    t0 = time.perf_counter()
    core_s = sum(_run_one(r.scenario, r.seed)["wall_s"] for r in runs)
    inproc_s = time.perf_counter() - t0
    print(f"{len(runs)} runs of {args.duration} simulated")
    print(f"in-process, serial: {len(runs) / inproc_s:7.1f} runs/s "
          f"(core {core_s / len(runs) * 1e3:.2f} ms/run, "
          f"Python around it {(inproc_s - core_s) / len(runs) * 1e3:.2f} ms/run)")
    for n in args.workers:
        with tempfile.TemporaryDirectory() as out:
            c0 = time.process_time()
            r = sweep(spec, out=out, workers=n)
            driver_ms = (time.process_time() - c0) / r.ran * 1e3
        assert r.ran == len(runs) and r.failed == 0
        print(f"sweep, {n} worker(s): {r.ran / r.wall_s:7.1f} runs/s ({r.wall_s:.2f} s wall, "
              f"incl. pool start, caching and the final table; driver CPU {driver_ms:.2f} ms/run)")
    if args.dask:
        from dask.distributed import Client, LocalCluster

        for n in args.workers:
            with LocalCluster(n_workers=n, threads_per_worker=1, processes=True) as cluster, Client(cluster) as client:
                client.run(lambda: __import__("nsim.sweeps"))  # warm the workers' imports
                with tempfile.TemporaryDirectory() as out:
                    c0 = time.process_time()
                    r = sweep(spec, out=out, scheduler=client)
                    driver_ms = (time.process_time() - c0) / r.ran * 1e3
            assert r.ran == len(runs) and r.failed == 0
            print(f"dask, {n} worker(s): {r.ran / r.wall_s:7.1f} runs/s ({r.wall_s:.2f} s wall, "
                  f"cluster already started; driver CPU {driver_ms:.2f} ms/run, incl. the client's threads)")
    print(f"1-minute load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
