"""``nsim report``: one self-contained HTML page for a saved run."""

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
    """Write an HTML report (summary, accounting, tables, plots) of a run saved by
    ``nsim run -o RESULTS_DIR``."""
    import matplotlib

    matplotlib.use("Agg")
    from ..report import write_report
    from ..results import Results

    with invalid_input_exits_2():
        res = Results.load(results_dir)
    path = write_report(res, out or os.path.join(results_dir, "report.html"), image_format="svg" if svg else "png")
    click.echo(f"wrote {path}")
