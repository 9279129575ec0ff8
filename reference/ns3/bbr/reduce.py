"""Reduce ns-3's bbr_dumbbell output (stdin) to the figures nsim is compared on, over T0-T1
(T0 = 10 s and T1 = 60 s unless given after the directory, then the BDP in packets):
goodput (all flows); the PROBE_BW gain-cycle period (the median, over the flows' cycles, of
the time between falls of a flow's pacing rate by more than 30 %, i.e. from the 1.25 phase to
the 0.75 phase, once per cycle); mean data in flight (all flows) in 1000 B packets and over the
nominal BDP (10 Mb/s x 40 ms = 50 packets unless given); mean bottleneck queue; PROBE_RTT episodes (total
flight falling to 4 packets or less); loss-recovery and timeout episodes (congestion-state
changes). With more than one flow also Jain's index and the smallest and largest share of the
goodput. Writes summary.csv (and, for one flow, cycles.csv) into the directory given as the
first argument (default: this one)."""
import csv
import math
import statistics
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "."
T0 = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
T1 = float(sys.argv[3]) if len(sys.argv) > 3 else 60.0
BDP_PKTS = float(sys.argv[4]) if len(sys.argv) > 4 else 50.0
pace, rx, q, states = {}, {}, [], []
for line in sys.stdin:
    f = line.split()
    if f[0] == "pace":
        pace.setdefault(int(f[2]), []).append((float(f[1]), int(f[3])))
    elif f[0] == "rx":
        rx.setdefault(int(f[2]), []).append((float(f[1]), int(f[3])))
    elif f[0] == "q":
        q.append((float(f[1]), int(f[2]), int(f[3])))
    elif f[0] == "state":
        states.append((float(f[1]), int(f[3])))
cycles = []
for flow in sorted(pace):
    p = pace[flow]
    falls = [t1 for (t0, r0), (t1, r1) in zip(p, p[1:]) if T0 <= t1 <= T1 and r1 < 0.7 * r0]
    cycles += [(b, b - a) for a, b in zip(falls, falls[1:])]
cycle = statistics.median(c for _, c in cycles)
# Times to four significant digits of the cycle (0.1 ms at 10 Mb/s, 1 us at 1 Gb/s).
secs = lambda t: f"{t:.{max(4, 3 - math.floor(math.log10(cycle)))}f}"
if len(rx) == 1:
    with open(f"{out}/cycles.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["time_s", "cycle_s"])
        w.writerows((secs(t), secs(c)) for t, c in cycles)
window = [s for s in q if T0 <= s[0] < T1]
inflight = statistics.mean(s[2] / 1000.0 for s in window)
queue = statistics.mean(s[1] for s in window)
probe_rtt = sum(1 for a, b in zip(window, window[1:]) if a[2] > 4000 >= b[2])
at = lambda r, t: min(r, key=lambda p: abs(p[0] - t))
goodputs = [(at(r, T1)[1] - at(r, T0)[1]) * 8 / (at(r, T1)[0] - T0) for _, r in sorted(rx.items())]
goodput = sum(goodputs)
recoveries = sum(1 for _, s in states if s == 3)  # CA_RECOVERY
timeouts = sum(1 for _, s in states if s == 4)  # CA_LOSS
head = [f"goodput_mbps_{T0:g}_{T1:g}", "cycle_median_s", "cycles", "inflight_mean_pkts", "inflight_over_bdp",
        "queue_mean_pkts", "probe_rtt_episodes", "recoveries", "timeouts"]
row = [f"{goodput / 1e6:.4f}", secs(cycle), len(cycles), f"{inflight:.2f}",
       f"{inflight / BDP_PKTS:.3f}", f"{queue:.2f}", probe_rtt, recoveries, timeouts]
if len(rx) > 1:
    head += ["jain", "share_min", "share_max"]
    row += [f"{goodput ** 2 / (len(goodputs) * sum(g * g for g in goodputs)):.4f}", f"{min(goodputs) / goodput:.4f}",
            f"{max(goodputs) / goodput:.4f}"]
with open(f"{out}/summary.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(head)
    w.writerow(row)
