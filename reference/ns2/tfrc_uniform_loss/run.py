#!/usr/bin/env python3
"""Runs scenario.tcl over a loss grid and keeps only reduced numbers (stdlib only).

Writes summary.csv (one row per run) and rate_p0.01_seed1.csv (ns-2's allowed rate
`rate_`, sampled every second). Raw traces go to a temporary directory and are deleted.
Usage: python3 run.py   (needs ns-2.35 as `ns`)
"""
import csv
import os
import subprocess
import tempfile

GRID = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1]
SEEDS = [1, 2, 3]
DURATION = 200.0
WARMUP = 20.0
HERE = os.path.dirname(os.path.abspath(__file__))


def run(p, seed, tmp):
    tr = os.path.join(tmp, "t.tr")
    out = subprocess.run(["ns", os.path.join(HERE, "scenario.tcl"), str(p), str(seed), str(DURATION), tr],
                         capture_output=True, text=True, check=True).stdout
    rates = [line.split()[1:] for line in out.splitlines() if line.startswith("rate ")]
    recv = fb = lost = sent = 0
    size = None
    with open(tr) as f:
        for line in f:
            ev, t, a, b, kind, sz = line.split()[:6]
            t = float(t)
            if kind == "tcpFriend" and a == "1" and b == "2":
                size = int(sz)
                if ev == "r" and t >= WARMUP:
                    recv += 1
                elif ev == "-" and t >= WARMUP:
                    sent += 1
                elif ev == "d" and t >= WARMUP:
                    lost += 1
            elif kind == "tcpFriendCtl" and ev == "+" and t >= WARMUP:
                fb += 1
    os.remove(tr)
    span = DURATION - WARMUP
    return {
        "p": p, "seed": seed, "duration_s": DURATION, "warmup_s": WARMUP,
        "data_wire_bytes": size, "sent_pkts": sent, "recv_pkts": recv, "lost_pkts": lost,
        "recv_pkts_per_s": round(recv / span, 4), "feedback_pkts_per_s": round(fb / span, 4),
    }, rates


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for p in GRID:
            for seed in SEEDS:
                row, rates = run(p, seed, tmp)
                rows.append(row)
                if p == 0.01 and seed == 1:
                    with open(os.path.join(HERE, "rate_p0.01_seed1.csv"), "w", newline="") as f:
                        w = csv.writer(f)
                        w.writerow(["time_s", "rate_Bps"])
                        w.writerows(rates)
    with open(os.path.join(HERE, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
