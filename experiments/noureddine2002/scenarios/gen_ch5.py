"""Writes the chapter-5 scenarios (Noureddine 2002 Fig 5.1, notes seed-002b §2.3, §2.5, §2.6).

200 source-destination pairs on a dumbbell: pairs 0..179 are data hosts (a Telnet session,
a web server whose client is the destination, an FTP session each way), pairs 180..199 send
video. Every configuration of the chapter-5 summary table is one scenario file; the sweeps
vary the bottleneck rate. Run `python gen_ch5.py` from this directory after editing; the
generated files are committed so that the study needs no build step.

The data sessions are chapter 4's at the thesis's stated load (L2617, L2653: "We use the
models for Web, Telnet and FTP, described in Chapter 4"; README "Workload load"): ns-2
WebTraf pages of 3 objects, served once the client has the request's acknowledgment (L2079,
ns-2 WebTraf's order), one-way agents without a handshake (L2073), initial window 1.
`python gen_ch5.py --workload surge` writes `ch5_tcp_surge.toml` instead, the workload the
chapter used until 2026-11-29 (SURGE pages, agents with a SYN and nsim's initial window 2);
it is kept runnable through `ch5_surge.sweep.toml`. `ch5_load.toml` and its sweep
(`ch5_load.sweep.toml`) run the data sessions alone on a lossless dumbbell at 80, 180 and
480 sources (L2777's scale). `ch5_marking.sweep.toml` runs `ch5_af.toml` with TCP marked
by one fixed priority or by application instead of TCP-DS (§5.5.1).

Flow names carry `{i}` with `repeat`, and nsim substitutes only `{i}` in names, so the
host ranges are written as blocks of ten (`s10{i}` = s100..s109).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

PAIRS = 200
DATA_HOSTS = 180
#: Round-trip times of the ten pairs of each group (two of each, notes §2.2).
RTTS_MS = [20, 40, 80, 120, 200] * 2
BOTTLENECK_DELAY_MS = 1.0
#: The thesis's TCP (notes §2.4; L2065-2073): NewReno, 64 KB window, 1 s minimum RTO, 6 s
#: initial RTO, 200 ms clock.
TCP = 'kind = "tcp", variant = "newreno", window = 64, packet_size = "1000B", min_rto = "1s", initial_rto = "6s", tick = "200ms"'
TCP_DS = ", tcp_ds = { high = 4, med = 8 }"
#: The data workloads: (TCP options added to TCP, web page). "stated" is chapter 4's mix at the
#: thesis's stated load (L2653: chapter 5 uses chapter 4's models; README "Workload load"):
#: initial window 1 (footnote 7 of §4.3, notes §2.4), no handshake ("the TCP sources in ns do not
#: explicitly perform the 3-way handshake", L2073), ns-2 WebTraf pages of 3 objects (the count
#: that gives chapter 4's "about 33Mbps" of HTTP, L2090). "surge" is the workload used until
#: 2026-11-29: SURGE pages (part A Table 1.3), nsim's one-way defaults (a SYN, initial window 2).
WORKLOADS = {
    "stated": (", initial_window = 1, syn = false", '{ kind = "webtraf", objects = 3 }', ', serve_after = "request_ack"'),
    "surge": ("", '{ kind = "surge" }', ""),
}
#: FTPshort (L2098-2102): Pareto file sizes, shape 1.2, mean 200 KB, exponential 2 s gaps.
FTP_APP = '{ kind = "repeat", size = "200KB", size_dist = "pareto", shape = 1.2, think = "2s", think_dist = "exponential" }'
#: Telnet (L2094): 100 B on the wire (60 B of payload plus the 40 B header); the app's
#: exponential gaps average 200 ms (5 characters per second).
TELNET_APP = '{ kind = "telnet", size = "60B" }'
#: §5.5.1's single-priority and application-based markings of TCP (L2817-2824: C5-9 to C5-12),
#: the alternatives to TCP-DS in one priority-drop queue: drop priority (0 HIGH, 1 MED, 2 LOW)
#: of the (Telnet, web, FTP) flows. ACKs keep nsim's HIGH (the sink copies a mark only under
#: TCP-DS); chapter 5 states no host profile for APPL, so none is added (README).
MARKINGS = {"low": (2, 2, 2), "high": (0, 0, 0), "med": (1, 1, 1), "appl": (0, 1, 2)}
#: The bottleneck rates the marking part sweeps: §5.5.1's 100-180 Mb/s (160 and 180 are the
#: rates of its LOW statement) and above, where the needs of the markings that starve one side lie.
MARKING_RATES = ("100Mb", "125Mb", "150Mb", "160Mb", "180Mb", "200Mb", "230Mb", "260Mb")
#: L2777's scale of the TCP-load sweep (Fig 5.8): data sources and their offered load.
LOAD_SOURCES = (80, 180, 480)
LOSSLESS_RATE, LOSSLESS_LIMIT = "10Gb", "100000p"
#: Fig 5.8 (C5-5, L2777-2779) at the ends of L2777's load scale: per source count, TCP alone
#: (ch5_tcp's 500-packet drop tail) and TCP mixed with the 20 video streams (ch5_mixed's 1000
#: packets), a linked sweep axis crossed with these rates (Mb/s): each list covers both needs,
#: measured with one seed before the sweep was written (80 sources: TCP about 40, mixed about
#: 160; 480: about 250 and 400).
EXCESS_RATES = {80: (30, 40, 50, 60, 70, 80, 120, 130, 140, 150, 160, 170, 180, 200),
                480: (200, 225, 250, 275, 300, 350, 375, 400, 425, 450, 500)}
EXCESS_LIMITS = {"alone": "500p", "mixed": "1000p"}


def access_delay_list(pairs: int = PAIRS) -> list[str]:
    """One-way access delay per pair: RTT = 2 (2 access + bottleneck)."""
    return [f"{(RTTS_MS[i % 10] / 2 - BOTTLENECK_DELAY_MS) / 2:g}ms" for i in range(pairs)]


def access_delays(pairs: int = PAIRS) -> str:
    """:func:`access_delay_list` as a TOML array."""
    return "[" + ", ".join(f'"{d}"' for d in access_delay_list(pairs)) + "]"


def blocks(first: int, last: int) -> list[tuple[str, int]]:
    """Host-number patterns covering first..last-1 with `{i}`: ('{i}', n) or ('10{i}', 10)."""
    out: list[tuple[str, int]] = []
    if first == 0:
        out.append(("{i}", min(last, 10)))
        first = min(last, 10)
    while first < last:
        assert first % 10 == 0
        out.append((f"{first // 10}{{i}}", min(10, last - first)))
        first += 10
    return out


#: One `[[flows]]` entry as (key, TOML value text) pairs, written as a table or inline.
Flow = list[tuple[str, str]]


def flow(name: str, src: str, dst: str, n: int, app: str, transport: str | None, extra: Flow = ()) -> Flow:
    """One `[[flows]]` entry as (key, TOML value) pairs."""
    fields = [("name", f'"{name}"'), ("repeat", str(n)), ("from", f'"{src}"'), ("to", f'"{dst}"'), ("app", app)]
    if transport:
        fields.append(("transport", f"{{ {transport} }}"))
    return fields + list(extra)


def as_table(f: Flow) -> str:
    """The flow as a `[[flows]]` table (the scenarios)."""
    return "[[flows]]\n" + "".join(f"{k} = {v}\n" for k, v in f)


def as_inline(f: Flow) -> str:
    """The flow as an inline table (a `flows` list in a sweep grid)."""
    return "{ " + ", ".join(f"{k} = {v}" for k, v in f) + " }"


def data_flows(tcp_ds: bool, workload: str = "stated", hosts: int = DATA_HOSTS, probes: bool = True,
               web: str = "web", marking: str | None = None) -> list[Flow]:
    """Per data pair 0..hosts-1: Telnet, web (flows named `web`...; HTTP/1.0 on the first half,
    1.1 on the second), FTPshort both ways (L2104), plus the fixed-page probes of notes §2.5 on
    pairs 0..4 (one per RTT) for each version. `marking` (a key of MARKINGS) gives every flow
    of an application one fixed drop priority instead of TCP-DS."""
    options, page, http = WORKLOADS[workload]
    tcp = TCP + options + (TCP_DS if tcp_ds else "")
    tel = tcp.replace('"1000B"', '"60B"')
    prio = dict(zip(("telnet", "web", "ftp"), MARKINGS[marking])) if marking else {}

    def marked(app: str, extra: Flow) -> Flow:
        return ([("prio", str(prio[app]))] if prio else []) + list(extra)

    out = []
    for pat, n in blocks(0, hosts):
        out.append(flow(f"tel{pat}", f"s{pat}", f"d{pat}", n, TELNET_APP, tel,
                        marked("telnet", [("start", '"0.5s"'), ("stagger", '{ every = "13ms" }')])))
        out.append(flow(f"ftp{pat}", f"s{pat}", f"d{pat}", n, FTP_APP, tcp, marked("ftp", [("stagger", '{ every = "17ms" }')])))
        out.append(flow(f"rftp{pat}", f"d{pat}", f"s{pat}", n, FTP_APP, tcp, marked("ftp", [("stagger", '{ every = "19ms" }')])))
    for version, (lo, hi) in (("1.0", (0, hosts // 2)), ("1.1", (hosts // 2, hosts))):
        for pat, n in blocks(lo, hi):
            out.append(flow(f"{web}{pat}", f"s{pat}", f"d{pat}", n,
                            f'{{ kind = "http", version = "{version}", page = {page}{http} }}', tcp,
                            marked("web", [("stagger", '{ every = "23ms" }')])))
    if probes:
        for version, tag in (("1.0", "10"), ("1.1", "11")):
            out.append(flow(f"probe{tag}_{{i}}", "s{i}", "d{i}", 5, f'{{ kind = "http", version = "{version}"{http} }}', tcp,
                            marked("web", [("start", '"1s"'), ("stagger", '{ every = "0.29s" }')])))
    return out


def video_flows(layered: bool, first: int = DATA_HOSTS) -> list[Flow]:
    """20 video sources (pairs first..first+19, 180..199 in the study's scenarios) alternating
    barca and flower (notes §2.6)."""
    seq = f'[ {{ synthetic = "barca", layered = {str(layered).lower()} }}, {{ synthetic = "flower", layered = {str(layered).lower()} }} ]'
    k = first // 10
    return [flow("video{i}" if b == 0 else f"video{b}{{i}}", f"s{k + b}{{i}}", f"d{k + b}{{i}}", 10,
                 f'{{ kind = "video", sequences = {seq} }}', None, [("stagger", '{ every = "0.37s" }')]) for b in (0, 1)]


def bottleneck_queue(kind: str) -> str:
    """The bottleneck queue of a configuration (README "Buffers", "WRR")."""
    af = '{{ kind = "af", limit = {n}, mode = "hard", thresholds = [1.0, 0.6, 0.3] }}'
    dt = '{{ kind = "droptail", limit = "{n}p" }}'
    if kind == "droptail":
        return dt.format(n=500)
    if kind == "droptail_doubled":
        return dt.format(n=1000)
    if kind == "af":
        return af.format(n=500)
    leaf = dt if kind == "wrr_droptail" else af
    return ('{ kind = "wrr", unit = "bytes", classes = [ '
            f'{{ name = "video", match = {{ protocol = "udp" }}, weight = 9000, queue = {leaf.format(n=500)} }}, '
            f'{{ name = "data", weight = 1000, queue = {leaf.format(n=500)} }} ] }}')


CONFIGS = {
    # name: (description, data, video (None / "plain" / "layered"), TCP-DS, queue, rate)
    "ch5_tcp": ("TCP sources alone, drop tail (Fig 5.4)", True, None, False, "droptail", "60Mb"),
    "ch5_video": ("video alone, unlayered, drop tail (Fig 5.5)", False, "plain", False, "droptail", "120Mb"),
    "ch5_mixed": ("TCP and unlayered video in one drop-tail queue, buffer doubled (Fig 5.6/5.7)", True, "plain", False, "droptail_doubled", "230Mb"),
    "ch5_wrr": ("separate drop-tail queues for TCP and video, WRR 10/90 (Fig 5.11)", True, "plain", False, "wrr_droptail", "160Mb"),
    "ch5_af": ("one priority-drop queue, layered video, TCP-DS marked TCP (Fig 5.12/5.13)", True, "layered", True, "af", "150Mb"),
    "ch5_af_wrr": ("separate priority-drop queues, WRR 10/90, layered video, TCP-DS (Fig 5.15)", True, "layered", True, "wrr_af", "125Mb"),
    "ch5_layered": ("layered video alone, priority drop (Fig 5.16)", False, "layered", False, "af", "105Mb"),
    "ch5_tcpds": ("TCP-DS marked TCP alone, priority drop (Fig 5.16)", True, None, True, "af", "20Mb"),
}


def scenario_text(comment: str, name: str, duration: str, pairs: int, rate: str, queue: str,
                  access_limit: str = "128p") -> str:
    """A generated chapter-5 scenario's header: `comment` (the lines after the GENERATED one),
    its name and duration, and the dumbbell of `pairs` pairs (10 Mb/s access links with the
    RTT mix, the bottleneck at `rate` with `queue`)."""
    return f"""# --- Chapter 5 --- GENERATED by gen_ch5.py: edit that, not this file.
{comment}
name = "{name}"
duration = "{duration}"
seed = 1

[dumbbell]
pairs = {pairs}
bottleneck = {{ rate = "{rate}", delay = "{BOTTLENECK_DELAY_MS:g}ms", queue = {queue} }}
access = {{ rate = "10Mb", delays = {access_delays(pairs)}, queue = {{ kind = "droptail", limit = "{access_limit}" }} }}

"""


def scenario(name: str, workload: str = "stated") -> str:
    """The scenario file of configuration `name` with the given data workload."""
    desc, data, video, tcp_ds, queue, rate = CONFIGS[name]
    if workload != "stated":
        desc += f", {workload} workload"
    head = scenario_text(f"""# Noureddine 2002 ch. 5, {desc}. Dumbbell of 200 pairs (notes §2.3; the 45 and 100 Mb/s
# aggregation tiers are left out, README.md), 10 Mb/s access links with 128-packet buffers,
# RTTs 20/40/80/120/200 ms (two of each per ten pairs), the bottleneck (swept) with its buffer.""",
                         f"Noureddine 2002 ch5: {desc}", "60s", PAIRS, rate, bottleneck_queue(queue))
    body = []
    if data:
        body += [as_table(f) for f in data_flows(tcp_ds, workload)]
    if video:
        body += [as_table(f) for f in video_flows(video == "layered")]
        # The per-packet video log: per-layer and per-sequence loss (reduce.py's proxy).
        body.append("[record]\nvideo_packets = true\n")
    return head + "\n".join(body)


def load_scenario() -> str:
    """The data sessions alone on a lossless dumbbell of max(LOAD_SOURCES) pairs (bottleneck
    and buffers as ch4_load.toml's; the users' 10 Mb/s access links kept). The default flows
    are the 180 sources of the study's scenarios; the sweep swaps the list."""
    pairs = max(LOAD_SOURCES)
    flows = "\n".join(as_table(f) for f in data_flows(False, hosts=DATA_HOSTS, probes=False))
    return scenario_text(f"""# Noureddine 2002 ch. 5: the data sources alone on a lossless network, for their offered load
# against L2777's scale ("20Mbps (80 sources) to 170Mbps (480 sources)"). The chapter-5
# dumbbell with {pairs} pairs, the bottleneck at {LOSSLESS_RATE} and every buffer {LOSSLESS_LIMIT}
# (the 10 Mb/s access links are the users' own links and stay), 40 s.""",
                         "Noureddine 2002 ch5: the data sources alone on a lossless dumbbell", "40s", pairs, LOSSLESS_RATE,
                         f'{{ kind = "droptail", limit = "{LOSSLESS_LIMIT}" }}', LOSSLESS_LIMIT) + flows


def flows_sweep(comment: str, scenario: str, lists: Iterable[list[Flow]], more_grid: str = "",
                limits: Iterable[str] | None = None) -> str:
    """A generated sweep file over `scenarios/<scenario>` whose grid swaps the whole flows list
    (one inline table per line), then `more_grid`'s keys; `comment` continues the header. With
    `limits` (one per list) the axis links each list with its bottleneck buffer."""
    def listed(flows: list[Flow], indent: str) -> str:
        return f"{indent}[\n" + "".join(f"{indent}  {as_inline(f)},\n" for f in flows) + f"{indent}]"

    if limits is None:
        key, values = "flows", [listed(flows, "  ") for flows in lists]
    else:
        key = "flows + dumbbell.bottleneck.queue.limit"
        values = [f'  [\n{listed(flows, "    ")},\n    "{limit}",\n  ]' for flows, limit in zip(lists, limits, strict=True)]
    joined = ",\n".join(values)
    return f"""# --- Chapter 5 --- GENERATED by gen_ch5.py: edit that, not this file.
# {comment}
scenario = "scenarios/{scenario}"
seeds = 5
[grid]
"{key}" = [
{joined},
]
{more_grid}"""


def load_sweep() -> str:
    """ch5_load.sweep.toml: one run per source count of L2777 with the stated workload, and
    the SURGE workload at the study's 180 sources."""
    cases = [("stated", n) for n in LOAD_SOURCES] + [("surge", DATA_HOSTS)]
    return flows_sweep(f"""The offered load of chapter 5's data sources (consistency rows against L2777's scale:
# 80 sources = 20 Mb/s, 480 = 170 Mb/s): the data sessions alone on scenarios/ch5_load.toml
# (lossless), one flows list per run: the stated workload at {", ".join(map(str, LOAD_SOURCES))} sources, then the
# SURGE workload (used until 2026-11-29; its web flows are named `surge...`) at {DATA_HOSTS}. 5 seeds:
# the page and file sizes are heavy-tailed.""", "ch5_load.toml",
                       (data_flows(False, w, n, probes=False, web="surge" if w == "surge" else "web") for w, n in cases))


def excess_scenario() -> str:
    """The chapter-5 dumbbell with room for the largest load of Fig 5.8 and its video streams
    (EXCESS_RATES' largest source count + 20 pairs); the sweeps set flows, buffer and rate."""
    n = max(EXCESS_RATES)
    pairs = n + 20
    flows = "\n".join(as_table(f) for f in data_flows(False, hosts=n))
    return scenario_text(f"""# Noureddine 2002 ch. 5, Fig 5.8 (C5-5): the TCP-load sweep's scenario. The chapter-5 dumbbell
# (10 Mb/s access links with 128-packet buffers, the RTT mix of notes §2.2) with {pairs} pairs: up to
# {n} data sources and the 20 video streams after them. The sweeps ch5_excess80/480 swap the
# flows list with its bottleneck buffer (TCP alone: 500 packets; mixed with video: 1000) and
# sweep the rate.""", "Noureddine 2002 ch5: Fig 5.8's TCP-load sweep", "60s", pairs, f"{EXCESS_RATES[n][0]}Mb",
                         bottleneck_queue("droptail")) + flows + "\n[record]\nvideo_packets = true\n"


def excess_sweep(sources: int) -> str:
    """ch5_excess<sources>.sweep.toml: TCP alone and TCP with video at one load of Fig 5.8,
    linked with their buffers, over EXCESS_RATES[sources]."""
    rates = ", ".join(f'"{r}Mb"' for r in EXCESS_RATES[sources])
    tcp = data_flows(False, hosts=sources)
    return flows_sweep(f"""Fig 5.8 (C5-5, L2777-2779) at {sources} data sources: TCP alone (500-packet drop tail,
# as ch5_tcp) and TCP with the 20 unlayered video streams on pairs {sources}..{sources + 19} (1000 packets, as
# ch5_mixed), each crossed with the rates; the reducer takes both needs and their excess over
# the sum of the separate needs. 5 seeds.""", "ch5_excess.toml", [tcp, tcp + video_flows(False, first=sources)],
                       f'"dumbbell.bottleneck.rate" = [{rates}]\n', limits=[EXCESS_LIMITS["alone"], EXCESS_LIMITS["mixed"]])


#: Fig 5.9 (C5-6, L2779): the tiers the dumbbell leaves out, rebuilt for this figure from Fig
#: 5.1 (notes §2.3). Each central router is fed by four 2nd-level routers over 100 Mb/s links
#: with 250-packet buffers (4 x 100 = 400 Mb/s, so a 400 Mb/s central link "practically
#: eliminates the central bottleneck"); below each, 1st-level routers of ten hosts each on
#: 45 Mb/s links with 128-packet buffers; 10 Mb/s host links. Pair i is on 2nd-level router
#: i % 4 of each side, so each carries a quarter of each RTT group and of the video; the
#: study's 200 pairs fill five 1st-level routers under each, the thesis's tree, and the 500
#: pairs of 480 sources thirteen (the thesis does not say how its 480 sources sat on its hosts).
AGG_ROUTERS, AGG_RATE, AGG_LIMIT, AGG_DELAY = 4, "100Mb", "250p", "10us"
EDGE_HOSTS, EDGE_RATE, EDGE_LIMIT = 10, "45Mb", "128p"
#: The central rates of Fig 5.9 at 480 sources (L2779 compares 380 and 400 Mb/s), and one far
#: above, where only the 100 Mb/s tier can congest.
AGG480_RATES = ("340Mb", "360Mb", "380Mb", "400Mb", "1Gb")
#: L2779's "an aggregate of 280Mbps would actually be needed when congestion occurs at the 2nd
#: level routers" for the study's 180 sources (a single 230 Mb/s bottleneck sufficed): the four
#: 100 Mb/s links' rate swept as an aggregate (Mb/s, four times each link's), central at 1 Gb/s.
AGG180_AGGREGATES = (230, 250, 270, 280, 300, 320, 350)


def link_inline(a: str, b: str, rate: str, delay: str, limit: str) -> str:
    """One element of a `links` array: a duplex drop-tail link with `limit` packets each way."""
    return f'  {{ between = ["{a}", "{b}"], rate = "{rate}", delay = "{delay}", queue = {{ kind = "droptail", limit = "{limit}" }} }},'


def aggregation_scenario() -> str:
    """scenarios/ch5_aggregation.toml: the chapter-5 network with Fig 5.1's tiers (links[0]
    the central link, links[1..8] the eight 100 Mb/s links, then the 45 Mb/s and the hosts'
    links), 500 pairs, 480 data sources with the 20 unlayered video streams after them, the
    central buffer doubled (1000 packets) as for every mixed drop-tail queue."""
    pairs = max(EXCESS_RATES) + 20
    delays = access_delay_list(pairs)
    left = [f"a{k}" for k in range(AGG_ROUTERS)]
    right = [f"b{k}" for k in range(AGG_ROUTERS)]
    hosts = [f"s{i}" for i in range(pairs)] + [f"d{i}" for i in range(pairs)]
    per_router = -(-pairs // AGG_ROUTERS)  # hosts under each 2nd-level router
    edges = -(-per_router // EDGE_HOSTS)  # 1st-level routers under each 2nd-level router
    edge_names = [f"{side}{n}" for side in "ef" for n in range(AGG_ROUTERS * edges)]
    lines = [f'''# --- Chapter 5 --- GENERATED by gen_ch5.py: edit that, not this file.
# Noureddine 2002 ch. 5, Fig 5.9 (C5-6, L2779): the chapter-5 network with the tiers of Fig 5.1.
# Central routers r0 -> r1 (links[0], swept; 1000 packets: TCP and video mixed). Each is fed by
# four 2nd-level routers (a0..a3 on the left, b0..b3 on the right) over 100 Mb/s links with
# 250-packet buffers (links[1..8]; notes §2.3); under them 1st-level routers (e<n> left, f<n>
# right) of {EDGE_HOSTS} hosts on {EDGE_RATE} links ({EDGE_LIMIT}), pair i under a{{i % 4}} and b{{i % 4}}; the
# hosts' 10 Mb/s links as in the other chapter-5 scenarios (128 packets, the RTT mix; each tier
# link adds {AGG_DELAY}). {pairs} pairs: {max(EXCESS_RATES)} data sources and the 20 video streams after them;
# the sweeps swap the flows list and set the rates.
name = "Noureddine 2002 ch5: Fig 5.9's network with the 100 Mb/s tier"
duration = "60s"
seed = 1
hosts = [{", ".join(f'"{h}"' for h in hosts)}]
routers = [{", ".join(f'"{r}"' for r in ["r0", "r1"] + left + right + edge_names)}]

links = [''', link_inline("r0", "r1", "400Mb", f"{BOTTLENECK_DELAY_MS:g}ms", EXCESS_LIMITS["mixed"])]
    for a in left:
        lines.append(link_inline(a, "r0", AGG_RATE, AGG_DELAY, AGG_LIMIT))
    for b in right:
        lines.append(link_inline("r1", b, AGG_RATE, AGG_DELAY, AGG_LIMIT))
    for k in range(AGG_ROUTERS):
        for e in range(edges):
            lines.append(link_inline(f"e{k * edges + e}", left[k], EDGE_RATE, AGG_DELAY, EDGE_LIMIT))
            lines.append(link_inline(right[k], f"f{k * edges + e}", EDGE_RATE, AGG_DELAY, EDGE_LIMIT))
    for i in range(pairs):
        edge = (i % AGG_ROUTERS) * edges + (i // AGG_ROUTERS) // EDGE_HOSTS
        lines.append(link_inline(f"s{i}", f"e{edge}", "10Mb", delays[i], "128p"))
        lines.append(link_inline(f"f{edge}", f"d{i}", "10Mb", delays[i], "128p"))
    lines.append("]\n")
    n = max(EXCESS_RATES)
    flows = "\n".join(as_table(f) for f in data_flows(False, hosts=n) + video_flows(False, first=n))
    return "\n".join(lines) + "\n" + flows + "\n[record]\nvideo_packets = true\n"


def aggregation_sweep(sources: int) -> str:
    """ch5_agg<sources>.sweep.toml over scenarios/ch5_aggregation.toml: at 480 sources the
    central rate over AGG480_RATES; at 180 (the study's mix, its video on pairs 180..199) the
    central link at 1 Gb/s and the eight 100 Mb/s links' rate over AGG180_AGGREGATES / 4."""
    if sources == max(EXCESS_RATES):
        rates = ", ".join(f'"{r}"' for r in AGG480_RATES)
        return f"""# --- Chapter 5 --- GENERATED by gen_ch5.py: edit that, not this file.
# Fig 5.9 (C5-6, L2779) at 480 data sources (170 Mb/s on L2777's scale) with the 20 unlayered
# video streams: the central rate around 380 and 400 Mb/s (and 1 Gb/s, where only the 100 Mb/s
# tier can congest); the reducer compares the video's loss at 380 and 400 Mb/s and where the
# packets are dropped. 5 seeds.
scenario = "scenarios/ch5_aggregation.toml"
seeds = 5
[grid]
"links[0].rate" = [{rates}]
"""
    tier = " + ".join(f"links[{k}].rate" for k in range(1, 2 * AGG_ROUTERS + 1))
    values = ",\n".join("  [" + ", ".join([f'"{a / AGG_ROUTERS:g}Mb"'] * (2 * AGG_ROUTERS)) + "]" for a in AGG180_AGGREGATES)
    return flows_sweep(f"""Fig 5.9's second statement (C5-6, L2779) at the study's {DATA_HOSTS} data sources with the 20 unlayered
# video streams on pairs {DATA_HOSTS}..{DATA_HOSTS + 19} (ch5_mixed's flows): the central link at 1 Gb/s, so that only
# the 100 Mb/s tier can congest, and the eight tier links' rate swept (all together, a linked
# axis) so that their aggregate, four links a side, is {", ".join(map(str, AGG180_AGGREGATES))} Mb/s; the reducer takes the
# lowest aggregate meeting the video criterion. 5 seeds.""", "ch5_aggregation.toml",
                       [data_flows(False) + video_flows(False)],
                       f'"links[0].rate" = ["1Gb"]\n"{tier}" = [\n{values},\n]\n')


def marking_sweep() -> str:
    """ch5_marking.sweep.toml: scenarios/ch5_af.toml (one priority-drop queue, layered video)
    with the data flows of each of MARKINGS instead of TCP-DS, over MARKING_RATES."""
    rates = ", ".join(f'"{r}"' for r in MARKING_RATES)
    return flows_sweep(f"""§5.5.1 (L2817-2824; C5-9 to C5-12): TCP marked otherwise than by TCP-DS in the one
# priority-drop queue of scenarios/ch5_af.toml (layered video, its layers HIGH/MED/LOW): every
# TCP flow LOW, every one HIGH, every one MED (Fig 5.13's TCP-MED), and application-based
# (Telnet HIGH, web MED, FTP LOW: Fig 5.14's APPL). One flows list per marking, in the order
# {", ".join(MARKINGS)}; the reducer reads the marking from each run's scenario. 5 seeds.""", "ch5_af.toml",
                       (data_flows(False, marking=m) + video_flows(True) for m in MARKINGS),
                       f'"dumbbell.bottleneck.rate" = [{rates}]\n')


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=sorted(WORKLOADS), default="stated",
                        help="stated (default): every scenario; surge: ch5_tcp_surge.toml only")
    args = parser.parse_args()
    here = Path(__file__).parent
    if args.workload == "surge":
        (here / "ch5_tcp_surge.toml").write_text(scenario("ch5_tcp", "surge"))
    else:
        for n in CONFIGS:
            (here / f"{n}.toml").write_text(scenario(n))
        (here / "ch5_load.toml").write_text(load_scenario())
        (here.parent / "ch5_load.sweep.toml").write_text(load_sweep())
        (here.parent / "ch5_marking.sweep.toml").write_text(marking_sweep())
        (here / "ch5_excess.toml").write_text(excess_scenario())
        for n in EXCESS_RATES:
            (here.parent / f"ch5_excess{n}.sweep.toml").write_text(excess_sweep(n))
        (here / "ch5_aggregation.toml").write_text(aggregation_scenario())
        for n in (DATA_HOSTS, max(EXCESS_RATES)):
            (here.parent / f"ch5_agg{n}.sweep.toml").write_text(aggregation_sweep(n))
