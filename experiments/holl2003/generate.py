"""Writes the study's scenario files (``scenarios/*.toml``) and sweep files (``*.sweep.toml``)
from Holl 2003's parameters.

The topologies are regular but large (256 best-effort hosts, up to 68 call hosts), and some
sweep axes are whole tables, so they are generated rather than typed; the generated files are
committed and are what ``nsim reproduce`` runs. Re-run after changing a parameter here:
``python experiments/holl2003/generate.py``.

Layout (the notes' §2.1-2.2, Table 4.1):

- ``links[0]`` is the satellite hop r0-r1 (1.536 Mb/s, 450 ms, 64-packet router queue).
- Best-effort pair j (j = 0..63) has access delay 4 + 96·j/63 ms on both sides (10 Mb/s) and
  two flows: ``be{2j}`` left to right and ``be{2j+1}`` right to left. Each direction has its
  own host pair (``s{i}`` -> ``d{i}``), so one flow entry with ``repeat = 128`` covers both
  directions and one grid path sets the transport of all 128 flows. (In the thesis a pair's two
  flows share their hosts; on 10 Mb/s duplex access links carrying ~24 kb/s that sharing has
  no effect.)
- Call k (k = 0..16) is ``call{2k}`` left to right and ``call{2k+1}`` right to left, each on
  its own hosts with 10 Mb/s, 5 ms access links (one-way path 460 ms), so ``repeat = 2n``
  gives n two-way calls.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
SAT_BW = 1_536_000
SAT_DELAY = "450ms"
MTU = 576
BE_PAIRS = 64
MAX_CALLS = 17
#: Each BE flow starts at a uniform draw in [0, 0.5 s) after its group's start (Table 4.2:
#: groups every 0.5 s), from its own random stream: our choice, not the thesis' (its ns script
#: starts a group's flows together and has no other randomness), so that seeds differ and the
#: spread over seeds says how much a result hangs on the flows' phases. The calls keep their
#: common start (in phase, as the thesis' cbr_ap_time_start), which sets the CBQ delays.
BE_START_JITTER = "0.5s"
#: Seeds per point in the full run (--quick: 1).
SEEDS = 5

DROPTAIL = {"kind": "droptail", "limit": 64}
RED = {"kind": "red", "limit": 64, "min_th": 5, "max_th": 32, "linterm": 10, "gentle": True,
       "q_weight": 0.002, "bytes": False, "queue_in_bytes": False}


def cbq(cbr_limit: int, be_leaf: dict[str, Any]) -> dict[str, Any]:
    """Table 4.6 / 4.8: CBR strictly before BE, no bandwidth limits."""
    return {"kind": "cbq", "classes": [
        {"name": "cbr", "priority": 1, "match": {"ptypes": ["cbr"]},
         "queue": {"kind": "droptail", "limit": cbr_limit}},
        {"name": "be", "priority": 2, "queue": be_leaf},
    ]}


def eq_4_2(n: int, be_size: int = MTU, cbr_size: int = 92, interval: float = 0.008) -> int:
    """Holl's CBR class buffer (Eq. 4.2); brackets are ceilings (Table 4.7)."""
    cap = SAT_BW * interval
    a = n * math.ceil(8 * be_size / cap)
    return a + n * math.ceil(8 * cbr_size * a / cap)


def be_delay_ms(j: int) -> float:
    return 4 + 96 * j / (BE_PAIRS - 1)


def w_opt(delay_ms: float) -> int:
    """Eq. 6.3/6.4: fair-share window in segments for a pair with this access delay."""
    a = SAT_BW * (0.450 + 2 * delay_ms / 1000) / (8 * MTU * BE_PAIRS)
    return math.floor(2 * a + 1)


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"


def tcp(variant: str = "newreno", window: int = 20) -> dict[str, Any]:
    # 576 B on the wire = 536 B payload + 40 B TCP/IP header; window 20 = ns-2 `window_`.
    # Vegas' packet_size is the whole packet, as ns-2's Vegas `packetSize_` (vegas.ns2_sizes).
    # The sinks echo timestamps as ns-2 did before 2003/08/13 (`ts_echo_bugfix_ false`), the
    # thesis' release (May 2003); of these TCPs only FACK reads the echo (README, "Setup").
    t = {"kind": "tcp", "variant": variant, "window": window, "packet_size": "576B" if variant == "vegas" else "536B"}
    return {**t, "ts_echo_bugfix": False} if variant == "fack" else t


def transport(protocol: str, window: int = 20) -> dict[str, Any]:
    """The BE transport for a protocol label: an ns-2 one-way TCP variant, ``"stp"`` (Henderson's
    STP, docs/models/stp.md defaults: the thesis gives none of its settings) or ``"full_<variant>"``
    (two-way FullTcp, ns-2.35 defaults). All send 576 B packets (536 B payload + 40 B header)
    with a window of ``window`` packets (Vegas' `packet_size` is its whole packet, as ns-2's)."""
    if protocol == "stp":
        return {"kind": "stp", "window": window, "packet_size": "536B"}
    if protocol.startswith("full_"):
        return {"kind": "tcp_full", "variant": protocol.removeprefix("full_"), "window": window, "mss": "536B"}
    return tcp(protocol, window)


class Builder:
    def __init__(self, name: str, comment: str, duration: str) -> None:
        self.head = [f"# {line}".rstrip() for line in comment.strip().splitlines()]
        self.head += ["# Generated by generate.py: edit that, not this file.",
                      f"name = {json.dumps(name)}", f"duration = {json.dumps(duration)}", "seed = 1"]
        self.hosts: list[str] = []
        self.routers: list[str] = []
        self.links: list[dict[str, Any]] = []
        self.flows: list[dict[str, Any]] = []
        self.record: dict[str, Any] = {}
        self.middlebox: list[dict[str, Any]] = []

    def host(self, name: str, router: str, rate: str, delay: str) -> None:
        self.hosts.append(name)
        self.links.append({"between": [name, router], "rate": rate, "delay": delay})

    def write(self, root: Path, file: str) -> None:
        out = list(self.head)
        out.append(f"hosts = {toml_value(self.hosts)}")
        out.append(f"routers = {toml_value(self.routers)}")
        out.append("links = [")
        out += [f"  {toml_value(link)}," for link in self.links]
        out.append("]")
        for f in self.flows:
            out.append("\n[[flows]]")
            out += [f"{k} = {toml_value(v)}" for k, v in f.items()]
        for m in self.middlebox:
            out.append("\n[[middlebox]]")
            out += [f"{k} = {toml_value(v)}" for k, v in m.items()]
        if self.record:
            out.append("\n[record]")
            out += [f"{k} = {toml_value(v)}" for k, v in self.record.items()]
        (root / "scenarios" / file).write_text("\n".join(out) + "\n", encoding="utf-8")


def dumbbell(b: Builder, queue: dict[str, Any], calls: int, windows: bool = False, protocol: str = "newreno") -> None:
    """Satellite hop, 128 best-effort hosts pairs (two per pair of the thesis), call hosts.
    With ``windows``, each BE pair's sender window is capped at W_opt (Eq. 6.4) and hosts are
    named per (start group, W_opt) block so that each block is one flow entry."""
    b.routers = ["r0", "r1"]
    b.links.append({"between": ["r0", "r1"], "rate": "1.536Mb", "delay": SAT_DELAY, "queue": queue})
    blocks: dict[tuple[int, int], list[int]] = {}
    for j in range(BE_PAIRS):
        blocks.setdefault((j // 8, w_opt(be_delay_ms(j))) if windows else (0, 20), []).append(j)
    for e, ((group, win), pairs) in enumerate(blocks.items()):
        p = f"b{e}" if windows else ""
        for i in range(2 * len(pairs)):
            j, back = pairs[i // 2], i % 2 == 1
            d = f"{be_delay_ms(j):.9f}ms"
            b.host(f"{p}s{i}", "r1" if back else "r0", "10Mb", d)
            b.host(f"{p}d{i}", "r0" if back else "r1", "10Mb", d)
        flow: dict[str, Any] = {"name": f"{p}be{{i}}", "from": f"{p}s{{i}}", "to": f"{p}d{{i}}",
                                "repeat": 2 * len(pairs)}
        if windows:
            flow["start"] = f"{0.1 + 0.5 * group:.1f}s"
        else:
            flow["start"] = "0.1s"
            flow["stagger"] = {"every": "0.5s", "group": 16}
        flow["start_jitter"] = BE_START_JITTER
        flow["app"] = {"kind": "bulk"}
        flow["transport"] = transport(protocol, window=win)
        b.flows.append(flow)
    for i in range(2 * calls):
        back = i % 2 == 1
        b.host(f"cs{i}", "r1" if back else "r0", "10Mb", "5ms")
        b.host(f"cd{i}", "r0" if back else "r1", "10Mb", "5ms")


def call_flow(n: int, start: str | None = None, stop: str | None = None) -> dict[str, Any]:
    f: dict[str, Any] = {"name": "call{i}", "from": "cs{i}", "to": "cd{i}", "repeat": 2 * n}
    if start:
        f["start"] = start
    if stop:
        f["stop"] = stop
    f["app"] = {"kind": "cbr", "interval": "8ms", "size": "92B"}
    return f


def ch4(root: Path) -> None:
    b = Builder("holl2003 ch4: 64 BE pairs and n two-way calls over the GEO hop", """
Holl 2003 chapter 4 (Tables 4.1, 4.2): 64 best-effort pairs (128 bulk TCP flows, 576 B
packets, start in 8 groups 0.1 + 0.5k s), n two-way 92 kb/s CBR calls (92 B / 8 ms from
t = 0) on their own 5 ms hosts, the 1.536 Mb/s / 450 ms satellite hop with a 64-packet
router queue (links[0].queue: droptail / red / cbq, set by the sweeps). Goodput is
measured over the thesis' record window [63.6, 123.6] s. The sweeps set the call count
(flows[1].repeat = 2n), the BE transport (flows[0].transport) and the queue.""", "128.6s")
    dumbbell(b, DROPTAIL, MAX_CALLS)
    b.flows.append(call_flow(1))
    b.record = {"windows": [["63.6s", "123.6s"]]}
    b.write(root, "ch4.toml")


def ch5(root: Path) -> None:
    b = Builder("holl2003 ch5: 64 BE pairs over a GEO hop with bit errors", """
Holl 2003 chapter 5 (Tables 5.1-5.4): chapter 4 without calls; the satellite hop loses a
packet of b bits with probability 1 - (1 - BER)^b in both directions (the thesis does not
say which links carry the error model; the sweeps set links[0].error.ber and
links[0].reverse_error.ber together through the hop's error tables).""", "128.6s")
    dumbbell(b, DROPTAIL, 0)
    b.links[0]["error"] = {"kind": "ber", "ber": 0.0}
    b.links[0]["reverse_error"] = {"kind": "ber", "ber": 0.0}
    b.record = {"windows": [["63.6s", "123.6s"]]}
    b.write(root, "ch5.toml")


def ch6_step(root: Path, windows: bool, protocol: str = "newreno") -> None:
    tag = f"_wl_{protocol}" if windows else ""
    b = Builder(f"holl2003 ch6: step response{' with W_opt windows' if windows else ''}", f"""
Holl 2003 chapter 6 (Tables 6.1, 6.2): 64 BE pairs as in chapter 4, CBQ router (CBR class
16 packets = Eq. 4.2 for 8 calls, BE 64), 8 two-way calls switched on at 123.6 s (about
half the link). {'Each sender window is capped at W_opt = floor(2a+1) (Eq. 6.4): 5, 6 or 7 segments for 8, 31 and 25 pairs.' if windows else 'Window 20 (ns-2 default).'}
Goodput is recorded over the windows before ([63.6, 123.6] s) and after ([183.6, 423.6] s)
the step, and over consecutive 3 s windows after it (Holl's windowed time average, §6.2.1).""",
                "428.6s")
    dumbbell(b, cbq(eq_4_2(8), DROPTAIL), 8, windows=windows, protocol=protocol)
    b.flows.append(call_flow(8, start="123.6s", stop="428.1s"))
    threes = [[f"{183.6 + 3 * k:.1f}s", f"{186.6 + 3 * k:.1f}s"] for k in range(80)]
    b.record = {"windows": [["63.6s", "123.6s"], ["183.6s", "423.6s"], *threes]}
    b.write(root, f"ch6_step{tag}.toml")


def ch6_nearfar(root: Path) -> None:
    b = Builder("holl2003 ch6.4: near and far sources over a chain", """
Holl 2003 §6.4 (Fig. 6.21): chain R0 -(450 ms)- R1 -(1 ms)- R2 -(1 ms)- R3, every link
1.536 Mb/s with a CBQ router queue (links[0] = R2-R3, the shared one, is where the sweep puts
CBQ+RED); hosts hang off on 1.536 Mb/s, 1 ms links. 32 far BE
pairs (R0 side to R3 side, RTT 908 ms) and 32 near pairs (R2 side to R3 side, RTT 6 ms),
each a bulk flow in both directions; 8 two-way calls on link R2-R3 from 123.6 s. The
chain and host attachment are inferred from the stated RTTs (the figure did not survive).""",
                "428.6s")
    ch6_nearfar_topology(b, "newreno")
    b.record = {"windows": [["63.6s", "123.6s"], ["183.6s", "423.6s"]]}
    b.write(root, "ch6_nearfar.toml")


def ch6_nearfar_topology(b: Builder, protocol: str) -> None:
    """The §6.4 chain, its near and far BE pairs and 8 calls on R2-R3 from 123.6 s."""
    q = cbq(eq_4_2(8), DROPTAIL)
    b.routers = ["R0", "R1", "R2", "R3"]
    # links[0] is the shared hop R2-R3, the only one every flow crosses (so the only congested
    # one): the sweep sets its queue (CBQ or CBQ+RED); the far-only hops keep CBQ.
    b.links += [{"between": ["R2", "R3"], "rate": "1.536Mb", "delay": "1ms", "queue": q},
                {"between": ["R0", "R1"], "rate": "1.536Mb", "delay": "450ms", "queue": q},
                {"between": ["R1", "R2"], "rate": "1.536Mb", "delay": "1ms", "queue": q}]
    for side, router in (("far", "R0"), ("near", "R2")):
        for i in range(64):
            back = i % 2 == 1
            src, dst = (("R3", router) if back else (router, "R3"))
            b.host(f"{side}s{i}", src, "1.536Mb", "1ms")
            b.host(f"{side}d{i}", dst, "1.536Mb", "1ms")
        b.flows.append({"name": f"{side}{{i}}", "from": f"{side}s{{i}}", "to": f"{side}d{{i}}", "repeat": 64,
                        "start": "0.1s", "stagger": {"every": "0.5s", "group": 16},
                        "start_jitter": BE_START_JITTER, "app": {"kind": "bulk"}, "transport": transport(protocol)})
    for i in range(16):
        back = i % 2 == 1
        b.host(f"cs{i}", "R3" if back else "R2", "1.536Mb", "1ms")
        b.host(f"cd{i}", "R2" if back else "R3", "1.536Mb", "1ms")
    b.flows.append(call_flow(8, start="123.6s", stop="428.1s"))


#: IP-ABR's per-flow share (EEB-NM, §7.2.2): a direction's link split evenly among its 64 BE
#: flows, throttled to what the 8 calls (736 kb/s) leave when they start at 123.6 s.
ABR_SHARE = SAT_BW // BE_PAIRS
ABR_SHARE_AFTER = (SAT_BW - 8 * 92 * 8 * 125) // BE_PAIRS


def ip_abr_proxy(node: str) -> dict[str, Any]:
    """An IP-ABR proxy at ``node`` (docs/models/middlebox.md); the share is thrown back at the
    CBR start by schedule (the thesis does not say whether its throttle was automatic)."""
    return {"node": node, "hook": {"kind": "ip_abr", "share": f"{ABR_SHARE}b",
                                   "schedule": [{"at": "123.6s", "share": f"{ABR_SHARE_AFTER}b"}]}}


def proxied(b: Builder, left: str, right: str, hop: dict[str, Any], queue: dict[str, Any]) -> None:
    """Replaces ``hop`` (between ``left`` and ``right``, links[0]) by ``left -(0 ms)- pL -hop-
    pR -(0 ms)- right``: the proxy nodes of §7.2.2, on 0 ms links of the hop's rate so that
    each proxy sees the data after the gateway's output queue (``queue``, on both 0 ms links:
    links[0] for left-to-right, links[2] for right-to-left traffic)."""
    rate = hop["rate"]
    b.routers += ["pL", "pR"]
    b.links[0] = {"between": [left, "pL"], "rate": rate, "delay": "0ms", "queue": queue}
    b.links[1:1] = [{**hop, "between": ["pL", "pR"]},
                    {"between": ["pR", right], "rate": rate, "delay": "0ms", "queue": queue}]


#: Chapter 7's senders: §7.2.2 ran ns-2's FullTcp Reno, to which the author added the receiver
#: window and a persist timer (§2.3.1); nsim's two-way TCP has both (docs/models/tcp_full.md).
CH7_TCP = "full_reno"


def ch7_step(root: Path) -> None:
    b = Builder("holl2003 ch7: step response with IP-ABR proxies", """
Holl 2003 §7.2.2 (Fig. 7.3): the chapter 6 step test (64 BE pairs, CBQ, 8 two-way calls from
123.6 s) with two-way Reno senders (the thesis' FullTcp Reno with rwnd in ACKs and a persist
timer: tcp_full, whose persist timer also sends into a window below one segment) and an IP-ABR proxy
node on each side of the satellite hop, joined to its gateway by a 0 ms 1.536 Mb/s link.
The proxies share each direction evenly among its 64 BE flows (24 kb/s) and throttle to
12.5 kb/s at 123.6 s. The sweep switches the proxies off (`middlebox = []`) for the CBQ
control on the same topology.""", "428.6s")
    q = cbq(eq_4_2(8), DROPTAIL)
    dumbbell(b, q, 8, protocol=CH7_TCP)
    proxied(b, "r0", "r1", {"rate": "1.536Mb", "delay": SAT_DELAY, "queue": DROPTAIL}, q)
    b.flows.append(call_flow(8, start="123.6s", stop="428.1s"))
    threes = [[f"{183.6 + 3 * k:.1f}s", f"{186.6 + 3 * k:.1f}s"] for k in range(80)]
    b.record = {"windows": [["63.6s", "123.6s"], ["183.6s", "423.6s"], *threes]}
    b.middlebox = [ip_abr_proxy("pL"), ip_abr_proxy("pR")]
    b.write(root, "ch7_step.toml")


def ch7_nearfar(root: Path) -> None:
    b = Builder("holl2003 ch7: near and far sources with IP-ABR proxies", """
Holl 2003 §7.2.2 (Figs 7.8, 7.9): the §6.4 near/far chain with IP-ABR proxy nodes on the
shared hop R2-R3 (R2 -(0 ms)- pL -(1 ms)- pR -(0 ms)- R3), two-way Reno senders (as the step
test), CBQ. Each direction
of the shared hop carries 32 near and 32 far BE flows: share 24 kb/s, 12.5 kb/s from 123.6 s.
The sweep switches the proxies off (`middlebox = []`) for the CBQ control.""", "428.6s")
    ch6_nearfar_topology(b, CH7_TCP)
    q = cbq(eq_4_2(8), DROPTAIL)
    proxied(b, "R2", "R3", {"rate": "1.536Mb", "delay": "1ms", "queue": q}, q)
    threes = [[f"{183.6 + 3 * k:.1f}s", f"{186.6 + 3 * k:.1f}s"] for k in range(80)]
    b.record = {"windows": [["63.6s", "123.6s"], ["183.6s", "423.6s"], *threes]}
    b.middlebox = [ip_abr_proxy("pL"), ip_abr_proxy("pR")]
    b.write(root, "ch7_nearfar.toml")


#: Eq. 6.5: the sum of W_opt over the 64 pairs.
WORST_BURST = sum(w_opt(be_delay_ms(j)) for j in range(BE_PAIRS))
VARIANTS = ["tahoe", "reno", "newreno", "vegas", "sack1", "fack"]
#: The BE protocols of chapters 4 and 5 (Table 4.4): the six one-way TCPs and STP.
PROTOCOLS = [*VARIANTS, "stp"]
#: Table 4.5's two-way (FullTcp) variants and the one-way TCP each is compared with.
FULL_PAIRED = {"tahoe": "tahoe", "reno": "reno", "newreno": "newreno", "sack": "sack1"}
#: The near/far protocols of §6.4 (Figs 6.22-6.29).
NEARFAR = ["newreno", "vegas", "stp", "fack"]
#: Table 5.3's BERs plus every intermediate BER the text of §5 quotes.
BERS = [0.0, 1e-8, 1e-7, 2e-7, 1e-6, 2e-6, 4e-6, 7e-6, 1e-5, 3e-5, 1e-4, 2e-4, 7e-4, 1e-3]


def sweep(root: Path, file: str, comment: str, scenario: str, grid: dict[str, list[Any]]) -> None:
    out = [f"# {line}".rstrip() for line in comment.strip().splitlines()]
    out += ["# Generated by generate.py: edit that, not this file.",
            f"scenario = {json.dumps('scenarios/' + scenario)}",
            f"seeds = {SEEDS}   # BE starts jittered in their 0.5 s group (README): seeds differ",
            "metrics = [\"window0_goodput_bps\", \"loss_rate\", \"delay_mean_s\"]", "", "[grid]"]
    out += [f"{json.dumps(k)} = [\n  " + ",\n  ".join(toml_value(x) for x in v) + ",\n]" for k, v in grid.items()]
    (root / file).write_text("\n".join(out) + "\n", encoding="utf-8")


def sweeps(root: Path) -> None:
    calls = lambda ns: [2 * n for n in ns]  # noqa: E731  (repeat = 2 flows per call)
    be = [transport(p) for p in PROTOCOLS]
    sweep(root, "ch4.sweep.toml", "Chapter 4, Drop-Tail and RED routers: 6 TCPs and STP x 1..17 calls (Figs 4.4, 4.5, 4.7, 4.8).",
          "ch4.toml", {"links[0].queue": [DROPTAIL, RED], "flows[0].transport": be,
                       "flows[1].repeat": calls(range(1, 18))})
    sweep(root, "ch4cbq.sweep.toml", """Chapter 4, CBQ and CBQ+RED routers: 6 TCPs and STP x 1..16 calls (Figs 4.9-4.12). The CBR class
buffer is Table 4.7's value for 16 calls (32) at every load here; the exact per-load sizes
are run at 1 and 17 calls by ch4cbq1 / ch4cbq17.""",
          "ch4.toml", {"links[0].queue": [cbq(eq_4_2(16), DROPTAIL), cbq(eq_4_2(16), RED)],
                       "flows[0].transport": be, "flows[1].repeat": calls(range(1, 17))})
    for n in (1, 17):
        sweep(root, f"ch4cbq{n}.sweep.toml", f"Chapter 4, CBQ and CBQ+RED at {n} call(s) with Table 4.7's CBR buffer ({eq_4_2(n)}).",
              "ch4.toml", {"links[0].queue": [cbq(eq_4_2(n), DROPTAIL), cbq(eq_4_2(n), RED)],
                           "flows[0].transport": [transport(v) for v in VARIANTS], "flows[1].repeat": calls([n])})
    sat = {"between": ["r0", "r1"], "rate": "1.536Mb", "delay": SAT_DELAY}
    links = [{**sat, "queue": q, "error": {"kind": "ber", "ber": ber}, "reverse_error": {"kind": "ber", "ber": ber}}
             for q in (DROPTAIL, RED) for ber in BERS]
    sweep(root, "ch5.sweep.toml", """Chapter 5: 6 TCPs and STP x Drop-Tail/RED x BER (Figs 5.3, 5.4). One axis sets the whole
satellite link so that the queue and the BER of both directions change together.""",
          "ch5.toml", {"links[0]": links, "flows[0].transport": be})
    sweep(root, "ch6step.sweep.toml", "Chapter 6 step response (Figs 6.10, 6.13-6.17): NewReno, Vegas and STP, CBQ and CBQ+RED.",
          "ch6_step.toml", {"links[0].queue": [cbq(eq_4_2(8), DROPTAIL), cbq(eq_4_2(8), RED)],
                            "flows[0].transport": [transport(p) for p in ("newreno", "vegas", "stp")]})
    sweep(root, "ch6timeline.sweep.toml", """Table 6.4 (Figs 6.11, 6.12): NewReno under CBQ after the step, with every BE flow's cwnd
trace (the part records the `cwnd` series) cut into slow-start, congestion-avoidance and
fast-recovery episodes.""",
          "ch6_step.toml", {"links[0].queue": [cbq(eq_4_2(8), DROPTAIL)], "flows[0].transport": [transport("newreno")]})
    sweep(root, "ch4full.sweep.toml", """Chapter 4 with two-way FullTcp (Table 4.5: Tahoe, Reno, NewReno, SACK; ns-2 has no full
Vegas/FACK) beside the same one-way TCPs (SACK: Sack1), Drop-Tail and RED at 17 calls (§4.1:
the full results 'closely resembled' the one-way ones and were left out of the plots).""",
          "ch4.toml", {"links[0].queue": [DROPTAIL, RED],
                       "flows[0].transport": [transport(p) for p in (*FULL_PAIRED.values(), *(f"full_{v}" for v in FULL_PAIRED))],
                       "flows[1].repeat": calls([17])})
    for v in ("newreno", "vegas", "stp"):
        fig = {"newreno": "6.18", "vegas": "6.19", "stp": "6.20"}[v]
        sweep(root, f"ch6wl_{v}.sweep.toml", f"Chapter 6.3 window-limited step response, {v} (Fig. {fig}), CBQ.",
              f"ch6_step_wl_{v}.toml", {"links[0].queue": [cbq(eq_4_2(8), DROPTAIL)]})
    sweep(root, "ch6wl401_newreno.sweep.toml", """Chapter 6.3 window-limited NewReno with the BE buffer at Eq. 6.5's worst-case burst (401
packets, 'the maximum router queue size to prevent losses'); the thesis does not say which
buffer its window-limited runs used.""",
          "ch6_step_wl_newreno.toml", {"links[0].queue": [cbq(eq_4_2(8), {"kind": "droptail", "limit": WORST_BURST})]})
    for part, scn, what in (("ch7step", "ch7_step.toml", "step response (Figs 7.4-7.7)"),
                            ("ch7nf", "ch7_nearfar.toml", "near/far (Figs 7.8, 7.9)")):
        doc = tomllib.loads((root / "scenarios" / scn).read_text(encoding="utf-8"))
        sweep(root, f"{part}.sweep.toml", f"Chapter 7.2.2 IP-ABR {what}: two-way Reno under CBQ without and with the proxies.",
              scn, {"middlebox": [[], doc["middlebox"]]})
    nearfar = tomllib.loads((root / "scenarios" / "ch6_nearfar.toml").read_text(encoding="utf-8"))["flows"]
    sweep(root, "ch6nf.sweep.toml", """Chapter 6.4 near/far (Figs 6.22-6.29): NewReno, Vegas, STP and FACK, CBQ and CBQ+RED on the
shared link R2-R3. The `flows` axis swaps the transport of the far and the near flows together.""",
          "ch6_nearfar.toml", {"links[0].queue": [cbq(eq_4_2(8), DROPTAIL), cbq(eq_4_2(8), RED)],
                               "flows": [[{**f, "transport": transport(p)} if "transport" in f else f for f in nearfar]
                                         for p in NEARFAR]})


def main(root: Path = HERE) -> None:
    """Writes every scenario and sweep file under ``root`` (default: this directory)."""
    (root / "scenarios").mkdir(parents=True, exist_ok=True)
    ch4(root)
    ch5(root)
    ch6_step(root, False)
    ch6_step(root, True, "newreno")
    ch6_step(root, True, "vegas")
    ch6_step(root, True, "stp")
    ch6_nearfar(root)
    ch7_step(root)
    ch7_nearfar(root)
    sweeps(root)


if __name__ == "__main__":
    main()
