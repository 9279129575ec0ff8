"""Reduce a two-flow ns-2 run of scenario.tcl (stdlib only): bytes dequeued at the bottleneck
per flow in 10 s bins. usage: python3 reduce.py <label> <outprefix>  (appends CSV rows to
stdout: label,flow,bin_start_s,mbps)."""
import sys
from collections import defaultdict

BIN = 10.0
label, prefix = sys.argv[1], sys.argv[2]
bytes_in = defaultdict(float)
with open(prefix + ".tr") as f:
    for line in f:
        p = line.split()
        if p[0] != "-" or p[4] != "tcp":  # dequeued data packets only
            continue
        bytes_in[(int(p[7]), int(float(p[1]) // BIN))] += int(p[5])
for (flow, b), n in sorted(bytes_in.items()):
    print(f"{label},{flow},{b * BIN:g},{n * 8 / BIN / 1e6:.4f}")
