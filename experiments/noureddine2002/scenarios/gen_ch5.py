"""Writes the chapter-5 scenarios (Noureddine 2002 Fig 5.1, notes seed-002b §2.3, §2.5, §2.6).

200 source-destination pairs on a dumbbell: pairs 0..179 are data hosts (a Telnet session,
a web server whose client is the destination, an FTP session each way), pairs 180..199 send
video. Every configuration of the chapter-5 summary table is one scenario file; the sweeps
vary the bottleneck rate. Run `python gen_ch5.py` from this directory after editing; the
generated files are committed so that the study needs no build step.

Flow names carry `{i}` with `repeat`, and nsim substitutes only `{i}` (no offsets), so the
host ranges are written as blocks of ten (`s10{i}` = s100..s109).
"""

from __future__ import annotations

from pathlib import Path

PAIRS = 200
DATA_HOSTS = 180
#: Round-trip times of the ten pairs of each group (two of each, notes §2.2).
RTTS_MS = [20, 40, 80, 120, 200] * 2
BOTTLENECK_DELAY_MS = 1.0
TCP = 'kind = "tcp", variant = "newreno", window = 64, packet_size = "1000B", min_rto = "1s", initial_rto = "6s", tick = "200ms"'
TELNET_TCP = TCP.replace('"1000B"', '"60B"')
TCP_DS = ", tcp_ds = { high = 4, med = 8 }"


def access_delays() -> str:
    """One-way access delay per pair: RTT = 2 (2 access + bottleneck)."""
    ms = [(RTTS_MS[i % 10] / 2 - BOTTLENECK_DELAY_MS) / 2 for i in range(PAIRS)]
    return "[" + ", ".join(f'"{d:g}ms"' for d in ms) + "]"


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


def flow(name: str, src: str, dst: str, n: int, app: str, transport: str | None, extra: str = "") -> str:
    lines = ["[[flows]]", f'name = "{name}"', f"repeat = {n}", f'from = "{src}"', f'to = "{dst}"', f"app = {app}"]
    if transport:
        lines.append(f"transport = {{ {transport} }}")
    if extra:
        lines.append(extra)
    return "\n".join(lines) + "\n"


def data_flows(tcp_ds: bool) -> str:
    """Per data pair: Telnet, web (HTTP/1.0 on pairs 0..89, 1.1 on 90..179), FTP both ways,
    plus the fixed-page probes of notes §2.5 on pairs 0..4 (one per RTT) for each version."""
    mark = TCP_DS if tcp_ds else ""
    tcp, tel = TCP + mark, TELNET_TCP + mark
    out = []
    for pat, n in blocks(0, DATA_HOSTS):
        out.append(flow(f"tel{pat}", f"s{pat}", f"d{pat}", n, '{ kind = "telnet", size = "60B" }', tel,
                        'start = "0.5s"\nstagger = { every = "13ms" }'))
        out.append(flow(f"ftp{pat}", f"s{pat}", f"d{pat}", n,
                        '{ kind = "repeat", size = "200KB", size_dist = "pareto", shape = 1.2, think = "2s", think_dist = "exponential" }', tcp,
                        'stagger = { every = "17ms" }'))
        out.append(flow(f"rftp{pat}", f"d{pat}", f"s{pat}", n,
                        '{ kind = "repeat", size = "200KB", size_dist = "pareto", shape = 1.2, think = "2s", think_dist = "exponential" }', tcp,
                        'stagger = { every = "19ms" }'))
    for version, (lo, hi) in (("1.0", (0, 90)), ("1.1", (90, 180))):
        for pat, n in blocks(lo, hi):
            out.append(flow(f"web{pat}", f"s{pat}", f"d{pat}", n,
                            f'{{ kind = "http", version = "{version}", page = {{ kind = "surge" }} }}', tcp,
                            'stagger = { every = "23ms" }'))
    for version, tag in (("1.0", "10"), ("1.1", "11")):
        out.append(flow(f"probe{tag}_{{i}}", "s{i}", "d{i}", 5, f'{{ kind = "http", version = "{version}" }}', tcp,
                        'start = "1s"\nstagger = { every = "0.29s" }'))
    return "\n".join(out)


def video_flows(layered: bool) -> str:
    """20 video sources (pairs 180..199) alternating barca and flower (notes §2.6)."""
    seq = f'[ {{ synthetic = "barca", layered = {str(layered).lower()} }}, {{ synthetic = "flower", layered = {str(layered).lower()} }} ]'
    return "\n".join(flow("video{i}" if k == 18 else "video1{i}", f"s{k}{{i}}", f"d{k}{{i}}", 10, f'{{ kind = "video", sequences = {seq} }}', None,
                          'stagger = { every = "0.37s" }') for k in (18, 19))


def bottleneck_queue(kind: str) -> str:
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


def scenario(name: str) -> str:
    desc, data, video, tcp_ds, queue, rate = CONFIGS[name]
    head = f"""# --- Chapter 5 --- GENERATED by gen_ch5.py: edit that, not this file.
# Noureddine 2002 ch. 5, {desc}. Dumbbell of 200 pairs (notes §2.3; the 45 and 100 Mb/s
# aggregation tiers are left out, README.md), 10 Mb/s access links with 128-packet buffers,
# RTTs 20/40/80/120/200 ms (two of each per ten pairs), the bottleneck (swept) with its buffer.
name = "Noureddine 2002 ch5: {desc}"
duration = "60s"
seed = 1

[dumbbell]
pairs = {PAIRS}
bottleneck = {{ rate = "{rate}", delay = "{BOTTLENECK_DELAY_MS:g}ms", queue = {bottleneck_queue(queue)} }}
access = {{ rate = "10Mb", delays = {access_delays()}, queue = {{ kind = "droptail", limit = "128p" }} }}

"""
    body = []
    if data:
        body.append(data_flows(tcp_ds))
    if video:
        body.append(video_flows(video == "layered"))
        # The per-packet video log: per-layer and per-sequence loss (reduce.py's proxy).
        body.append("[record]\nvideo_packets = true\n")
    return head + "\n".join(body)


if __name__ == "__main__":
    here = Path(__file__).parent
    for n in CONFIGS:
        (here / f"{n}.toml").write_text(scenario(n))
