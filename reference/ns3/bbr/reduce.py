"""Reduce ns-3's bbr_dumbbell output (stdin) to the figures nsim is compared on, over 10-60 s:
goodput; the PROBE_BW gain-cycle period (the median time between falls of the pacing rate by
more than 30 %, i.e. from the 1.25 phase to the 0.75 phase, once per cycle); mean data in
flight in 1000 B packets and over the nominal BDP (10 Mb/s x 40 ms = 50 packets); mean
bottleneck queue; PROBE_RTT episodes (flight falling to 4 packets or less); loss-recovery and
timeout episodes (congestion-state changes). Writes summary.csv and cycles.csv."""
import csv
import statistics
import sys

T0, T1, BDP_PKTS = 10.0, 60.0, 50.0
pace, rx, q, states = [], [], [], []
for line in sys.stdin:
    f = line.split()
    if f[0] == "pace":
        pace.append((float(f[1]), int(f[2])))
    elif f[0] == "rx":
        rx.append((float(f[1]), int(f[2])))
    elif f[0] == "q":
        q.append((float(f[1]), int(f[2]), int(f[3])))
    elif f[0] == "state":
        states.append((float(f[1]), int(f[2])))
falls = [t1 for (t0, r0), (t1, r1) in zip(pace, pace[1:]) if T0 <= t1 <= T1 and r1 < 0.7 * r0]
cycles = [b - a for a, b in zip(falls, falls[1:])]
with open("cycles.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["time_s", "cycle_s"])
    w.writerows((f"{t:.4f}", f"{c:.4f}") for t, c in zip(falls[1:], cycles))
window = [s for s in q if T0 <= s[0] < T1]
inflight = statistics.mean(s[2] / 1000.0 for s in window)
queue = statistics.mean(s[1] for s in window)
probe_rtt = sum(1 for a, b in zip(window, window[1:]) if a[2] > 4000 >= b[2])
at = lambda t: min(rx, key=lambda p: abs(p[0] - t))
goodput = (rx[-1][1] - at(T0)[1]) * 8 / (rx[-1][0] - T0)
recoveries = sum(1 for _, s in states if s == 3)  # CA_RECOVERY
timeouts = sum(1 for _, s in states if s == 4)  # CA_LOSS
with open("summary.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["goodput_mbps_10_60", "cycle_median_s", "cycles", "inflight_mean_pkts", "inflight_over_bdp",
                "queue_mean_pkts", "probe_rtt_episodes", "recoveries", "timeouts"])
    w.writerow([f"{goodput / 1e6:.4f}", f"{statistics.median(cycles):.4f}", len(cycles), f"{inflight:.2f}",
                f"{inflight / BDP_PKTS:.3f}", f"{queue:.2f}", probe_rtt, recoveries, timeouts])
