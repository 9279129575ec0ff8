"""``nsim report``: one self-contained HTML page for a saved run or a sweep directory."""

from __future__ import annotations

import os

import click

from .common import invalid_input_exits_2


@click.command("report")
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--out", "out", type=click.Path(dir_okay=False),
              help="Output HTML file [default: RESULTS_DIR/report.html].")
@click.option("--svg", is_flag=True, help="Embed plots as SVG instead of PNG.")
def command(results_dir: str, out: str | None, svg: bool) -> None:
    """Write an HTML report of RESULTS_DIR: a run saved by ``nsim run -o`` (summary,
    accounting, topology, flow/queue/class tables, plots) or a sweep directory written by
    ``nsim sweep`` (a table per grid point with 95 % CIs over seeds, one figure per metric)."""
    import matplotlib

    matplotlib.use("Agg")
    from ..report import write_report, write_sweep_report
    from ..results import Results

    out = out or os.path.join(results_dir, "report.html")
    fmt = "svg" if svg else "png"
    with invalid_input_exits_2():
        if os.path.exists(os.path.join(results_dir, "summary.parquet")) and not os.path.exists(
                os.path.join(results_dir, "summary.json")):
            path = write_sweep_report(results_dir, out, image_format=fmt)
        else:
            path = write_report(Results.load(results_dir), out, image_format=fmt)
    click.echo(f"wrote {path}")
