"""Finds the first event where two ns-2 format traces of the same links disagree.

Usage: python3 first_divergence.py NS2.tr NSIM.tr [FROM-TO ...]   (default links 6-7 7-6)
Compares, per link direction and over both together, the sequence of (op, from, to, type,
size, fid, seq) with times equal to ns-2's 1 us rounding; prints the first difference with
the events around it.
"""

import sys


def events(path: str, links: set[tuple[str, str]]) -> list[tuple]:
    """The trace's events on `links`, as (time_us, op, from, to, type, size, fid, seq, line)."""
    out = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if (w[2], w[3]) in links:
                out.append((round(float(w[1]) * 1e6), w[0], w[2], w[3], w[4], w[5], w[7], w[10], line.rstrip()))
    return out


def first_difference(a: list[tuple], b: list[tuple]) -> int | None:
    """Index of the first event that differs (time within 1 us, rest equal), or None."""
    for i, (x, y) in enumerate(zip(a, b)):
        if abs(x[0] - y[0]) > 1 or x[1:8] != y[1:8]:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def main() -> None:
    ns2, nsim = sys.argv[1], sys.argv[2]
    pairs = sys.argv[3:] or ["6-7", "7-6"]
    links = {tuple(p.split("-")) for p in pairs}
    a, b = events(ns2, links), events(nsim, links)
    i = first_difference(a, b)
    if i is None:
        print(f"identical: {len(a)} events")
        return
    print(f"first difference at event {i} of {len(a)} (ns-2) / {len(b)} (nsim)")
    for name, ev in (("ns-2", a), ("nsim", b)):
        print(f"--- {name}")
        for e in ev[max(0, i - 8): i + 8]:
            print(("> " if e is ev[i] else "  ") + e[8])


if __name__ == "__main__":
    main()
