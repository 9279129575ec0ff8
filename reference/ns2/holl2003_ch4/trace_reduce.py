"""Reduce ch4.tcl's trace of the satellite hop (both directions, ns-2 `trace-queue` format on
stdin) to one line of key=value pairs: per packet type (cbr, tcp, ack) and direction the
arrivals at the hop's queue ('+') and the drops ('d'); for CBR the queue wait ('+' to '-')
mean and std dev, and the delivered packets' one-way delay (wait + the fixed 460.627 ms of
the path: 2 x 5 ms access + 450 ms hop + 2 x 0.0736 ms access and 0.479 ms hop serialisation).
Python 3 stdlib only; the raw trace is never stored."""

import math
import sys

#: fixed part of a call packet's one-way delay (s): propagation and the three serialisations.
CBR_FIXED_S = 0.010 + 0.450 + 2 * 92 * 8 / 10e6 + 92 * 8 / 1.536e6


def main() -> None:
    """Read the trace from stdin and print the counts and CBR delay statistics."""
    arrivals: dict[str, int] = {}
    drops: dict[str, int] = {}
    enq: dict[str, float] = {}
    n = s = s2 = 0.0
    for line in sys.stdin:
        f = line.split()
        ev, t, src, ptype, uid = f[0], f[1], f[2], f[4], f[11]
        key = f"{ptype}{src}"
        if ev == "+":
            arrivals[key] = arrivals.get(key, 0) + 1
            if ptype == "cbr":
                enq[uid] = float(t)
        elif ev == "d":
            drops[key] = drops.get(key, 0) + 1
            if ptype == "cbr":
                enq.pop(uid, None)
        elif ev == "-" and ptype == "cbr":
            w = float(t) - enq.pop(uid)
            n += 1
            s += w
            s2 += w * w
    out = {}
    for key in sorted(set(arrivals) | set(drops)):
        out[f"arr_{key}"] = arrivals.get(key, 0)
        out[f"drop_{key}"] = drops.get(key, 0)
    mean = s / n if n else float("nan")
    out["cbr_departed"] = int(n)
    out["cbr_wait_ms"] = f"{1e3 * mean:.4f}"
    out["cbr_wait_std_ms"] = f"{1e3 * math.sqrt(max(s2 / n - mean * mean, 0.0)):.4f}" if n else "nan"
    out["cbr_delay_ms"] = f"{1e3 * (mean + CBR_FIXED_S):.4f}"
    print(" ".join(f"{k}={v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
