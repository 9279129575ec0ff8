"""The ns-2 API a script calls (``$ns node``, ``$ns duplex-link``, ``$tcp attach``...):
Python answers every method the OTcl side does not define, records the network in a
:class:`~nsim.ns2.model.Network` and the timeline in a :class:`~nsim.ns2.runner.Runner`.

A command nsim cannot model stops the script with an :class:`Ns2Error` naming it (the
interpreter adds the line); layout-only commands for nam (``color``, ``duplex-link-op``,
``$node shape``) are accepted and ignored, as they change nothing in ns-2's run either.
"""

from __future__ import annotations

import math
import os
import random
import re
import tkinter
from typing import TYPE_CHECKING, Any, Callable

from . import monitors
from .bound import check_unmapped
from .defaults import tcl_declarations
from .errors import error_table
from .interp import Interp, Ns2Error
from .model import Agent, App, Link, Network
from .outputs import cwnd_lines, ns2_time, ns2_trace_lines, with_link_events, write_temp
from .queues import QUEUE_CLASSES, QUEUE_PRELUDE
from .routing import ROUTING_CLASSES, RouteModel, Routing, deterministic
from .runner import Runner
from .units import flag, number, rate_bps, seconds

if TYPE_CHECKING:
    from ..results import Results
    from ..scenario import Scenario

#: Helpers of ns-2's Simulator written on the API below (ns-2's own are in tcl/lib).
_PRELUDE = r"""
Simulator instproc create-connection-list {stype src dtype dst fid} {
    set s [new Agent/$stype]
    set d [new Agent/$dtype]
    $s set fid_ $fid
    $d set fid_ $fid
    $self attach-agent $src $s
    $self attach-agent $dst $d
    $self connect $s $d
    return [list $s $d]
}
Simulator instproc create-connection-listen {stype src dtype dst fid} {
    set agents [$self create-connection-list $stype $src $dtype $dst $fid]
    [lindex $agents 1] listen
    return [lindex $agents 0]
}
Application/FTP instproc produce {n} { [$self agent] advance $n }
Application/FTP instproc producemore {n} { [$self agent] advanceby $n }
Simulator instproc create-connection {stype src dtype dst fid} {
    return [lindex [$self create-connection-list $stype $src $dtype $dst $fid] 0]
}
Class RNG
RNG instproc init {args} { $self instvar seed_; set seed_ 1; ::ns2::call rng $self 1 }
RNG instproc seed {{s ""}} {
    $self instvar seed_
    if {$s eq ""} { return $seed_ }
    set seed_ $s
    ::ns2::call rng $self $s
}
RNG instproc next-random {} { return [::ns2::call rng-next $self] }
RNG instproc next-substream {} { ::ns2::call rng-substream $self }
RNG instproc reset-start-substream {} { $self instvar seed_; ::ns2::call rng $self $seed_ }
RNG instproc reset-next-substream {} { ::ns2::call rng-substream $self }
RNG instproc uniform {a b} { expr {$a + ($b - $a) * ([$self next-random] * 1.0 / 0x7fffffff)} }
RNG instproc integer {k} { expr {[$self next-random] % abs($k)} }
RNG instproc exponential {{mu 1.0}} { expr {-$mu * log(([$self next-random] + 1.0) / (0x7fffffff + 1.0))} }
set defaultRNG [new RNG]
proc uniform {args} { global defaultRNG; $defaultRNG uniform {*}$args }
proc exponential {args} { global defaultRNG; $defaultRNG exponential {*}$args }
proc integer {args} { global defaultRNG; $defaultRNG integer {*}$args }
Class RandomVariable
RandomVariable instproc init {args} { $self instvar rng_; global defaultRNG; set rng_ $defaultRNG }
RandomVariable instproc use-rng {rng} { $self instvar rng_; set rng_ $rng }
RandomVariable instproc u {} { $self instvar rng_; expr {([$rng_ next-random] + 1.0) / (0x7fffffff + 1.0)} }
Class RandomVariable/Uniform -superclass RandomVariable
RandomVariable/Uniform set min_ 0.0
RandomVariable/Uniform set max_ 1.0
RandomVariable/Uniform instproc value {} { $self instvar min_ max_; expr {$min_ + ($max_ - $min_) * [$self u]} }
Class RandomVariable/Exponential -superclass RandomVariable
RandomVariable/Exponential set avg_ 1.0
RandomVariable/Exponential instproc value {} { $self instvar avg_; expr {-$avg_ * log([$self u])} }
Class RandomVariable/Pareto -superclass RandomVariable
RandomVariable/Pareto set avg_ 1.0
RandomVariable/Pareto set shape_ 1.5
RandomVariable/Pareto instproc value {} {
    $self instvar avg_ shape_
    set scale [expr {$avg_ * ($shape_ - 1.0) / $shape_}]
    expr {$scale / pow([$self u], 1.0 / $shape_)}
}
Class RandomVariable/Constant -superclass RandomVariable
RandomVariable/Constant set val_ 1.0
RandomVariable/Constant instproc value {} { $self instvar val_; return $val_ }
proc remove-all-packet-headers {} {}
proc remove-packet-header {args} {}
proc add-packet-header {args} {}
ErrorModule instproc init {cltype {clslots 29}} { ::ns2::call native $self init-module $cltype }
Simulator instproc delay_parse {t} { return [::ns2::call parse time $t] }
Simulator instproc bw_parse {b} { return [::ns2::call parse rate $b] }
proc ns-random {{seed ""}} {
    if {$seed eq ""} { return [expr {int(rand() * 2147483647)}] }
    if {$seed == 0} { set seed [clock microseconds] }
    expr {srand($seed % 2147483647)}
    return $seed
}
rename unknown ::ns2::tcl_unknown
proc unknown {cmd args} {
    if {[regexp {^[A-Z][A-Za-z0-9]*(/[A-Za-z0-9_]+)+$} $cmd] || $cmd in {RNG Trace QueueMonitor ErrorModel LL}} {
        error "ns-2 class $cmd: not modelled by nsim"
    }
    return [uplevel 1 [list ::ns2::tcl_unknown $cmd {*}$args]]
}
# ns-2's globals: doubles print with 17 digits, and the helpers its test suites run.
set tcl_precision 17
set PERL perl
set TCLSH tclsh
set argv {}
set argc 0
set argv0 [info script]
"""

#: Simulator methods that only draw nam's picture.
_LAYOUT = {"color", "duplex-link-op", "simplex-link-op", "use-scheduler", "set-animation-rate", "puts-nam-config",
           "namtrace-config", "monitor-agent-trace"}
#: Node methods that only draw nam's picture.
_NODE_LAYOUT = {"color", "shape", "label", "label-color", "label-at", "add-mark", "delete-mark"}
#: Live variables: class prefix -> variable -> how to read it from nsim's flow state.
_LIVE = {
    "Agent/LossMonitor": {"bytes_": "delivered_bytes", "npkts_": "delivered_pkts", "nlost_": "dropped_pkts"},
    "Agent/TCP": {"cwnd_": "cwnd", "ssthresh_": "ssthresh"},
    "Agent/TFRC": {"rate_": "cwnd", "ndatapack_": "sent_pkts", "ndatabytes_": "sent_pkts"},
}


class Ns2Simulator:
    """Runs one ns-2 script: the interpreter, the network it builds and its timeline.

    Args:
        script: Path of the ``.tcl`` file.
        notice: Called with each notice (a skipped ``exec``, ``namtrace-all``).
        args: The script's command-line arguments (``$argv``; ``$argc`` is their count).
    """

    def __init__(self, script: str, notice: Callable[[str], None], args: list[str] | None = None) -> None:
        self.script = script
        self._notice = notice
        self.interp = Interp(script, {
            "native": self._native, "created": self._created, "deleted": self._deleted,
            "getvar": self._getvar, "setvar": self._setvar, "exit": self._exit, "exec": self._exec,
            "closing": self._closing, "rng": self._rng_seed, "rng-next": self._rng_next,
            "rng-substream": self._rng_substream, "parse": self._parse,
        })
        self._rngs: dict[str, random.Random] = {}
        #: ``rtproto``, link costs, route models and their traces.
        self.routing = Routing()
        #: The argument of the script's ``exit`` (None: it did not call it).
        self.exit_code: str | None = None
        self.net = Network(self._heritage, self._values)
        self.runner = Runner(self.interp, self._scenario, self._write_outputs, self._plans_a_flow)
        self._classes: dict[str, list[str]] = {}
        self._trace_all: str | None = None
        self._trace_queues: list[tuple[str, int, int]] = []
        #: Agents whose cwnd_ is traced: (agent, since, whether a channel was attached then).
        self._traced: list[tuple[str, float, bool]] = []
        self._attached: dict[str, str] = {}
        self._live_base: dict[tuple[str, str], float] = {}
        self._link_objects: dict[tuple[int, int], str] = {}
        self._link_keys: dict[str, tuple[int, int]] = {}
        #: Error model object -> its unit, ranvar and droplist (set by methods, not variables).
        self._error_models: dict[str, dict[str, Any]] = {}
        #: ``ErrorModule Fid`` objects -> {flow id: bound error model}; link object -> module.
        self._modules: dict[str, dict[int, str]] = {}
        self._link_modules: dict[str, str] = {}
        self._inserted: dict[str, list[str]] = {}
        #: Queue monitors of ``monitor-queue`` and their integrators, by object.
        self._qmons: dict[str, monitors.QueueMonitor] = {}
        self._integs: dict[str, monitors.Integrator] = {}
        self._making_monitor = False
        #: Whether trace lines get ns-2's TCP header columns (``Trace set show_tcphdr_ 1``).
        self._tcp_header = False
        self.interp.tcl.eval(tcl_declarations())
        self.interp.tcl.eval(tcl_declarations(ROUTING_CLASSES))
        self.interp.tcl.eval(_PRELUDE)
        self.interp.tcl.eval(QUEUE_PRELUDE)
        self.interp.tcl.call("set", "argv", self.interp.tcl.call("list", *(args or [])))
        self.interp.tcl.call("set", "argc", len(args or []))

    # -- the script's objects ---------------------------------------------------------------
    def _plans_a_flow(self, words: tuple[str, ...]) -> bool:
        """Whether an event's one command only plans a flow: an application's ``start`` /
        ``stop``, an FTP's ``produce N`` / ``producemore N``, a TCP's ``advance N`` /
        ``advanceby N``."""
        obj, *rest = words
        if obj in self.net.apps:
            return rest in (["start"], ["stop"]) or (len(rest) == 2 and rest[0] in ("produce", "producemore"))
        return obj in self.net.agents and len(rest) == 2 and rest[0] in ("advance", "advanceby")

    def _heritage(self, obj: str) -> list[str]:
        cls = str(self.interp.tcl.getvar(f"::otcl::class({obj})"))
        if cls not in self._classes:
            self._classes[cls] = list(self.interp.tcl.splitlist(self.interp.tcl.eval(f"::otcl::heritage {{{cls}}}")))
        return self._classes[cls]

    def _values(self, obj: str) -> dict[str, str]:
        tcl = self.interp.tcl
        names = tcl.splitlist(tcl.eval(f"info vars ::otcl::o::{obj}::*"))
        out = {}
        for full in names:
            if tcl.eval(f"array exists {full}") == "0":
                out[full.rsplit("::", 1)[1]] = str(tcl.getvar(full))
        return out

    def _var(self, obj: str, var: str) -> str:
        return str(self.interp.tcl.getvar(f"::otcl::o::{obj}::{var}"))

    def _created(self, obj: str, cls: str) -> None:
        chain = self._heritage(obj)
        if ("QueueMonitor" in chain or "Integrator" in chain) and not self._making_monitor:
            raise Ns2Error(f"new {cls}: nsim models the queue monitors `$ns monitor-queue` makes, not ones made"
                           " and attached by hand")
        if "Node" in chain:
            self.net.node_ids[obj] = len(self.net.nodes)
            self.net.nodes.append(obj)
        elif "Agent" in chain:
            self.net.agents[obj] = Agent(obj)
            self.interp.tcl.eval(f"set ::otcl::watched({obj}) 1; set ::otcl::live({obj}) 1")
        elif "Application" in chain:
            self.net.apps[obj] = App(obj)
            self.interp.tcl.eval(f"set ::otcl::watched({obj}) 1")
            if "Application/Traffic/CBR" in chain:  # interval_ follows the class's rate_, as in ns-2
                self._setvar(obj, "rate_", self._var(obj, "rate_"))

    def _deleted(self, obj: str) -> None:
        if obj in self.net.agents or obj in self.net.apps:
            raise Ns2Error(f"delete {obj}: deleting an agent or application is not modelled")

    def _node(self, obj: str) -> int:
        if obj not in self.net.node_ids:
            raise Ns2Error(f"{obj!r} is not a node (made by `$ns node`)")
        return self.net.node_ids[obj]

    def _agent(self, obj: str) -> Agent:
        if obj not in self.net.agents:
            raise Ns2Error(f"{obj!r} is not an agent")
        return self.net.agents[obj]

    # -- bound variables ------------------------------------------------------------------
    def _getvar(self, obj: str, var: str) -> str:
        if (obj in self._qmons and var in monitors.COUNTERS) or (obj in self._integs and var == "sum_"):
            return self._monitor_value(obj, var)
        if obj in self._integs and var in ("lastx_", "lasty_"):
            raise Ns2Error(f"reading {var} of a queue monitor's integrator is not modelled (its sum_ is)")
        chain = self._heritage(obj)
        if "Agent/TFRC" in chain and var == "true_loss_rate_" and self.runner.phase != "setup":
            raise Ns2Error("reading true_loss_rate_ of an Agent/TFRC (the receiver's loss count) is not modelled")
        table = next((t for prefix, t in _LIVE.items() if prefix in chain), {})
        if var not in table or self.runner.phase == "setup":
            return self._var(obj, var)
        flows = self.runner.state()["flows"]  # the first live read builds the flows
        names = self._flows_of(obj)
        states = [f for f in flows if f["name"] in names]
        if not states:
            return self._var(obj, var)
        if "Agent/TFRC" in chain and var in ("rate_", "ndatabytes_"):
            f, size = states[0], number(self._var(obj, "packetSize_"), "packetSize_")
            if var == "ndatabytes_":  # ns-2 counts packetSize_ per packet sent
                return str(int(f["sent_pkts"] * size))
            # TFRC's rate is X = cwnd·s/R (its cwnd is X·R/s); InitRate_ before the first R
            rate = f["cwnd"] * size / f["srtt_s"] if f["srtt_s"] else number(self._var(obj, "InitRate_"), "InitRate_")
            return "%.17g" % rate
        value = sum(0.0 if f[table[var]] is None else float(f[table[var]]) for f in states)
        value -= self._live_base.get((obj, var), 0.0)
        return f"{value:g}" if var in ("cwnd_",) else str(int(value))

    def _monitor_value(self, obj: str, var: str) -> str:
        """A queue monitor's counter or an integrator's ``sum_`` now (``%.17g``, as ns-2
        prints a bound double)."""
        if self.runner.phase == "setup":
            return self._var(obj, var)
        links = self.runner.state()["links"]
        if obj in self._qmons:
            return str(monitors.counter(links, self._qmons[obj], var))
        integ = self._integs[obj]
        return "%.17g" % monitors.integral(links, integ, self._qmons[integ.monitor])

    def _flows_of(self, obj: str) -> set[str]:
        """The flows an agent sends (a TCP: one) or receives (a LossMonitor: all its sources)."""
        return {info.name for info in self.runner.flows or [] if obj in (info.source, info.sink)}

    def _setvar(self, obj: str, var: str, value: str) -> None:
        if obj in self._qmons or obj in self._integs:
            raise monitors.refuse_set(var)
        chain = self._heritage(obj)
        table = next((t for prefix, t in _LIVE.items() if prefix in chain), {})
        if var in table and self.runner.phase == "live":
            current = float(self._getvar(obj, var)) + self._live_base.get((obj, var), 0.0)
            if var in ("bytes_", "npkts_", "nlost_"):
                self._live_base[(obj, var)] = current - number(value, var)
                return
            raise Ns2Error(f"setting {var} of a running TCP is not modelled")
        if "TBF" in chain and self.runner.phase != "setup":
            raise Ns2Error(f"setting {var} of a TBF during the run is not modelled (set it before `$ns run`)")
        if "Link" in chain:
            raise Ns2Error(f"setting {var} of a link: give bandwidth and delay in duplex-link (a change during the"
                           " run needs issue 27's events)")
        if self.runner.phase not in ("setup",):
            self.runner.can_plan(f"`{obj} set {var} {value}`")
            if self._started(obj):
                raise Ns2Error(f"`set {var}` at {self.runner.now:g} s on an object whose flow has started: "
                               "changing a model parameter during the run is not modelled")
        tcl = self.interp.tcl
        if var == "class_" and "Agent" in chain:
            tcl.setvar(f"::otcl::o::{obj}::fid_", value)
        elif var == "fid_" and "Agent" in chain:
            tcl.setvar(f"::otcl::o::{obj}::class_", value)
        elif "Application/Traffic/CBR" in chain and var in ("rate_", "interval_", "packetSize_"):
            size = number(self._var(obj, "packetSize_"), "packetSize_")
            if var == "interval_":
                tcl.setvar(f"::otcl::o::{obj}::rate_", repr(size * 8 / seconds(value, var)))
                if not re.fullmatch(r"[-+.0-9eE]+", value):  # `1ms` reads back as ns-2's double, 0.001
                    tcl.setvar(f"::otcl::o::{obj}::interval_", repr(seconds(value, var)))
            else:
                tcl.setvar(f"::otcl::o::{obj}::interval_", repr(size * 8 / rate_bps(self._var(obj, "rate_"), "rate_")))

    def _started(self, obj: str) -> bool:
        if obj in self.net.apps:
            return bool(self.net.apps[obj].plan)
        if obj in self.net.agents:
            ag = self.net.agents[obj]
            return bool(ag.plan) or (ag.app is not None and bool(self.net.apps[ag.app].plan))
        return False

    # -- commands ---------------------------------------------------------------------------
    def _native(self, obj: str, method: str, *args: str) -> Any:
        if self.interp.tcl.eval(f"info exists ::otcl::class({obj})") == "0":
            chain = list(self.interp.tcl.splitlist(self.interp.tcl.eval(f"::otcl::heritage {{{obj}}}")))
            if (chain[0], method) not in _HANDLERS:
                raise Ns2Error(f"class method `{obj} {method}` is not modelled by nsim")
        else:
            chain = self._heritage(obj)
        for cls in chain:
            handler = _HANDLERS.get((cls, method))
            if handler is not None:
                return handler(self, obj, *args)
        if "Node" in chain and method in _NODE_LAYOUT:
            return ""
        raise Ns2Error(f"{chain[0]} method `{method}` is not modelled by nsim")

    def _ns_node(self, obj: str, *args: str) -> str:
        return self.interp.tcl.eval("new Node")

    def _node_id(self, obj: str) -> int:
        return self._node(obj)

    def _ns_link(self, obj: str, a: str, b: str, bw: str, delay: str, qtype: str, *rest: str, simplex: bool = False) -> str:
        if self.runner.phase != "setup":
            raise Ns2Error("links are created before `$ns run`")
        if rest:
            raise Ns2Error(f"extra link arguments {' '.join(rest)!r} are not modelled")
        if qtype not in QUEUE_CLASSES:
            raise Ns2Error(f"queue type {qtype}: no nsim model (supported: {', '.join(QUEUE_CLASSES)})")
        ia, ib = self._node(a), self._node(b)
        q = self.interp.tcl.eval(f"new {QUEUE_CLASSES[qtype]}")
        rq = None if simplex else self.interp.tcl.eval(f"new {QUEUE_CLASSES[qtype]}")
        self.net.add_link(Link(ia, ib, rate_bps(bw, "bandwidth"), seconds(delay, "delay"), q, rq, simplex, ""))
        for x, y, ix, iy in [(a, b, ia, ib)] + ([] if simplex else [(b, a, ib, ia)]):  # ns-2's `link_(a:b)`
            self.interp.tcl.eval(f"set ::otcl::o::{obj}::link_({ix}:{iy}) [{obj} link {x} {y}]")
        return ""

    def _ns_simplex(self, obj: str, *args: str) -> str:
        return self._ns_link(obj, *args, simplex=True)

    def _ns_queue_limit(self, obj: str, a: str, b: str, limit: str) -> str:
        key = (self._node(a), self._node(b))
        if key not in self.net.queues:
            raise Ns2Error(f"no link from node {key[0]} to node {key[1]}")
        self.interp.tcl.eval(f"{self.net.queues[key]} set limit_ {{{limit}}}")
        return ""

    def _node_neighbors(self, obj: str) -> str:
        return " ".join(self.net.nodes[n] for n in self.net.neighbors(self._node(obj)))

    def _ns_delay(self, obj: str, a: str, b: str, delay: str, kind: str = "simplex") -> str:
        key = (self._node(a), self._node(b))
        if key not in self.net.queues:
            raise Ns2Error(f"no link from node {key[0]} to node {key[1]}")
        if kind not in ("simplex", "duplex"):
            raise Ns2Error(f"delay type {kind!r}: simplex or duplex")
        if self.runner.phase != "setup":
            raise Ns2Error("`$ns delay` during the run is not modelled (a change during the run needs issue 27's events)")
        d = seconds(delay, "delay")
        self.net.delays[key] = d
        if kind == "duplex":
            self.net.delays[(key[1], key[0])] = d
        return ""

    def _app_agent(self, obj: str) -> str:
        return self.net.apps[obj].agent or ""

    def _ns_attach_agent(self, obj: str, node: str, agent: str) -> str:
        nid = self._node(node)
        ag = self._agent(agent)
        if ag.node is not None:
            raise Ns2Error(f"agent {agent} is already attached to node {ag.node}")
        ag.node = nid
        ag.port = self.net.ports.get(nid, 0)
        self.net.ports[nid] = ag.port + 1
        self.interp.tcl.eval(f"{agent} set agent_addr_ {nid}; {agent} set agent_port_ {ag.port}")
        return ""

    def _ns_detach_agent(self, obj: str, node: str, agent: str) -> str:
        nid, ag = self._node(node), self._agent(agent)
        if ag.node != nid:
            raise Ns2Error(f"agent {agent} is not attached to node {nid}")
        self.runner.can_plan(f"`detach-agent {agent}`")
        if ag.detached is not None:
            raise Ns2Error(f"agent {agent} is already detached (at {ag.detached:g} s)")
        ag.detached = self.runner.now
        where = self.interp.where()
        ag.detached_by = f"line {where[0]}: `{where[1]}`" if where else "detach-agent"
        return ""

    def _ns_connect(self, obj: str, a: str, b: str) -> str:
        sa, sb = self._agent(a), self._agent(b)
        senders = [x for x in (sa, sb) if {"Agent/TCP", "Agent/UDP"} & set(self._heritage(x.obj))]
        if len(senders) == 1:  # a Null or LossMonitor takes any number of sources, as in ns-2
            src, dst = senders[0], sb if senders[0] is sa else sa
            if src.peer is not None or (dst.peer is not None and "Agent/TCPSink" in self._heritage(dst.obj)):
                raise Ns2Error("an agent connected twice: a sender has one peer, a TCP sink one sender")
        elif sa.peer is not None or sb.peer is not None:
            raise Ns2Error("an agent connected twice: nsim flows have one peer")
        sa.peer, sb.peer = b, a
        self.interp.tcl.eval(f"set ::otcl::o::{a}::dst_addr_ {sb.node}; set ::otcl::o::{a}::dst_port_ {sb.port}")
        return a

    def _ns_at(self, obj: str, t: str, script: str) -> str:
        self.runner.at(seconds(t, "at"), script, self.interp.where())
        return ""

    def _ns_run(self, obj: str) -> str:
        self.runner.run()
        return ""

    def _ns_now(self, obj: str) -> str:
        return "%.17g" % self.runner.now  # as ns-2.35 prints it (0.10000000000000001)

    def _ns_halt(self, obj: str) -> str:
        self.runner.halt()
        return ""

    def _ns_trace_all(self, obj: str, chan: str) -> str:
        if self.net.links:
            raise Ns2Error("trace-all after links were created: ns-2 would trace only later links; call it first")
        self._trace_all = chan
        return ""

    def _ns_namtrace_all(self, obj: str, *args: str) -> str:
        self._notice("namtrace-all: nsim writes no nam animation trace (the file stays empty)")
        return ""

    def _ns_eventtrace_all(self, obj: str, *args: str) -> str:
        if len(args) > 1:
            raise Ns2Error("eventtrace-all takes at most one file channel")
        self._notice("eventtrace-all: nsim writes no `E` lines (TCP congestion events: FAST_RECOVERY, "
                     "TIMEOUT, SLOW_START...); the trace has the packet events only")
        return ""

    def _ns_flush_trace(self, obj: str) -> str:
        self.runner.finish("flush-trace")
        return ""

    def _ns_trace_queue(self, obj: str, a: str, b: str, chan: str = "") -> str:
        if not chan:
            raise Ns2Error("trace-queue without a file channel is not modelled")
        key = (self._node(a), self._node(b))
        if key not in self.net.queues:
            raise Ns2Error(f"no link from node {key[0]} to node {key[1]}")
        self._trace_queues.append((chan, *key))
        return ""

    def _ns_rtproto(self, obj: str, proto: str, *nodes: str) -> str:
        if self.runner.phase != "setup":
            raise Ns2Error(f"rtproto {proto} at {self.runner.now:g} s: nsim's routing protocol is chosen before `$ns run`")
        self.routing.set_protocol(proto, [self._node(n) for n in nodes], len(self.net.nodes))
        return ""

    def _model_pairs(self, nodes: tuple[str, ...]) -> list[tuple[int, int]]:
        """The links a route model fails: between its two nodes, or a node's to each
        neighbour (ns-2's rtModel set-elements)."""
        ids = [self._node(n) for n in nodes]
        if len(ids) == 2:
            if (ids[0], ids[1]) not in self.net.queues:
                raise Ns2Error(f"no link from node {ids[0]} to node {ids[1]}")
            return [(ids[0], ids[1])]
        if len(ids) == 1:
            return [(ids[0], n) for n in self.net.neighbors(ids[0])]
        raise Ns2Error("a route model takes one node (its links) or two (the link between them)")

    def _ns_rtmodel_at(self, obj: str, t: str, op: str, *nodes: str) -> str:
        if op not in ("up", "down"):
            raise Ns2Error(f"rtmodel-at {op}: only up and down")
        self.routing.models.append(RouteModel(self._model_pairs(nodes), manual=(op, seconds(t, "rtmodel-at")),
                                              traced=self._trace_all is not None))
        return ""

    def _ns_rtmodel(self, obj: str, dist: str, parms: str, *nodes: str) -> str:
        if dist != "Deterministic":
            raise Ns2Error(f"rtmodel {dist}: nsim models Deterministic route models and rtmodel-at (ns-2's "
                           "Exponential and Trace models draw from its generator or read a file)")
        model = deterministic(list(self.interp.tcl.splitlist(parms)), self._model_pairs(nodes), self._trace_all is not None)
        self.routing.models.append(model)
        return ""

    def _model_end(self, duration: float | None) -> float:
        """Where route models' changes stop: the run's end; without one, never (only
        ``rtmodel-at`` changes then: a Deterministic model's failures would go on for ever)."""
        if duration is not None:
            return duration
        if any(m.manual is None for m in self.routing.models):
            raise Ns2Error("rtmodel Deterministic in a run without an end: end it with `$ns at T \"exit 0\"`")
        return math.inf

    def _ns_cost(self, obj: str, a: str, b: str, cost: str) -> str:
        key = (self._node(a), self._node(b))
        if key not in self.net.queues:
            raise Ns2Error(f"no link from node {key[0]} to node {key[1]}")
        self.routing.costs[key] = int(number(cost, "cost"))
        return ""

    def _link_cost(self, obj: str, cost: str) -> str:
        a, b = self._link_keys[obj]
        return self._ns_cost(obj, self.net.nodes[a], self.net.nodes[b], cost)

    def _link_cost_query(self, obj: str) -> str:
        return str(self.routing.costs.get(self._link_keys[obj], 1))

    def _ns_link_object(self, obj: str, a: str, b: str) -> str:
        key = (self._node(a), self._node(b))
        if key not in self.net.queues:
            raise Ns2Error(f"no link from node {key[0]} to node {key[1]}")
        if key not in self._link_objects:
            lk = next(x for x in self.net.links if {x.a, x.b} == set(key))
            link = self.interp.tcl.eval("new Link")
            self.interp.tcl.eval(f"set ::otcl::o::{link}::bandwidth_ {lk.rate_bps:.17g}; set ::otcl::o::{link}::delay_ {lk.delay_s:.17g}")
            self.interp.tcl.eval(f"set ::otcl::watched({link}) 1")
            self._link_objects[key] = link
            self._link_keys[link] = key
        return self._link_objects[key]

    def _link_link(self, obj: str) -> str:
        return obj  # ns-2's LinkDelay: nsim's link object holds bandwidth_ and delay_ itself

    def _ns_monitor_queue(self, obj: str, a: str, b: str, qtrace: str, *interval: str) -> str:
        key = (self._node(a), self._node(b))
        if key not in self.net.queues:
            raise Ns2Error(f"no link from node {key[0]} to node {key[1]}")
        if self.runner.phase != "setup":
            raise Ns2Error("monitor-queue during the run is not modelled: create the monitor before `$ns run`")
        tcl = self.interp.tcl
        self._making_monitor = True
        try:
            qmon = tcl.eval("new QueueMonitor")
            integs = {kind: tcl.eval("new Integrator") for kind in ("bytes", "pkts")}
        finally:
            self._making_monitor = False
        self._qmons[qmon] = monitors.QueueMonitor(self.net.node_name(key[0]), self.net.node_name(key[1]))
        for kind, integ in integs.items():
            self._integs[integ] = monitors.Integrator(qmon, kind)
            tcl.eval(f"set ::otcl::live({integ}) 1; set ::otcl::watched({integ}) 1")
        tcl.eval(f"set ::otcl::live({qmon}) 1; set ::otcl::watched({qmon}) 1")
        return qmon

    def _qmon_integrator(self, obj: str, kind: str) -> str:
        return next(i for i, integ in self._integs.items() if integ.monitor == obj and integ.kind == kind)

    def _qmon_bytes_integrator(self, obj: str) -> str:
        return self._qmon_integrator(obj, "bytes")

    def _qmon_pkts_integrator(self, obj: str) -> str:
        return self._qmon_integrator(obj, "pkts")

    def _qmon_reset(self, obj: str) -> str:
        if self.runner.phase != "setup":
            integs = [i for i in self._integs.values() if i.monitor == obj]
            monitors.reset(self.runner.state()["links"], self._qmons[obj], integs, self.runner.now)
        return ""

    def _integ_reset(self, obj: str) -> str:
        if self.runner.phase != "setup":
            integ = self._integs[obj]
            monitors.reset_integrator(self.runner.state()["links"], integ, self._qmons[integ.monitor],
                                      self.runner.now)
        return ""

    def _link_trace_dynamics(self, obj: str, ns: str, chan: str, op: str = "") -> str:
        a, b = self._link_keys[obj]
        self.routing.tracers.append((a, b, chan, op == "nam"))
        return ""

    def _link_queue(self, obj: str) -> str:
        return self.net.queues[self._link_keys[obj]]

    def _ns_lossmodel(self, obj: str, em: str, a: str, b: str) -> str:
        key = (self._node(a), self._node(b))
        if key not in self.net.queues:
            raise Ns2Error(f"no link from node {key[0]} to node {key[1]}")
        if self.runner.phase != "setup":
            raise Ns2Error("an error model is inserted before `$ns run` (a change during the run needs issue 27's events)")
        self.net.errors[key] = lambda fids: self._error_table(em)
        return ""

    def _ns_link_lossmodel(self, obj: str, em: str, a: str, b: str) -> str:
        """ns-2's ``link-lossmodel`` puts the error model at the far end of the link; nsim's
        acts as the packet leaves the queue (as ``lossmodel``): the same packets are lost and
        the transmitter is as busy, only the ``d`` line comes one link delay earlier."""
        self._notice(f"link-lossmodel {a} {b}: losses act as a packet leaves the queue (as `lossmodel`);"
                     " ns-2 drops it at the far end, so its `d` trace line is one link delay later")
        self._ns_lossmodel(obj, em, a, b)
        self.net.error_at[(self._node(a), self._node(b))] = "transmit"
        return ""

    def _error_table(self, em: str) -> dict[str, Any] | None:
        """The nsim error model of ``em`` as it stands (read when the scenario is built)."""
        extra = self._error_models.get(em, {})
        ranvar = extra.get("ranvar")
        return error_table(self._heritage(em), self._values(em), extra.get("unit", "pkt"), extra.get("droplist"),
                           None if ranvar is None else (self._heritage(ranvar), self._values(ranvar)))

    def _module_init(self, obj: str, cltype: str) -> str:
        if cltype != "Fid":
            raise Ns2Error(f"ErrorModule {cltype}: nsim models ErrorModule Fid (one error model per flow id)")
        self._modules[obj] = {}
        return ""

    def _module_insert(self, obj: str, em: str) -> str:
        self._inserted.setdefault(obj, []).append(em)  # it acts once bound to a flow id
        return ""

    def _module_models(self, obj: str) -> str:
        return " ".join(self._inserted.get(obj, []))

    def _module_bind(self, obj: str, em: str, fid: str, *more: str) -> str:
        if more:
            raise Ns2Error("binding an error model to a range of flow ids is not modelled (one flow id)")
        self._modules[obj][int(number(fid, "bind"))] = em
        return ""

    def _module_default(self, obj: str, em: str) -> str:
        if em != "pass":
            raise Ns2Error("an ErrorModule's default other than `pass` is not modelled")
        return ""

    def _link_errormodule(self, obj: str, module: str = "") -> str:
        key = self._link_keys[obj]
        if not module:
            return self._link_modules.get(obj, "")
        if module not in self._modules:
            raise Ns2Error(f"{module!r} is not an ErrorModule (`new ErrorModule Fid`)")
        if self.runner.phase != "setup" or key in self.net.errors:
            raise Ns2Error("one error module per link direction, inserted before `$ns run`")
        self._link_modules[obj] = module
        self.net.errors[key] = lambda fids: self._module_table(module, fids)
        return ""

    def _module_table(self, module: str, fids: dict[int, list[str]]) -> dict[str, Any] | None:
        """The nsim error model of an ``ErrorModule Fid``: its one bound model, a drop list
        counting only the data packets of the flow with that ns-2 flow id (nsim's
        ``drop_list`` with ``flow``); packets of other flows pass."""
        bound = self._modules[module]
        if not bound:
            return None
        if len(bound) > 1:
            raise Ns2Error(f"ErrorModule {module} binds models to flow ids {sorted(bound)}: nsim has one error model per"
                           " link direction")
        (fid, em), = bound.items()
        table = self._error_table(em)
        if table is None:
            return None
        if table["kind"] != "drop_list":
            raise Ns2Error(f"ErrorModule {module}: {self._heritage(em)[0]} bound to a flow id: nsim models an"
                           " ErrorModel/List there")
        names = fids.get(fid, [])
        if not names:
            return None  # no flow sends with that id: nothing to drop
        if len(names) > 1:
            raise Ns2Error(f"ErrorModule {module} drops packets of flow id {fid}, which {len(names)} flows carry: nsim's"
                           " drop list counts one flow's data packets")
        return {**table, "flow": names[0]}

    def _em_unit(self, obj: str, unit: str = "") -> str:
        if not unit:
            return self._error_models.get(obj, {}).get("unit", "pkt")
        self._error_models.setdefault(obj, {})["unit"] = unit
        return ""

    def _em_ranvar(self, obj: str, rv: str) -> str:
        self._error_models.setdefault(obj, {})["ranvar"] = rv
        return ""

    def _em_droplist(self, obj: str, items: str) -> str:
        self._error_models.setdefault(obj, {})["droplist"] = [int(number(k, "droplist"))
                                                              for k in self.interp.tcl.splitlist(items)]
        return ""

    def _ns_ignore(self, obj: str, *args: str) -> str:
        return ""

    def _agent_attach(self, obj: str, chan: str) -> str:
        traced = [since for o, since, _ in self._traced if o == obj]
        if traced and traced[0] != self.runner.now:
            raise Ns2Error(f"attach at {self.runner.now:g} s after `trace cwnd_` at {traced[0]:g} s: attach the channel"
                           " when tracing starts")
        self._attached[obj] = chan
        return ""

    def _agent_trace(self, obj: str, var: str, *args: str) -> str:
        if var not in ("cwnd_",) or "Agent/TCP" not in self._heritage(obj):
            raise Ns2Error(f"tracing {var}: nsim traces cwnd_ of TCP senders")
        # Attached later (at this instant), ns-2 writes the changes but not the first value.
        self._traced.append((obj, self.runner.now, obj in self._attached))
        return ""

    def _full_listen(self, obj: str) -> str:
        self.net.listening.add(obj)
        return ""

    def _ns_add_agent_trace(self, obj: str, agent: str, name: str, chan: str = "") -> str:
        if chan:
            raise Ns2Error("add-agent-trace to a file (not the nam trace) is not modelled")
        return ""  # agent events in the nam trace only

    def _agent_tracevar(self, obj: str, var: str) -> str:
        if self._var(obj, "nam_tracevar_") not in ("0", "false"):
            return ""  # nam_tracevar_ true: the variable goes to the nam trace only
        return self._agent_trace(obj, var)

    def _agent_attach_app(self, obj: str, kind: str) -> str:
        try:
            app = self.interp.tcl.eval(f"new Application/{kind}")
        except tkinter.TclError as e:
            raise Ns2Error(f"attach-app {kind}: {e}") from None
        self._app_attach_agent(app, obj)
        return app

    def _agent_attach_tbf(self, obj: str, tbf: str) -> str:
        if self.runner.phase != "setup":
            raise Ns2Error("attach-tbf during the run is not modelled: attach the TBF before `$ns run`")
        if "TBF" not in self._heritage(tbf):
            raise Ns2Error(f"attach-tbf {tbf}: not a TBF")
        self._agent(obj).tbf = tbf
        self.interp.tcl.eval(f"set ::otcl::watched({tbf}) 1")
        return ""

    def _agent_advance(self, obj: str, n: str) -> str:
        self.runner.can_plan(f"`{obj} advance`")
        self._agent(obj).plan.append((self.runner.now, "advance", number(n, "advance")))
        return ""

    def _full_send(self, obj: str, n: str) -> str:
        self.runner.can_plan(f"`{obj} send`")
        self._agent(obj).plan.append((self.runner.now, "send", number(n, "send")))
        return ""

    def _agent_port(self, obj: str) -> str:
        return self._var(obj, "agent_port_")

    def _agent_addr(self, obj: str) -> str:
        return self._var(obj, "agent_addr_")

    def _app_attach_agent(self, obj: str, agent: str) -> str:
        ag = self._agent(agent)
        if ag.app is not None and ag.app != obj:
            raise Ns2Error(f"agent {agent} already carries application {ag.app}")
        ag.app = obj
        self.net.apps[obj].agent = agent
        return ""

    def _app_start(self, obj: str) -> str:
        self.runner.can_plan(f"`{obj} start`")
        self.net.apps[obj].plan.append((self.runner.now, "start"))
        return ""

    def _app_stop(self, obj: str) -> str:
        self.runner.can_plan(f"`{obj} stop`")
        self.net.apps[obj].plan.append((self.runner.now, "stop"))
        return ""

    def _rng_seed(self, obj: str, seed: str) -> None:
        self._rngs[obj] = random.Random(int(number(seed, "seed")))

    def _rng_next(self, obj: str) -> int:
        return int(self._rngs[obj].random() * 0x7FFFFFFF)

    def _rng_substream(self, obj: str) -> None:
        self._rngs[obj] = random.Random(self._rng_next(obj))

    def _parse(self, kind: str, text: str) -> str:
        return repr(seconds(text, "delay") if kind == "time" else rate_bps(text, "bandwidth"))

    # -- interpreter hooks ------------------------------------------------------------------
    def _exit(self, code: str) -> None:
        self.exit_code = code
        self.runner.finish("exit")

    def _exec(self, *args: str) -> None:
        self._notice(f"exec {' '.join(args)}: not run (nsim runs no external programs)")

    def _closing(self, chan: str) -> None:
        outputs = {self._trace_all, *self._attached.values(), *(c for c, _, _ in self._trace_queues)}
        if chan in outputs and self.runner.phase in ("plan", "live"):
            self.runner.finish(f"close {chan}")

    # -- the scenario and the output files --------------------------------------------------
    def _scenario(self, duration: float | None, final: bool) -> tuple["Scenario", Any]:
        """The scenario of the script as it stands, ending at ``duration`` (None: when the
        flows stop); ``final``: with the packet trace the script asked for (the run stepped
        for live reads has none)."""
        from ..scenario import Scenario

        traced = final and bool(self._trace_all or self._trace_queues)
        self.net.events = [{"at": t, "action": op, "link": f"{self.net.node_name(a)}-{self.net.node_name(b)}"}
                           for t, op, a, b, _ in self.routing.expand(self._model_end(duration))]
        config, flows = self.net.scenario(os.path.basename(self.script), duration, traced, bool(self._traced))
        tcl = self.interp.tcl
        routing = self.routing.config(
            lambda cls: dict(zip(*[iter(tcl.splitlist(tcl.eval(f"set ::otcl::defaults({cls})")))] * 2)),
            [self._var(n, "multiPath_") for n in self.net.nodes], self.net.node_name)
        if routing:
            config["routing"] = routing
        self._tcp_header = traced and self._show_tcphdr(config["flows"])
        if duration is None and any("stop" not in f for f in config["flows"]):
            raise Ns2Error("the script's events end without `$ns halt` or `exit` while a flow never stops:"
                           " ns-2 would run forever; end the run with `$ns at T \"exit 0\"` or a finish procedure")
        return Scenario.from_dict(config, source=self.script), flows

    def _show_tcphdr(self, flows: list[dict[str, Any]]) -> bool:
        """Whether the script set ``Trace set show_tcphdr_ 1``; it stops on another ``Trace``
        variable nsim has no model for, and on a flow whose header fields ns-2 fills in (a
        SACK sink's block count, FullTcp's ackno and flags), which nsim's trace lacks."""
        tcl = self.interp.tcl
        values = dict(zip(*[iter(tcl.splitlist(tcl.eval("set ::otcl::defaults(Trace)")))] * 2))
        check_unmapped("the packet trace", ["Trace"], values, ("show_tcphdr_",))
        if not flag(values["show_tcphdr_"], "show_tcphdr_"):
            return False
        for f in flows:
            if f["transport"]["kind"] == "tcp_full" or f["transport"].get("sack"):
                raise Ns2Error(f"Trace set show_tcphdr_ 1 with {f['name']}: nsim's trace has no FullTcp ackno and flags"
                               " nor SACK block counts (one-way TCP with non-SACK sinks and UDP: ns-2's zeros)")
        return True

    def _write_outputs(self, results: "Results", trace: str | None) -> None:
        flows = self.runner.flows
        tcl = self.interp.tcl
        files = []
        end = self._model_end(self.runner.now)
        ports = {n: self.net.ports.get(n, 0) + 1 for n in range(len(self.net.nodes))}  # after ns-2's Direct agent
        if self._trace_all and trace:
            lines = ns2_trace_lines(trace, flows, tcp_header=self._tcp_header, routing_ports=ports)
            files.append((self._trace_all, write_temp(with_link_events(lines, self.routing.link_events(end)))))
        for chan, lines in self.routing.dynamics_lines(end, ns2_time).items():
            files.append((chan, write_temp(lines)))
        for chan, a, b in self._trace_queues:
            if trace:
                files.append((chan, write_temp(ns2_trace_lines(trace, flows, only=(a, b), tcp_header=self._tcp_header,
                                                               routing_ports=ports))))
        if self._traced:
            series = results.series("cwnd")
            for obj, since, initial in self._traced:
                info = next((f for f in flows if f.source == obj), None)
                if info is not None and obj in self._attached:
                    files.append((self._attached[obj], write_temp(cwnd_lines(series, info, since, initial))))
        for chan, path in files:
            src = str(tcl.call("open", path, "r"))
            try:
                tcl.call("fcopy", src, chan)
            finally:
                tcl.call("::ns2::tcl_close", src)
            os.unlink(path)


_HANDLERS: dict[tuple[str, str], Callable[..., Any]] = {
    ("Simulator", "node"): Ns2Simulator._ns_node,
    ("Simulator", "duplex-link"): Ns2Simulator._ns_link,
    ("Simulator", "simplex-link"): Ns2Simulator._ns_simplex,
    ("Simulator", "queue-limit"): Ns2Simulator._ns_queue_limit,
    ("Simulator", "attach-agent"): Ns2Simulator._ns_attach_agent,
    ("Simulator", "connect"): Ns2Simulator._ns_connect,
    ("Simulator", "detach-agent"): Ns2Simulator._ns_detach_agent,
    ("Simulator", "at"): Ns2Simulator._ns_at,
    ("Simulator", "run"): Ns2Simulator._ns_run,
    ("Simulator", "now"): Ns2Simulator._ns_now,
    ("Simulator", "halt"): Ns2Simulator._ns_halt,
    ("Simulator", "trace-all"): Ns2Simulator._ns_trace_all,
    ("Simulator", "namtrace-all"): Ns2Simulator._ns_namtrace_all,
    ("Simulator", "eventtrace-all"): Ns2Simulator._ns_eventtrace_all,
    ("Simulator", "flush-trace"): Ns2Simulator._ns_flush_trace,
    ("Simulator", "trace-queue"): Ns2Simulator._ns_trace_queue,
    ("Simulator", "rtproto"): Ns2Simulator._ns_rtproto,
    ("Simulator", "rtmodel-at"): Ns2Simulator._ns_rtmodel_at,
    ("Simulator", "rtmodel"): Ns2Simulator._ns_rtmodel,
    ("Simulator", "cost"): Ns2Simulator._ns_cost,
    ("Link", "cost"): Ns2Simulator._link_cost,
    ("Link", "cost?"): Ns2Simulator._link_cost_query,
    **{("Simulator", m): Ns2Simulator._ns_ignore for m in _LAYOUT},
    ("Simulator", "link"): Ns2Simulator._ns_link_object,
    ("Simulator", "lossmodel"): Ns2Simulator._ns_lossmodel,
    ("Simulator", "link-lossmodel"): Ns2Simulator._ns_link_lossmodel,
    ("ErrorModel", "unit"): Ns2Simulator._em_unit,
    ("ErrorModule", "init-module"): Ns2Simulator._module_init,
    ("ErrorModel", "ranvar"): Ns2Simulator._em_ranvar,
    ("ErrorModel", "drop-target"): Ns2Simulator._ns_ignore,
    ("ErrorModel/List", "droplist"): Ns2Simulator._em_droplist,
    ("Link", "queue"): Ns2Simulator._link_queue,
    ("Link", "link"): Ns2Simulator._link_link,
    ("Link", "errormodule"): Ns2Simulator._link_errormodule,
    ("ErrorModule", "insert"): Ns2Simulator._module_insert,
    ("ErrorModule", "bind"): Ns2Simulator._module_bind,
    ("ErrorModule", "errormodels"): Ns2Simulator._module_models,
    ("ErrorModule", "default"): Ns2Simulator._module_default,
    ("Simulator", "monitor-queue"): Ns2Simulator._ns_monitor_queue,
    ("QueueMonitor", "get-bytes-integrator"): Ns2Simulator._qmon_bytes_integrator,
    ("QueueMonitor", "get-pkts-integrator"): Ns2Simulator._qmon_pkts_integrator,
    ("QueueMonitor", "reset"): Ns2Simulator._qmon_reset,
    ("Integrator", "reset"): Ns2Simulator._integ_reset,
    ("Link", "trace-dynamics"): Ns2Simulator._link_trace_dynamics,
    ("Node", "id"): Ns2Simulator._node_id,
    ("Node", "neighbors"): Ns2Simulator._node_neighbors,
    ("Simulator", "delay"): Ns2Simulator._ns_delay,
    ("Application", "agent"): Ns2Simulator._app_agent,
    ("Node", "allocaddr"): Ns2Simulator._ns_ignore,
    ("Node", "expandaddr"): Ns2Simulator._ns_ignore,
    ("Agent", "attach"): Ns2Simulator._agent_attach,
    ("Agent", "trace"): Ns2Simulator._agent_trace,
    ("Agent", "tracevar"): Ns2Simulator._agent_tracevar,
    ("Simulator", "add-agent-trace"): Ns2Simulator._ns_add_agent_trace,
    ("Agent", "attach-app"): Ns2Simulator._agent_attach_app,
    ("Agent", "attach-tbf"): Ns2Simulator._agent_attach_tbf,
    ("Agent", "port"): Ns2Simulator._agent_port,
    ("Agent", "addr"): Ns2Simulator._agent_addr,
    ("Agent/TCP", "advance"): Ns2Simulator._agent_advance,
    ("Agent/TCP/FullTcp", "listen"): Ns2Simulator._full_listen,
    ("Agent/TCP/FullTcp", "send"): Ns2Simulator._full_send,
    ("Agent/TCP", "advanceby"): Ns2Simulator._agent_advance,
    ("Application", "attach-agent"): Ns2Simulator._app_attach_agent,
    ("Application", "start"): Ns2Simulator._app_start,
    ("Application", "stop"): Ns2Simulator._app_stop,
}
