"""Reduces an ns-2 (or nsim) trace of pause.tcl / pause.toml to the comparison data
(Python 3 stdlib). Usage: python3 pause_reduce.py TRACE OUT.csv

Rows (what,flow,time,seq,pkts,bytes); flow 0 is the TCP (from s1, node 0), 1 the CBR (from
s2, node 1), both paused from 2 s to 3 s:
- delivered: packets and bytes each flow delivered to d (node 2) by each whole second;
- paused_send: every data packet a source sent while paused (the TCP's recovery);
- resumed: the first data packet each source sent at or after the resume.
"""
import csv
import sys

D, PAUSE, RESUME = 2, 2.0, 3.0
trace, out = sys.argv[1], sys.argv[2]
rows, delivered, resumed = [], {}, {}
for line in open(trace):
    f = line.split()
    if f[0] not in "+-rd" or len(f) < 12 or f[4] not in ("tcp", "cbr"):
        continue
    op, t, a, b, size, fid, seq = f[0], float(f[1]), int(f[2]), int(f[3]), int(f[5]), int(f[7]), int(f[10])
    if op == "+" and a == fid:
        if PAUSE <= t < RESUME:
            rows.append(["paused_send", fid, f"{t:.6f}", seq, "", ""])
        if t >= RESUME and fid not in resumed:
            resumed[fid] = ["resumed", fid, f"{t:.6f}", seq, "", ""]
    if op == "r" and b == D:
        for sec in range(1, 6):
            if t <= sec:
                p, by = delivered.get((fid, sec), (0, 0))
                delivered[(fid, sec)] = (p + 1, by + size)
rows += [resumed[k] for k in sorted(resumed)]
rows += [["delivered", fid, sec, "", p, by] for (fid, sec), (p, by) in sorted(delivered.items())]
with open(out, "w", newline="") as o:
    w = csv.writer(o)
    w.writerow(["what", "flow", "time", "seq", "pkts", "bytes"])
    w.writerows(rows)
