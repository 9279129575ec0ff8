"""Reduces one ns-2 run of scenario.tcl to summary.csv rows (Python 3 stdlib).

Per flow: throughput in 0.5 s bins of the bytes dequeued ("-") at the bottleneck r1->r2 over
[20, 300) s (560 bins, Bakthavachalu 2004 §6.2.2), its mean and population std (Mb/s), CoV = 100·std/mean,
and the agent's retransmission timeouts (nrexmit_, from timeouts.txt).
usage: python3 reduce.py AGENT RATE_MBPS SEED SINGLEDUP  (in the run directory)
"""

import statistics
import sys

agent, rate, seed, singledup = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
bins: dict[int, list[float]] = {}
with open("bott.tr") as f:
    for line in f:
        x = line.split()
        if x[0] != "-" or x[4] != "tcp":
            continue
        t = float(x[1])
        k = int((t - 20) / 0.5)
        if t >= 20 and k < 560:
            bins.setdefault(int(x[7]), [0.0] * 560)[k] += int(x[5])
timeouts = dict(line.split() for line in open("timeouts.txt"))
for fid, b in sorted(bins.items()):
    mbps = [v * 8 / 0.5 / 1e6 for v in b]
    mean, std = statistics.fmean(mbps), statistics.pstdev(mbps)
    print(f"{agent},{int(rate)},{seed},{singledup},{fid},{mean:.4f},{std:.4f},{100 * std / mean:.2f},{timeouts[str(fid)]}")
