"""``nsim run``: run one scenario and write its results.

The core reads the scenario, runs it and writes every results file itself, so this command
imports neither pandas nor numpy (issue 14: their import cost more than a small run). Ctrl-C
stops the run at the simulated time reached, writes what was done marked ``interrupted`` and
exits 130.
"""

from __future__ import annotations

import csv
import itertools
import json
import os
import sys
import tomllib
from typing import Any

import click

from .common import invalid_input_exits_2

#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130

#: Flows listed in the printed summary.
SHOWN_FLOWS = 10


def _ms(v: str) -> str:
    return f"{float(v) * 1e3:.2f}ms" if v not in ("", "nan") else "-"


def _summary_lines(summary: dict[str, Any], flows_csv: str) -> list[str]:
    """The printed summary: run figures, packet accounting, drops, the first flows."""
    s, a = summary, summary["accounting"]
    rate = f"{s['events_per_s']:,.0f} events/s" if s.get("events_per_s") else ""
    lines = [
        f"{s['scenario'] or 'scenario'}: seed {s['seed']}, {s['sim_time_s']:g} s simulated, "
        f"{s['events']:,} events in {s['wall_s']:.3f} s ({rate}; set-up {s.get('setup_wall_s', 0) * 1e3:.1f} ms)",
        f"packets: {a['created']:,} created = {a['delivered']:,} delivered + {a['dropped']:,} dropped"
        f" + {a['queued']:,} queued + {a['in_flight']:,} in flight",
    ]
    if a["dropped_by_reason"]:
        lines.append("drops: " + ", ".join(f"{k} {v:,}" for k, v in a["dropped_by_reason"].items()))
    if s.get("interrupted"):
        lines.append(f"interrupted: results cover the {s['sim_time_s']:g} s simulated before the run was stopped")
    with open(flows_csv, newline="", encoding="utf-8") as f:
        rows = csv.DictReader(f)
        shown = list(itertools.islice(rows, SHOWN_FLOWS))
        more = sum(1 for _ in rows)
    if shown:
        lines.append(f"{'flow':<16} {'delivered':>10} {'dropped':>8} {'throughput':>12} {'delay mean':>11} {'p99':>9}")
        for r in shown:
            lines.append(
                f"{r['name'][:16]:<16} {int(r['delivered_pkts']):>10,} {int(r['dropped_pkts']):>8,} "
                f"{float(r['throughput_bps']) / 1e6:>9.3f}Mbps {_ms(r['delay_mean_s']):>11} {_ms(r['delay_p99_s']):>9}"
            )
        if more:
            lines.append(f"... {more} more flows in flows.csv")
    return lines


def _pcap_choice(pcap: bool, pcap_links: str | None) -> bool | list[str] | None:
    """``--pcap`` -> all link directions; ``--pcap-links a-b,c->d`` -> those; else the file's."""
    if pcap_links:
        return [s.strip() for s in pcap_links.split(",") if s.strip()]
    return True if pcap else None


def _write_parquet(out: str) -> None:
    """Parquet copies of the CSV tables (needs pandas and pyarrow: only when asked)."""
    import pandas as pd

    for name in sorted(os.listdir(out)):
        if name.endswith(".csv"):
            pd.read_csv(os.path.join(out, name)).to_parquet(os.path.join(out, name[:-4] + ".parquet"), index=False)


@click.command("run")
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("-o", "--out", "out", type=click.Path(file_okay=False), help="Output directory [default: out/<scenario name>].")
@click.option("--seed", type=int, help="Override the scenario's seed.")
@click.option("--until", help='Override the duration, e.g. "60s".')
@click.option("--trace", is_flag=True, help="Also write an ns-2 format packet trace (trace.tr).")
@click.option("--pcap", is_flag=True, help="Write a pcap file per link direction (pcap/<from>-<to>.pcap).")
@click.option("--pcap-links", metavar="LINKS", help='pcap only these, comma-separated: "r1-r2" (both directions), "r1->r2" (one).')
@click.option("--parquet", is_flag=True, help="Also write Parquet copies of the tables.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success and show no progress.")
@click.option("--no-limits", is_flag=True, help="Skip the size and memory budget ([limits] in the scenario reference).")
def command(scenario: str, out: str | None, seed: int | None, until: str | None, trace: bool, pcap: bool,
            pcap_links: str | None, parquet: bool, quiet: bool, no_limits: bool) -> None:
    """Run SCENARIO (a TOML file) and write summary.json, flows.csv and queues.csv.

    Long runs show progress on stderr: a bar on a terminal, otherwise a line every 5 s.
    Ctrl-C stops the run, writes the results so far marked interrupted, and exits 130.
    """
    from .. import _core
    from ..errors import ResultsError, from_core
    from ..progress import RunProgress
    from ..scenario import read_text

    with invalid_input_exits_2():
        text = read_text(scenario)
        out = out or os.path.join("out", os.path.splitext(os.path.basename(scenario))[0])
        duration_s = None
        if until is not None:
            from ..units import seconds

            duration_s = seconds(until, "until")
        trace_path = os.path.join(out, "trace.tr") if trace else None
        progress = RunProgress(os.path.basename(scenario), enabled=not quiet)
        with progress, progress.stop_on_sigint():
            try:
                summary_text = _core.run_to_dir(text, scenario, out, "toml", seed, duration_s, trace_path,
                                                _pcap_choice(pcap, pcap_links), progress,
                                                not no_limits)
            except _core.ConfigError as e:
                raise from_core(e) from None
            except _core.ResultsError as e:
                raise ResultsError(str(e)) from None
        summary = json.loads(summary_text)
        with open(os.path.join(out, "scenario.json"), "w", encoding="utf-8") as f:
            json.dump(tomllib.loads(text), f, indent=2, default=str)
        if parquet:
            _write_parquet(out)
    if not quiet:
        for line in _summary_lines(summary, os.path.join(out, "flows.csv")):
            click.echo(line)
        click.echo(f"results in {out}/")
    if summary["interrupted"] or progress.interrupted:
        if quiet:
            click.echo(f"interrupted: partial results in {out}/", err=True)
        sys.exit(EXIT_INTERRUPTED)
