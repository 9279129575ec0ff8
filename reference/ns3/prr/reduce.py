"""Reduce prr_dumbbell's output (one file per recovery: prr.txt, crb.txt, classic.txt, given
as arguments) to the figures nsim is compared on, per recovery: recovery episodes and
retransmission timeouts; for episodes that end in the open state, the mean packets sent
during recovery (new and retransmitted, from entry to exit), the mean cwnd just after exit, the mean
recovery length and the share of those packets sent in the first half of the recovery; goodput over 1-30 s. Writes summary.csv."""
import csv
import statistics
import sys


def reduce(path):
    state, episodes, rtos, tx, cwnd, rx = None, [], 0, [], [], []
    start = None
    for line in open(path):
        kind, t, v = line.split()
        t = float(t)
        if kind == "tx":
            tx.append(t)
        elif kind == "cwnd":
            cwnd.append((t, int(v)))
        elif kind == "rx":
            rx.append((t, int(v)))
        elif kind == "state":
            if v == "CA_RECOVERY":
                start = t
            elif start is not None:
                if v == "CA_OPEN":
                    episodes.append((start, t))
                else:
                    rtos += v == "CA_LOSS"
                start = None
    sent = [sum(a <= x < b for x in tx) for a, b in episodes]
    # RFC 6675 sends nothing until pipe falls below the halved cwnd, PRR spreads its sends.
    first_half = sum(sum(a <= x < (a + b) / 2 for x in tx) for a, b in episodes) / sum(sent)
    # cwnd just after exit: the last value set at the exit instant (ns-3 sets ssthresh there).
    exit_cwnd = [[w for (tc, w) in cwnd if tc <= b][-1] / 1000.0 for _, b in episodes]
    at = lambda s: min(rx, key=lambda p: abs(p[0] - s))[1]
    goodput = (at(30.0) - at(1.0)) * 8 / 29.0
    return [len(episodes) + rtos, rtos, f"{statistics.mean(sent):.2f}", f"{statistics.mean(exit_cwnd):.2f}",
            f"{statistics.mean(b - a for a, b in episodes) * 1000:.2f}", f"{first_half:.3f}", f"{goodput / 1e6:.4f}"]


with open("summary.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["recovery", "episodes", "rtos", "sent_in_recovery_mean", "cwnd_at_exit_mean_pkts",
                "recovery_ms_mean", "sent_first_half_share", "goodput_mbps_1_30"])
    for path in sys.argv[1:]:
        w.writerow([path.rsplit("/", 1)[-1].removesuffix(".txt")] + reduce(path))
