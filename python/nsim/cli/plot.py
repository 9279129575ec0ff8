"""``nsim plot``: draw one of the standard plots of a saved run."""

from __future__ import annotations

import os

import click

from .common import invalid_input_exits_2, one_line

KIND_NAMES = ["cwnd", "throughput", "queue", "ccdf", "goodput", "cc"]
#: Output formats by file extension.
FORMATS = (".png", ".svg", ".pdf")
#: Resolution of the default PNG.
DEFAULT_DPI = 100


def default_out(results_dir: str, kind: str, dpi: int) -> str:
    """``RESULTS_DIR/<kind>.png``, or ``<kind>-<dpi>dpi.png`` at another resolution (a
    300 dpi copy does not silently replace the 100 dpi one, issue 30)."""
    suffix = "" if dpi == DEFAULT_DPI else f"-{dpi}dpi"
    return os.path.join(results_dir, f"{kind}{suffix}.png")


@click.command("plot")
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--kind", "-k", type=click.Choice(KIND_NAMES), default="throughput", show_default=True,
              help="Which plot: effective window/ssthresh, windowed throughput (mean throughput if no "
                   "series was recorded), busiest queues, CCDF of completion times or delays, goodput bars, or "
                   "congestion-control state (record.series \"cc\": BBR's estimates and state, pacing rate, ...).")
@click.option("-o", "--out", "out", type=click.Path(dir_okay=False),
              help="Output file; .png, .svg or .pdf [default: RESULTS_DIR/<kind>.png, or "
                   "RESULTS_DIR/<kind>-<DPI>dpi.png with another --dpi, so it never replaces the default-size one].")
@click.option("--dpi", type=click.IntRange(min=10, max=2400), default=DEFAULT_DPI, show_default=True,
              help="Resolution of .png output (dots per inch).")
@click.option("--window", "window_s", type=click.FloatRange(min=0, min_open=True),
              help="Averaging window in seconds for --kind throughput [default: 3 s, shorter for short runs].")
def command(results_dir: str, kind: str, out: str | None, dpi: int, window_s: float | None) -> None:
    """Plot a run saved by ``nsim run -o RESULTS_DIR``."""
    out = out or default_out(results_dir, kind, dpi)
    if os.path.splitext(out)[1].lower() not in FORMATS:
        raise click.BadParameter(f"the output must end in {', '.join(FORMATS)}", param_hint="-o")
    import matplotlib

    matplotlib.use("Agg")
    from .. import plots
    from ..results import Results

    with invalid_input_exits_2():
        res = Results.load(results_dir)
    kwargs = {"window_s": window_s} if kind == "throughput" and window_s is not None else {}
    try:
        fig = plots.KINDS[kind](res, **kwargs)
    except ValueError as e:
        click.echo(f"error: {one_line(f'{results_dir}: {e}')}", err=True)
        raise SystemExit(2) from None
    from ..outdir import write_via

    try:  # through a temporary file and a rename: a symlink at OUT is replaced, not written through
        write_via(out, lambda tmp: fig.savefig(tmp, dpi=dpi, format=os.path.splitext(out)[1][1:].lower()))
    except OSError as e:
        click.echo(f"error: {out}: cannot write: {e.strerror or e}", err=True)
        raise SystemExit(2) from None
    click.echo(f"wrote {out}")
