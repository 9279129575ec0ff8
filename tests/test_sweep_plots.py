"""Sweep reports on a realistic grid (issue 30): swept values in natural order, short labels,
readable units, intervals clipped at physical bounds, small multiples instead of 20 lines in
one panel, and nothing drawn outside the figure."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

import nsim
from conftest import ROOT
from nsim import sweep_plots as sp
from nsim.sweeps import load_sweep, sweep

LIMIT = "dumbbell.bottleneck.queue.limit"
VARIANT = "flows[0].transport.variant"


def tcp_grid(out) -> "nsim.sweeps.SweepResult":
    """sweeps/tcp_variants_buffers.toml (4 buffer sizes x 5 TCP variants x 3 seeds, 4 flows a
    run starting 1 s apart, grid values given out of order) shortened to 5 simulated seconds."""
    spec = load_sweep(ROOT / "sweeps" / "tcp_variants_buffers.toml")
    spec.scenario["duration"] = "5s"
    return sweep(spec, out=out, workers=2)


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    return tcp_grid(tmp_path_factory.mktemp("grid") / "sw")


# -- no simulator needed ------------------------------------------------------------------

def test_natural_order_parses_units():
    assert sp.natural_order(["100p", "200p", "25p", "50p", "25p"]) == ["25p", "50p", "100p", "200p"]
    assert sp.natural_order(["10Mb", "100Mb", "1.5Mb"]) == ["1.5Mb", "10Mb", "100Mb"]
    assert sp.natural_order(["1s", "20ms", "500us"]) == ["500us", "20ms", "1s"]
    assert sp.natural_order(["1MB", "64KB"]) == ["64KB", "1MB"]
    assert sp.natural_order([0.5, 0.0, 2]) == [0.0, 0.5, 2]
    # names keep the grid's order; mixed kinds (packets and bytes) are not comparable
    assert sp.natural_order(["tahoe", "reno", "newreno"]) == ["tahoe", "reno", "newreno"]
    assert sp.natural_order(["50p", "10KB"]) == ["50p", "10KB"]


def test_short_labels_use_the_last_part_unless_it_is_ambiguous():
    assert sp.short_labels([LIMIT, VARIANT]) == {LIMIT: "limit", VARIANT: "variant"}
    assert sp.short_labels(["flows[0].app.rate", "flows[1].app.rate"]) == {
        "flows[0].app.rate": "flows[0].app.rate", "flows[1].app.rate": "flows[1].app.rate"}
    assert sp.short_labels(["a.x.rate", "b.y.rate", "seed_of"]) == {"a.x.rate": "x.rate", "b.y.rate": "y.rate",
                                                                   "seed_of": "seed_of"}


def test_intervals_are_clipped_at_physical_bounds():
    assert sp.metric_bounds("retransmits") == (0.0, math.inf)
    assert sp.metric_bounds("goodput_bps") == (0.0, math.inf)
    assert sp.metric_bounds("loss_rate") == (0.0, 1.0)
    err = sp.clipped_errors(np.array([2.0, 50.0, 0.99]), np.array([5.0, 5.0, 0.05]), (0.0, 1.0))
    assert err[0].tolist() == [2.0, 5.0, 0.05]        # down to 0, never below
    assert err[1][:2].tolist() == [0.0, 0.0] and err[1][2] == pytest.approx(0.01)  # up to 1


def test_units_are_scaled_like_the_run_plots():
    assert sp.metric_scale("goodput_bps", 1.2e6) == (1e6, "goodput (Mb/s)")
    assert sp.metric_scale("goodput_bps", 3.6e5) == (1e3, "goodput (kb/s)")
    assert sp.metric_scale("delay_mean_s", 0.25) == (1e-3, "mean one-way delay (ms)")
    assert sp.metric_scale("loss_rate", 0.04) == (0.01, "loss rate (%)")


def test_many_flows_are_averaged_into_one_line():
    # 12 flows x 3 buffer sizes x 2 seeds: 12 lines would repeat colours, so one line of the
    # per-run flow average, with its interval over seeds
    rows = [{LIMIT: lim, "seed": s, "point": i, "error": None, "flow": f, "name": f"f{f}",
             "goodput_bps": 1e5 * (f + 1) + s * 1e3}
            for i, lim in enumerate(["50p", "10p", "25p"]) for s in (1, 2) for f in range(12)]
    table = pd.DataFrame(rows)
    summary = nsim.metrics.summarize(table, ["goodput_bps"], by=[LIMIT, "flow", "name"])
    fig = sp.sweep_metric_figure(summary, table, [LIMIT], "goodput_bps", seeds=2)
    fig.canvas.draw()
    ax = fig.axes[0]
    assert len(ax.containers) == 1
    assert [t.get_text() for t in ax.get_xticklabels()] == ["10p", "25p", "50p"]
    assert np.allclose(ax.lines[0].get_ydata(), (6.5e5 + 1.5e3) / 1e3)  # kb/s
    assert "mean of 12 flows" in fig._suptitle.get_text()


# -- the realistic grid -------------------------------------------------------------------

def _inside(fig) -> list[str]:
    """Texts (titles, labels, ticks, legend) drawn outside the saved figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    out = []
    for t in fig.findobj(matplotlib.text.Text):
        if not t.get_visible() or not t.get_text():
            continue
        e = t.get_window_extent(renderer)
        if e.x0 < box.x0 - 1 or e.y0 < box.y0 - 1 or e.x1 > box.x1 + 1 or e.y1 > box.y1 + 1:
            out.append(t.get_text())
    return out


def test_grid_figures_are_faceted_ordered_and_unclipped(grid):
    table, summary = grid.table, grid.summary
    assert len(table) == 4 * 5 * 3 * 4 and grid.failed == 0
    for metric in ("goodput_bps", "loss_rate", "delay_mean_s", "retransmits"):
        fig = sp.sweep_metric_figure(summary, table, [LIMIT, VARIANT], metric, seeds=3)
        fig.canvas.draw()
        axes = [a for a in fig.axes if a.get_visible()]
        assert [a.get_title() for a in axes] == [f"variant={v}" for v in ("tahoe", "reno", "newreno", "sack1", "vegas")]
        ticks = [[t.get_text() for t in ax.get_xticklabels()] for ax in axes]
        assert ticks.count(["25p", "50p", "100p", "200p"]) == 3 and ticks.count([]) == 2  # one row per column
        for ax in axes:
            assert len(ax.containers) == 4  # one line per flow: colours tell them apart
            assert ax.get_ylim()[0] == 0.0
            for c in ax.containers:  # no interval below zero (e.g. negative retransmits)
                ys = [np.asarray(seg, dtype=float).reshape(-1, 2)[:, 1] for seg in c.lines[2][0].get_segments()]
                assert min(y.min() for y in ys) >= 0.0
        assert fig.legends and [t.get_text() for t in fig.legends[0].get_texts()] == ["reno0", "reno1", "reno2", "reno3"]
        legend = fig.legends[0].get_window_extent()
        assert all(legend.x0 >= a.get_window_extent().x1 for a in axes)  # beside the panels, not over them
        assert _inside(fig) == []
    fig = sp.sweep_metric_figure(summary, table, [LIMIT, VARIANT], "goodput_bps", seeds=3)
    assert fig._supylabel.get_text() in ("goodput (kb/s)", "goodput (Mb/s)")
    assert fig._supxlabel.get_text() == "limit"


def test_grid_report_leads_with_the_per_point_table(grid):
    from nsim.report import render_sweep_report

    html = render_sweep_report(grid.out)
    assert html.index("<h2>Per grid point</h2>") < html.index("<h2>Per flow</h2>") < html.index("<h2>Plots</h2>")
    point = html[html.index("<h2>Per grid point</h2>"):html.index("<h2>Per flow</h2>")]
    assert point.count("<tr>") == 1 + 20  # header + one row per grid point
    assert ">limit</th>" in point and ">variant</th>" in point and "loss rate per flow (%)" in point
    limits = [point.index(f'data-v="{v}"') for v in ("25p", "50p", "100p", "200p")]
    assert limits == sorted(limits)
    assert "e-1" not in point and "e+0" not in point and " ± " in point
    assert html.count("data:image/png;base64,") == 4


def large_grid_dir(out) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A sweep folder of the largest grid the report is made for, without simulating: 10
    bottleneck rates x 10 variants x 20 seeds, 4 flows a run (synthetic goodput and counts)."""
    rng = np.random.default_rng(1)
    rates = ["100Mb", "10Mb", "1.5Mb", "20Mb", "2Mb", "45Mb", "5Mb", "50Mb", "622Mb", "155Mb"]
    variants = [f"variant{v}" for v in range(10)]
    rows = [{"dumbbell.bottleneck.rate": r, VARIANT: v, "seed": s, "point": 10 * i + j, "run_key": f"{i}-{j}-{s}",
             "error": None, "flow": f, "name": f"tcp{f}", "goodput_bps": rng.uniform(0.1, 0.25) * float(r[:-2]) * 1e6,
             "retransmits": float(rng.poisson(2))}
            for i, r in enumerate(rates) for j, v in enumerate(variants) for s in range(1, 21) for f in range(4)]
    table = pd.DataFrame(rows)
    summary = nsim.metrics.summarize(table, ["goodput_bps", "retransmits"],
                                     by=["dumbbell.bottleneck.rate", VARIANT, "flow", "name"])
    out.mkdir(parents=True, exist_ok=True)
    table.to_parquet(out / "table.parquet")
    summary.to_parquet(out / "summary.parquet")
    return table, summary


def test_largest_grid_is_ten_readable_panels(tmp_path):
    table, summary = large_grid_dir(tmp_path / "big")
    fig = sp.sweep_metric_figure(summary, table, ["dumbbell.bottleneck.rate", VARIANT], "goodput_bps", seeds=20)
    fig.canvas.draw()
    axes = [a for a in fig.axes if a.get_visible()]
    assert len(axes) == 10 and all(len(a.containers) == 4 for a in axes)
    shown = next(a for a in axes if a.get_xticklabels())
    assert [t.get_text() for t in shown.get_xticklabels()] == ["1.5Mb", "2Mb", "5Mb", "10Mb", "20Mb", "45Mb", "50Mb",
                                                                "100Mb", "155Mb", "622Mb"]
    assert fig._supylabel.get_text() == "goodput (Mb/s)"
    assert _inside(fig) == []
