"""The files an ns-2 script asked for, in ns-2.35's formats, written into the Tcl channels
the script opened: the packet trace of ``trace-all`` / ``trace-queue`` (nsim's ns-2 trace,
docs/results.md#tracetr, with ns-2's flow ids and ports) and traced variables (``$tcp trace
cwnd_`` after ``$tcp attach $chan``, written as ns-2's ``TcpAgent::traceVar`` does)."""

from __future__ import annotations

import math
import os
import tempfile
from typing import TYPE_CHECKING, Iterable

from .model import FlowInfo

if TYPE_CHECKING:
    import pandas as pd


#: The TCP header columns ns-2.35 appends to every line with ``Trace set show_tcphdr_ 1``
#: (ackno, flags, hlen, SACK blocks) as it writes them for one-way TCP agents with non-SACK
#: sinks and for non-TCP packets: those agents leave the fields at zero.
ZERO_TCP_HEADER = " 0 0x0 0 0"


def ns2_trace_lines(path: str, flows: list[FlowInfo], only: tuple[int, int] | None = None,
                    tcp_header: bool = False, routing_ports: dict[int, int] | None = None) -> Iterable[str]:
    """nsim's trace lines with the time rounded as ns-2 prints it, the flags as ns-2.35
    places them, column 8 (flow id) and
    9-10 (addr.port) as ns-2 writes them: the sending agent's ``fid_`` (the sink's packets:
    :attr:`FlowInfo.back_fid`) and the agents' ports
    (attach order at their nodes). With ``only = (a, b)``: the lines of link direction a->b
    (``trace-queue``); with ``tcp_header``: :data:`ZERO_TCP_HEADER` appended; ``routing_ports``:
    each node's DV agent port, for the ``rtProtoDV`` lines (flow id 0). Python reads and
    writes each line (docs/guide/ns2-scripts.md, "Speed")."""
    # Per flow: (source node, "fid src dst" forwards, "fid dst src" backwards).
    cols = []
    for f in flows:
        a, b = f"{f.src[0]}.{f.src[1]}", f"{f.dst[0]}.{f.dst[1]}"
        cols.append((str(f.src[0]), f"{f.fid} {a} {b}", f"{f.back_fid} {b} {a}"))
    # A FullTcp listener's pure ACKs: ns-2.35 prints its own sequence number in the seq
    # column (iss_ on the SYN-ACK, its first packet; iss_ + 1 after), nsim the ACK number.
    synack: dict[int, str] = {}
    keep = None if only is None else (str(only[0]), str(only[1]))
    last_in, last_out = "", ""
    flag_cache: dict[str, str] = {}
    with open(path, encoding="ascii") as src:
        for line in src:
            op, t, frm, to, ptype, size, flags, fid, sa, da, rest = line.split(" ", 10)
            if keep is not None and (frm, to) != keep:
                continue
            if t != last_in:
                last_in, last_out = t, ns2_time(t)
            if ptype == "rtProtoDV" and routing_ports is not None:
                a, b = sa[: sa.index(".")], da[: da.index(".")]
                ids = f"0 {a}.{routing_ports[int(a)]} {b}.{routing_ports[int(b)]}"
            else:
                node, fwd, back = cols[int(fid)]
                forward = sa[: sa.index(".")] == node
                ids = fwd if forward else back
                iss = flows[int(fid)].listener_iss
                if iss is not None and not forward and ptype == "ack":
                    _, pkt = rest.split(" ", 2)[:2]
                    first = synack.setdefault(int(fid), pkt)
                    rest = f"{iss if pkt == first else iss + 1} {rest.split(' ', 1)[1]}"
            if flags != "-------":
                flags = flag_cache.get(flags) or flag_cache.setdefault(flags, ns2_flags(flags))
            if tcp_header:
                rest = rest.rstrip("\n") + ZERO_TCP_HEADER + "\n"
            yield f"{op} {last_out} {frm} {to} {ptype} {size} {flags} {ids} {rest}"


#: A link failure or repair of a route model: (time, "down" or "up", node a, node b, how
#: many times ns-2 writes its ``v`` lines: once per route model tracing that link).
LinkEvent = tuple[float, str, int, int, int]


def with_link_events(lines: Iterable[str], events: list[LinkEvent]) -> Iterable[str]:
    """ns-2 trace lines with the ``v TIME link-down A B`` / ``link-up`` lines ns-2.35 writes
    into the trace-all file at each change of a route model (``rtmodel-at``, ``rtmodel``):
    per direction (b->a first), the packets the change drops on it, then its ``v`` line (as
    many times as route models trace the link); the other lines of that instant after."""
    pending = sorted(events)
    held: list[str] = []
    held_t = None
    for line in lines:
        t = float(line.split(" ", 2)[1])
        if held and t != held_t:
            yield from _at_link_events(held, held_t, pending)
            held = []
        if pending and t >= pending[0][0]:
            if t > pending[0][0]:
                yield from _at_link_events([], pending[0][0], pending)
            if pending and t == pending[0][0]:
                held.append(line)
                held_t = t
                continue
        yield line
    if held:
        yield from _at_link_events(held, held_t, pending)
    while pending:
        yield from _at_link_events([], pending[0][0], pending)


def _at_link_events(held: list[str], t: float | None, pending: list[LinkEvent]) -> list[str]:
    """The lines of instant ``t``: each link event due then (removed from ``pending``) with
    the drops it caused, then the other held lines."""
    out, used = [], set()
    while pending and pending[0][0] == t:
        at, op, a, b, copies = pending.pop(0)
        for frm, to in ((b, a), (a, b)):
            for i, line in enumerate(held):
                c = line.split(" ", 4)
                if i not in used and c[0] == "d" and op == "down" and (c[2], c[3]) == (str(frm), str(to)):
                    out.append(line)
                    used.add(i)
            out.extend([f"v {ns2_time(repr(at))} link-{op} {frm} {to}\n"] * copies)
    out.extend(line for i, line in enumerate(held) if i not in used)
    return out


def ns2_flags(nsim: str) -> str:
    """The flags column as ns-2.35's ``trace.cc`` lays it out: ``C`` (ECN echo) 1st, ``A``
    (congestion action) 4th, ``E`` (CE) 5th, ``N`` (ECN-capable) 7th (nsim's trace has E
    3rd and N 5th)."""
    out = ["-"] * 7
    out[0], out[3] = nsim[0], nsim[3]
    if nsim[2] == "E":
        out[4] = "E"
    if nsim[4] == "N":
        out[6] = "N"
    return "".join(out)


def ns2_time(text: str) -> str:
    """A trace time as ns-2.35 prints it: rounded to the microsecond (``Trace::round``),
    then ``%.15g``."""
    return "%.15g" % (math.floor(float(text) * 1e6 + 0.5) / 1e6)


def write_temp(lines: Iterable[str]) -> str:
    """Writes lines to a new temporary file and returns its path."""
    fd, path = tempfile.mkstemp(prefix="nsim-ns2-", suffix=".tr")
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.writelines(lines)
    return path


def cwnd_lines(series: "pd.DataFrame", flow: FlowInfo, since: float, initial: bool = True) -> list[str]:
    """ns-2's traced-variable lines of ``cwnd_`` of one TCP sender, ``%-8.5f %-2d %-2d %-2d
    %-2d %s %-6.3f`` (time, addr, port, dst addr, dst port, name, value), one per change of
    its value (ns-2's ``TracedDouble`` reports an assignment of a new value). The first line
    is the value when tracing starts at ``since`` (1 packet: ns-2's window before the SYN
    is answered), unless ``initial`` is false (the channel was attached after ``trace``, so
    ns-2 had nowhere to write it)."""
    rows = series[series["name"] == flow.name]
    head = f"{flow.src[0]:<2d} {flow.src[1]:<2d} {flow.dst[0]:<2d} {flow.dst[1]:<2d} cwnd_"
    out = [f"{since:<8.5f} {head} {1.0:<6.3f}\n"] if initial else []
    last = 1.0
    for t, v in zip(rows["time_s"], rows["cwnd_pkts"]):
        if v != last:
            out.append(f"{t:<8.5f} {head} {v:<6.3f}\n")
            last = v
    return out
