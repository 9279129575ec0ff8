#!/usr/bin/env python3
"""Reduce the tcp_start ns-2 runs to the CSVs kept here (same columns as ../fall_floyd/).

usage: reduce.py <rawdir> <outdir>; Python 3 stdlib only. For every <run>.tr/.cw in rawdir:
<run>.csv (r1->k1 data events + ACK arrivals at s1) and <run>_cwnd.csv (cwnd/ssthresh changes).
"""
import csv
import os
import sys


def main(rawdir, outdir):
    for name in sorted(os.listdir(rawdir)):
        if not name.endswith(".tr"):
            continue
        base = name[:-3]
        with open(os.path.join(rawdir, name)) as f, open(os.path.join(outdir, base + ".csv"), "w", newline="") as g:
            w = csv.writer(g)
            w.writerow(["event", "time", "from", "to", "type", "size", "seq", "flags", "pkt_id"])
            for line in f:
                p = line.split()
                if len(p) < 12:
                    continue
                ev, t, fr, to, ty = p[0], p[1], int(p[2]), int(p[3]), p[4]
                if (fr == 1 and to == 2 and ty == "tcp") or (fr == 1 and to == 0 and ty == "ack" and ev == "r"):
                    w.writerow([ev, t, fr, to, ty, p[5], p[10], p[6], p[11]])
        cwnd, ssth = "", ""
        with open(os.path.join(rawdir, base + ".cw")) as f, open(os.path.join(outdir, base + "_cwnd.csv"), "w", newline="") as g:
            w = csv.writer(g)
            w.writerow(["time", "cwnd", "ssthresh"])
            for line in f:
                p = line.split()
                if len(p) < 7 or p[5] not in ("cwnd_", "ssthresh_"):
                    continue
                if p[5] == "cwnd_":
                    cwnd = p[6]
                else:
                    ssth = p[6]
                w.writerow([p[0], cwnd, ssth])
        print("reduced", base)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
