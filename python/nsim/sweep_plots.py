"""Plots and tables of a sweep that read well on real grids (issue 30).

A sweep of 4 queue sizes x 5 TCP variants x 4 flows is 20 lines per metric: more than colour
can separate. So the swept values are put in their natural order (``25p < 50p < 100p``, the
units parsed by the core's quantity parser), labels use the swept key's last part
(``limit``, ``variant``), values are scaled to readable units (Mb/s, ms), intervals are clipped
at the metric's physical bounds (no negative counts), and a figure with more than
:data:`MAX_LINES` lines becomes small multiples: one panel per value of the second swept key,
one line per flow (or, with more flows than colours, per point averaged over flows).
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, Optional, Sequence

import numpy as np
import pandas as pd

from . import metrics, plots

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["natural_order", "sort_naturally", "short_labels", "metric_scale", "metric_bounds",
           "point_summary", "sweep_metric_figure", "MAX_LINES"]

#: Most lines one panel shows: beyond it colours stop being told apart (tab10 minus two).
MAX_LINES = 8
#: Panels per row of a faceted figure.
MAX_COLUMNS = 4
#: Longest swept value shown as a tick or legend label (a whole queue table is long).
MAX_LABEL = 24
#: Quantity kinds of the core parser tried, in order, to order swept strings.
_KINDS = ("limit", "time", "rate", "size")


def _quantity(value: Any, kind: str) -> Optional[float]:
    """``value`` in SI units if it is a ``kind`` quantity string, else None. A byte limit
    (``"64KB"``) is not comparable with a packet limit and counts as not parsed."""
    from . import _core

    if not isinstance(value, str):
        return None
    try:
        parsed = _core.parse_quantity(kind, value)
    except ValueError:
        return None
    if isinstance(parsed, tuple):
        return float(parsed[0]) if parsed[1] == "packets" else None
    return float(parsed)


def natural_order(values: Sequence[Any]) -> list[Any]:
    """The distinct ``values`` in their natural order: numbers by value, quantity strings
    (``"25p"``, ``"10Mb"``, ``"20ms"``, ``"64KB"``) by their parsed value when all parse as
    the same kind, anything else in first-seen (grid) order."""
    distinct = list(dict.fromkeys(values))
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in distinct):
        return sorted(distinct)
    for kind in _KINDS:
        parsed = [_quantity(v, kind) for v in distinct]
        if all(p is not None for p in parsed):
            return [v for _, v in sorted(zip(parsed, distinct), key=lambda pv: pv[0])]
    return distinct


def sort_naturally(df: pd.DataFrame, columns: Sequence[str], orders: Optional[dict[str, list[Any]]] = None) -> pd.DataFrame:
    """``df`` sorted by ``columns``, each in :func:`natural_order` (or the given ``orders``)."""
    orders = orders or {}
    keys = {c: {v: i for i, v in enumerate(orders.get(c) or natural_order(list(df[c])))} for c in columns if c in df}
    if not keys:
        return df
    return df.sort_values(list(keys), key=lambda s: s.map(keys[s.name]), kind="stable")


def short_labels(paths: Sequence[str]) -> dict[str, str]:
    """A short label per swept path: its last part (``"dumbbell.bottleneck.queue.limit"`` ->
    ``"limit"``), or the last parts that tell two paths apart (``flows[0].app.rate`` and
    ``flows[1].app.rate`` -> ``"flows[0].app.rate"``, ``"flows[1].app.rate"`` only when the
    shorter ones collide)."""
    parts = {p: p.split(".") for p in paths}
    out: dict[str, str] = {}
    for p, ps in parts.items():
        for k in range(1, len(ps) + 1):
            label = ".".join(ps[-k:])
            if all(".".join(qs[-k:]) != label for q, qs in parts.items() if q != p):
                break
        out[p] = label
    return out


def value_label(value: Any) -> str:
    """A swept value as a short label (JSON for tables, cut at :data:`MAX_LABEL`)."""
    text = value if isinstance(value, str) else (f"{value:g}" if isinstance(value, float) else json.dumps(value))
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def metric_scale(metric: str, largest: float) -> tuple[float, str]:
    """Divisor and axis label for ``metric`` whose largest value is ``largest``: rates in
    kb/s, Mb/s or Gb/s as the run plots, times in ms or µs below a second, bytes in kB or MB,
    fractions (loss rate) in %."""
    base = plots.column_label(metric).split(" (")[0]
    largest = abs(largest) if math.isfinite(largest) else 0.0
    if metric_bounds(metric) == (0.0, 1.0):
        scale, unit = 0.01, "%"
    elif metric.endswith("_bps"):
        scale, unit = plots._rate_unit(largest)
    elif metric.endswith("_s"):
        scale, unit = next(((s, u) for s, u in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")) if largest >= s), (1e-6, "µs"))
    elif metric.endswith("_bytes"):
        scale, unit = next(((s, u) for s, u in ((1e6, "MB"), (1e3, "kB")) if largest >= s), (1.0, "bytes"))
    else:
        label = plots.column_label(metric)
        return 1.0, label
    return scale, f"{base} ({unit})"


#: Per-flow columns that count something (never below zero) without a unit suffix.
_COUNTS = {"retransmits", "timeouts", "fast_retransmits", "ecn_marks"}


def metric_bounds(metric: str) -> tuple[float, float]:
    """The physical range of a per-flow ``metric``: ``[0, 1]`` for fractions (loss rate),
    ``[0, inf)`` for rates, times, sizes and counts, unbounded for anything else."""
    if metric.endswith("_rate") or metric in ("loss_rate", "utilization"):
        return 0.0, 1.0
    if metric.endswith(("_bps", "_s", "_bytes", "_pkts")) or metric in _COUNTS:
        return 0.0, math.inf
    return -math.inf, math.inf


def clipped_errors(mean: np.ndarray, ci: np.ndarray, bounds: tuple[float, float]) -> np.ndarray:
    """Asymmetric error bars (2 x n) of ``mean`` ± ``ci`` cut at ``bounds``."""
    lo, hi = bounds
    ci = np.nan_to_num(np.asarray(ci, dtype=float))
    mean = np.asarray(mean, dtype=float)
    return np.vstack([np.clip(np.minimum(ci, mean - lo), 0, None), np.clip(np.minimum(ci, hi - mean), 0, None)])


def point_summary(table: pd.DataFrame, params: Sequence[str], metric_names: Sequence[str]) -> pd.DataFrame:
    """Per grid point: each metric averaged over the run's flows, then its mean, 95 % CI and
    count over seeds (:func:`nsim.metrics.summarize`), in natural order of the swept values."""
    ok = table[table["error"].isna()] if "error" in table else table
    present = [m for m in metric_names if m in ok]
    keys = list(params) + ["seed"]
    if not len(ok) or not present:
        return pd.DataFrame(columns=list(params))
    per_run = ok.groupby(keys, sort=False, dropna=False)[present].mean().reset_index()
    out = metrics.summarize(per_run, present, by=list(params) or None)
    return sort_naturally(out, params, {p: natural_order(list(table[p])) for p in params}).reset_index(drop=True)


def _layout(data: pd.DataFrame, dims: list[str]) -> tuple[list[str], list[str]]:
    """Split ``dims`` into panel dimensions and line dimensions: move dimensions to panels,
    first first, until a panel has at most :data:`MAX_LINES` lines."""
    panels: list[str] = []
    lines = list(dims)
    while lines and len(data.drop_duplicates(lines)) > MAX_LINES:
        panels.append(lines.pop(0))
    return panels, lines


def _key_label(dims: Sequence[str], key: tuple[Any, ...], short: dict[str, str]) -> str:
    if list(dims) == ["name"]:
        return str(key[0])
    return ", ".join(str(v) if d == "name" else f"{short[d]}={value_label(v)}" for d, v in zip(dims, key))


@plots.plain_text
def sweep_metric_figure(summary: pd.DataFrame, table: pd.DataFrame, params: Sequence[str], metric: str,
                        seeds: int = 0) -> Optional["Figure"]:
    """Mean and 95 % CI of ``metric`` against the first swept parameter.

    One line per flow and combination of the other parameters; when that is more than
    :data:`MAX_LINES`, with more flows than that the flows are averaged per run first
    (:func:`point_summary`), and remaining lines are split into small multiples by the other
    parameters. Returns None when the metric has no value.
    """
    from matplotlib.figure import Figure

    mean_col, ci_col = f"{metric}_mean", f"{metric}_ci95"
    if mean_col not in summary or not summary[mean_col].notna().any():
        return None
    params = list(params)
    orders = {p: natural_order(list(table[p])) for p in params}
    x = params[0] if params else "name"
    n_flows = summary["name"].nunique() if "name" in summary else 1
    data, flow_dims, what = summary, ["name"], metric
    if n_flows > MAX_LINES and params:
        data, flow_dims = point_summary(table, params, [metric]), []
        what = f"{metric} (mean of {n_flows} flows)"
    dims = [p for p in params[1:]] + flow_dims
    panels, lines = _layout(data, dims)
    xs = orders.get(x) or list(dict.fromkeys(data[x]))
    pos = {v: i for i, v in enumerate(xs)}
    short = short_labels(params)
    panel_keys = list(sort_naturally(data.drop_duplicates(panels), panels, orders)[panels].itertuples(index=False, name=None)) if panels else [()]
    line_keys = list(sort_naturally(data.drop_duplicates(lines), lines, orders)[lines].itertuples(index=False, name=None)) if lines else [()]
    scale, ylabel = metric_scale(metric, float(np.nanmax(data[mean_col] + data[ci_col].fillna(0))) if ci_col in data else float(np.nanmax(data[mean_col])))
    bounds = metric_bounds(metric)
    n_panels = len(panel_keys)
    nrows = math.ceil(n_panels / MAX_COLUMNS)
    ncols = math.ceil(n_panels / nrows)
    faceted = n_panels > 1
    fig = Figure(figsize=(11.0, 1.0 + 2.7 * nrows) if faceted else (9.0, 4.5), layout="constrained")
    axes = fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False).ravel()
    handles: dict[str, Any] = {}
    spread = 0.3 / max(1, len(line_keys))  # dodge lines sideways so intervals do not hide each other
    for ax, pkey in zip(axes, panel_keys):
        part = data
        for d, v in zip(panels, pkey):
            part = part[part[d] == v]
        for i, lkey in enumerate(line_keys):
            g = part
            for d, v in zip(lines, lkey):
                g = g[g[d] == v]
            g = g[g[x].isin(pos) & g[mean_col].notna()].sort_values(x, key=lambda s: s.map(pos))
            if not len(g):
                continue
            mean = g[mean_col].to_numpy(dtype=float)
            ci = g[ci_col].to_numpy(dtype=float) if ci_col in g else np.zeros(len(g))
            err = clipped_errors(mean, ci, bounds) / scale
            at = g[x].map(pos).to_numpy(dtype=float) + (i - (len(line_keys) - 1) / 2) * spread
            label = _key_label(lines, lkey, short) if lines else what
            h = ax.errorbar(at, mean / scale, yerr=err, marker="o", markersize=4, capsize=2.5, linewidth=1.2,
                            color=plots.flow_color(i), label=label)
            handles.setdefault(label, h)
        if faceted:
            ax.set_title(_key_label(panels, pkey, short), fontsize="medium")
        ax.grid(True, axis="y", alpha=0.3)
    for ax in axes[n_panels:]:
        ax.set_visible(False)
    for ax in axes[:n_panels]:
        crowded = sum(len(value_label(v)) + 1 for v in xs) * ncols > 60
        ax.set_xticks(range(len(xs)), [value_label(v) for v in xs], rotation=45 if crowded else 0,
                      ha="right" if crowded else "center", rotation_mode="anchor", fontsize="small" if crowded else None)
        if math.isfinite(bounds[0]):
            ax.set_ylim(bottom=bounds[0])
    for c in range(ncols):  # a panel above an empty slot shows its own tick labels
        last = max(i for i in range(c, n_panels, ncols))
        axes[last].xaxis.set_tick_params(labelbottom=True)
    xlabel = short.get(x, "flow")
    if faceted:
        fig.supxlabel(xlabel, fontsize="medium")
        fig.supylabel(ylabel, fontsize="medium")
    else:
        axes[0].set_xlabel(xlabel)
        axes[0].set_ylabel(ylabel)
    n_seeds = f" over {seeds} seeds" if seeds else " over seeds"
    fig.suptitle(f"{plots.column_label(metric).split(' (')[0]}: mean and 95 % CI{n_seeds}"
                 + (f", mean of {n_flows} flows" if not flow_dims and n_flows > 1 else ""))
    if len(handles) > 1:  # one legend for all panels, beside them (never over a line)
        fig.legend(handles.values(), handles.keys(), loc="outside right upper", fontsize="small", frameon=False,
                   title=" × ".join(short.get(d, "flow") for d in lines) if lines else None, title_fontsize="small")
    return fig
