#!/usr/bin/env python3
"""Reduce raw ns-2 output (trace files) to the small CSVs kept in the repo.

Python 3 stdlib only.  Sub-commands:
  ff  <rawdir> <outdir> <mode>    Fall & Floyd runs (raw files <variant>_<n>drop.{tr,cw,stats})
  red <rawdir> <outdir> <prefix> [noevents]
                                 RED two-source run (raw files <prefix>.{tr,q,qs,stats})
ns-2 trace line: event time from to type size flags fid src dst seq pktid
"""
import csv
import os
import sys

VARIANTS = ["tahoe", "reno", "newreno", "sack1", "fack"]
DROPS = {1: [14], 2: [14, 28], 3: [14, 26, 28], 4: [14, 24, 26, 28]}


def parse_trace(path):
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) < 12 or p[0] not in "+-rdh":
                continue
            yield {
                "event": p[0], "time": p[1], "t": float(p[1]), "from": int(p[2]),
                "to": int(p[3]), "type": p[4], "size": int(p[5]), "flags": p[6],
                "fid": int(p[7]), "seq": int(p[10]), "pkt_id": int(p[11]),
            }


def read_stats(path):
    st = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.strip().partition(" ")
            st[k] = v
    return st


def ff(rawdir, outdir, mode):
    os.makedirs(outdir, exist_ok=True)
    rows = []
    for v in VARIANTS:
        for n, dl in DROPS.items():
            base = "%s_%ddrop" % (v, n)
            evs = list(parse_trace(os.path.join(rawdir, base + ".tr")))
            # --- event CSV: r1(1)->k1(2) link events + acks received at s1(0)
            with open(os.path.join(outdir, base + ".csv"), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["event", "time", "from", "to", "type", "size", "seq", "flags", "pkt_id"])
                for e in evs:
                    if (e["from"] == 1 and e["to"] == 2 and e["type"] == "tcp") or \
                       (e["from"] == 1 and e["to"] == 0 and e["type"] == "ack" and e["event"] == "r"):
                        w.writerow([e["event"], e["time"], e["from"], e["to"], e["type"],
                                    e["size"], e["seq"], e["flags"], e["pkt_id"]])
            # --- cwnd/ssthresh CSV from the TracedVar file (event-based; the
            # value of the other variable is carried forward)
            cw = os.path.join(rawdir, base + ".cw")
            cwnd, ssth = "", ""
            with open(cw) as f, open(os.path.join(outdir, base + "_cwnd.csv"), "w", newline="") as g:
                w = csv.writer(g)
                w.writerow(["time", "cwnd", "ssthresh"])
                for line in f:
                    p = line.split()
                    if len(p) < 7:
                        continue
                    if p[5] == "cwnd_":
                        cwnd = p[6]
                    elif p[5] == "ssthresh_":
                        ssth = p[6]
                    else:
                        continue
                    w.writerow([p[0], cwnd, ssth])
            # --- summary
            st = read_stats(os.path.join(rawdir, base + ".stats"))
            plus12 = set(e["pkt_id"] for e in evs if e["event"] == "+" and e["from"] == 1 and e["to"] == 2)
            em_drops = [e for e in evs if e["event"] == "d" and e["from"] == 1 and e["to"] == 2
                        and e["pkt_id"] not in plus12]
            q_drops = [e for e in evs if e["event"] == "d" and e["from"] == 1 and e["to"] == 2
                       and e["pkt_id"] in plus12]
            dropped = [e["seq"] for e in em_drops]
            # retransmissions seen in the trace: data packets leaving s1 whose
            # seq is <= the highest seq already sent
            maxsent, rtx = -1, 0
            for e in evs:
                if e["event"] == "+" and e["from"] == 0 and e["to"] == 1 and e["type"] == "tcp":
                    if e["seq"] <= maxsent:
                        rtx += 1
                    maxsent = max(maxsent, e["seq"])
            last = max(dropped) if dropped else None
            recv_last = ""
            if last is not None:
                for e in evs:
                    if e["event"] == "r" and e["from"] == 1 and e["to"] == 2 and e["seq"] == last:
                        recv_last = e["time"]
                        break
            # time by which all deterministically dropped seqs were received
            recv_all = 0.0
            for s in dropped:
                ts = [e["t"] for e in evs if e["event"] == "r" and e["from"] == 1 and e["to"] == 2 and e["seq"] == s]
                recv_all = max(recv_all, min(ts)) if ts else float("nan")

            def acked_by(t):
                a = -1
                for e in evs:
                    if e["t"] > t:
                        break
                    if e["event"] == "r" and e["from"] == 1 and e["to"] == 0 and e["type"] == "ack":
                        a = max(a, e["seq"])
                return a

            rows.append([v, n, " ".join(map(str, dl)), " ".join(map(str, dropped)),
                         st.get("nrexmitpack_", ""), rtx, st.get("nrexmit_", ""),
                         len(q_drops), q_drops[0]["time"] if q_drops else "",
                         recv_last, "%.6f" % recv_all if dropped else "",
                         acked_by(2.0), acked_by(4.0), acked_by(6.0),
                         st.get("ndatapack_", ""), st.get("ncwndcuts_", "")])
    with open(os.path.join(outdir, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["variant", "ndrops", "droplist_index", "dropped_seqs", "n_retransmits",
                    "n_retransmits_trace", "n_timeouts",
                    "n_queue_drops", "first_queue_drop_time", "last_dropped_seq_recv_time",
                    "all_dropped_seqs_recv_time", "highest_ack_2s", "highest_ack_4s",
                    "highest_ack_6s", "ndatapack", "ncwndcuts"])
        w.writerows(rows)
    print("mode", mode, "->", outdir)


def red(rawdir, outdir, prefix, with_events=True):
    os.makedirs(outdir, exist_ok=True)
    evs = list(parse_trace(os.path.join(rawdir, prefix + ".tr")))
    # r1=2 r2=3 in the RED scenario
    if with_events:
      with open(os.path.join(outdir, prefix + "events.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["event", "time", "from", "to", "type", "size", "seq", "flags", "fid", "pkt_id"])
        for e in evs:
            if e["from"] == 2 and e["to"] == 3:
                w.writerow([e["event"], e["time"], e["from"], e["to"], e["type"], e["size"],
                            e["seq"], e["flags"], e["fid"], e["pkt_id"]])
    # RED TracedVar file: "Q <time> <curq>" / "a <time> <ave>" lines, one per
    # change; written event-based with the other variable carried forward
    curq, ave = "0", "0"
    with open(os.path.join(rawdir, prefix + ".q")) as f, \
         open(os.path.join(outdir, prefix + "queue.csv"), "w", newline="") as g:
        w = csv.writer(g)
        w.writerow(["time", "curq", "ave"])
        pend = None
        for line in f:
            p = line.split()
            if len(p) != 3 or p[0] not in ("Q", "a"):
                continue
            if p[0] == "Q":
                curq = p[2]
            else:
                ave = p[2]
            # merge an 'a' and 'Q' line with the same timestamp into one row
            if pend is not None and pend != p[1]:
                w.writerow(row)
            row = [p[1], curq, ave]
            pend = p[1]
        if pend is not None:
            w.writerow(row)
    with open(os.path.join(rawdir, prefix + ".qs")) as f, \
         open(os.path.join(outdir, prefix + "queue_sampled.csv"), "w", newline="") as g:
        w = csv.writer(g)
        w.writerow(["time", "curq", "ave"])
        for line in f:
            p = line.split()
            if len(p) == 3:
                w.writerow(["%.2f" % float(p[0]), p[1], p[2]])
    st = read_stats(os.path.join(rawdir, prefix + ".stats"))
    rows = []
    for fid in (1, 2):
        arr = sum(1 for e in evs if e["event"] == "+" and e["from"] == 2 and e["to"] == 3 and e["fid"] == fid)
        dep = sum(1 for e in evs if e["event"] == "-" and e["from"] == 2 and e["to"] == 3 and e["fid"] == fid)
        drp = sum(1 for e in evs if e["event"] == "d" and e["from"] == 2 and e["to"] == 3 and e["fid"] == fid)
        # delivered to the receiver (r2=3 -> s3=4 / s4=5), data packets incl. retransmissions
        dst = 3 + fid
        dlv = sum(1 for e in evs if e["event"] == "r" and e["from"] == 3 and e["to"] == dst and e["type"] == "tcp")
        maxack = max([e["seq"] for e in evs if e["event"] == "r" and e["to"] == fid - 1 and e["type"] == "ack"] or [-1])
        pd, ed = st.get("fid%d_pdrops_" % fid, ""), st.get("fid%d_epdrops_" % fid, "")
        forced = int(pd) - int(ed) if pd.isdigit() and ed.isdigit() else ""
        rows.append([fid, "s%d->s%d" % (fid, fid + 2), arr, dep, drp, ed, forced,
                     dlv, maxack, st.get("fid%d_nrexmitpack" % fid, ""), st.get("fid%d_nrexmit" % fid, "")])
    with open(os.path.join(outdir, prefix + "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["fid", "flow", "bottleneck_arrivals", "bottleneck_departures", "bottleneck_drops",
                    "early_drops", "forced_drops", "delivered_pkts", "highest_ack", "n_retransmits",
                    "n_timeouts"])
        w.writerows(rows)
    # raw end-of-run counters from ns-2 (flow monitor, TCP agents, RED state)
    with open(os.path.join(outdir, prefix + "red_stats.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["key", "value"])
        for k in sorted(st):
            w.writerow([k, st[k]])
    print("red", prefix, "->", outdir)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "ff":
        ff(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "red":
        red(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "",
            not (len(sys.argv) > 5 and sys.argv[5] == "noevents"))
    else:
        sys.exit("unknown command")
