"""Whole-process wall time and peak memory of `nsim run` against ns-2.35 (issue 14).

Usage: python benches/vs_ns2.py [--n 2 16 128 1024] [--reps 5] [--ns2-max-n 128] [--markdown FILE] [--docs]

For each N it runs, alternating and `--reps` times each (so load changes hit all alike):
1. `nsim run benches/scenarios/tcp_dumbbell_<N>.toml -q` (the `nsim` console script users run,
   a fresh process),
2. the Rust example runner (`target/release/examples/run_scenario`, the core without Python),
3. ns-2.35 on `reference/ns2/bench/tcp_dumbbell.tcl N 100` (the same dumbbell: N SACK flows,
   10 Mb/s 20 ms bottleneck, 100 s), up to `--ns2-max-n` (ns-2 spends ~10 min in route
   set-up at N = 1024 with that script; above the limit the issue-14 figures are used, marked).
Wall and CPU (user + system) times are medians; on a loaded machine CPU time is the fairer
comparison. Peak RSS comes from `/usr/bin/time -v` (exact, so the maximum over reps is shown). It prints a table with the ratios nsim/ns-2 and the 1-minute load average
before and after, and can write it as Markdown, or (`--docs`) into docs/performance.md between
its `vs_ns2 table` markers. The ns-3.37 column is read from benches/reference/ns3_timings.csv
(written by benches/ns3/run_bench.py: the same dumbbell as an ns-3 program, timed separately
because it takes minutes). Never a pass/fail test.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(ROOT, "target", "release", "examples", "run_scenario")
NS2_TCL = os.path.join(ROOT, "reference", "ns2", "bench", "tcp_dumbbell.tcl")
#: The console script installed next to this interpreter (`uv run` puts .venv/bin first).
NSIM = os.path.join(os.path.dirname(sys.executable), "nsim")
DOCS = os.path.join(ROOT, "docs", "performance.md")
BEGIN, END = "<!-- vs_ns2 table: begin (benches/vs_ns2.py --docs) -->", "<!-- vs_ns2 table: end -->"
#: ns-2.35 figures of issue 14 (same machine type, medians of alternated runs), for N where
#: ns-2 is not run here: wall seconds (low, high) and max RSS in MB.
ISSUE14_NS2 = {2: ((0.16, 0.16), 15), 16: ((0.24, 0.24), 17), 128: ((0.82, 0.82), 31), 1024: ((6.1, 7.8), 140)}
#: ns-3.37 timings (benches/ns3/run_bench.py).
NS3_CSV = os.path.join(ROOT, "benches", "reference", "ns3_timings.csv")


def ns3_timings() -> dict[int, dict[str, str]]:
    """ns3_timings.csv's rows by N (empty if the file is missing)."""
    if not os.path.exists(NS3_CSV):
        return {}
    with open(NS3_CSV, newline="", encoding="utf-8") as f:
        return {int(r["n_flows"]): r for r in csv.DictReader(f)}


def ns3_cell(row: dict[str, str] | None) -> str:
    """The ns-3.37 column: wall / CPU (user + system) / RSS of the CSV's run."""
    if row is None:
        return "-"
    cpu = float(row["cpu_user_s"]) + float(row["cpu_sys_s"])
    return f"{float(row['wall_s']):.1f} s / {cpu:.1f} s / {int(row['max_rss_kb']) / 1024:.0f} MB"


def ns3_note(rows: dict[int, dict[str, str]]) -> str:
    """Where the ns-3.37 column comes from: date and load of its runs."""
    if not rows:
        return "ns-3.37: no benches/reference/ns3_timings.csv (run benches/ns3/run_bench.py)."
    dates = sorted({r["date"][:10] for r in rows.values()})
    loads = [float(r[k]) for r in rows.values() for k in ("loadavg_1m_before", "loadavg_1m_after")]
    return (f"ns-3.37 column: benches/reference/ns3_timings.csv ({', '.join(dates)}; "
            f"{rows[min(rows)]['build']}), measured separately at 1-minute load {min(loads):.1f}-{max(loads):.1f}.")


def installed_env(bytecode: bool) -> dict[str, str]:
    """The environment for timed Python processes. With ``bytecode``, as after an ordinary
    install: modules' bytecode is cached (under a temporary PYTHONPYCACHEPREFIX, so the
    worktree stays clean) even where PYTHONDONTWRITEBYTECODE is set, as on the development
    machine, where it makes every start-up compile nsim's own modules again."""
    env = dict(os.environ)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "nsim-bench-pycache")
    return env


def timed(cmd: list[str], cwd: str, env: dict[str, str] | None = None) -> tuple[float, float, float]:
    """(wall s, max RSS MB, CPU s = user + system) of one fresh process under GNU time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-v", "-o", tf.name, *cmd], capture_output=True, text=True, cwd=cwd,
                           env=env)
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {p.stderr[-500:]}")
        report = tf.read()
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", report).group(1))
    cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([0-9.]+)", report))
    return wall, rss_kb / 1024, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[2, 16, 128, 1024])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--ns2-max-n", type=int, default=128, help="run ns-2 only up to this N")
    ap.add_argument("--markdown", help="also write the table to this file")
    ap.add_argument("--docs", action="store_true", help="also put the table into docs/performance.md")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="keep PYTHONDONTWRITEBYTECODE as set (default: cache bytecode, as an install does)")
    args = ap.parse_args()
    if not os.path.exists(RUNNER):
        raise SystemExit(f"build the runner first: cargo build --release -p nsim-core --example run_scenario ({RUNNER})")
    nsim_cmd = [NSIM, "run", "-q"] if os.path.exists(NSIM) else [sys.executable, "-m", "nsim", "run", "-q"]
    env = installed_env(not args.no_bytecode)
    load0 = os.getloadavg()[0]
    rows = []
    for n in args.n:
        scn = os.path.join(ROOT, "benches", "scenarios", f"tcp_dumbbell_{n}.toml")
        out = tempfile.mkdtemp(prefix="nsim-bench-")
        cmds = {"nsim": nsim_cmd + [scn, "-o", out], "runner": [RUNNER, scn]}
        if n <= args.ns2_max_n:
            cmds["ns2"] = ["ns", NS2_TCL, str(n), "100"]
        got: dict[str, list[tuple[float, float, float]]] = {k: [] for k in cmds}
        setup = []
        timed(cmds["nsim"], ROOT, env)  # warm-up: fills the bytecode cache
        for _ in range(args.reps):
            for k, cmd in cmds.items():
                got[k].append(timed(cmd, ROOT, env))
                if k == "nsim":
                    with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
                        s = json.load(f)
                    setup.append((s["setup_wall_s"], s["run_wall_s"]))
        med = {k: (statistics.median(w for w, _, _ in v), max(r for _, r, _ in v), statistics.median(c for _, _, c in v))
               for k, v in got.items()}
        ns2 = med.get("ns2")
        ns2_wall, ns2_rss, ns2_cpu, measured = ((ns2[0], ns2[1], ns2[2], True) if ns2
                                                else (ISSUE14_NS2[n][0][0], ISSUE14_NS2[n][1], None, False))
        rows.append({
            "n": n, "nsim": med["nsim"], "runner": med["runner"], "ns2": (ns2_wall, ns2_rss), "ns2_measured": measured,
            "setup_s": statistics.median(s for s, _ in setup), "loop_s": statistics.median(r for _, r in setup),
            "wall_ratio": med["nsim"][0] / ns2_wall, "rss_ratio": med["nsim"][1] / ns2_rss,
            "cpu_ratio": med["nsim"][2] / ns2_cpu if ns2_cpu else None, "ns2_cpu": ns2_cpu,
        })
        print(f"N={n}: nsim {med['nsim'][0]:.3f} s / {med['nsim'][1]:.0f} MB, runner {med['runner'][0]:.3f} s / "
              f"{med['runner'][1]:.0f} MB, ns-2 {ns2_wall:.3f} s / {ns2_rss:.0f} MB{'' if measured else ' (issue 14)'}",
              file=sys.stderr)
    load1 = os.getloadavg()[0]
    lines = [
        "| N | `nsim run` (CLI) wall / CPU / RSS | core set-up / loop | Rust runner wall / CPU / RSS | ns-2.35 wall / CPU / RSS | ns-3.37 wall / CPU / RSS | nsim/ns-2 wall | nsim/ns-2 CPU | nsim/ns-2 RSS |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    ns3 = ns3_timings()
    for r in rows:
        ns2 = (f"{r['ns2'][0]:.2f} s / {r['ns2_cpu']:.2f} s / {r['ns2'][1]:.0f} MB" if r["ns2_measured"]
               else f"{r['ns2'][0]:.2f} s / - / {r['ns2'][1]:.0f} MB (issue 14)")
        cpu_ratio = f"{r['cpu_ratio']:.2f}" if r["cpu_ratio"] else "-"
        lines.append(
            f"| {r['n']} | {r['nsim'][0]:.3f} s / {r['nsim'][2]:.3f} s / {r['nsim'][1]:.0f} MB "
            f"| {r['setup_s'] * 1e3:.1f} ms / {r['loop_s'] * 1e3:.0f} ms "
            f"| {r['runner'][0]:.3f} s / {r['runner'][2]:.3f} s / {r['runner'][1]:.0f} MB | {ns2} | {ns3_cell(ns3.get(r['n']))} "
            f"| {r['wall_ratio']:.2f} | {cpu_ratio} | {r['rss_ratio']:.2f} |")
    lines.append("")
    lines.append(f"{args.reps} alternated runs per program and N (wall: median; RSS: maximum); "
                 f"1-minute load average {load0:.1f} before, {load1:.1f} after, on {os.cpu_count()} cores; "
                 f"Python bytecode {'not ' if args.no_bytecode else ''}cached. {ns3_note(ns3)}")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if args.docs:
        with open(DOCS, encoding="utf-8") as f:
            doc = f.read()
        head, _, rest = doc.partition(BEGIN + "\n")
        _, _, tail = rest.partition(END)
        if not tail:
            raise SystemExit(f"{DOCS} has no '{BEGIN}' ... '{END}' markers")
        with open(DOCS, "w", encoding="utf-8") as f:
            f.write(head + BEGIN + "\n" + text + "\n" + END + tail)


if __name__ == "__main__":
    main()
