"""Reduces one ns-2 run of scenario.tcl (Python 3 stdlib): per class the mean normalized
throughput (bytes dequeued at the bottleneck over [20, 100) s over 60 Mb/s / (2n)), and the
bottleneck loss rate over the run (drops over arrivals). usage: python3 reduce.py X N SEED ECN"""

import statistics
import sys

x, n, seed, ecn = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
got = [0] * (2 * n)
arrivals = drops = 0
with open("bott.tr") as f:
    for line in f:
        p = line.split()
        if p[4] not in ("tcp", "tcpFriend"):
            continue
        if p[0] == "+":
            arrivals += 1
        elif p[0] == "d":
            drops += 1
        elif p[0] == "-" and float(p[1]) >= 20.0:
            got[int(p[7])] += int(p[5])
fair = 60e6 / (2 * n)
nt = [b * 8 / 80.0 / fair for b in got]
print(f"{x},{n},{seed},{ecn},{statistics.fmean(nt[:n]):.4f},{statistics.fmean(nt[n:]):.4f},{100 * drops / arrivals:.3f}")
