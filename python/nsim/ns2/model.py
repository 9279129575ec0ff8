"""The network an ns-2 script has built so far (nodes, links, agents, applications) and its
translation into an nsim scenario dict, checked by the same core as a TOML file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .agents import application, full_tcp_transport, tcp_transport, tfrc_transport, udp_transport
from .interp import Ns2Error
from .queues import queue_table, tbf_hook
from .units import number


@dataclass
class Link:
    """One ``duplex-link`` (or ``simplex-link``) between ns-2 node ids ``a`` and ``b``."""

    a: int
    b: int
    rate_bps: float
    delay_s: float
    queue: str
    reverse_queue: str | None
    simplex: bool
    line: str


@dataclass
class Agent:
    """An ns-2 agent: where it is attached, its port there, its peer."""

    obj: str
    node: int | None = None
    port: int | None = None
    peer: str | None = None
    app: str | None = None
    #: (time, action, argument) of start/stop/advance calls on the agent itself.
    plan: list[tuple[float, str, float]] = field(default_factory=list)
    #: When `$ns detach-agent` detached it (its traffic then goes to ns-2's null agent).
    detached: float | None = None
    #: The script line that detached it (named by errors).
    detached_by: str = ""
    #: The ``TBF`` between it and its node (``attach-tbf-agent``), if any.
    tbf: str | None = None


@dataclass
class App:
    """An ns-2 application and its start/stop calls (time, action)."""

    obj: str
    agent: str | None = None
    plan: list[tuple[float, str]] = field(default_factory=list)


@dataclass
class FlowInfo:
    """What the trace writer needs of one nsim flow: the ns-2 fids and the end points."""

    name: str
    source: str
    sink: str
    fid: int
    src: tuple[int, int]
    dst: tuple[int, int]
    #: The fid of the sink's packets (ACKs): the source's, but a FullTcp listener's own when
    #: set (ns-2.35 writes the listener's `fid_` if not 0, else the SYN's: measured both ways).
    back_fid: int
    #: A FullTcp listener's initial sequence number (ns-2 `iss_`), which ns-2.35 prints in the
    #: seq column of its pure ACKs (the SYN-ACK's, then one more); None for other flows.
    listener_iss: int | None = None


#: The nsim error model of a link direction, given the flows' names by ns-2 flow id.
ErrorsOf = Callable[[dict[int, list[str]]], "dict[str, Any] | None"]
#: Reads an object's class precedence list and its bound variables.
Heritage = Callable[[str], list[str]]
Values = Callable[[str], dict[str, str]]


class Network:
    """Nodes, links, agents and applications of the script, in creation order."""

    def __init__(self, heritage: Heritage, values: Values) -> None:
        self.heritage = heritage
        self.values = values
        self.nodes: list[str] = []
        self.node_ids: dict[str, int] = {}
        self.links: list[Link] = []
        self.queues: dict[tuple[int, int], str] = {}
        self.agents: dict[str, Agent] = {}
        self.apps: dict[str, App] = {}
        self.ports: dict[int, int] = {}
        self.events: list[dict[str, Any]] = []
        #: FullTcp agents that called ``listen``.
        self.listening: set[str] = set()
        #: Link direction -> the nsim error model of ``$ns lossmodel`` or ``$link errormodule``
        #: on it, read when the scenario is built (the script may set the model's variables
        #: after inserting it), given the flows' names by ns-2 flow id.
        self.errors: dict[tuple[int, int], ErrorsOf] = {}
        #: Link direction -> where its error model acts when not before the queue
        #: (``link-lossmodel``: "transmit").
        self.error_at: dict[tuple[int, int], str] = {}
        #: Link direction -> the delay ``$ns delay a b d`` gave it (seconds).
        self.delays: dict[tuple[int, int], float] = {}

    def node_name(self, nid: int) -> str:
        """The nsim name of ns-2 node ``nid``."""
        return f"n{nid}"

    def add_link(self, link: Link) -> None:
        """Adds a link; a simplex link opposite an earlier one completes it (one nsim link
        per node pair, one rate and delay for both directions)."""
        for other in self.links:
            if {other.a, other.b} == {link.a, link.b}:
                if not (other.simplex and link.simplex and other.a == link.b):
                    raise Ns2Error(f"a second link between nodes {link.a} and {link.b}: nsim has one link per pair")
                if (other.rate_bps, other.delay_s) != (link.rate_bps, link.delay_s):
                    raise Ns2Error(f"simplex links {link.b}->{link.a} and {link.a}->{link.b} differ in bandwidth or"
                                   " delay: nsim's link has one rate and delay for both directions")
                other.simplex = False
                other.reverse_queue = link.queue
                self.queues[(link.a, link.b)] = link.queue
                return
        self.links.append(link)
        self.queues[(link.a, link.b)] = link.queue
        if link.reverse_queue is not None:
            self.queues[(link.b, link.a)] = link.reverse_queue

    def neighbors(self, nid: int) -> list[int]:
        """The nodes a link leads to from node ``nid``, in link order (ns-2 ``$node neighbors``)."""
        out = []
        for lk in self.links:
            if lk.a == nid:
                out.append(lk.b)
            elif lk.b == nid and not lk.simplex:
                out.append(lk.a)
        return out

    def delay_of(self, lk: Link) -> float:
        """The link's delay: the ``duplex-link``'s, or what ``$ns delay`` set, the same both ways."""
        ab, ba = self.delays.get((lk.a, lk.b)), self.delays.get((lk.b, lk.a))
        if ab is None and ba is None:
            return lk.delay_s
        if lk.simplex and ba is None:
            return ab  # type: ignore[return-value]
        if ab != ba:
            raise Ns2Error(f"`$ns delay` gives the link between nodes {lk.a} and {lk.b} the delays {ab} s and {ba} s:"
                           " nsim's link has one delay for both directions (set both the same)")
        return ab  # type: ignore[return-value]

    def flows(self) -> list[tuple[dict[str, Any], FlowInfo]]:
        """One nsim flow per connected sending agent that an application (or the agent
        itself) starts, with its trace identity."""
        out = []
        names: set[str] = set()
        for ag in self.agents.values():
            plan, app = self._plan(ag)
            if not any(what != "stop" for _, what, _ in plan):
                continue  # never started: sends nothing, in ns-2 as here
            if ag.peer is None or ag.node is None:
                raise Ns2Error(f"agent {ag.obj} is started but not attached and connected"
                               " (`$ns attach-agent`, `$ns connect`)")
            sink = self.agents[ag.peer]
            if sink.node is None:
                raise Ns2Error(f"agent {ag.peer} (the peer of {ag.obj}) is not attached to a node")
            sh, kh = self.heritage(ag.obj), self.heritage(sink.obj)
            sv, kv = self.values(ag.obj), self.values(sink.obj)
            if "Agent/TCP/FullTcp" in sh:
                if ag.obj not in self.listening and sink.obj not in self.listening:
                    raise Ns2Error(f"FullTcp {ag.obj} starts but its peer {sink.obj} never calls `listen`")
                if ag.obj in self.listening:
                    raise Ns2Error(f"FullTcp {ag.obj} listens and is started too: data in both directions of one"
                                   " FullTcp connection is not modelled (nsim's connection carries its opener's"
                                   " application; start only the agent that connects)")
                transport = full_tcp_transport(sh, sv, kh, kv)
            elif "Agent/TCP" in sh:
                transport = tcp_transport(sh, sv, kh, kv)
            elif "Agent/UDP" in sh:
                transport = udp_transport(sh, sv, kh, kv)
            elif "Agent/TFRC" in sh:
                transport = tfrc_transport(sh, sv, kh, kv)
            else:
                raise Ns2Error(f"{sh[0]} ({ag.obj}) does not send traffic in nsim"
                               " (senders: Agent/TCP and its variants, Agent/UDP, Agent/TFRC)")
            if app is not None:
                app_table = application(self.heritage(app), self.values(app), sh, sv)
            elif plan[0][1] == "send":  # FullTcp's `send N`: N bytes, the connection stays open
                app_table = {"kind": "file", "size": int(plan[0][2]), "close": False}
            else:
                app_table = {"kind": "file", "size": int(plan[0][2]) * transport.get("packet_size", 1000)}
            start = [t for t, what, _ in plan if what != "stop"]
            stop = [t for t, what, _ in plan if what == "stop"]
            if len(start) > 1 or len(stop) > 1 or (stop and stop[0] < start[0]):
                raise Ns2Error(f"{app or ag.obj} is started {len(start)} and stopped {len(stop)} times: nsim flows"
                               " start once and stop at most once, after the start")
            kind = {"tcp_full": "full"}.get(transport["kind"], transport["kind"]) if app_table["kind"] in (
                "bulk", "file") else app_table["kind"]
            name = f"{kind}_n{ag.node}_n{sink.node}"
            base, k = name, 1
            while name in names:
                k += 1
                name = f"{base}_{k}"
            names.add(name)
            flow: dict[str, Any] = {"name": name, "from": self.node_name(ag.node), "to": self.node_name(sink.node),
                                    "app": app_table, "transport": transport, "start": start[0]}
            if stop:
                flow["stop"] = stop[0]
            if ag.detached is not None or sink.detached is not None:
                flow.update(self._detach(ag, sink, stop))
            fid = int(number(sv["fid_"], "fid_"))  # ACKs carry it too (TCPSink copies it)
            back = int(number(kv["fid_"], "fid_")) if transport["kind"] == "tcp_full" else 0
            iss = int(number(kv["iss_"], "iss_")) if transport["kind"] == "tcp_full" else None
            info = FlowInfo(name, ag.obj, sink.obj, fid, (ag.node, ag.port or 0), (sink.node, sink.port or 0),
                            back or fid, iss)
            out.append((flow, info))
        return out

    @staticmethod
    def _detach(ag: Agent, sink: Agent, stop: list[float]) -> dict[str, Any]:
        """The flow keys of a connection whose ends `$ns detach-agent` detached: its stop,
        with both ends silent from then (nsim's ``detach_at_stop``)."""
        by = ag.detached_by or sink.detached_by
        if ag.detached != sink.detached:
            one = ag if sink.detached is None else sink if ag.detached is None else None
            which = f"only {one.obj} of {ag.obj} and {sink.obj}" if one else f"{ag.obj} and {sink.obj} at different times"
            raise Ns2Error(f"detach-agent of {which} ({by}): nsim detaches both ends of a connection at one time")
        if stop:
            raise Ns2Error(f"{ag.obj} is both stopped and detached ({by}): nsim takes one of the two")
        return {"stop": ag.detached, "detach_at_stop": True}

    def _plan(self, ag: Agent) -> tuple[list[tuple[float, str, float]], str | None]:
        """The agent's start/stop calls and its application (if any)."""
        if ag.app is not None and self.apps[ag.app].plan:
            if ag.plan:
                raise Ns2Error(f"agent {ag.obj} is driven both by its application and directly")
            return [(t, what, 0.0) for t, what in self.apps[ag.app].plan], ag.app
        return ag.plan, None

    def scenario(self, name: str, duration: float | None, trace: bool, cwnd: bool) -> tuple[dict[str, Any], list[FlowInfo]]:
        """The nsim scenario dict of the script and each flow's trace identity."""
        flows = self.flows()
        by_fid: dict[int, list[str]] = {}
        for _, info in flows:
            by_fid.setdefault(info.fid, []).append(info.name)
        links = []
        for lk in self.links:
            entry: dict[str, Any] = {
                "between": [self.node_name(lk.a), self.node_name(lk.b)],
                "rate": lk.rate_bps,
                "delay": self.delay_of(lk),
                "queue": queue_table(self.heritage(lk.queue), self.values(lk.queue)),
            }
            for key, field in (((lk.a, lk.b), "error"), ((lk.b, lk.a), "reverse_error")):
                table = self.errors[key](by_fid) if key in self.errors else None
                if table is not None:
                    at = self.error_at.get(key, "enqueue")
                    if entry.setdefault("error_at", at) != at:
                        raise Ns2Error(f"link {lk.a}-{lk.b}: `lossmodel` one way and `link-lossmodel` the other;"
                                       " nsim's error models of a link act at one place")
                    entry[field] = table
            if lk.simplex:
                entry["simplex"] = True
            elif lk.reverse_queue is not None:
                entry["reverse_queue"] = queue_table(self.heritage(lk.reverse_queue), self.values(lk.reverse_queue))
            links.append(entry)
        # A script's same-instant events run in ns-2.35's order (docs/guide/ns2-scripts.md
        # "Same-instant events"): its trace then matches ns-2's at ties too.
        config: dict[str, Any] = {"name": name, "hosts": [self.node_name(i) for i in range(len(self.nodes))],
                                  "links": links, "flows": [f for f, _ in flows], "run": {"tie_order": "ns2"}}
        shaped = [(info, self.agents[info.source].tbf) for _, info in flows if self.agents[info.source].tbf]
        if shaped:
            config["middlebox"] = [{"name": tbf, "node": self.node_name(info.src[0]), "flows": [info.name],
                                    "hook": tbf_hook(self.values(tbf))} for info, tbf in shaped]
        if duration is not None:
            config["duration"] = duration
        if self.events:
            config["event"] = self.events
        record: dict[str, Any] = {}
        if trace:
            record["trace"] = True
        if cwnd:
            record["series"] = ["cwnd"]
        if record:
            config["record"] = record
        return config, [i for _, i in flows]
