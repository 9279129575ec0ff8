"""Table 6.4's slow starts in an ns-2.35 run of ch6.tcl: reads the cwnd_/ssthresh_ trace of the
128 BE senders and prints, one per line, "ss <flow> <start_s> <duration_s> <ssthresh>" for every
slow start after a retransmission timeout that lies wholly inside [158, 423.6] s, with the
study's rules (experiments/holl2003/reduce.py `_episodes`, `newreno_phases`):
- an episode starts at a timeout (cwnd_ falls to 1; a further timeout at cwnd_ 1 does not start
  a new one) or at a fast retransmit (ssthresh_ changes and cwnd_ stays above 1);
- a slow start ends when cwnd_ reaches the ssthresh_ set at its timeout, or at the next episode;
- each flow's first episode in the span is left out (it may have begun before the span), as is
  one still open at its end.
ns-2's Reno family keeps fast recovery's inflation in dupwnd_, not cwnd_, so only the slow starts
are read here. Python 3 stdlib only.

    python3 episodes.py CWND_TRACE                        # the episodes, one per line
    python3 episodes.py CWND_TRACE TCP WL SEED JITTER     # one timeline.csv row: their count,
                                                          # median duration, median ssthresh
"""

import statistics
import sys

SPAN = (158.0, 423.6)


def slow_starts(lines):
    """(flow, start, duration, ssthresh) of each slow start, from ns-2 traced-variable lines
    "time saddr sport daddr dport name value" in time order. Flow i's sender is node 2 + 2 i."""
    by_flow: dict[int, list[tuple[float, str, float]]] = {}
    for line in lines:
        f = line.split()
        if len(f) != 7 or f[1] == "-1":
            continue  # the initial values, traced before the agent is connected
        t = float(f[0])
        if SPAN[0] <= t <= SPAN[1]:
            by_flow.setdefault((int(f[1]) - 2) // 2, []).append((t, f[5], float(f[6])))
    out = []
    for flow, recs in sorted(by_flow.items()):
        cwnd = ssthresh = None
        phase, since, target, seen = "", 0.0, 0.0, 0
        i = 0
        while i < len(recs):
            t = recs[i][0]
            same = []  # ns-2 sets ssthresh_ and cwnd_ together: read one instant at a time
            while i < len(recs) and recs[i][0] == t:
                same.append(recs[i])
                i += 1
            was_one = cwnd is not None and cwnd <= 1.0
            new_ssthresh = [v for _, name, v in same if name == "ssthresh_"]
            for _, name, v in same:
                if name == "cwnd_":
                    cwnd = v
                else:
                    ssthresh = v
            if new_ssthresh and cwnd is not None:
                timeout = cwnd <= 1.0
                if timeout and was_one and phase == "ss":
                    continue  # a backed-off timeout inside the same slow start
                if phase:
                    seen += 1
                    if phase == "ss" and seen > 1:
                        out.append((flow, since, t - since, target))
                phase, since, target = ("ss" if timeout else "fr"), t, ssthresh
            elif phase == "ss" and cwnd is not None and cwnd >= target:
                seen += 1
                if seen > 1:
                    out.append((flow, since, t - since, target))
                phase = "ca"
    return out


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        episodes = slow_starts(f)
    if len(sys.argv) == 6:
        tcp, wl, seed, jitter = sys.argv[2:6]
        print(f"{tcp},{wl},{seed},{jitter},{len(episodes)},{statistics.median(e[2] for e in episodes):.5f},"
              f"{statistics.median(e[3] for e in episodes):g}")
    else:
        for flow, start, duration, ssthresh in episodes:
            print(f"ss {flow} {start:.5f} {duration:.5f} {ssthresh:g}")
