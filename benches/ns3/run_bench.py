"""Times ns-3.37 on the SACK dumbbell (benches/ns3/tcp_dumbbell.cc) and writes
benches/reference/ns3_timings.csv, which benches/vs_ns2.py reads for its ns-3.37 column.

Usage: python3 benches/ns3/run_bench.py [--n 2 16 128 1024] [--reps 3] [--single-above 16]
       [--timeout 1200] [-o CSV]

Builds the program first if needed (benches/ns3/build.sh). Each N is run ``--reps`` times
(once above ``--single-above``) under GNU time; the row of the run with the median wall time
is kept, with its CPU time, peak RSS, the program's RESULT figures (bottleneck departures,
drops, bytes received), the 1-minute load average before and after and the date. An N whose
run exceeds ``--timeout`` seconds is left out (and larger ones are not tried). Stdlib only.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAM = os.path.join(HERE, "tcp_dumbbell")
DEFAULT_CSV = os.path.join(ROOT, "benches", "reference", "ns3_timings.csv")
FIELDS = ["scenario", "n_flows", "sim_seconds", "wall_s", "cpu_user_s", "cpu_sys_s", "max_rss_kb",
          "bottleneck_departures", "bottleneck_arrivals", "bottleneck_drops", "sink_rx_bytes", "setup_wall_s",
          "run_wall_s", "reps", "simulator", "build", "cpu_model", "loadavg_1m_before", "loadavg_1m_after", "date"]


def run_once(n: int, sim_s: float, timeout: float) -> dict[str, str] | None:
    """One timed run: the RESULT fields plus wall, CPU and RSS; None after ``timeout``."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        load0 = os.getloadavg()[0]
        try:
            p = subprocess.run(["/usr/bin/time", "-v", "-o", tf.name, PROGRAM, str(n), f"{sim_s:g}"],
                               capture_output=True, text=True, timeout=timeout, check=True)
        except subprocess.TimeoutExpired:
            return None
        report = tf.read()
    row = dict(kv.split("=", 1) for kv in p.stdout.split("RESULT ", 1)[1].split())

    def grab(label: str) -> str:
        return re.search(re.escape(label) + r": (\S+)", report).group(1)

    h, _, rest = grab("Elapsed (wall clock) time (h:mm:ss or m:ss)").rpartition(":")
    parts = [float(x) for x in (h.split(":") if h else [])] + [float(rest)]
    wall = sum(v * 60 ** i for i, v in enumerate(reversed(parts)))
    row.update(wall_s=f"{wall:.2f}", cpu_user_s=grab("User time (seconds)"), cpu_sys_s=grab("System time (seconds)"),
               max_rss_kb=grab("Maximum resident set size (kbytes)"), loadavg_1m_before=f"{load0:.2f}",
               loadavg_1m_after=f"{os.getloadavg()[0]:.2f}")
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[2, 16, 128, 1024])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--single-above", type=int, default=16, help="run N above this only once")
    ap.add_argument("--sim-seconds", type=float, default=100.0)
    ap.add_argument("--timeout", type=float, default=1200.0, help="give up on an N after this many seconds")
    ap.add_argument("-o", "--out", default=DEFAULT_CSV)
    args = ap.parse_args()
    if not os.path.exists(PROGRAM):
        subprocess.run(["sh", os.path.join(HERE, "build.sh")], check=True)
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "")
    rows = []
    for n in args.n:
        reps = args.reps if n <= args.single_above else 1
        got = []
        for _ in range(reps):
            r = run_once(n, args.sim_seconds, args.timeout)
            if r is None:
                break
            got.append(r)
            print(f"N={n}: {r['wall_s']} s wall, {r['cpu_user_s']} s user, {r['max_rss_kb']} KB, "
                  f"departures {r['bottleneck_departures']}, drops {r['bottleneck_drops']}", file=sys.stderr)
        if len(got) < reps:
            print(f"N={n}: over {args.timeout:g} s, stopping", file=sys.stderr)
            break
        row = sorted(got, key=lambda r: float(r["wall_s"]))[(reps - 1) // 2]
        row.update(reps=str(reps), build="Debian libns3.37 3.37-2 (NS_LOG compiled in)", cpu_model=cpu,
                   date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"))
        rows.append(row)
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, FIELDS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
