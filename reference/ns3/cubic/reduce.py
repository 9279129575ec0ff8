"""Reduce ns-3's cubic_dumbbell output (stdin) to the figures nsim is compared on: goodput over
T0-T1 s, and each congestion epoch ending after T0 (the window before each reduction, W_max, in
packets of 1000 B, and the time between reductions). Also reads one flow of cubic_flows' output
(its lines carry a flow column: the value is the last field; other kinds are skipped). Usage:
reduce.py [OUT [T0 T1]] (default: this directory, 10 and 60 s). Writes OUT/epochs.csv and
OUT/summary.csv."""
import csv
import statistics
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "."
T0, T1 = (float(sys.argv[2]), float(sys.argv[3])) if len(sys.argv) > 3 else (10.0, 60.0)
cwnd, rx = [], []
for line in sys.stdin:
    f = line.split()
    if f[0] in ("cwnd", "rx"):
        (cwnd if f[0] == "cwnd" else rx).append((float(f[1]), int(f[-1])))
# A reduction: the window falls by more than 10 % from one change to the next (a loss or ECN
# event; classic recovery first inflates, so the maximum before the fall is W_max).
epochs, peak, last_t = [], 0, None
for (t0, w0), (t1, w1) in zip(cwnd, cwnd[1:]):
    peak = max(peak, w0)
    if w1 < 0.9 * w0:
        if last_t is not None and t1 > T0:
            epochs.append((t1, peak / 1000.0, t1 - last_t))
        last_t, peak = t1, 0
with open(f"{out}/epochs.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["time_s", "w_max_pkts", "epoch_s"])
    w.writerows((f"{t:.4f}", f"{m:.1f}", f"{e:.4f}") for t, m, e in epochs)
goodput = (rx[-1][1] - min(rx, key=lambda p: abs(p[0] - T0))[1]) * 8 / (rx[-1][0] - T0)
with open(f"{out}/summary.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow([f"goodput_mbps_{T0:g}_{T1:g}", "epochs", "w_max_mean_pkts", "epoch_mean_s"])
    w.writerow([f"{goodput / 1e6:.4f}", len(epochs), f"{statistics.mean(e[1] for e in epochs):.2f}",
                f"{statistics.mean(e[2] for e in epochs):.3f}"])
