#!/usr/bin/env python3
"""Reduce the highspeed ns-2 runs (Python 3 stdlib only).

usage: reduce.py <rawdir> <outdir> <name>...   For each name (raw <name>.cw/.tr/.stats):
  <name>_cwnd.csv  time,cwnd,ssthresh: the traced values at every 0.1 s (last change at or
                   before the sample time), plus every ssthresh_ change as its own row
  summary.csv      one row per run: drops at the bottleneck, end-of-run agent counters
"""
import csv
import os
import sys


def reduce_run(rawdir, outdir, name):
    changes = []  # (time, var, value)
    with open(os.path.join(rawdir, name + ".cw")) as f:
        for line in f:
            p = line.split()
            if len(p) >= 7 and p[5] in ("cwnd_", "ssthresh_"):
                changes.append((float(p[0]), p[5], p[6]))
    cwnd, ssth, i, t = "", "", 0, 0.0
    rows = []
    step = 0
    while step <= 300:
        t = step / 10.0
        while i < len(changes) and changes[i][0] <= t + 1e-9:
            tt, var, val = changes[i]
            if var == "cwnd_":
                cwnd = val
            else:
                ssth = val
                if tt > 0:
                    rows.append(("%.5f" % tt, cwnd, ssth))
            i += 1
        rows.append(("%.5f" % t, cwnd, ssth))
        step += 1
    rows.sort(key=lambda r: float(r[0]))
    with open(os.path.join(outdir, name + "_cwnd.csv"), "w", newline="") as g:
        w = csv.writer(g)
        w.writerow(["time", "cwnd", "ssthresh"])
        w.writerows(rows)
    drops = 0
    with open(os.path.join(rawdir, name + ".tr")) as f:
        for line in f:
            if line.startswith("d "):
                drops += 1
    st = {}
    with open(os.path.join(rawdir, name + ".stats")) as f:
        for line in f:
            k, _, v = line.strip().partition(" ")
            st[k] = v
    return [name, drops, st["nrexmitpack_"], st["nrexmit_"], st["ndatapack_"], st["ncwndcuts_"], st["cwnd_"], st["ssthresh_"]]


def main(rawdir, outdir, names):
    rows = [reduce_run(rawdir, outdir, n) for n in names]
    with open(os.path.join(outdir, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "bottleneck_drops", "n_retransmits", "n_timeouts", "ndatapack", "ncwndcuts", "final_cwnd", "final_ssthresh"])
        w.writerows(rows)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
