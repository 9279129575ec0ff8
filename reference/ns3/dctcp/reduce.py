"""Reduce ns-3's dctcp_dumbbell output (stdin) to the figures nsim is compared on, over the
steady state from `start` s to the end: the bottleneck's throughput (all sinks), each flow's
share, the queue occupancy sampled every interval (mean, 5th and 95th percentiles, in packets)
DCTCP's alpha (mean of its per-window updates, all flows) and the fraction of the bottleneck's
arrivals it marked over the whole run. Appends one row to summary.csv; with DIR, writes the row
to DIR/summary.csv instead and each flow's goodput to DIR/flows.csv (for Jain's index). With
FILEs (one output per ns-3 RngRun, the runs with random loss) instead of stdin: DIR/runs.csv
(each run's and flow's goodput, recoveries and timeouts: congestion-state changes to
CA_RECOVERY, CA_LOSS over the whole run) and DIR/summary.csv (the figures' means over the runs).
Usage: dctcp_dumbbell ... | python3 reduce.py CASE START_S [DIR]
       python3 reduce.py CASE START_S DIR FILE..."""
import csv
import os
import statistics
import sys

case, start = sys.argv[1], float(sys.argv[2])
out = sys.argv[3] if len(sys.argv) > 3 else None


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def reduce(lines):
    """The figures of one run: per-flow goodputs (Mb/s), queue samples, alpha updates, the
    marked fraction, and per-flow recoveries and timeouts."""
    q, alpha, rx, marked, states = [], [], {}, 0.0, []
    for line in lines:
        f = line.split()
        t = float(f[1])
        if f[0] == "q" and t > start:
            q.append(int(f[2]))
        elif f[0] == "a" and t > start:
            alpha.append(float(f[3]))
        elif f[0] == "m":
            marked = int(f[2]) / int(f[3])
        elif f[0] == "rx":
            rx.setdefault(int(f[2]), []).append((t, int(f[3])))
        elif f[0] == "state":
            states.append((int(f[2]), int(f[3])))
    rates = []
    for pts in rx.values():
        t0, b0 = min(pts, key=lambda p: abs(p[0] - start))
        t1, b1 = pts[-1]
        rates.append((b1 - b0) * 8 / (t1 - t0) / 1e6)
    count = lambda i, s: sum(1 for flow, state in states if flow == i and state == s)
    return rates, q, alpha, marked, [count(i, 3) for i in sorted(rx)], [count(i, 4) for i in sorted(rx)]


HEAD = ["case", "flows", "goodput_mbps", "min_share", "queue_mean_pkts", "queue_p5_pkts", "queue_p95_pkts", "alpha_mean", "marked_fraction"]
if len(sys.argv) > 4:
    runs = [reduce(open(p)) for p in sys.argv[4:]]
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "flow", "goodput_mbps", "recoveries", "timeouts"])
        for run, (rates, _, _, _, rec, rto) in enumerate(runs, 1):
            w.writerows([run, i, f"{r:.3f}", n, m] for i, (r, n, m) in enumerate(zip(rates, rec, rto)))
    mean = lambda g: statistics.mean(g(*r) for r in runs)
    with open(os.path.join(out, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "runs"] + HEAD[1:] + ["recoveries", "timeouts"])
        w.writerow([case, len(runs), len(runs[0][0]), f"{mean(lambda r, *_: sum(r)):.3f}",
                    f"{mean(lambda r, *_: min(r) / sum(r)):.3f}", f"{mean(lambda r, q, *_: statistics.mean(q)):.2f}",
                    f"{mean(lambda r, q, *_: pct(q, 5)):.1f}", f"{mean(lambda r, q, *_: pct(q, 95)):.1f}",
                    f"{mean(lambda r, q, a, *_: statistics.mean(a) if a else 0.0):.4f}", f"{mean(lambda r, q, a, m, *_: m):.4f}",
                    f"{mean(lambda *x: sum(x[4])):.2f}", f"{mean(lambda *x: sum(x[5])):.2f}"])
    sys.exit(0)

rates, q, alpha, marked, _, _ = reduce(sys.stdin)
summary = "summary.csv" if out is None else os.path.join(out, "summary.csv")
new = out is not None or not os.path.exists(summary)
with open(summary, "a" if out is None else "w", newline="") as f:
    w = csv.writer(f)
    if new:
        w.writerow(HEAD)
    w.writerow([case, len(rates), f"{sum(rates):.3f}", f"{min(rates) / sum(rates):.3f}", f"{statistics.mean(q):.2f}",
                pct(q, 5), pct(q, 95), f"{statistics.mean(alpha):.4f}", f"{marked:.4f}"])
if out is not None:
    with open(os.path.join(out, "flows.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["flow", "goodput_mbps"])
        w.writerows([i, f"{r:.3f}"] for i, r in enumerate(rates))
