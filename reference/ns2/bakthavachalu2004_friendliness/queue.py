"""One line of tfrc_alone.csv from a run of scenario.tcl: the bottleneck queue's time-average
length in packets over the run, [0, 100) s, from bott.tr's enqueue (+), dequeue (-) and drop (d)
events, and its drops. Python 3 stdlib only.

    python3 queue.py SEED     # reads ./bott.tr
"""

import sys


def mean_queue(path: str, t1: float = 100.0) -> tuple[float, int]:
    """(time-average queue length in packets over [0, t1), drops) of a trace-queue file."""
    q, last, area, drops = 0, 0.0, 0.0, 0
    for line in open(path):
        f = line.split()
        t = float(f[1])
        if t >= t1:
            break
        area += q * (t - last)
        last = t
        if f[0] == "+":
            q += 1
        elif f[0] in ("-", "d"):
            q -= 1
            drops += f[0] == "d"
    return (area + q * (t1 - last)) / t1, drops


if __name__ == "__main__":
    mean, drops = mean_queue("bott.tr")
    print(f"{sys.argv[1]},{mean:.2f},{drops}")
