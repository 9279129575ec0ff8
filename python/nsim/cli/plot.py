"""``nsim plot``: draw one of the standard plots of a saved run."""

from __future__ import annotations

import os

import click

from .common import invalid_input_exits_2

KIND_NAMES = ["cwnd", "throughput", "queue", "ccdf", "goodput"]


@click.command("plot")
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--kind", "-k", type=click.Choice(KIND_NAMES), default="throughput", show_default=True,
              help="Which plot: cwnd/ssthresh, windowed throughput, queue occupancy, CCDF of "
                   "completion times or delays, or goodput bars.")
@click.option("-o", "--out", "out", type=click.Path(dir_okay=False),
              help="Output file; .png or .svg [default: RESULTS_DIR/<kind>.png].")
@click.option("--window", "window_s", type=float,
              help="Averaging window in seconds for --kind throughput [default: 3 s, shorter for short runs].")
def command(results_dir: str, kind: str, out: str | None, window_s: float | None) -> None:
    """Plot a run saved by ``nsim run -o RESULTS_DIR``."""
    import matplotlib

    matplotlib.use("Agg")
    from .. import plots
    from ..results import Results

    out = out or os.path.join(results_dir, f"{kind}.png")
    if os.path.splitext(out)[1].lower() not in (".png", ".svg"):
        raise click.BadParameter("the output must end in .png or .svg", param_hint="-o")
    with invalid_input_exits_2():
        res = Results.load(results_dir)
    kwargs = {"window_s": window_s} if kind == "throughput" and window_s is not None else {}
    try:
        fig = plots.KINDS[kind](res, **kwargs)
    except ValueError as e:
        click.echo(f"error: {results_dir}: {e}", err=True)
        raise SystemExit(2) from None
    fig.savefig(out)
    click.echo(f"wrote {out}")
