"""``nsim bench``: performance of whole runs, each in a fresh process.

Reports simulator events/s, forwarded packets/s (all link departures), bottleneck packets/s
(the busiest link direction), ATM cells/s (cell departures on all ATM links, from the per-VC
rows), the core's set-up time (building the simulator, before the
first event), whole-process wall time and peak memory. Never used as a pass/fail test:
figures depend on the machine. `benches/vs_ns2.py` compares whole `nsim run` processes with
ns-2.35.
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import time

import click

# Runs in the child process: one scenario through the core only (no pandas), so the process
# wall time and memory are the simulator's, then its figures as JSON on stdout.
_CHILD = """
import json, resource, sys
from nsim import _core
path = sys.argv[1]
raw = json.loads(_core.run(open(path).read(), path, "toml"))
deps = [q["departures"] for q in raw["queues"]]
a = raw["accounting"]
print(json.dumps({
    "events": raw["events"],
    "sim_wall_s": raw["wall_s"],
    "setup_wall_s": raw["setup_wall_s"],
    "link_departures": sum(deps),
    "bottleneck_departures": max(deps),
    "cell_departures": sum(c["departures"] for c in raw["classes"] if c["class"].startswith("vc")),
    "max_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    "balanced": a["created"] == a["delivered"] + a["dropped"] + a["queued"] + a["in_flight"],
}))
"""


def measure(path: str) -> dict[str, float]:
    """Runs one scenario in a child process and returns its figures."""
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", _CHILD, path], capture_output=True, text=True)
    if p.returncode != 0:
        raise click.ClickException(f"{path}: {p.stderr.strip().splitlines()[-1] if p.stderr else 'failed'}")
    fig = json.loads(p.stdout)
    fig["process_wall_s"] = time.monotonic() - t0
    w = fig["sim_wall_s"]
    fig["events_per_s"] = fig["events"] / w
    fig["forwarded_pkts_per_s"] = fig["link_departures"] / w
    fig["bottleneck_pkts_per_s"] = fig["bottleneck_departures"] / w
    fig["cells_per_s"] = fig["cell_departures"] / w
    return fig


@click.command("bench")
@click.argument("scenarios", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "json_out", type=click.Path(dir_okay=False), help="Also write the figures to this JSON file.")
def command(scenarios: tuple[str, ...], json_out: str | None) -> None:
    """Benchmark SCENARIOS [default: benches/scenarios/*.toml], one fresh process each."""
    paths = list(scenarios) or sorted(glob.glob(os.path.join("benches", "scenarios", "*.toml")))
    if not paths:
        raise click.UsageError("no scenarios given and none found in benches/scenarios/")
    rows = {}
    click.echo(f"{'scenario':<34} {'events/s':>12} {'fwd pkts/s':>12} {'bneck pkts/s':>13} {'set-up ms':>9} {'wall s':>8} {'RSS MB':>8} {'cells/s':>11}")
    for path in paths:
        f = measure(path)
        rows[path] = f
        click.echo(
            f"{os.path.basename(path)[:34]:<34} {f['events_per_s']:>12,.0f} {f['forwarded_pkts_per_s']:>12,.0f} "
            f"{f['bottleneck_pkts_per_s']:>13,.0f} {f['setup_wall_s'] * 1e3:>9.1f} {f['process_wall_s']:>8.2f} {f['max_rss_kb'] / 1024:>8.1f} {f['cells_per_s']:>11,.0f}"
        )
    if json_out:
        with open(json_out, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=2)
