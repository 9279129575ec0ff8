"""The summary ``nsim run`` prints after a run (TOML scenario or ns-2 script): run figures,
packet accounting, drops and the first flows, read back from the written ``flows.csv``."""

from __future__ import annotations

#: `typing` only for type checkers (as in :mod:`.fast_run`: start-up time).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Flows listed in the printed summary.
SHOWN_FLOWS = 10


def _ms(v: str) -> str:
    return f"{float(v) * 1e3:.2f}ms" if v not in ("", "nan") else "-"


def summary_lines(summary: dict[str, Any], flows_csv: str) -> list[str]:
    """The printed summary: run figures, packet accounting, drops, the first flows."""
    # `_csv`, the C reader behind `csv`, without `csv`'s import of `re` (for its Sniffer).
    import _csv
    import itertools

    s, a = summary, summary["accounting"]
    rate = f"{s['events_per_s']:,.0f} events/s" if s.get("events_per_s") else ""
    lines = [
        f"{s['scenario'] or 'scenario'}: seed {s['seed']}, {s['sim_time_s']:g} s simulated, "
        f"{s['events']:,} events in {s['wall_s']:.3f} s ({rate}; set-up {s.get('setup_wall_s', 0) * 1e3:.1f} ms)",
        f"packets: {a['created']:,} created = {a['delivered']:,} delivered + {a['dropped']:,} dropped"
        f" + {a['queued']:,} queued + {a['in_flight']:,} in flight",
    ]
    if a["dropped_by_reason"]:
        lines.append("drops: " + ", ".join(f"{k} {v:,}" for k, v in a["dropped_by_reason"].items()))
    if s.get("interrupted"):
        lines.append(f"interrupted: results cover the {s['sim_time_s']:g} s simulated before the run was stopped")
    with open(flows_csv, newline="", encoding="utf-8") as f:
        reader = _csv.reader(f)
        header = next(reader, [])
        shown = [dict(zip(header, row)) for row in itertools.islice(reader, SHOWN_FLOWS)]
        more = sum(1 for _ in reader)
    if shown:
        lines.append(f"{'flow':<16} {'delivered':>10} {'dropped':>8} {'throughput':>12} {'delay mean':>11} {'p99':>9}")
        for r in shown:
            lines.append(
                f"{r['name'][:16]:<16} {int(r['delivered_pkts']):>10,} {int(r['dropped_pkts']):>8,} "
                f"{float(r['throughput_bps']) / 1e6:>9.3f}Mbps {_ms(r['delay_mean_s']):>11} {_ms(r['delay_p99_s']):>9}"
            )
        if more:
            lines.append(f"... {more} more flows in flows.csv")
    return lines
