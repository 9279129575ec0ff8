"""Which per-flow columns flows.csv carries: those that apply to the run's flows (issue 30).

The core writes every per-flow column (63 of them: TCP, STP, ATM and Ethernet counters
included) whatever the flow's protocol. :func:`write_narrow_flows` keeps that table as
``flows_all.csv`` and writes ``flows.csv`` with the columns that apply, the values copied as
text. ``nsim run`` calls it on its fast path, so this module imports nothing costly (no
``csv``, ``re``, ``typing`` or ``json``; issue 14).
"""

from __future__ import annotations

import os

#: flows.csv columns every flow has; the others are written only where they apply (issue 30:
#: 63 columns, most of them irrelevant to the flow's protocol). flows_all.csv has them all.
FLOW_COMMON_COLUMNS = (
    "flow", "name", "src", "dst", "transport", "app", "start_s", "stop_s", "sent_pkts", "sent_bytes",
    "delivered_pkts", "delivered_bytes", "dropped_pkts", "dropped_bytes", "throughput_bps", "goodput_bps",
    "delay_mean_s", "delay_std_s", "delay_min_s", "delay_p50_s", "delay_p99_s", "delay_max_s", "jitter_s",
)
_FEEDBACK = ("ack_sent_pkts", "ack_delivered_pkts", "ack_dropped_pkts")
_TCP = (*_FEEDBACK, "retransmits", "timeouts", "fast_retransmits", "completion_s")
#: flows.csv columns of each transport kind, written when the run has a flow of that kind.
FLOW_TRANSPORT_COLUMNS = {
    "tcp": _TCP,
    "tcp_full": (*_TCP, "setup_s", "first_data_s", "close_s", "transactions", "transaction_mean_s"),
    "tfrc": _FEEDBACK,
    "stp": (*_FEEDBACK, "retransmits", "timeouts", "polls", "stats", "ustats"),
}


#: Per-mark counts: they apply when some packet was marked MED or LOW (unmarked traffic is all
#: HIGH, where they only repeat sent_pkts and delivered_pkts).
FLOW_MARK_COLUMNS = ("sent_high_pkts", "sent_med_pkts", "sent_low_pkts",
                     "delivered_high_pkts", "delivered_med_pkts", "delivered_low_pkts")


def flow_columns(header: list[str], rows: list[list[str]]) -> list[int]:
    """Indices of the flows.csv columns that apply to this run's flows: the common ones
    (:data:`FLOW_COMMON_COLUMNS`), those of each transport kind present
    (:data:`FLOW_TRANSPORT_COLUMNS`), the per-mark counts when marks were used, and any other
    column (drops by reason, deadline misses, goodput windows) where some flow has a value
    other than empty or 0."""
    at = {c: i for i, c in enumerate(header)}
    kinds = {r[at["transport"]] for r in rows} if "transport" in at else set()
    keep = set(FLOW_COMMON_COLUMNS).union(*(FLOW_TRANSPORT_COLUMNS.get(k, ()) for k in kinds))

    def used(i: int) -> bool:
        return any(r[i] not in ("", "0", "0.0") for r in rows)

    marked = any(used(at[c]) for c in FLOW_MARK_COLUMNS if c in at and "_high_" not in c)
    return [i for i, c in enumerate(header)
            if c in keep or (marked if c in FLOW_MARK_COLUMNS else used(i))]


def write_narrow_flows(directory: str) -> None:
    """Move ``flows.csv`` of a results folder to ``flows_all.csv`` and write ``flows.csv``
    with the columns that apply (:func:`flow_columns`), values as written (text in, text out)."""
    import _csv  # the C reader behind `csv` (`nsim run` does not import `csv`'s `re`)

    full, narrow = os.path.join(directory, "flows_all.csv"), os.path.join(directory, "flows.csv")
    os.replace(narrow, full)
    with open(full, newline="", encoding="utf-8") as f:
        table = list(_csv.reader(f))
    header, rows = (table[0], table[1:]) if table else ([], [])
    keep = flow_columns(header, rows)
    with open(narrow, "w", newline="", encoding="utf-8") as f:
        w = _csv.writer(f, lineterminator="\n")
        for row in table:
            w.writerow([row[i] for i in keep])
