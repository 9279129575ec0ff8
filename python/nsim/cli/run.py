"""``nsim run``: run one scenario and write its results."""

from __future__ import annotations

import os

import click

from .common import invalid_input_exits_2


def _summary_lines(res: "object") -> list[str]:
    from ..results import Results

    assert isinstance(res, Results)
    s, a = res.summary, res.accounting
    rate = f"{s['events_per_s']:,.0f} events/s" if s["events_per_s"] else ""
    lines = [
        f"{s['scenario'] or 'scenario'}: seed {s['seed']}, {s['sim_time_s']:g} s simulated, "
        f"{s['events']:,} events in {s['wall_s']:.3f} s ({rate})",
        f"packets: {a['created']:,} created = {a['delivered']:,} delivered + {a['dropped']:,} dropped"
        f" + {a['queued']:,} queued + {a['in_flight']:,} in flight",
    ]
    if a["dropped_by_reason"]:
        lines.append("drops: " + ", ".join(f"{k} {v:,}" for k, v in a["dropped_by_reason"].items()))
    if s.get("interrupted"):
        lines.append("interrupted: results cover the simulated time reached")
    f = res.flows
    if len(f):
        show = f.head(10)
        lines.append(f"{'flow':<16} {'delivered':>10} {'dropped':>8} {'throughput':>12} {'delay mean':>11} {'p99':>9}")
        for _, r in show.iterrows():
            mean = f"{r['delay_mean_s'] * 1e3:.2f}ms" if r["delay_mean_s"] == r["delay_mean_s"] and r["delay_mean_s"] is not None else "-"
            p99 = f"{r['delay_p99_s'] * 1e3:.2f}ms" if r["delay_p99_s"] == r["delay_p99_s"] and r["delay_p99_s"] is not None else "-"
            lines.append(
                f"{str(r['name'])[:16]:<16} {r['delivered_pkts']:>10,} {r['dropped_pkts']:>8,} "
                f"{r['throughput_bps'] / 1e6:>9.3f}Mbps {mean:>11} {p99:>9}"
            )
        if len(f) > len(show):
            lines.append(f"... {len(f) - len(show)} more flows in flows.csv")
    return lines


def _make_dir(out: str) -> None:
    from ..errors import ResultsError

    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise ResultsError(f"{out}: cannot write results: {e.strerror or e}") from None


@click.command("run")
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("-o", "--out", "out", type=click.Path(file_okay=False), help="Output directory [default: out/<scenario name>].")
@click.option("--seed", type=int, help="Override the scenario's seed.")
@click.option("--until", help='Override the duration, e.g. "60s".')
@click.option("--trace", is_flag=True, help="Also write an ns-2 format packet trace (trace.tr).")
@click.option("--parquet", is_flag=True, help="Also write Parquet copies of the tables.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
@click.option("--no-limits", is_flag=True, help="Skip the size and memory budget ([limits] in the scenario reference).")
def command(scenario: str, out: str | None, seed: int | None, until: str | None, trace: bool, parquet: bool, quiet: bool,
            no_limits: bool) -> None:
    """Run SCENARIO (a TOML file) and write summary.json, flows.csv and queues.csv."""
    from ..scenario import Scenario

    with invalid_input_exits_2():
        sc = Scenario.load(scenario, limits=not no_limits)
        out = out or os.path.join("out", os.path.splitext(os.path.basename(scenario))[0])
        want_trace = trace or bool(sc.config.get("record", {}).get("trace"))
        trace_path = os.path.join(out, "trace.tr") if want_trace else None
        if trace_path:
            _make_dir(out)
        res = sc.run(seed=seed, until=until, trace=trace_path, progress=not quiet)
        res.save(out, parquet=parquet)
    if not quiet:
        for line in _summary_lines(res):
            click.echo(line)
        click.echo(f"results in {out}/")
