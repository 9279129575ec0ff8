#!/usr/bin/env python3
"""Reduce the FullTcp reference traces (run.sh) to the CSVs kept here.

Kept events: packets on the bottleneck r1(1)->k1(2) (all ops) and segments received by s1(0)
from r1 (the receiver's ACKs). Column `seq` is the TCP sequence number for `tcp` packets and
the ACK number (trace column 13, `show_tcphdr_ 1`) for `ack` packets, which is what nsim's
trace prints for both. Python 3 stdlib only.
usage: reduce.py <rawdir> <outdir>
"""
import csv
import os
import sys


def main(raw, out):
    for name in sorted(os.listdir(raw)):
        if not name.endswith(".tr"):
            continue
        base = name[:-3]
        with open(os.path.join(raw, name)) as f, open(os.path.join(out, base + ".csv"), "w", newline="") as g:
            w = csv.writer(g)
            w.writerow(["event", "time", "from", "to", "type", "size", "seq", "flags"])
            for line in f:
                p = line.split()
                if len(p) < 13 or p[0] not in "+-rd":
                    continue
                src, dst, kind = int(p[2]), int(p[3]), p[4]
                keep = (src == 1 and dst == 2) or (src == 1 and dst == 0 and p[0] == "r")
                if not keep:
                    continue
                seq = p[12] if kind == "ack" else p[10]
                w.writerow([p[0], p[1], src, dst, kind, p[5], seq, p[6]])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
