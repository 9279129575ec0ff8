"""One CSV row of ch6.csv from one ch6.tcl run's per-flow "be" lines, with the study's own
definitions (experiments/holl2003/reduce.py): the 4 ms pair's goodput after the step over the
fair share (link - 8 calls) / 64, and the median over the BE flows of each flow's temporal
coefficient of variation of its 80 windowed (3 s) goodputs after the step. Python 3 stdlib only.

    python3 reduce.py --header
    python3 reduce.py TCP WL SEED JITTER BE_LINES_FILE
"""

import statistics
import sys

COLUMNS = ["tcp", "wl", "seed", "jitter", "be_mean_before_bps", "be_mean_after_bps",
           "short_rtt_share_of_fair_after", "temporal_cov_median", "across_cov_after"]
#: (1.536 Mb/s - 8 two-way calls of 92 B / 8 ms) / 64 flows per direction, b/s.
FAIR_AFTER = (1_536_000 - 8 * 92 * 8 / 0.008) / 64


def row(tcp: str, wl: str, seed: str, jitter: str, be_file: str) -> list[str]:
    """The CSV fields of one run, in COLUMNS order."""
    be = [line.split() for line in open(be_file) if line.startswith("be ")]
    assert len(be) == 128, f"{be_file}: {len(be)} BE flows, expected 128"
    before = [float(f[5]) for f in be]
    after = [float(f[6]) for f in be]
    windows = [[float(x) for x in f[7:]] for f in be]
    assert all(len(w) == 80 for w in windows), f"{be_file}: expected 80 windows per flow"
    cov = [statistics.pstdev(w) / statistics.mean(w) if statistics.mean(w) > 0 else float("inf") for w in windows]
    short = statistics.mean(after[:2])  # pair 0 (4 ms access): flows 0 and 1
    return [tcp, wl, seed, jitter, f"{statistics.mean(before):.1f}", f"{statistics.mean(after):.1f}",
            f"{short / FAIR_AFTER:.4f}", f"{statistics.median(cov):.4f}",
            f"{statistics.pstdev(after) / statistics.mean(after):.4f}"]


if __name__ == "__main__":
    if sys.argv[1:] == ["--header"]:
        print(",".join(COLUMNS))
    else:
        print(",".join(row(*sys.argv[1:6])))
