"""One CSV row of ch4.csv from one ch4.tcl run: the script's per-flow "be" lines and
trace_reduce.py's counts of the satellite hop. Python 3 stdlib only.

    python3 reduce.py --header
    python3 reduce.py TCP QUEUE CALLS SEED JITTER BE_LINES_FILE TRACE_COUNTS_FILE
"""

import statistics
import sys

COLUMNS = ["tcp", "queue", "calls", "seed", "jitter", "cbr_loss_pct", "cbr_delay_ms", "cbr_delay_std_ms",
           "be_mean_bps", "be_std_bps", "be_min_bps", "be_max_bps", "tcp_arrivals", "tcp_drops",
           "ack_arrivals", "ack_drops", "cbr_arrivals", "cbr_drops", "timeouts", "rexmit_pkts", "data_pkts"]


def row(tcp: str, queue: str, calls: str, seed: str, jitter: str, be_file: str, trace_file: str) -> list[str]:
    """The CSV fields of one run, in COLUMNS order."""
    be = [line.split() for line in open(be_file) if line.startswith("be ")]
    assert len(be) == 128, f"{be_file}: {len(be)} BE flows, expected 128"
    g = [float(f[4]) for f in be]
    counts = dict(kv.split("=") for kv in open(trace_file).read().split())

    def total(kind: str, ptype: str) -> int:
        return sum(int(v) for k, v in counts.items() if k.startswith(f"{kind}_{ptype}"))

    cbr_arr, cbr_drop = total("arr", "cbr"), total("drop", "cbr")
    return [tcp, queue, calls, seed, jitter,
            f"{100.0 * cbr_drop / cbr_arr:.3f}" if cbr_arr else "",
            counts["cbr_delay_ms"] if cbr_arr else "", counts["cbr_wait_std_ms"] if cbr_arr else "",
            f"{statistics.mean(g):.1f}", f"{statistics.pstdev(g):.1f}", f"{min(g):.1f}", f"{max(g):.1f}",
            str(total("arr", "tcp")), str(total("drop", "tcp")), str(total("arr", "ack")), str(total("drop", "ack")),
            str(cbr_arr), str(cbr_drop),
            str(sum(int(f[5]) for f in be)), str(sum(int(f[6]) for f in be)), str(sum(int(f[7]) for f in be))]


if __name__ == "__main__":
    if sys.argv[1:] == ["--header"]:
        print(",".join(COLUMNS))
    else:
        print(",".join(row(*sys.argv[1:8])))
