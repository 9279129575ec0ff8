"""ns-2 queue monitors (``$ns monitor-queue a b ""``): a ``QueueMonitor`` on one link direction,
with its two ``Integrator`` objects (``get-bytes-integrator``, ``get-pkts-integrator``), read
live from ``$ns at`` procedures as in ns-2.35 (``tcl/lib/ns-link.tcl`` ``init-monitor``,
``queue-monitor.cc``): ``size_`` / ``pkts_`` the bytes / packets waiting in the queue (the one
on the wire not counted), ``parrivals_`` / ``barrivals_`` what reached the queue (dropped ones
too), ``pdepartures_`` / ``bdepartures_`` what left it for the wire, ``pdrops_`` / ``bdrops_``
what it dropped, and an integrator's ``sum_`` the queue's length integrated over time up to
its last change. ``$qmon reset`` zeroes the counters and both integrators, not ``size_`` /
``pkts_``. Values come from nsim's live link state (:meth:`nsim.Simulation.state`).

One difference from ns-2.35: its ``Integrator`` reset zeroes the last length too, so its
integral starts again at the queue's next change, nsim's at the reset (the same unless
packets are queued then; tests/test_ns2_scripts.py measures it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .interp import Ns2Error

#: QueueMonitor variable -> the live link state's field.
COUNTERS = {"pkts_": "len_pkts", "size_": "len_bytes", "parrivals_": "arrivals", "barrivals_": "arrival_bytes",
            "pdepartures_": "departures", "bdepartures_": "departure_bytes", "pdrops_": "drops",
            "bdrops_": "dropped_bytes"}
#: Counters ``reset`` leaves alone (they are the queue's state, not counts since a time).
_STATE = ("pkts_", "size_")
#: Integrator kind -> (area field, length field) of the live link state.
_AREAS = {"bytes": ("area_bytes_s", "len_bytes"), "pkts": ("area_pkts_s", "len_pkts")}


@dataclass
class QueueMonitor:
    """One ``monitor-queue``: its link direction (nsim node names) and what ``reset`` subtracts."""

    frm: str
    to: str
    base: dict[str, float] = field(default_factory=dict)


@dataclass
class Integrator:
    """An integrator of a queue monitor (``kind``: ``bytes`` or ``pkts``); after a ``reset``
    at ``since`` it integrates from there (``base``: the area up to that instant)."""

    monitor: str
    kind: str
    since: float = 0.0
    base: float = 0.0


def link_state(links: list[dict], mon: QueueMonitor) -> dict:
    """The live state of the monitor's link direction."""
    return next(x for x in links if x["from"] == mon.frm and x["to"] == mon.to)


def counter(links: list[dict], mon: QueueMonitor, var: str) -> int:
    """A counter of the monitor now (since its last ``reset``)."""
    return int(link_state(links, mon)[COUNTERS[var]] - mon.base.get(var, 0))


def area_now(state: dict, kind: str, now: float) -> float:
    """The queue length integrated up to ``now`` (the area to the last change plus the
    length since)."""
    area, length = _AREAS[kind]
    return state[area] + (now - state["changed_s"]) * state[length]


def integral(links: list[dict], integ: Integrator, mon: QueueMonitor) -> float:
    """An integrator's ``sum_``: the area from its ``reset`` (or the start) to the queue's
    last change; 0 while the queue has not changed since the reset."""
    state = link_state(links, mon)
    if state["changed_s"] < integ.since:
        return 0.0
    return state[_AREAS[integ.kind][0]] - integ.base


def reset(links: list[dict], mon: QueueMonitor, integs: list[Integrator], now: float) -> None:
    """``$qmon reset`` at ``now``: the counters and the monitor's integrators start again."""
    state = link_state(links, mon)
    mon.base = {var: state[key] for var, key in COUNTERS.items() if var not in _STATE}
    for integ in integs:
        reset_integrator(links, integ, mon, now)


def reset_integrator(links: list[dict], integ: Integrator, mon: QueueMonitor, now: float) -> None:
    """``$integrator reset`` at ``now``: ``sum_`` integrates from ``now`` on."""
    integ.since = now
    integ.base = area_now(link_state(links, mon), integ.kind, now)


def refuse_set(var: str) -> Ns2Error:
    """The error for a script that sets a monitor's counter (ns-2 would let it drift)."""
    return Ns2Error(f"setting {var} of a queue monitor is not modelled (`$qmon reset` zeroes the counters)")
