"""Reduce cubic_flows runs (one output file per ns-3 RngRun) to the figures nsim is compared
on, over T0-T1 s: aggregate goodput (bytes the sinks received), each flow's goodput and Jain's
fairness index over the flows, the mean bottleneck queue and the mean sum of the flows'
windows (1 ms samples), and loss-recovery and timeout episodes over the whole run
(congestion-state changes to CA_RECOVERY, CA_LOSS). Usage: reduce.py OUT T0 T1 FILE...
Writes into OUT runs.csv (per run and flow) and summary.csv (means over the runs)."""
import csv
import statistics
import sys

out, T0, T1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])


def reduce(path):
    rx, q, cwnd, states, now = {}, [], [], [], {}
    for line in open(path):
        f = line.split()
        if f[0] == "rx":
            rx.setdefault(int(f[2]), {})[round(float(f[1]), 3)] = int(f[3])
        elif f[0] == "cwnd":
            now[int(f[2])] = int(f[3])
        elif f[0] == "q" and T0 <= float(f[1]) < T1:
            q.append(int(f[2]))
            cwnd.append(sum(now.values()) / 1000.0)
        elif f[0] == "state":
            states.append((int(f[2]), int(f[3])))
    goodput = [(rx[i][T1] - rx[i][T0]) * 8 / (T1 - T0) / 1e6 for i in sorted(rx)]
    count = lambda i, s: sum(1 for flow, state in states if flow == i and state == s)
    return goodput, statistics.mean(q), [count(i, 3) for i in sorted(rx)], [count(i, 4) for i in sorted(rx)], statistics.mean(cwnd)


runs = [reduce(p) for p in sys.argv[4:]]
with open(f"{out}/runs.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["run", "flow", "goodput_mbps", "recoveries", "timeouts"])
    for run, (goodput, _, rec, rto, _) in enumerate(runs, 1):
        w.writerows([run, i, f"{g:.4f}", r, t] for i, (g, r, t) in enumerate(zip(goodput, rec, rto)))
jain = lambda x: sum(x) ** 2 / (len(x) * sum(v * v for v in x))
mean = lambda f: statistics.mean(f(r) for r in runs)
with open(f"{out}/summary.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["runs", "goodput_mbps", "jain", "share_min", "share_max", "queue_mean_pkts", "cwnd_mean_pkts", "recoveries",
                "timeouts"])
    w.writerow([len(runs), f"{mean(lambda r: sum(r[0])):.4f}", f"{mean(lambda r: jain(r[0])):.4f}",
                f"{mean(lambda r: min(r[0]) / sum(r[0])):.4f}", f"{mean(lambda r: max(r[0]) / sum(r[0])):.4f}",
                f"{mean(lambda r: r[1]):.2f}", f"{mean(lambda r: r[4]):.2f}", f"{mean(lambda r: sum(r[2])):.2f}",
                f"{mean(lambda r: sum(r[3])):.2f}"])
