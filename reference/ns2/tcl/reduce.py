"""Reduces an ns-2 trace for tests/test_ns2_scripts.py (Python 3 stdlib only).

Keeps the lines of the given link directions (`+ - r d` with from/to as given) and every
drop (and `v` link up/down lines), without the packet uid (the last column: two packets created at the same instant get
their uids in an order ns-2's floating-point clock decides by rounding noise), with the
lines of each instant sorted (the same reason). Usage: reduce.py TRACE A:B [A:B ...] > OUT
"""

import sys


def reduce(path, links=None):
    """The reduced lines of the trace at ``path`` for ``links`` (a set of (from, to); None:
    every line)."""
    out, group, now = [], [], None
    with open(path) as f:
        for line in f:
            c = line.split()
            if links is not None and c[0] != "d" and (c[2], c[3]) not in links:
                continue
            if c[1] != now:
                out.extend(sorted(group))
                group, now = [], c[1]
            group.append(" ".join(c if c[0] == "v" else c[:-1]))  # a `v` line has no uid
    out.extend(sorted(group))
    return out


if __name__ == "__main__":
    links = {tuple(a.split(":")) for a in sys.argv[2:]}
    for line in reduce(sys.argv[1], links):
        print(line)
