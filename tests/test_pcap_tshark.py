"""pcap files that Wireshark's TCP analysis reads right (issue 30): tshark's expert information
on a lossless run has no retransmission, duplicate-ACK or lost-segment entry; on a run where
the network drops exactly one data packet it has exactly the ones that loss causes, counted
independently from the ns-2 trace of the same run.

Needs Wireshark's `tshark` (Debian: `apt-get install tshark`); skipped with a notice without it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

TSHARK = shutil.which("tshark")
pytestmark = pytest.mark.skipif(TSHARK is None, reason="tshark not installed (apt-get install tshark): pcap analysis not checked")

# a -> r -> b: a one-way Reno flow (ns-2's SYN, 1000 B segments) and a full TCP flow, each
# window-limited below the 2 Mb/s bottleneck, whose queue never fills.
SCENARIO = """
name = "pcap analysis"
duration = "3s"
hosts = ["a", "b"]
routers = ["r"]
[[links]]
between = ["a", "r"]
rate = "10Mb"
delay = "1ms"
{error}
[[links]]
between = ["r", "b"]
rate = "2Mb"
delay = "20ms"
queue = {{ kind = "droptail", limit = "100p" }}
[[flows]]
name = "oneway"
from = "a"
to = "b"
app = {{ kind = "bulk" }}
transport = {{ kind = "tcp", variant = "reno", window = 8, packet_size = "1000B" }}
[[flows]]
name = "full"
from = "a"
to = "b"
start = "0.5s"
app = {{ kind = "file", size = "200KB" }}
transport = {{ kind = "tcp_full", window = 8 }}
"""

# Expert-info summaries tshark prints for TCP analysis, by what they say.
RETRANSMISSION = re.compile(r"retransmission", re.I)
DUP_ACK = re.compile(r"Duplicate ACK", re.I)
LOST = re.compile(r"Previous segment.* not captured", re.I)
OUT_OF_ORDER = re.compile(r"out-of-order", re.I)
OTHER = re.compile(r"unseen|keep-alive|zero window|window full|window update|malformed|checksum", re.I)
SYN = re.compile(r"Connection establish", re.I)


def _expert(pcap: Path) -> dict[str, int]:
    """tshark's expert entries for `pcap`, {summary: frequency}, from the tables of `-z expert`
    (rows: frequency, group, protocol, summary)."""
    out = subprocess.run([TSHARK, "-r", str(pcap), "-q", "-z", "expert"], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    entries: dict[str, int] = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\d+)\s+\S+\s+(\S+)\s+(.*\S)\s*$", line)
        if m and m.group(2) in ("TCP", "IPv4", "UDP"):
            entries[m.group(3)] = entries.get(m.group(3), 0) + int(m.group(1))
    return entries


def _count(entries: dict[str, int], pattern: re.Pattern[str]) -> int:
    return sum(n for summary, n in entries.items() if pattern.search(summary))


def _run(tmp_path: Path, error: str) -> Path:
    scenario = tmp_path / "s.toml"
    scenario.write_text(SCENARIO.format(error=error))
    out = tmp_path / "out"
    p = run_cli("run", str(scenario), "-o", str(out), "--trace", "--pcap-links", "a-r,r-b", "-q")
    assert p.returncode == 0, p.stderr
    return out


def test_a_lossless_run_has_no_tcp_analysis_warnings(tmp_path: Path) -> None:
    out = _run(tmp_path, "")
    for name in ("a-r", "r-a", "r-b", "b-r"):
        entries = _expert(out / "pcap" / f"{name}.pcap")
        # Both connections' handshakes are recognised (the one-way flow's SYN and its
        # sink's SYN-ACK, the full TCP's own), so the analysis did run on these files.
        assert _count(entries, SYN) == 2, (name, entries)
        bad = {s: n for s, n in entries.items() if not SYN.search(s)}
        assert not bad, (name, bad)


def _dup_acks_in_trace(trace: Path, src: str, dst: str) -> int:
    """ACKs leaving node `src` towards `dst` that repeat the previous one's number, read from
    the ns-2 trace's departures ('-'): the duplicate ACKs the model sent."""
    last, dups = None, 0
    for line in trace.read_text().splitlines():
        f = line.split()
        if f[0] == "-" and f[4] == "ack" and (f[2], f[3]) == (src, dst):
            dups += last == f[10]
            last = f[10]
    return dups


def test_one_drop_gives_exactly_its_expected_warnings(tmp_path: Path) -> None:
    # The 20th data packet of the one-way flow is lost on a -> r as its transmission starts:
    # the a -> r capture (the sender's side) holds it, the r -> b one (the receiver's) not.
    out = _run(tmp_path, 'error = { kind = "drop_list", packets = [20], flow = "oneway" }')
    import pandas as pd

    flows = pd.read_csv(out / "flows.csv").set_index("name")
    assert flows.loc["oneway", "retransmits"] == 1 and flows.loc["full", "retransmits"] == 0
    # Node indices in declaration order: a 0, b 1, r 2.
    dups = _dup_acks_in_trace(out / "trace.tr", "1", "2")
    assert dups >= 3, "a fast retransmit needs three duplicate ACKs"
    assert _dup_acks_in_trace(out / "trace.tr", "2", "0") == dups
    expected = {
        # The sender's side: the lost segment and, later, its one retransmission.
        "a-r": {RETRANSMISSION: 1},
        # The receiver's side: a gap where the segment went missing, then the retransmission
        # fills it (soon after the highest segment, so Wireshark calls it out-of-order).
        "r-b": {LOST: 1, OUT_OF_ORDER: 1},
        # The ACKs, on both links: one duplicate per segment that arrived after the gap.
        "b-r": {DUP_ACK: dups},
        "r-a": {DUP_ACK: dups},
    }
    for name, want in expected.items():
        entries = _expert(out / "pcap" / f"{name}.pcap")
        got = {p: _count(entries, p) for p in (RETRANSMISSION, DUP_ACK, LOST, OUT_OF_ORDER, OTHER)}
        assert got == {p: want.get(p, 0) for p in got}, (name, entries)
