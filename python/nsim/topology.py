"""The queue configured on each link direction of a scenario, and the bottleneck of a run:
what the plots read to draw thresholds and limits (:mod:`nsim.plots`) and the network picture
(:mod:`nsim.topology_plot`).
"""

from __future__ import annotations

import re
from typing import Any, Optional

import pandas as pd

__all__ = ["bottleneck", "link_queues", "queue_limit_pkts"]

#: The link default queue (scenario reference, Links).
DEFAULT_QUEUE = {"kind": "droptail", "limit": "50p"}


def _natural_key(name: str) -> list[Any]:
    """``"s10"`` after ``"s9"``: digits compare as numbers."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(name))]


def bottleneck(queues: pd.DataFrame) -> Optional[tuple[str, str]]:
    """The (from, to) of the link direction that dropped most packets; if none dropped, the
    one with the highest utilization; None without links."""
    if not len(queues):
        return None
    key = "dropped_pkts" if "dropped_pkts" in queues and queues["dropped_pkts"].fillna(0).max() > 0 else "utilization"
    if key not in queues:
        return None
    row = queues.loc[queues[key].fillna(0).idxmax()]
    return str(row["from"]), str(row["to"])


def link_queues(scenario: Optional[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """The queue table configured on each (from, to) link direction of ``[[links]]``, the
    dumbbell's bottleneck and a chain (the queue sits at the sending end; ``reverse_queue``
    is the b→a direction). Access and tree links are left out."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    sc = scenario or {}

    def add(a: str, b: str, link: dict[str, Any], simplex: bool = False) -> None:
        if link.get("atm") or link.get("ethernet"):
            return
        out[(a, b)] = link.get("queue") or DEFAULT_QUEUE
        if not simplex:
            out[(b, a)] = link.get("reverse_queue") or link.get("queue") or DEFAULT_QUEUE

    for link in sc.get("links") or []:
        between = link.get("between") or []
        if len(between) == 2:
            add(str(between[0]), str(between[1]), link, bool(link.get("simplex")))
    db = sc.get("dumbbell")
    if isinstance(db, dict) and isinstance(db.get("bottleneck"), dict):
        left, right = (db.get("routers") or ["r0", "r1"])[:2]
        add(str(left), str(right), db["bottleneck"])
    chain = sc.get("chain")
    if isinstance(chain, dict) and isinstance(chain.get("link"), dict):
        prefix = chain.get("prefix", "n")
        for i in range(int(chain.get("nodes", 0)) - 1):
            add(f"{prefix}{i}", f"{prefix}{i + 1}", chain["link"])
    return out


def queue_limit_pkts(queue: dict[str, Any]) -> Optional[float]:
    """A queue table's ``limit`` in packets (a number or ``"25p"``; droptail's default is
    50); None for a byte limit or a discipline whose default limit is not written down here."""
    from . import _core

    limit = queue.get("limit", "50p" if queue.get("kind") == "droptail" else None)
    if isinstance(limit, (int, float)) and not isinstance(limit, bool):
        return float(limit)
    if isinstance(limit, str):
        try:
            value, unit = _core.parse_quantity("limit", limit)
        except ValueError:
            return None
        return float(value) if unit == "packets" else None
    return None
