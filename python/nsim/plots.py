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

import functools
import math
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

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
    "plot_cc",
    "ResultsPlotter",
    "KINDS",
    "available_kinds",
    "column_label",
    "flow_color",
    "tcp_windows",
    "mark_events",
]

#: Legends with more entries than this are drawn outside the axes, in columns.
LEGEND_INSIDE_MAX = 8
#: Legends with more entries than this are left out (the title says how many series).
LEGEND_MAX = 40
#: Holl's choice of window for the windowed time-averaged rate (Holl 2003 §6.2.1).
DEFAULT_WINDOW_S = 3.0
#: With more flows than this, time plots draw the median and percentile bands across flows
#: instead of one line per flow.
AGGREGATE_ABOVE = 12
#: Queue plots show this many of the busiest link directions by default.
BUSIEST_QUEUES = 4
#: Widest goodput bar chart (inches; 14 in is 1400 px in the report), and most bars that
#: keep their flow name under them.
GOODPUT_WIDTH_MAX = 14.0
GOODPUT_NAMES_MAX = 100
#: ns-2's default ``window_`` (the receiver's advertised window), in packets.
DEFAULT_TCP_WINDOW = 20

#: Axis titles of per-flow columns; others are derived from the column's unit suffix.
COLUMN_LABELS = {
    "completion_s": "flow completion time (s)",
    "delay_mean_s": "mean one-way delay (s)",
    "delay_std_s": "one-way delay std. dev. (s)",
    "delay_p50_s": "median one-way delay (s)",
    "delay_p99_s": "99th percentile one-way delay (s)",
    "delay_max_s": "maximum one-way delay (s)",
    "jitter_s": "jitter (s)",
    "throughput_bps": "throughput (b/s)",
    "goodput_bps": "goodput (b/s)",
    "loss_rate": "loss rate",
}
_SUFFIX_UNITS = (("_bps", "b/s"), ("_pkts", "packets"), ("_bytes", "bytes"), ("_s", "s"))


def column_label(column: str) -> str:
    """A readable axis title for a per-flow column: ``"delay_p99_s"`` -> ``"99th percentile
    one-way delay (s)"``, ``"sent_pkts"`` -> ``"sent (packets)"``."""
    if column in COLUMN_LABELS:
        return COLUMN_LABELS[column]
    for suffix, unit in _SUFFIX_UNITS:
        if column.endswith(suffix):
            return f"{column.removesuffix(suffix).replace('_', ' ')} ({unit})"
    return column.replace("_", " ")

Source = Any  # a Results, or the DataFrame the plot would read from it


def _series(source: Source, *kinds: str) -> pd.DataFrame:
    """The first recorded of the ``kinds`` series of a Results, or ``source`` itself if it
    is a DataFrame. Raises ValueError saying what to record."""
    if isinstance(source, pd.DataFrame):
        return source
    for kind in kinds:
        if kind in source.series_kinds:
            return source.series(kind)
    want = " or ".join(repr(k) for k in kinds)
    raise ValueError(
        f"this run has no {want} series (recorded: {list(source.series_kinds) or 'none'}); "
        f"add {kinds[0]!r} to record.series in the scenario"
    )


def _band(ax: "Axes", wide: pd.DataFrame, scale: float, label: str, step: bool = False) -> None:
    """Median across the columns of ``wide`` (time x flow) with 25-75 % and 10-90 % bands."""
    q = wide.quantile([0.1, 0.25, 0.5, 0.75, 0.9], axis=1).T / scale
    t = q.index.to_numpy(dtype=float)
    kw = {"step": "post"} if step else {}
    ax.fill_between(t, q[0.1], q[0.9], color="tab:blue", alpha=0.15, linewidth=0, label="10-90 %", **kw)
    ax.fill_between(t, q[0.25], q[0.75], color="tab:blue", alpha=0.3, linewidth=0, label="25-75 %", **kw)
    if step:
        ax.step(t, q[0.5], where="post", color="tab:blue", label=label)
    else:
        ax.plot(t, q[0.5], color="tab:blue", label=label)


def _flows(source: Source) -> pd.DataFrame:
    """The per-flow table of a Results, or ``source`` itself if it is a DataFrame."""
    return source if isinstance(source, pd.DataFrame) else source.flows


def _axes(ax: Optional["Axes"], figsize: tuple[float, float] = (8.0, 4.5)) -> "Axes":
    """``ax``, or the single axes of a new figure (no pyplot state involved)."""
    if ax is not None:
        return ax
    from matplotlib.figure import Figure

    return Figure(figsize=figsize, layout="constrained").add_subplot()


def mark_events(ax: "Axes", source: Source) -> None:
    """Marks the run's changes (``Results.event_log``: link failures, repairs, rate and queue
    changes; route recomputations left out) as dotted vertical lines on a time axis, each
    labelled at the top; nothing for a DataFrame source or a run without changes."""
    log = getattr(source, "event_log", None)
    if log is None or not len(log):
        return
    shown = log[log["action"] != "reroute"].groupby("time_s", sort=True)
    for t, rows in shown:
        ax.axvline(t, color="0.4", linestyle=":", linewidth=1.0)
        text = "; ".join(f"{a} {tg}".strip() for a, tg in zip(rows["action"], rows["target"]))
        ax.annotate(text, (t, 1.0), xycoords=("data", "axes fraction"), rotation=90, va="top", ha="right",
                    fontsize="x-small", color="0.3")


def plain_text(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Draw every string a plot function puts on the figure as written: flow names, link
    names and labels are user strings, and matplotlib would parse ``$...$`` in them as
    mathtext (``$$`` or ``$\\sqrt{$`` raise while the figure is saved)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import matplotlib

        with matplotlib.rc_context({"text.parse_math": False}):
            return fn(*args, **kwargs)
    return wrapper


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


def tcp_windows(scenario: Optional[dict[str, Any]]) -> dict[int, float]:
    """Receiver window (``transport.window``, packets) of each TCP flow id of a scenario dict.

    Flow ids follow the expansion order of ``flows`` (each entry ``repeat`` times), as the
    core numbers them; a TCP flow without ``window`` gets ns-2's default of 20.
    """
    out: dict[int, float] = {}
    flow = 0
    for spec in (scenario or {}).get("flows", []):
        transport = spec.get("transport") or {}
        for _ in range(int(spec.get("repeat", 1))):
            if transport.get("kind") == "tcp":
                out[flow] = float(transport.get("window", DEFAULT_TCP_WINDOW))
            flow += 1
    return out


@plain_text
def plot_cwnd(source: Source, flows: Optional[Sequence[str]] = None,
              ax: Optional["Axes"] = None, scenario: Optional[dict[str, Any]] = None) -> "Figure":
    """Effective window min(cwnd, window) (solid) and ssthresh (dashed) of each TCP flow.

    Reads the ``tcp`` series (or the event-driven ``cwnd`` series). The sender can have at
    most min(cwnd, window) packets outstanding, where ``window`` is the receiver's window
    (``transport.window``, read from ``scenario`` or the Results' scenario); where cwnd
    grows past it, cwnd itself is drawn dotted. ``flows`` restricts the plot to those flow
    names. With more than :data:`AGGREGATE_ABOVE` flows, the median effective window and
    percentile bands across flows are drawn instead.
    """
    df = _select(_series(source, "tcp", "cwnd"), "name", flows)
    windows = tcp_windows(scenario if scenario is not None else getattr(source, "scenario", None))
    wnd = df["flow"].map(windows).astype(float).fillna(np.inf)
    df = df.assign(effective=np.minimum(df["cwnd_pkts"], wnd), window=wnd)
    ax = _axes(ax)
    n_flows = df["flow"].nunique()
    if n_flows > AGGREGATE_ABOVE:
        wide = df.pivot_table(index="time_s", columns="flow", values="effective").sort_index().ffill()
        _band(ax, wide, 1.0, f"median of {n_flows} flows", step=True)
        top = float(np.nanmax(wide.to_numpy())) if wide.size else 0.0
        ax.set_title(f"Effective window min(cwnd, window), {n_flows} flows")
        ax.legend(loc="best", fontsize="small")
    else:
        top = 0.0
        for (flow, name), g in df.groupby(["flow", "name"], sort=True):
            color = flow_color(flow)
            ax.step(g["time_s"], g["effective"], where="post", color=color, label=f"{name} min(cwnd, window)")
            if (g["cwnd_pkts"] > g["window"]).any():
                ax.step(g["time_s"], g["cwnd_pkts"], where="post", color=color, linestyle=":",
                        linewidth=0.8, label=f"{name} cwnd")
            ss = g["ssthresh_pkts"].where(np.isfinite(g["ssthresh_pkts"]))
            ax.step(g["time_s"], ss, where="post", color=color, linestyle="--", label=f"{name} ssthresh")
            top = max(top, float(g["effective"].max()))
        ax.set_title("Effective window and ssthresh")
        _legend(ax, len(ax.get_lines()))
    if top > 0:
        ax.set_ylim(0, top * 1.15)
    mark_events(ax, source)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("window (packets)")
    return ax.figure


@plain_text
def plot_throughput(source: Source, window_s: Optional[float] = None,
                    flows: Optional[Sequence[str]] = None,
                    fair_share_bps: Optional[float] = None,
                    ax: Optional["Axes"] = None) -> "Figure":
    """Windowed time-averaged throughput of each flow vs time (Holl 2003 §6.2.1).

    Reads the ``flow_throughput`` series. ``window_s`` defaults to Holl's 3 s, shortened to
    a tenth of the recorded time span for short runs (never below one sampling interval).
    ``fair_share_bps`` draws Holl's horizontal fair-share line. With more than
    :data:`AGGREGATE_ABOVE` flows, the median and percentile bands across flows are drawn.

    A run that recorded no ``flow_throughput`` series gets the per-flow goodput bars of
    :func:`plot_goodput` instead (a mean is one number per flow, not a line in time; the title
    says what to record).
    """
    if not isinstance(source, pd.DataFrame) and "flow_throughput" not in source.series_kinds:
        fig = plot_goodput(_select(source.flows, "name", flows), fair_share_bps=fair_share_bps, ax=ax)
        fig.axes[0].set_title(f'{fig.axes[0].get_title()}\nno throughput series: record "flow_throughput" for one in time',
                              fontsize="medium")
        return fig
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
    n_flows = w["flow"].nunique() if len(w) else 0
    if n_flows > AGGREGATE_ABOVE:
        wide = w.pivot_table(index="time_s", columns="flow", values="throughput_bps").sort_index()
        _band(ax, wide, scale, f"median of {n_flows} flows")
        ax.set_title(f"Throughput across {n_flows} flows, {window_s:g} s window")
        n = 3  # median and two bands
    else:
        for (flow, name), g in w.groupby(["flow", "name"], sort=True):
            ax.plot(g["time_s"], g["throughput_bps"] / scale, color=flow_color(flow), label=name)
        ax.set_title(f"Per-flow throughput, {window_s:g} s window")
        n = len(ax.get_lines())
    mark_events(ax, source)
    _finish_throughput(ax, n, scale, unit, fair_share_bps)
    return ax.figure


def _finish_throughput(ax: "Axes", n: int, scale: float, unit: str, fair_share_bps: Optional[float]) -> None:
    """Fair-share line, axis titles and legend of a throughput plot."""
    if fair_share_bps is not None:
        ax.axhline(fair_share_bps / scale, color="black", linestyle=":", linewidth=1.0,
                   label="fair share")
        n += 1
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"throughput ({unit})")
    ax.set_ylim(bottom=0)
    _legend(ax, n)


@plain_text
def plot_queue(source: Source, links: Optional[Sequence[int]] = None, in_bytes: bool = False,
               busiest: int = BUSIEST_QUEUES, ax: Optional["Axes"] = None,
               scenario: Optional[dict[str, Any]] = None) -> "Figure":
    """Queue occupancy of link directions vs time, with RED's average, thresholds and the limit.

    Reads the ``queue`` series (``time_s, link, from, to, len_pkts, len_bytes, avg_len``). By
    default the ``busiest`` link directions by mean occupancy are drawn (of those that ever held
    a packet; all of them if none did); ``links`` selects link ids explicitly. ``in_bytes``
    plots bytes instead of packets. In packets, each direction also gets (same colour) its RED
    average ``avg_len`` (dashed) when the discipline keeps one in packets, the ``min_th`` /
    ``max_th`` thresholds (dotted) and the queue limit (thin solid, when the queue reached half
    of it) as the scenario (``scenario`` or the Results' own) sets them on that direction
    (:func:`nsim.topology.link_queues`).
    """
    from .topology import link_queues, queue_limit_pkts

    df = _select(_series(source, "queue"), "link", links)
    col, unit = ("len_bytes", "bytes") if in_bytes else ("len_pkts", "packets")
    total = 0
    if links is None and len(df):
        mean = df.groupby(["link", "from", "to"])[col].mean()
        mean = mean[mean > 0] if (mean > 0).any() else mean
        total = len(mean)
        keep = mean.sort_values(ascending=False, kind="stable").index[:busiest]
        df = df[df.set_index(["link", "from", "to"]).index.isin(keep)]
    configured = {} if in_bytes else link_queues(scenario if scenario is not None else getattr(source, "scenario", None))
    ax = _axes(ax)
    shown = 0
    for i, ((link, src, dst), g) in enumerate(df.groupby(["link", "from", "to"], sort=True)):
        color = flow_color(i)
        ax.step(g["time_s"], g[col], where="post", color=color, label=f"{src}→{dst}")
        shown += 1
        queue = configured.get((str(src), str(dst)), {})
        in_packets = not (queue.get("queue_in_bytes") or queue.get("bytes"))
        if not in_bytes and in_packets and "avg_len" in g and g["avg_len"].notna().any():
            ax.plot(g["time_s"], g["avg_len"], color=color, linestyle="--", linewidth=1.0,
                    label=f"{src}→{dst} RED average")
        marks = [(queue.get("min_th"), "min_th", ":"), (queue.get("max_th"), "max_th", ":")] if in_packets else []
        limit = queue_limit_pkts(queue) if queue else None
        if limit is not None and g[col].max() >= limit / 2:  # a far-off limit would only squash the plot
            marks.append((limit, "limit", "-"))
        for value, name, style in marks:
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
                ax.axhline(value, color=color, linestyle=style, linewidth=0.8, alpha=0.8)
                ax.annotate(f"{name} {value:g}", (1.0, value), xycoords=("axes fraction", "data"), xytext=(-2, 2),
                            textcoords="offset points", ha="right", va="bottom", fontsize="x-small", color=color)
    mark_events(ax, source)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"queue length ({unit})")
    ax.set_title("Queue occupancy" + (f" ({shown} busiest of {total} busy link directions)" if shown < total else ""))
    ax.set_ylim(bottom=0)
    _legend(ax, sum(1 for line in ax.get_lines() if not line.get_label().startswith("_")))
    return ax.figure


#: What a ``duration_s`` of each ``kind`` of the transfers table is, for CCDF titles.
TRANSACTION_TITLES = {"page": "page download times", "echo": "Telnet echo delays",
                      "object": "web object transfer times", "file": "transfer completion times"}

#: Per-flow columns :func:`plot_ccdf` picks by default, in order of preference.
CCDF_DEFAULT_COLUMNS = ("completion_s", "delay_mean_s")


@plain_text
def plot_ccdf(source: Source, column: Optional[str] = None, by: Optional[str] = None,
              logx: bool = False, ax: Optional["Axes"] = None, kind: Optional[str] = None) -> "Figure":
    """Empirical CCDF ``P(X > x)`` of a per-flow column across flows (and runs), or of
    per-transaction times.

    ``source`` is a Results or a flows/sweep table. ``column`` defaults to the per-packet
    delays (``delay_s`` of :meth:`Results.packet_delays`) when the run recorded them, else flow
    completion times (``completion_s``, TCP) when present, else mean one-way delay (``delay_mean_s``);
    any ``*_s`` delay column (``delay_p99_s`` …) works. ``by`` draws one curve per value of
    that column (e.g. ``transport`` or a swept parameter).

    ``kind`` (``"page"``, ``"echo"``, ``"object"`` or ``"file"``) plots the transactions of
    that kind instead: rows of :attr:`Results.transfers` (or of a transfers table), column
    ``duration_s`` by default (page download times, Telnet echo delays, transfer completion
    times); ``by = "name"`` gives one curve per flow.
    """
    per_packet = column is None and kind is None and getattr(source, "has_packet_delays", False)
    if kind is not None:
        t = source if isinstance(source, pd.DataFrame) else source.transfers
        df = t[t["kind"] == kind] if len(t) else t
        if not len(df):
            raise ValueError(f"no {kind!r} rows in the transfers table")
        column = column or "duration_s"
    elif per_packet:
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
    ax.set_xlabel(column_label(column))
    ax.set_ylabel("P(X > x)")
    ax.set_ylim(0, 1.02)
    what = column_label(column).split(" (")[0]
    if kind is not None:
        ax.set_title(f"CCDF of {TRANSACTION_TITLES.get(kind, kind)}")
    else:
        ax.set_title(f"CCDF of per-packet {what}" if per_packet else f"CCDF of {what} across flows")
    _legend(ax, len(ax.get_lines()) if by is not None else 0)
    return ax.figure


@plain_text
def plot_goodput(source: Source, fair_share_bps: Optional[float] = None,
                 ax: Optional["Axes"] = None) -> "Figure":
    """Bar per flow of its goodput, with Jain's index in the title and an optional
    fair-share line."""
    df = _flows(source)
    if "goodput_bps" not in df:  # a run without flows
        df = pd.DataFrame({"flow": pd.Series(dtype=int), "name": pd.Series(dtype=str), "goodput_bps": pd.Series(dtype=float)})
    scale, unit = _rate_unit(max(float(df["goodput_bps"].max()) if len(df) else 0.0,
                                 fair_share_bps or 0.0))
    ax = _axes(ax, figsize=(min(GOODPUT_WIDTH_MAX, max(6.0, 0.35 * len(df) + 2.0)), 4.5))
    ax.bar(df["name"].astype(str), df["goodput_bps"] / scale,
           color=[flow_color(f) for f in df["flow"]])
    if fair_share_bps is not None:
        ax.axhline(fair_share_bps / scale, color="black", linestyle=":", linewidth=1.0,
                   label="fair share")
        ax.legend(loc="best", fontsize="small")
    ax.set_xlabel("flow")
    ax.set_ylabel(f"goodput ({unit})")
    ax.set_title(f"Per-flow goodput (Jain index {metrics.jain(df['goodput_bps']):.3f})")
    if len(df) > GOODPUT_NAMES_MAX:  # names would overprint: flows in table order
        ax.set_xticks([])
        ax.set_xlabel(f"{len(df)} flows, in flow order")
    elif len(df) > 8:
        ax.tick_params(axis="x", labelrotation=90, labelsize="x-small")
    return ax.figure


#: Axis titles of the ``cc`` series' variables (others: :func:`column_label`).
CC_LABELS = {
    "state": "BBR state (0 STARTUP, 1 DRAIN, 2 PROBE_BW, 3 PROBE_RTT)",
    "pacing_gain": "pacing gain",
    "cwnd_gain": "cwnd gain",
    "btl_bw_bps": "bandwidth estimate BtlBw",
    "min_rtt_s": "min RTT estimate RTprop (s)",
    "pacing_rate_bps": "pacing rate",
    "w_max_pkts": "CUBIC W_max (packets)",
    "alpha": "DCTCP alpha",
}


@plain_text
def plot_cc(source: Source, variables: Optional[Sequence[str]] = None,
            flows: Optional[Sequence[str]] = None) -> "Figure":
    """The congestion-control state of each TCP flow (the ``cc`` series): one panel per
    variable (BBR's state, gains, bandwidth and min-RTT estimates, the pacing rate, CUBIC's
    W_max, DCTCP's alpha), one line per flow, against a shared time axis. ``variables`` and
    ``flows`` (names) restrict what is drawn."""
    from matplotlib.figure import Figure

    df = _select(_select(_series(source, "cc"), "name", flows), "variable", variables)
    names = list(dict.fromkeys(df["variable"])) if variables is None else [v for v in variables if v in set(df["variable"])]
    if not names:
        raise ValueError("no cc variable to plot (recorded: %s)" % sorted(set(_series(source, "cc")["variable"])))
    fig = Figure(figsize=(8.0, 2.2 * len(names) + 0.8), layout="constrained")
    axes = fig.subplots(len(names), 1, sharex=True, squeeze=False)[:, 0]
    for ax, var in zip(axes, names):
        d = df[df["variable"] == var]
        top = float(d["value"].abs().max()) if len(d) else 0.0
        scale, unit = _rate_unit(top) if var.endswith("_bps") else (1.0, "")
        for (flow, name), g in d.groupby(["flow", "name"], sort=True):
            ax.step(g["time_s"], g["value"] / scale, where="post", color=flow_color(flow), label=str(name))
        label = CC_LABELS.get(var, column_label(var))
        ax.set_ylabel(f"{label} ({unit})" if unit else label, fontsize="small")
        _legend(ax, len(ax.get_lines()))
    axes[0].set_title("Congestion-control state")
    axes[-1].set_xlabel("time (s)")
    return fig


#: Plot kinds by name, as used by ``nsim plot --kind`` and the HTML report.
KINDS = {
    "cwnd": plot_cwnd,
    "throughput": plot_throughput,
    "queue": plot_queue,
    "ccdf": plot_ccdf,
    "goodput": plot_goodput,
    "cc": plot_cc,
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

    def cc(self, **kwargs: Any) -> "Figure":
        """Congestion-control state vs time, one panel per variable (:func:`plot_cc`)."""
        return plot_cc(self._results, **kwargs)


def available_kinds(results: Any) -> list[str]:
    """The plot kinds the data in ``results`` supports (the report draws these)."""
    have = set(results.series_kinds)
    flows = results.flows
    kinds = ["cwnd"] if have & {"tcp", "cwnd"} else []
    if "flow_throughput" in have:
        kinds.append("throughput")
    if "queue" in have:
        kinds.append("queue")
    if "cc" in have:
        kinds.append("cc")
    if len(flows) and any(c in flows.columns and flows[c].notna().any() for c in CCDF_DEFAULT_COLUMNS):
        kinds.append("ccdf")
    if len(flows):
        kinds.append("goodput")
    return kinds

