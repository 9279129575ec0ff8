"""nsim against ns-2.35 on the 800-host enterprise mix (issues 11, 15): results, then timings.

The scenario is benches/scenarios/large/mixed_800_hosts.toml (benches/gen_mixed_800.py) and its
ns-2 twin reference/ns2/mixed_800/mixed.tcl. Not a test: the timings depend on the machine and
its load, which is printed with them.

  python3 benches/vs_ns2_mixed.py compare [--until S] [--seeds 1 2]
      one run of each (ns-2 with queue monitors on every link), prints the aggregate results
      side by side and writes reference/ns2/mixed_800/results_<S>s.csv
  python3 benches/vs_ns2_mixed.py time [--until S] [--reps N]
      N alternated runs of each under /usr/bin/time -v (wall, CPU, max RSS), appends them to
      reference/ns2/mixed_800/timings.csv and prints medians

nsim is the Rust example runner (the core without Python):
`cargo build --release -p nsim-core --example run_scenario`.
"""

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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "benches/scenarios/large/mixed_800_hosts.toml"
TCL = ROOT / "reference/ns2/mixed_800/mixed.tcl"
OUT = ROOT / "reference/ns2/mixed_800"
RUNNER = ROOT / "target/release/examples/run_scenario"
APPS = ("telnet", "web", "ftp", "ftplong")
KINDS = ("echo", "page", "object", "file")


def app_of(flow: str) -> str:
    """App type of an nsim flow name (rftp<i> are FTP sessions, web<i>/c<k> web connections)."""
    name = re.match(r"[a-z]+", flow).group(0)
    return {"rftp": "ftp"}.get(name, name)


def scenario_for(until: float, seed: int) -> Path:
    """The scenario with its duration and seed replaced, in a temporary file."""
    text = SCENARIO.read_text()
    text = re.sub(r'^duration = ".*"$', f'duration = "{until:g}s"', text, count=1, flags=re.M)
    text = re.sub(r"^seed = .*$", f"seed = {seed}", text, count=1, flags=re.M)
    f = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
    f.write(text)
    f.close()
    return Path(f.name)


def nsim_summary(results: dict) -> dict[str, int]:
    """The aggregate figures of one nsim results JSON, named as ns2_summary's."""
    out: dict[str, int] = {}
    for q in results["queues"]:
        if (q["from"], q["to"]) in (("L", "R"), ("R", "L")):
            d = q["from"] + q["to"]
            out[f"bottleneck_{d}_departures"] = q["departures"]
            out[f"bottleneck_{d}_drops"] = q["dropped_pkts"]
    out["all_links_departures"] = sum(q["departures"] for q in results["queues"])
    out["all_links_drops"] = results["accounting"]["dropped"]
    for app in APPS:
        flows = [f for f in results["flows"] if app_of(f["name"]) == app]
        out[f"{app}_sent_pkts"] = sum(f["sent_pkts"] for f in flows)
        out[f"{app}_retransmits"] = sum(f["retransmits"] for f in flows)
        out[f"{app}_goodput_bytes"] = round(sum(f["goodput_bps"] * (results["sim_time_s"] - f["start_s"]) / 8 for f in flows))
    for kind in KINDS:
        rows = [t for t in results["transfers"] if t["kind"] == kind]
        out[f"{kind}_done"] = len(rows)
        out[f"{kind}_bytes"] = sum(t["bytes"] for t in rows)
    return out


def ns2_summary(text: str) -> dict[str, int]:
    """The aggregate figures printed by mixed.tcl (run with monitors on every link)."""
    out: dict[str, int] = {}
    for m in re.finditer(r"^QUEUE (\w+) departures=(\d+) drops=(\d+)", text, re.M):
        out[f"bottleneck_{m[1]}_departures"] = int(m[2])
        out[f"bottleneck_{m[1]}_drops"] = int(m[3])
    m = re.search(r"^ALL drops=(\d+) departures=(\d+)", text, re.M)
    if m:
        out["all_links_departures"] = int(m[2])
        out["all_links_drops"] = int(m[1])
    for m in re.finditer(r"^APP (\w+) sent_pkts=(\d+) retransmits=(\d+) goodput_bytes=(\d+)", text, re.M):
        out[f"{m[1]}_sent_pkts"] = int(m[2])
        out[f"{m[1]}_retransmits"] = int(m[3])
        out[f"{m[1]}_goodput_bytes"] = int(m[4])
    for m in re.finditer(r"^DONE (\w+) count=(\d+) bytes=(\d+)", text, re.M):
        out[f"{m[1]}_done"] = int(m[2])
        out[f"{m[1]}_bytes"] = int(m[3])
    return out


def run_nsim(until: float, seed: int) -> dict[str, int]:
    """One nsim run; its aggregate figures."""
    scn = scenario_for(until, seed)
    with tempfile.NamedTemporaryFile(suffix=".json") as res:
        subprocess.run([str(RUNNER), str(scn), res.name], check=True, stdout=subprocess.DEVNULL)
        os.unlink(scn)
        return nsim_summary(json.load(open(res.name)))


def run_ns2(until: float, seed: int) -> dict[str, int]:
    """One ns-2 run with monitors on every link; its aggregate figures."""
    p = subprocess.run(["ns", str(TCL), f"{until:g}", str(seed), "all"], check=True, capture_output=True, text=True)
    return ns2_summary(p.stdout)


def compare(until: float, seeds: list[int]) -> None:
    """Runs both per seed, prints and writes the side-by-side table."""
    cols: dict[str, dict[str, int]] = {}
    for seed in seeds:
        cols[f"nsim_seed{seed}"] = run_nsim(until, seed)
        cols[f"ns2_seed{seed}"] = run_ns2(until, seed)
    keys = list(cols[f"nsim_seed{seeds[0]}"])
    path = OUT / f"results_{until:g}s.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["metric", *cols])
        for k in keys:
            w.writerow([k, *(c.get(k, "") for c in cols.values())])
    print(f"{'metric':28s}" + "".join(f"{c:>14s}" for c in cols))
    for k in keys:
        print(f"{k:28s}" + "".join(f"{c.get(k, ''):>14}" for c in cols.values()))
    print(f"wrote {path.relative_to(ROOT)}")


def timed(cmd: list[str]) -> dict[str, float]:
    """Runs cmd under /usr/bin/time -v; wall, CPU (user + system) and max RSS, plus stdout."""
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as tf:
        t0 = time.monotonic()
        p = subprocess.run(["/usr/bin/time", "-v", "-o", tf.name, *cmd], check=True, capture_output=True, text=True)
        wall = time.monotonic() - t0
        tv = tf.read()

    def num(label: str) -> float:
        return float(re.search(rf"{label}: ([\d.]+)", tv)[1])

    return {"wall_s": wall, "cpu_s": num(r"User time \(seconds\)") + num(r"System time \(seconds\)"),
            "max_rss_kb": num(r"Maximum resident set size \(kbytes\)"), "stdout": p.stdout}


def time_both(until: float, reps: int) -> None:
    """Alternated timed runs of both programs; appends to timings.csv, prints medians."""
    scn = scenario_for(until, 1)
    rows = []
    for rep in range(reps):
        for prog in ("nsim", "ns2"):
            load = os.getloadavg()[0]
            if prog == "nsim":
                r = timed([str(RUNNER), str(scn)])
                m = re.search(r": (\d+) events in ([\d.]+) s.*set-up ([\d.]+) s", r["stdout"])
                extra = {"events": int(m[1]), "run_wall_s": float(m[2]), "setup_wall_s": float(m[3])}
            else:
                r = timed(["ns", str(TCL), f"{until:g}", "1"])
                m = re.search(r"setup_wall_s=([\d.]+) run_wall_s=([\d.]+)", r["stdout"])
                extra = {"events": "", "run_wall_s": float(m[2]), "setup_wall_s": float(m[1])}
            row = {"date": time.strftime("%Y-%m-%d"), "program": prog, "sim_seconds": until, "rep": rep,
                   "wall_s": round(r["wall_s"], 3), "cpu_s": round(r["cpu_s"], 2), "max_rss_kb": int(r["max_rss_kb"]),
                   **extra, "loadavg_1m_before": round(load, 1), "cores": os.cpu_count()}
            rows.append(row)
            print(row, flush=True)
    os.unlink(scn)
    path = OUT / "timings.csv"
    new = not path.exists()
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        if new:
            w.writeheader()
        w.writerows(rows)
    for prog in ("nsim", "ns2"):
        rs = [r for r in rows if r["program"] == prog]
        med = {k: statistics.median(r[k] for r in rs) for k in ("wall_s", "cpu_s", "max_rss_kb", "setup_wall_s", "run_wall_s")}
        print(prog, {k: round(v, 3) for k, v in med.items()})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["compare", "time"])
    ap.add_argument("--until", type=float, default=10.0, help="simulated seconds (default 10)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1])
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    if not RUNNER.exists():
        sys.exit(f"build the runner first: cargo build --release -p nsim-core --example run_scenario ({RUNNER})")
    if a.what == "compare":
        compare(a.until, a.seeds)
    else:
        time_both(a.until, a.reps)


if __name__ == "__main__":
    main()
