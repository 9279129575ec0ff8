"""Reduce ns-3's cubic_dumbbell output (stdin) to the figures nsim is compared on: goodput over
10-60 s, and each congestion epoch after 10 s (the window before each reduction, W_max, in
packets of 1000 B, and the time between reductions). Writes epochs.csv and summary.csv."""
import csv
import statistics
import sys

cwnd, rx = [], []
for line in sys.stdin:
    kind, t, v = line.split()
    (cwnd if kind == "cwnd" else rx).append((float(t), int(v)))
# A reduction: the window falls by more than 10 % from one change to the next (a loss or ECN
# event; classic recovery first inflates, so the maximum before the fall is W_max).
epochs, peak, last_t = [], 0, None
for (t0, w0), (t1, w1) in zip(cwnd, cwnd[1:]):
    peak = max(peak, w0)
    if w1 < 0.9 * w0:
        if last_t is not None and t1 > 10.0:
            epochs.append((t1, peak / 1000.0, t1 - last_t))
        last_t, peak = t1, 0
with open("epochs.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["time_s", "w_max_pkts", "epoch_s"])
    w.writerows((f"{t:.4f}", f"{m:.1f}", f"{e:.4f}") for t, m, e in epochs)
at = dict(rx)
goodput = (rx[-1][1] - min(rx, key=lambda p: abs(p[0] - 10.0))[1]) * 8 / (rx[-1][0] - 10.0)
with open("summary.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["goodput_mbps_10_60", "epochs", "w_max_mean_pkts", "epoch_mean_s"])
    w.writerow([f"{goodput / 1e6:.4f}", len(epochs), f"{statistics.mean(e[1] for e in epochs):.2f}",
                f"{statistics.mean(e[2] for e in epochs):.3f}"])
