"""``nsim sweep``: run a grid of scenario parameters times seeds."""

from __future__ import annotations

import click

from .common import interrupted, invalid_input_exits_2, one_line


@click.command("sweep")
@click.argument("sweep_file", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--out", "out", type=click.Path(file_okay=False),
              help="Output directory (also the run cache) [default: out/<sweep name>].")
@click.option("--workers", "-j", type=click.IntRange(min=1),
              help="Local worker processes [default: all cores].")
@click.option("--scheduler", metavar="ADDRESS",
              help="Run on a Dask cluster, e.g. tcp://10.0.0.1:8786, instead of local processes.")
@click.option("--quiet", "-q", is_flag=True, help="No progress or summary.")
@click.option("--report", "report", is_flag=True, help="Also write OUT/report.html (as `nsim report OUT`).")
@click.option("--force", is_flag=True,
              help="Write OUT even if it holds files nsim did not write (default: refuse such a folder).")
def command(sweep_file: str, out: str | None, workers: int | None, scheduler: str | None,
            quiet: bool, report: bool, force: bool) -> None:
    """Run SWEEP_FILE (TOML: scenario, seeds, [grid]) and write table.parquet (one row per
    run and flow) and summary.parquet/.csv (per-point means and 95 % CIs over seeds).

    Finished runs are cached in OUT/runs: running the same sweep again only runs what is
    missing. A failing run is recorded with its error; the others are kept. Progress goes to
    stderr: a bar on a terminal, otherwise a line per finished run (per 5 % beyond 20 runs).
    At the end: runs ok, failed and cached, the wall time, and where the results and report are.
    """
    from ..sweeps import load_sweep, sweep

    with invalid_input_exits_2():
        spec = load_sweep(sweep_file)
        try:
            result = sweep(spec, out=out, workers=workers, scheduler=scheduler, progress=not quiet, force=force)
        except KeyboardInterrupt:
            interrupted(out or f"out/{spec.name}")
    written = None
    if report:
        import matplotlib

        matplotlib.use("Agg")
        from ..report import write_sweep_report

        written = write_sweep_report(result.out, result.out / "report.html")
    if not quiet:
        total = result.ran + result.cached
        rate = f", {result.ran / result.wall_s:.1f} runs/s" if result.ran else ""
        click.echo(f"{total} runs: {result.ran} ran, {result.cached} cached, {result.failed} failed"
                   f" ({total - result.failed} ok) in {result.wall_s:.2f} s wall{rate}")
        click.echo(f"results in {result.out}/ (table.parquet, summary.parquet, summary.csv)")
        click.echo(f"report: {written}" if written else f"report: nsim report {result.out}  (writes {result.out / 'report.html'})")
    if result.failed:
        errors = result.table.loc[result.table["error"].notna(), "error"]
        click.echo(f"error: {result.failed} runs failed; first: {one_line(str(errors.iloc[0]))}", err=True)
        raise SystemExit(1)
