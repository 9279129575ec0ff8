"""The standard plots of one run, written as PNG and SVG files.

Covers: nsim.plots (throughput, queue, goodput, CCDF, cwnd), drawing on your own axes.
Scenario: scenarios/cbr_dumbbell.toml (four CBR flows, 1.5 Mb/s bottleneck), seed 1; and
scenarios/tcp_reno_dumbbell.toml (four Reno flows, same bottleneck) for 10 s.
"""

import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
from matplotlib.figure import Figure

import nsim
from nsim import plots

FAIR_SHARE_BPS = 1.5e6 / 4  # bottleneck rate / number of flows, bit/s

res = nsim.run("scenarios/cbr_dumbbell.toml", seed=1)
out = Path(tempfile.mkdtemp())

figs = {
    "throughput.svg": plots.plot_throughput(res, window_s=3.0, fair_share_bps=FAIR_SHARE_BPS),
    "queue.png": plots.plot_queue(res),
    "goodput.png": plots.plot_goodput(res, fair_share_bps=FAIR_SHARE_BPS),
    "delay_ccdf.png": plots.plot_ccdf(res, column="delay_p99_s"),
}
for name, fig in figs.items():
    fig.savefig(out / name)
    ax = fig.axes[0]
    print(f"{name}: {ax.get_title()!r}, x {ax.get_xlabel()!r}, y {ax.get_ylabel()!r}, "
          f"{len(ax.get_lines())} lines, {len(ax.patches)} bars, written: {(out / name).stat().st_size > 0}")

# Congestion windows of the Reno dumbbell (it records the "tcp" series).
reno = nsim.run("scenarios/tcp_reno_dumbbell.toml", seed=1, until="10s")
fig = plots.plot_cwnd(reno)
fig.savefig(out / "cwnd.png")
ax = fig.axes[0]
print(f"cwnd.png: y {ax.get_ylabel()!r}, {len(ax.get_lines())} lines (min(cwnd, window) + ssthresh per flow)")

# Two plots sharing the time axis, on axes you own.
fig = Figure(figsize=(8, 6), layout="constrained")
top, bottom = fig.subplots(2, 1, sharex=True)
plots.plot_throughput(res, ax=top)
plots.plot_queue(res, ax=bottom)
fig.savefig(out / "combined.png")
print("combined:", [ax.get_ylabel() for ax in fig.axes])
