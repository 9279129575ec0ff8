"""ns-2's unicast routing and route models in a script: ``$ns rtproto`` (Static, Session,
DV), link costs (``$ns cost``, ``$link cost``), ``multiPath_``, the ``Agent/rtProto/DV`` and
``Agent/rtProto/Direct`` class variables, the link failure models ``$ns rtmodel-at`` and
``$ns rtmodel Deterministic``, and ``trace-dynamics``.

They become the scenario's ``routing`` table (``protocol = "dv"``: nsim's model of ns-2's
distance-vector routing, docs/models/routing.md) and its ``[[event]]`` link failures and
repairs; the link up/down lines ns-2 writes go into the trace and the channels
``trace-dynamics`` names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .interp import Ns2Error
from .units import number, seconds

#: ns-2.35's routing agent classes with their defaults (ns-default.tcl): what a script may set.
ROUTING_CLASSES: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "Agent/rtProto": (("Agent",), {"preference_": "200"}),
    "Agent/rtProto/DV": (("Agent/rtProto",), {"preference_": "120", "INFINITY": "32", "advertInterval": "2"}),
    "Agent/rtProto/Direct": (("Agent/rtProto",), {"preference_": "100"}),
    "Agent/rtProto/Static": (("Agent/rtProto",), {}),
    "Agent/rtProto/Session": (("Agent/rtProto",), {}),
}

#: ns-2's rtModel defaults (ns-default.tcl): start time, up and down intervals.
_DETERMINISTIC = {"start": 0.5, "up": 2.0, "down": 1.0}


@dataclass
class RouteModel:
    """One ``rtmodel``: the link pairs it fails and repairs, and when.

    ``manual`` is ``(op, time)`` for ``rtmodel-at``; otherwise the Deterministic model's
    ``start``, ``up``, ``down`` intervals and ``finish`` (None: none)."""

    pairs: list[tuple[int, int]]
    manual: tuple[str, float] | None = None
    start: float = _DETERMINISTIC["start"]
    up: float = _DETERMINISTIC["up"]
    down: float = _DETERMINISTIC["down"]
    finish: float | None = None
    traced: bool = False

    def events(self, end: float) -> list[tuple[float, str]]:
        """Its changes before ``end``, in time order (ns-2 rtModel's set-event chain; one due
        at the run's last instant comes after the script's own event there, which ends it)."""
        if self.manual is not None:
            op, at = self.manual
            return [(at, op)] if at < end else []
        out, t, op = [], self.start + self.up, "down"
        while t < end:
            if self.finish is not None and t > self.finish:
                if op == "up":  # ns-2 repairs the link at the finish time, fails it no more
                    out.append((self.finish, "up"))
                break
            out.append((t, op))
            t, op = (t + self.down, "up") if op == "down" else (t + self.up, "down")
        return out


@dataclass
class Routing:
    """What the script said about routing, for the scenario and the output files."""

    protocol: str = "Static"
    costs: dict[tuple[int, int], int] = field(default_factory=dict)
    models: list[RouteModel] = field(default_factory=list)
    #: ``trace-dynamics`` of a link direction: (a, b, channel, nam format).
    tracers: list[tuple[int, int, str, bool]] = field(default_factory=list)

    def set_protocol(self, proto: str, nodes: list[int], all_nodes: int) -> None:
        """``$ns rtproto PROTO [nodes]``."""
        if proto not in ("Static", "Session", "DV"):
            raise Ns2Error(f"rtproto {proto}: nsim models Static, Session and DV routing")
        if nodes and sorted(set(nodes)) != list(range(all_nodes)):
            raise Ns2Error(f"rtproto {proto} on some nodes only: nsim runs one routing protocol on every node")
        if self.protocol != "Static" and proto != self.protocol:
            raise Ns2Error(f"rtproto {proto} after rtproto {self.protocol}: nsim runs one routing protocol")
        self.protocol = proto

    def expand(self, end: float) -> list[tuple[float, str, int, int, int]]:
        """Every link change up to ``end``: (time, op, a, b, model index), in time order."""
        out = [(t, op, a, b, k) for k, m in enumerate(self.models) for t, op in m.events(end) for a, b in m.pairs]
        return sorted(out, key=lambda e: (e[0], e[4]))

    def link_events(self, end: float) -> list[tuple[float, str, int, int, int]]:
        """The trace's ``v`` lines: (time, op, a, b, copies): ns-2 writes one per model on
        that link that traces into the trace-all file (each model attaches its own tracer)."""
        copies: dict[frozenset[int], int] = {}
        for m in self.models:
            for a, b in m.pairs:
                if m.traced:
                    copies[frozenset((a, b))] = copies.get(frozenset((a, b)), 0) + 1
        seen, out = set(), []
        for t, op, a, b, _ in self.expand(end):
            if (t, op, a, b) not in seen and frozenset((a, b)) in copies:
                seen.add((t, op, a, b))
                out.append((t, op, a, b, copies[frozenset((a, b))]))
        return out

    def dynamics_lines(self, end: float, time: Callable[[str], str]) -> dict[str, list[str]]:
        """Per channel, the lines of its ``trace-dynamics`` (ns-2's plain and nam formats)."""
        out: dict[str, list[str]] = {}
        changes = sorted({(t, op, a, b) for t, op, a, b, _ in self.expand(end)})
        for t, op, a, b in changes:
            for x, y, chan, nam in self.tracers:
                if {x, y} == {a, b}:
                    tt = time(repr(t))
                    if nam:
                        out.setdefault(chan, []).extend([f"l -t {tt} -s {x} -d {y} -S {op.upper()}\n",
                                                         f"v -t {tt} link-{op} {tt} {x} {y}\n"])
                    else:
                        out.setdefault(chan, []).append(f"v {tt} link-{op} {x} {y}\n")
        return out

    def config(self, classes: Callable[[str], dict[str, str]], multipath: list[str], name: Callable[[int], str]) -> dict[str, Any]:
        """The scenario's ``routing`` table (empty for static routing without costs)."""
        if self.protocol != "DV":
            if self.costs:
                raise Ns2Error("link costs (`$ns cost`) take effect under `$ns rtproto DV` only in nsim")
            return {}
        dv_vars, direct = classes("Agent/rtProto/DV"), classes("Agent/rtProto/Direct")
        dv: dict[str, Any] = {
            "advert_interval": seconds(dv_vars["advertInterval"], "advertInterval"),
            "infinity": int(number(dv_vars["INFINITY"], "INFINITY")),
            "preference": int(number(dv_vars["preference_"], "preference_")),
            "direct_preference": int(number(direct["preference_"], "preference_")),
        }
        flags = {int(number(v, "multiPath_")) != 0 for v in multipath}
        if len(flags) > 1:
            raise Ns2Error("multiPath_ set on some nodes only: nsim sets it for every node (`Node set multiPath_ 1`)")
        dv["multipath"] = flags == {True}
        table: dict[str, Any] = {"protocol": "dv", "dv": dv}
        if self.costs:
            table["costs"] = [{"from": name(a), "to": name(b), "cost": c} for (a, b), c in sorted(self.costs.items())]
        return table


def deterministic(parms: list[str], pairs: list[tuple[int, int]], traced: bool) -> RouteModel:
    """``$ns rtmodel Deterministic {parms} ...``: ns-2's rtModel set-parms (4 values: start,
    up, down, finish; 3: start, up, down; 2: up, down; ``-`` keeps the default)."""
    if len(parms) not in (0, 2, 3, 4):
        raise Ns2Error(f"rtmodel Deterministic {{{' '.join(parms)}}}: give 2, 3 or 4 values")
    keys = {4: ("start", "up", "down", "finish"), 3: ("start", "up", "down"), 2: ("up", "down"), 0: ()}[len(parms)]
    values: dict[str, Any] = {}
    for k, v in zip(keys, parms):
        if v not in ("-", ""):
            values[k] = seconds(v, f"rtmodel {k}")
            if values[k] < 0 or (k in ("up", "down") and values[k] <= 0):
                raise Ns2Error(f"rtmodel Deterministic: {k} interval {v} must be positive")
    return RouteModel(pairs=pairs, traced=traced, **values)
