"""Reduce ns-3's cubic_hystart output (stdin) to how slow start ended: when HyStart set ssthresh
to cwnd (its exit) and at what window, when the first loss reduced the window, the largest
window of the first 3 s, and goodput over the 10 s. Appends one row to summary.csv.
Usage: cubic_hystart ... | python3 reduce.py CASE"""
import csv
import os
import sys

case = sys.argv[1]
cwnd, ss, rx = [], [], []
for line in sys.stdin:
    kind, t, v = line.split()
    {"cwnd": cwnd, "ssthresh": ss, "rx": rx}.get(kind, []).append((float(t), int(v)))


def peak_before(t):
    return max(w for tw, w in cwnd if tw <= t)


# HyStart sets ssthresh to the window; a loss to beta (0.7) of it, and the trace may show the
# reduced cwnd first: compare with the largest window so far.
exits = [(t, v) for t, v in ss if v < 2**31 and v >= 0.95 * peak_before(t)]
losses = [(t, v) for t, v in ss if v < 2**31 and v < 0.95 * peak_before(t)]
new = not os.path.exists("summary.csv")
with open("summary.csv", "a", newline="") as f:
    w = csv.writer(f)
    if new:
        w.writerow(["case", "hystart_exit_s", "hystart_exit_cwnd_pkts", "first_loss_s", "max_cwnd_3s_pkts", "goodput_mbps"])
    w.writerow([case, f"{exits[0][0]:.3f}" if exits else "", f"{exits[0][1] / 1000:.0f}" if exits else "",
                f"{losses[0][0]:.3f}" if losses else "", max(v for t, v in cwnd if t < 3) // 1000,
                f"{rx[-1][1] * 8 / rx[-1][0] / 1e6:.3f}"])
