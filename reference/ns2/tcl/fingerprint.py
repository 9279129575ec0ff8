"""Fingerprints of the ns-2.35 distribution's example traces for tests/test_ns2_scripts.py
(Python 3 stdlib only). The scripts are ns-2's (apt-get install ns2-examples), so only what
ns-2.35 made of them is kept: per trace file, its line count, the count of each event type
and packet type, and the SHA-256 of the whole trace reduced by reduce.py (uids dropped, the
lines of each instant sorted): equal hashes mean the same events, event for event (a second
hash leaves out the flags column, another the seq column of `ack` lines, where a FullTcp
listener's sequence number stands and nsim writes its ACK number; a third is the file's own:
equal means byte for byte). A trace with routing packets (`rtProtoDV`) or link up/down
lines (`v`) keeps those lines themselves, reduced (`routing`).
Per source address (the `src` column), the count of each event (`sources`): what a script
whose sources draw ns-2's random numbers (nsim's draws differ) can be compared by.
With BEFORE (seconds), a fourth hashes the packet events (`+ - r d`) before that time only:
for a script whose runs part at a random draw of ns-2's (a RED early drop).
Usage: fingerprint.py SCRIPT TRACE [STDOUT [BEFORE]] -> one JSON line on stdout (with the
script's printed lines when STDOUT, the file its output went to, is given; `-` for none).
"""

import collections
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reduce import reduce  # noqa: E402


def fingerprint(path):
    """The fingerprint of the ns-2 trace at ``path`` (a dict, JSON-ready)."""
    lines = reduce(path)
    counts = collections.Counter(f"{c[0]} {c[4]}" for c in (x.split() for x in lines) if len(c) > 4)
    flagless = [" ".join(c[:6] + c[7:]) for c in (x.split() for x in lines)]
    with open(path, "rb") as f:
        raw = hashlib.sha256(f.read()).hexdigest()
    out = {"lines": len(lines), "counts": dict(sorted(counts.items())), "sha256": _sha(lines),
           "sha256_without_flags": _sha(flagless), "sha256_without_ack_seq": _sha(_without_ack_seq(lines)),
           "sha256_of_file": raw}
    routing = [x for x in lines if x.startswith("v ") or x.split()[4:5] == ["rtProtoDV"]]
    if routing:
        out["routing"] = routing
    return out


def sources(path):
    """The count of each event (`+ - r d`) per source address of the trace at ``path``."""
    out = collections.defaultdict(collections.Counter)
    with open(path) as f:
        for c in map(str.split, f):
            if c and c[0] in "+-rd" and len(c) > 8:
                out[c[8]][c[0]] += 1
    return {src: dict(sorted(n.items())) for src, n in sorted(out.items())}


def before(path, t):
    """The SHA-256 of the reduced packet events of the trace at ``path`` before ``t`` s."""
    return _sha([x for x in reduce(path) if x[:2] in ("+ ", "- ", "r ", "d ") and float(x.split()[1]) < t])


def _without_ack_seq(lines):
    """``lines`` without the seq column of ``ack`` lines, the lines of each instant sorted again."""
    return sorted_by_instant([" ".join(c[:10] if c[4] == "ack" else c) for c in (x.split() for x in lines)])


def sorted_by_instant(lines):
    """``lines`` with those of each instant sorted again (a changed column moves ties)."""
    out, group, now = [], [], None
    for x in lines:
        t = x.split(" ", 2)[1]
        if t != now:
            out.extend(sorted(group))
            group, now = [], t
        group.append(x)
    return out + sorted(group)


def _sha(lines):
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


if __name__ == "__main__":
    entry = {"script": sys.argv[1], "trace": os.path.basename(sys.argv[2]), **fingerprint(sys.argv[2]),
             "sources": sources(sys.argv[2])}
    if len(sys.argv) > 3 and sys.argv[3] != "-":
        with open(sys.argv[3]) as f:
            entry["stdout"] = f.read().splitlines()
    if len(sys.argv) > 4:
        entry["before"] = float(sys.argv[4])
        entry["sha256_before"] = before(sys.argv[2], entry["before"])
    print(json.dumps(entry, sort_keys=True))
