"""Reduces an ns-2 (or nsim) trace of failover.tcl / failover.toml to the comparison data
(Python 3 stdlib). Usage: python3 reduce.py TRACE OUTDIR

- failover_events.csv: every drop (op d), and the first enqueue (op +) on a link direction
  after each routing change, i.e. the reroute instants: r1->r3 after 1 s, r1->r2 after 2 s.
  Columns: op,time,from,to,type,size,seq,flags (the layout tests/common reads).
- failover_delivered.csv: per flow (fid 0 tcp, 1 cbr), packets and bytes received by d
  (node 1) by each whole second.
"""
import csv
import sys

S, D, R1, R2, R3 = 0, 1, 2, 3, 4
trace, outdir = sys.argv[1], sys.argv[2]
events, delivered = [], {}
firsts = {(R1, R3, 1.0): None, (R1, R2, 2.0): None}
for line in open(trace):
    f = line.split()
    if f[0] not in "+-rd" or len(f) < 12:
        continue
    op, t, a, b, kind, size, flags, fid, seq = f[0], float(f[1]), int(f[2]), int(f[3]), f[4], int(f[5]), f[6], int(f[7]), int(f[10])
    if op == "d":
        events.append([op, f[1], a, b, kind, size, seq, flags])
    for (x, y, after), hit in firsts.items():
        if op == "+" and (a, b) == (x, y) and t >= after and hit is None:
            firsts[(x, y, after)] = [op, f[1], a, b, kind, size, seq, flags]
    if op == "r" and b == D and kind in ("tcp", "cbr"):
        for sec in range(1, 6):
            if t <= sec:
                p, by = delivered.get((fid, sec), (0, 0))
                delivered[(fid, sec)] = (p + 1, by + size)
events.extend(v for v in firsts.values() if v)
events.sort(key=lambda e: float(e[1]))
with open(f"{outdir}/failover_events.csv", "w", newline="") as out:
    w = csv.writer(out)
    w.writerow(["op", "time", "from", "to", "type", "size", "seq", "flags"])
    w.writerows(events)
with open(f"{outdir}/failover_delivered.csv", "w", newline="") as out:
    w = csv.writer(out)
    w.writerow(["flow", "until_s", "pkts", "bytes"])
    for (fid, sec), (p, by) in sorted(delivered.items()):
        w.writerow([fid, sec, p, by])
