"""Start-up cost of `nsim run`: the interpreter alone, the fast path, the click path, and the
click path with the DataFrame libraries loaded (as `nsim run` was before issue 14).

Usage: python benches/startup.py [--reps 7] [--no-bytecode]

Each runs `scenarios/cbr_dumbbell.toml --until 0.1s -q` (a run of ~100 events, so what is
measured is start-up) as a fresh process under GNU time, alternating, and prints median wall
and CPU (user + system) time and the largest peak RSS as a Markdown table, with the load
average. Python bytecode is cached as after an install unless `--no-bytecode` (see
`vs_ns2.installed_env`). Never a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile

from vs_ns2 import installed_env, timed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NSIM = os.path.join(os.path.dirname(sys.executable), "nsim")
SCENARIO = os.path.join(ROOT, "scenarios", "cbr_dumbbell.toml")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--no-bytecode", action="store_true", help="keep PYTHONDONTWRITEBYTECODE as set")
    args = ap.parse_args()
    out = tempfile.mkdtemp(prefix="nsim-startup-")
    run_args = ["run", SCENARIO, "-o", out, "-q", "--until", "0.1s"]
    py = sys.executable
    cmds = {
        "`python -c pass` (the interpreter alone)": [py, "-c", "pass"],
        "`nsim run` (fast path)": [NSIM, *run_args],
        "`nsim run` through click": [py, "-c", "from nsim.cli import main; main()", *run_args],
        "through click with pandas, numpy, pyarrow loaded (before issue 14)":
            [py, "-c", "import pandas, numpy, pyarrow; from nsim.cli import main; main()", *run_args],
    }
    got: dict[str, list[tuple[float, float, float]]] = {k: [] for k in cmds}
    env = installed_env(not args.no_bytecode)
    load0 = os.getloadavg()[0]
    for cmd in cmds.values():
        timed(cmd, ROOT, env)  # warm-up: fills the bytecode cache
    for _ in range(args.reps):
        for name, cmd in cmds.items():
            wall, rss_mb, cpu = timed(cmd, ROOT, env)
            got[name].append((wall, cpu, rss_mb))
    print("| process | wall | CPU (user + sys) | max RSS |")
    print("|---|---|---|---|")
    for name, v in got.items():
        print(f"| {name} | {statistics.median(x[0] for x in v) * 1e3:,.0f} ms "
              f"| {statistics.median(x[1] for x in v) * 1e3:,.0f} ms | {max(x[2] for x in v):.1f} MB |")
    print(f"\n{args.reps} alternated runs (medians; RSS: maximum); 1-minute load average "
          f"{load0:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores; "
          f"Python bytecode {'not ' if args.no_bytecode else ''}cached.")


if __name__ == "__main__":
    main()
