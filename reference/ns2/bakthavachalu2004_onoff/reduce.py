"""Reduces one run of onoff.tcl (its stdout on stdin) to a line of summary.csv (Python 3 stdlib).

The TFRC class's mean normalized throughput as the study's reducer computes it
(experiments/bakthavachalu2004/reduce.py `_onoff_shares`): each flow's bytes over the mean of the
2n TFRC and X flows (the CBR left out), averaged over the n TFRC flows (fids 0..n-1).
usage: ns onoff.tcl X PERIOD SEED | python3 reduce.py X PERIOD SEED
"""

import statistics
import sys

x, period, seed = sys.argv[1:4]
got = [int(line.split()[2]) for line in sys.stdin if line.startswith("flow ")]
n = len(got) // 2
mean = statistics.fmean(got)
print(f"{x},{period},{seed},{statistics.fmean(b / mean for b in got[:n]):.4f}")
