"""The network of a run as a picture, and the queue configured on each link direction.

The picture is drawn from what the run built (one row of :attr:`nsim.Results.queues` per link
direction, with its rate and delay), so every way of writing a topology (``links``,
``dumbbell``, ``chain``, ``tree``) draws the same. The layout is layered: around the bottleneck
when it joins two routers (nodes on its sending side to the left by hop distance, the others to
the right, so a dumbbell reads senders | router | router | receivers), otherwise from the most
central node outwards (a tree reads root | aggregation | edge | hosts). The bottleneck (the direction that dropped most;
if none dropped, the busiest) is drawn thick and red.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any, Optional

import pandas as pd

from . import plots
from .topology import _natural_key, bottleneck

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["plot_topology"]

#: Edges labelled with rate and delay when the network has at most this many links (beyond,
#: only links between routers and the bottleneck are labelled).
LABEL_ALL_MAX = 12
#: Node names drawn when no column of the picture has more nodes than this.
NAMES_MAX = 40


def _layout(nodes: list[str], edges: list[tuple[str, str]], centre: Optional[tuple[str, str]],
            degree: dict[str, int]) -> dict[str, tuple[float, float]]:
    """Columns by hop distance: around the bottleneck when it joins two routers (its sending
    side to the left), else from the most central node (a tree's root) to the right. Within
    a column nodes follow their neighbours in the column before (fewer crossings), then names."""
    adj: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)

    def hops(start: str) -> dict[str, int]:
        dist = {start: 0}
        todo = deque([start])
        while todo:
            n = todo.popleft()
            for m in adj[n]:
                if m not in dist:
                    dist[m] = dist[n] + 1
                    todo.append(m)
        return dist

    x: dict[str, float] = {}
    if centre is not None and degree[centre[0]] > 1 and degree[centre[1]] > 1:
        du, dv = hops(centre[0]), hops(centre[1])
        far = len(nodes)
        for n in nodes:
            a, b = du.get(n, far), dv.get(n, far)
            x[n] = -a - 0.5 if a < b else b + 0.5
    else:
        dist = {n: hops(n) for n in nodes}
        root = min(nodes, key=lambda n: (max(dist[n].values()) if len(dist[n]) == len(nodes) else len(nodes),
                                         -degree[n], _natural_key(n)))
        for n in nodes:
            x[n] = float(dist[root].get(n, len(nodes)))
    pos: dict[str, tuple[float, float]] = {}
    rank: dict[str, float] = {}
    for cx in sorted(set(x.values())):
        column = [n for n in nodes if x[n] == cx]

        def before(n: str) -> float:
            seen = [rank[m] for m in adj[n] if m in rank]
            return sum(seen) / len(seen) if seen else 0.0

        column.sort(key=lambda n: (before(n), _natural_key(n)))
        for i, n in enumerate(column):
            rank[n] = i / max(1, len(column) - 1)
            pos[n] = (cx, (len(column) - 1) / 2 - i)
    return pos


def _rate_text(bps: float) -> str:
    scale, unit = plots._rate_unit(bps)
    return f"{bps / scale:g} {unit}"


def _delay_text(s: float) -> str:
    return f"{s * 1e3:g} ms" if s < 1 else f"{s:g} s"


@plots.plain_text
def plot_topology(results: Any) -> Optional["Figure"]:
    """The run's nodes and links (rate and delay on each), the bottleneck highlighted; None
    when the run has no links."""
    from matplotlib.figure import Figure

    q = results.queues
    if not len(q) or not {"from", "to"} <= set(q.columns):
        return None
    nodes = sorted({*q["from"].astype(str), *q["to"].astype(str)}, key=_natural_key)
    links: dict[frozenset[str], pd.Series] = {}
    for _, row in q.iterrows():
        links.setdefault(frozenset((str(row["from"]), str(row["to"]))), row)
    edges = [(str(r["from"]), str(r["to"])) for r in links.values()]
    degree = {n: sum(n in e for e in edges) for n in nodes}
    hot = bottleneck(q)
    pos = _layout(nodes, edges, hot, degree)
    tallest = max(sum(1 for p in pos.values() if p[0] == x) for x in {p[0] for p in pos.values()})
    width = len({p[0] for p in pos.values()})
    fig = Figure(figsize=(min(11.0, 2.0 + 2.2 * width), min(9.0, 1.6 + 0.55 * tallest)), layout="constrained")
    ax = fig.add_subplot()
    label_all = len(edges) <= LABEL_ALL_MAX
    for key, row in links.items():
        a, b = str(row["from"]), str(row["to"])
        (xa, ya), (xb, yb) = pos[a], pos[b]
        is_hot = hot is not None and key == frozenset(hot)
        ax.plot([xa, xb], [ya, yb], color="tab:red" if is_hot else "0.55", linewidth=3.5 if is_hot else 1.2,
                zorder=1)
        if is_hot or label_all or (degree[a] > 1 and degree[b] > 1):
            text = f"{_rate_text(float(row['rate_bps']))}, {_delay_text(float(row['delay_s']))}" \
                if "rate_bps" in row and "delay_s" in row else ""
            ax.annotate(text, ((xa + xb) / 2, (ya + yb) / 2), ha="center", va="bottom", fontsize="small",
                        color="tab:red" if is_hot else "0.25", xytext=(0, 3), textcoords="offset points",
                        bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8}, zorder=3)
    show_names = tallest <= NAMES_MAX
    for n in nodes:
        x, y = pos[n]
        router = degree[n] > 1
        ax.scatter([x], [y], s=260 if router else 160, marker="s" if router else "o", zorder=2,
                   color="tab:blue" if router else "white", edgecolors="tab:blue", linewidths=1.5)
        if show_names:
            ax.annotate(n, (x, y), xytext=(0, -11 if router else -10), textcoords="offset points", ha="center",
                        va="top", fontsize="small")
    ax.set_axis_off()
    ax.margins(x=0.08, y=0.12)
    title = f"{len(nodes)} nodes, {len(links)} links"
    if hot is not None:
        row = q[(q["from"].astype(str) == hot[0]) & (q["to"].astype(str) == hot[1])].iloc[0]
        why = (f"{int(row['dropped_pkts']):,} drops" if row.get("dropped_pkts", 0) > 0
               else f"utilization {float(row.get('utilization', 0)):.0%}")
        title += f"; bottleneck (red): {hot[0]}→{hot[1]}, {why}"
    ax.set_title(title, fontsize="medium")
    return fig
