"""``nsim run``: run one scenario and write its results.

This is the click declaration of the command (options, help); the work is
:func:`nsim.cli.fast_run.execute`, which the console script also calls directly, without
click, for a plain ``nsim run SCENARIO [options]``. An option added here that
:mod:`.fast_run` does not know sends such command lines through click, so it stays correct.
"""

from __future__ import annotations

import click

from .fast_run import execute


@click.command("run")
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.argument("script_args", nargs=-1, metavar="[ARGS]...")
@click.option("-o", "--out", "out", type=click.Path(file_okay=False), help="Output directory [default: out/<scenario file name without .toml>].")
@click.option("--seed", type=int, help="Override the scenario's seed.")
@click.option("--until", help='Override the duration, e.g. "60s".')
@click.option("--trace", is_flag=True, help="Also write an ns-2 format packet trace (trace.tr).")
@click.option("--pcap", is_flag=True, help="Write a pcap file per link direction (pcap/<from>-<to>.pcap).")
@click.option("--pcap-links", metavar="LINKS", help='pcap only these, comma-separated: "r1-r2" (both directions), "r1->r2" (one).')
@click.option("--parquet", is_flag=True, help="Also write Parquet copies of the tables.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success and show no progress.")
@click.option("--no-limits", is_flag=True, help="Skip the size and memory budget ([limits] in the scenario reference).")
@click.option("--force", is_flag=True,
              help="Write OUT even if it holds files nsim did not write (default: refuse such a folder).")
def command(scenario: str, script_args: tuple[str, ...], out: str | None, seed: int | None, until: str | None,
            trace: bool, pcap: bool, pcap_links: str | None, parquet: bool, quiet: bool, no_limits: bool,
            force: bool) -> None:
    """Run SCENARIO (a TOML file, or an ns-2 script ending in .tcl) and write summary.json,
    flows.csv and queues.csv. ARGS are an ns-2 script's arguments ($argv), as after
    `ns script.tcl`; put `--` before them if one starts with a dash.

    Long runs show progress on stderr: a bar on a terminal, otherwise a line every 5 s.
    Ctrl-C stops the run, writes the results so far marked interrupted, and exits 130.
    OUT is replaced whole: no file of an earlier run stays beside the new results.
    """
    execute(scenario, out, seed, until, trace, pcap, pcap_links, parquet, quiet, no_limits, force, script_args)
