"""Reduces one ns-2 run of scenario.tcl to summary.csv rows (Python 3 stdlib).

Per class (TFRC: flow ids < n; X: the rest): the mean and std over its flows of the normalized
throughput, each flow's bytes dequeued at the bottleneck r1->r2 over [20, 100) s over the fair
share 60 Mb/s / (2n) (seed-004 notes §4.4, as experiments/bakthavachalu2004/reduce.py).
usage: python3 reduce.py X N SEED  (in the run directory)
"""

import statistics
import sys

x, n, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
got = [0] * (2 * n)
with open("bott.tr") as f:
    for line in f:
        p = line.split()
        if p[0] == "-" and p[4] in ("tcp", "tcpFriend") and float(p[1]) >= 20.0:
            got[int(p[7])] += int(p[5])
fair = 60e6 / (2 * n)
nt = [b * 8 / 80.0 / fair for b in got]
tfrc, other = nt[:n], nt[n:]
sd = statistics.stdev if n > 1 else (lambda v: 0.0)
print(f"{x},{n},{seed},{statistics.fmean(tfrc):.4f},{sd(tfrc):.4f},{statistics.fmean(other):.4f},{sd(other):.4f}")
