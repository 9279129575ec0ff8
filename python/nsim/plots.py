"""Standard plots of a run: windows, throughput, queues, CCDFs and goodput bars.

Every function takes a :class:`nsim.Results` (or the DataFrame it would read from it), draws
on a new figure (or on ``ax`` when given) and returns the :class:`matplotlib.figure.Figure`.
Figures are built without pyplot, so they work in scripts, worker processes and notebooks
alike; save them with ``fig.savefig("x.png")`` or ``.svg``. Each flow keeps one colour in
every plot (chosen from its flow id), axes carry units, and legends move outside the axes
(or are left out) when there are too many flows to fit.

``res.plot.cwnd()`` etc. are the same functions through :class:`ResultsPlotter`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional, Sequence

import numpy as np
import pandas as pd

from . import metrics

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "plot_cwnd",
    "plot_throughput",
    "plot_queue",
    "plot_ccdf",
    "plot_goodput",
    "ResultsPlotter",
    "KINDS",
    "available_kinds",
    "flow_color",
]

#: Legends with more entries than this are drawn outside the axes, in columns.
LEGEND_INSIDE_MAX = 8
#: Legends with more entries than this are left out (the title says how many series).
LEGEND_MAX = 40
#: Holl's choice of window for the windowed time-averaged rate (seed 000 §6.2.1).
DEFAULT_WINDOW_S = 3.0

Source = Any  # a Results, or the DataFrame the plot would read from it


def _series(source: Source, kind: str) -> pd.DataFrame:
    """The ``kind`` series of a Results, or ``source`` itself if it is a DataFrame."""
    if isinstance(source, pd.DataFrame):
        return source
    if kind not in source.series_kinds:
        raise ValueError(
            f"this run has no {kind!r} series (recorded: {list(source.series_kinds)}); "
            f"add {kind!r} to record.series in the scenario"
        )
    return source.series(kind)


def _flows(source: Source) -> pd.DataFrame:
    """The per-flow table of a Results, or ``source`` itself if it is a DataFrame."""
    return source if isinstance(source, pd.DataFrame) else source.flows


def _axes(ax: Optional["Axes"], figsize: tuple[float, float] = (8.0, 4.5)) -> "Axes":
    """``ax``, or the single axes of a new figure (no pyplot state involved)."""
    if ax is not None:
        return ax
    from matplotlib.figure import Figure

    return Figure(figsize=figsize, layout="constrained").add_subplot()


def flow_color(flow: int) -> tuple[float, float, float, float]:
    """The colour of flow id ``flow`` in every nsim plot (matplotlib's tab10 cycle)."""
    from matplotlib import colormaps

    return colormaps["tab10"](int(flow) % 10)


def _rate_unit(max_bps: float) -> tuple[float, str]:
    """Scale and label for bit rates up to ``max_bps``."""
    for scale, unit in ((1e9, "Gb/s"), (1e6, "Mb/s"), (1e3, "kb/s")):
        if max_bps >= scale:
            return scale, unit
    return 1.0, "b/s"


def _legend(ax: "Axes", n: int) -> None:
    """Place a legend of ``n`` entries where it fits, or leave it out."""
    if n == 0:
        return
    if n <= LEGEND_INSIDE_MAX:
        ax.legend(loc="best", fontsize="small")
    elif n <= LEGEND_MAX:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="x-small",
                  ncol=math.ceil(n / 20), borderaxespad=0.0)
    else:
        ax.set_title(f"{ax.get_title()} ({n} series; legend omitted)".strip())


def _select(df: pd.DataFrame, column: str, keep: Optional[Sequence[Any]]) -> pd.DataFrame:
    """Rows of ``df`` whose ``column`` is in ``keep`` (all rows when ``keep`` is None)."""
    return df if keep is None else df[df[column].isin(list(keep))]


def plot_cwnd(source: Source, flows: Optional[Sequence[str]] = None,
              ax: Optional["Axes"] = None) -> "Figure":
    """Congestion window (solid) and slow-start threshold (dashed) of each TCP flow vs time.

    Reads the ``tcp`` series (``time_s, flow, name, cwnd_pkts, ssthresh_pkts``).
    ``flows`` restricts the plot to those flow names. The y axis is scaled to the windows,
    so an initial "infinite" ssthresh lies above the plot.
    """
    df = _select(_series(source, "tcp"), "name", flows)
    ax = _axes(ax)
    top = 0.0
    for (flow, name), g in df.groupby(["flow", "name"], sort=True):
        color = flow_color(flow)
        ax.step(g["time_s"], g["cwnd_pkts"], where="post", color=color, label=f"{name} cwnd")
        ss = g["ssthresh_pkts"].where(np.isfinite(g["ssthresh_pkts"]))
        ax.step(g["time_s"], ss, where="post", color=color, linestyle="--", label=f"{name} ssthresh")
        top = max(top, float(g["cwnd_pkts"].max()))
    if top > 0:
        ax.set_ylim(0, top * 1.15)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("window (packets)")
    ax.set_title("Congestion window and ssthresh")
    _legend(ax, len(ax.get_lines()))
    return ax.figure


def plot_throughput(source: Source, window_s: Optional[float] = None,
                    flows: Optional[Sequence[str]] = None,
                    fair_share_bps: Optional[float] = None,
                    ax: Optional["Axes"] = None) -> "Figure":
    """Windowed time-averaged throughput of each flow vs time (seed 000 §6.2.1).

    Reads the ``flow_throughput`` series. ``window_s`` defaults to Holl's 3 s, shortened to
    a tenth of the recorded time span for short runs (never below one sampling interval).
    ``fair_share_bps`` draws Holl's horizontal fair-share line.
    """
    df = _select(_series(source, "flow_throughput"), "name", flows)
    times = np.sort(df["time_s"].unique())
    if window_s is None:
        step = float(np.min(np.diff(times))) if times.size > 1 else DEFAULT_WINDOW_S
        span = float(times[-1] - times[0]) if times.size > 1 else DEFAULT_WINDOW_S
        window_s = step * max(1, round(min(DEFAULT_WINDOW_S, span / 10) / step))
    w = metrics.windowed_throughput(df, window_s)
    scale, unit = _rate_unit(max(float(w["throughput_bps"].max()) if len(w) else 0.0,
                                 fair_share_bps or 0.0))
    ax = _axes(ax)
    for (flow, name), g in w.groupby(["flow", "name"], sort=True):
        ax.plot(g["time_s"], g["throughput_bps"] / scale, color=flow_color(flow), label=name)
    n = len(ax.get_lines())
    if fair_share_bps is not None:
        ax.axhline(fair_share_bps / scale, color="black", linestyle=":", linewidth=1.0,
                   label="fair share")
        n += 1
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"throughput ({unit})")
    ax.set_title(f"Per-flow throughput, {window_s:g} s window")
    ax.set_ylim(bottom=0)
    _legend(ax, n)
    return ax.figure


def plot_queue(source: Source, links: Optional[Sequence[int]] = None, in_bytes: bool = False,
               ax: Optional["Axes"] = None) -> "Figure":
    """Queue occupancy of each link direction vs time.

    Reads the ``queue`` series (``time_s, link, from, to, len_pkts, len_bytes``). By default
    only queues that ever held a packet are drawn (all of them if none did); ``links``
    selects link ids explicitly. ``in_bytes`` plots bytes instead of packets.
    """
    df = _select(_series(source, "queue"), "link", links)
    col, unit = ("len_bytes", "bytes") if in_bytes else ("len_pkts", "packets")
    if links is None:
        busy = df.groupby("link")[col].transform("max") > 0
        if busy.any():
            df = df[busy]
    ax = _axes(ax)
    for i, ((link, src, dst), g) in enumerate(df.groupby(["link", "from", "to"], sort=True)):
        ax.step(g["time_s"], g[col], where="post", color=flow_color(i), label=f"{src}→{dst}")
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"queue length ({unit})")
    ax.set_title("Queue occupancy")
    ax.set_ylim(bottom=0)
    _legend(ax, len(ax.get_lines()))
    return ax.figure


#: Per-flow columns :func:`plot_ccdf` picks by default, in order of preference.
CCDF_DEFAULT_COLUMNS = ("completion_s", "delay_mean_s")


def plot_ccdf(source: Source, column: Optional[str] = None, by: Optional[str] = None,
              logx: bool = False, ax: Optional["Axes"] = None) -> "Figure":
    """Empirical CCDF ``P(X > x)`` of a per-flow column across flows (and runs).

    ``source`` is a Results or a flows/sweep table. ``column`` defaults to the per-packet
    delays (``delay_s`` of :meth:`Results.packet_delays`) when the run recorded them, else flow
    completion times (``completion_s``, TCP) when present, else mean one-way delay (``delay_mean_s``);
    any ``*_s`` delay column (``delay_p99_s`` …) works. ``by`` draws one curve per value of
    that column (e.g. ``transport`` or a swept parameter).
    """
    if column is None and getattr(source, "has_packet_delays", False):
        df, column = source.packet_delays(), "delay_s"  # per packet when recorded (issue 8)
    else:
        df = _flows(source)
    if column is None:
        column = next((c for c in CCDF_DEFAULT_COLUMNS
                       if c in df.columns and df[c].notna().any()), None)
        if column is None:
            raise ValueError(f"no column to plot; pass column= (tried {CCDF_DEFAULT_COLUMNS})")
    groups = [(column, df)] if by is None else df.groupby(by, sort=True)
    ax = _axes(ax)
    for i, (label, g) in enumerate(groups):
        c = metrics.ccdf(g[column])
        # P(X > x) is right-continuous: it drops at each value, so a post step.
        x = np.concatenate(([c["value"].iloc[0]], c["value"])) if len(c) else c["value"]
        y = np.concatenate(([1.0], c["ccdf"])) if len(c) else c["ccdf"]
        ax.step(x, y, where="post", color=flow_color(i), label=str(label))
    ax.set_xscale("log" if logx else "linear")
    ax.set_xlabel(f"{column.removesuffix('_s')} (s)" if column.endswith("_s") else column)
    ax.set_ylabel("P(X > x)")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"CCDF of {column}")
    _legend(ax, len(ax.get_lines()) if by is not None else 0)
    return ax.figure


def plot_goodput(source: Source, fair_share_bps: Optional[float] = None,
                 ax: Optional["Axes"] = None) -> "Figure":
    """Bar per flow of its goodput, with Jain's index in the title and an optional
    fair-share line."""
    df = _flows(source)
    scale, unit = _rate_unit(max(float(df["goodput_bps"].max()) if len(df) else 0.0,
                                 fair_share_bps or 0.0))
    ax = _axes(ax, figsize=(max(6.0, 0.35 * len(df) + 2.0), 4.5))
    ax.bar(df["name"].astype(str), df["goodput_bps"] / scale,
           color=[flow_color(f) for f in df["flow"]])
    if fair_share_bps is not None:
        ax.axhline(fair_share_bps / scale, color="black", linestyle=":", linewidth=1.0,
                   label="fair share")
        ax.legend(loc="best", fontsize="small")
    ax.set_xlabel("flow")
    ax.set_ylabel(f"goodput ({unit})")
    ax.set_title(f"Per-flow goodput (Jain index {metrics.jain(df['goodput_bps']):.3f})")
    if len(df) > 8:
        ax.tick_params(axis="x", labelrotation=90, labelsize="x-small")
    return ax.figure


#: Plot kinds by name, as used by ``nsim plot --kind`` and the HTML report.
KINDS = {
    "cwnd": plot_cwnd,
    "throughput": plot_throughput,
    "queue": plot_queue,
    "ccdf": plot_ccdf,
    "goodput": plot_goodput,
}


class ResultsPlotter:
    """``res.plot``: the standard plots of one Results, each returning a Figure.

    ``res.plot.throughput(window_s=1.0).savefig("tput.svg")``.
    """

    def __init__(self, results: Any) -> None:
        self._results = results

    def cwnd(self, **kwargs: Any) -> "Figure":
        """cwnd/ssthresh vs time (:func:`plot_cwnd`)."""
        return plot_cwnd(self._results, **kwargs)

    def throughput(self, **kwargs: Any) -> "Figure":
        """Windowed per-flow throughput vs time (:func:`plot_throughput`)."""
        return plot_throughput(self._results, **kwargs)

    def queue(self, **kwargs: Any) -> "Figure":
        """Queue occupancy vs time (:func:`plot_queue`)."""
        return plot_queue(self._results, **kwargs)

    def ccdf(self, **kwargs: Any) -> "Figure":
        """CCDF of completion times or delays across flows (:func:`plot_ccdf`)."""
        return plot_ccdf(self._results, **kwargs)

    def goodput(self, **kwargs: Any) -> "Figure":
        """Per-flow goodput bars (:func:`plot_goodput`)."""
        return plot_goodput(self._results, **kwargs)


def available_kinds(results: Any) -> list[str]:
    """The plot kinds the data in ``results`` supports (the report draws these)."""
    have = set(results.series_kinds)
    need = {"cwnd": "tcp", "throughput": "flow_throughput", "queue": "queue"}
    kinds = [k for k, s in need.items() if s in have]
    flows = results.flows
    if len(flows) and any(c in flows.columns and flows[c].notna().any() for c in CCDF_DEFAULT_COLUMNS):
        kinds.append("ccdf")
    if len(flows):
        kinds.append("goodput")
    return kinds

