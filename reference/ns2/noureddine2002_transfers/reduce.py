"""The study's ch3_transfers, ch3_rtt, ch3_parallel, ch3_link_sharing and ch3_link_sharing_rev
row values, computed from ns-2.35's summary.csv (transfers.tcl) and sharing.csv (sharing.tcl)
with the definitions of experiments/noureddine2002/reduce.py: throughput = bytes of the completed
transfers over their summed durations; the RTT is twice the port's and the access link's delays;
a source's share = its goodput over both sources', goodputs averaged over seeds 1-5 first.
Prints `row,buffer,value`: Fig 3.3's rows for the study's 50 KB byte buffer and for ns-2's
packet-counted 50. Python 3 stdlib only."""
import csv
import statistics
import sys

ACCESS_DELAY_MS = 0.01
UNITS = {"us": 1e-3, "ms": 1.0}


def delay_ms(text: str) -> float:
    return float(text[:-2]) * UNITS[text[-2:]]


MAX_GOODPUT_10MB = 10e6 * 1000 / 1040
SEEDS = {"1", "2", "3", "4", "5"}


def sharing_rows(path: str) -> dict[str, float]:
    """Figs 3.4, 3.6 and 3.8 from sharing.csv: seed means first, as the study's reducers."""
    runs: dict[tuple[str, int, int, str], list[dict[str, str]]] = {}
    for r in csv.DictReader(open(path)):
        if r["seed"] in SEEDS:
            runs.setdefault((r["mode"], int(r["n"]), int(r["size"]), r["limit"]), []).append(r)

    def mean(key: tuple[str, int, int, str], col: str) -> float:
        return statistics.fmean(float(r[col]) for r in runs[key])

    def s1_share(mode: str, n: int, size: int) -> float:
        key = (mode, n, size, "70KB")
        s1, s2 = ("chains_goodput_bps", "long_goodput_bps") if mode == "sharing" else ("long_goodput_bps", "chains_goodput_bps")
        return mean(key, s1) / (mean(key, s1) + mean(key, s2))

    sizes = sorted({k[2] for k in runs if k[0] == "sharing"})
    return {
        "ch3_parallel.fig3_4.drop_n4": 1 - mean(("parallel", 4, 100000, "60KB"), "chains_bps") / mean(("parallel", 1, 100000, "60KB"), "chains_bps"),
        "ch3_link_sharing.b70kb.s1_share_max": max(s1_share("sharing", n, z) for n in (1, 5) for z in sizes),
        "ch3_link_sharing_rev.n8.f1mb.s1_share": s1_share("reverse", 8, 1000000),
        "ch3_link_sharing_rev.n8.f1mb.s2_utilization": mean(("reverse", 8, 1000000, "70KB"), "chains_goodput_bps") / MAX_GOODPUT_10MB,
        "ch3_link_sharing_rev.f1mb.s1_share_n1_minus_n8": s1_share("reverse", 1, 1000000) - s1_share("reverse", 8, 1000000),
        "ch3_link_sharing_rev.n8.s1_share_20kb_minus_1mb": s1_share("reverse", 8, 20000) - s1_share("reverse", 8, 1000000),
    }


def main(path: str, sharing: str) -> None:
    runs = {}
    for r in csv.DictReader(open(path)):
        rtt = round(2 * (delay_ms(r["delay"]) + ACCESS_DELAY_MS), 3)
        runs[(int(r["size"]), r["limit"], rtt)] = (8 * int(r["bytes"]) / float(r["seconds"]) / 1e6,
                                                    int(r["drops"]) / int(r["transfers"]))
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["row", "buffer", "value"])
    shortest = min(k[2] for k in runs)
    out.writerow(["ch3_transfers.fig3_2.slowdown_100kb", "30KB/70KB",
                  f"{runs[(100000, '70KB', shortest)][0] / runs[(100000, '30KB', shortest)][0]:.4f}"])
    out.writerow(["ch3_transfers.b70kb_mbps", "70KB", f"{runs[(100000, '70KB', shortest)][0]:.4f}"])
    for buf in ("50KB", "50p"):
        rtts = sorted(k[2] for k in runs if k[0] == 250000 and k[1] == buf)
        longest, rtt40 = rtts[-1], min(rtts, key=lambda r: abs(r - 40.0))
        mbps = lambda size, rtt: runs[(size, buf, rtt)][0]
        drops = lambda size, rtt: runs[(size, buf, rtt)][1]
        jump = lambda size: max(mbps(size, r) for r in rtts if r <= rtt40) / mbps(size, shortest)
        peak = max(mbps(250000, r) for r in rtts if r <= rtt40)
        rows = {
            "ch3_rtt.shortest.f100kb_drops_per_transfer": drops(100000, shortest),
            "ch3_rtt.shortest.f250kb_drops_per_transfer": drops(250000, shortest),
            "ch3_rtt.shortest.f1mb_over_f250kb": mbps(1000000, shortest) / mbps(250000, shortest),
            "ch3_rtt.f250kb.jump": jump(250000),
            "ch3_rtt.jump_f250kb_minus_f5mb": jump(250000) - jump(5000000),
            "ch3_rtt.f250kb.lossfree_rtt_ms": min(r for r in rtts if drops(250000, r) == 0),
            "ch3_rtt.f100kb.rtt40_over_shortest": mbps(100000, rtt40) / mbps(100000, shortest),
            "ch3_rtt.f250kb.jump_left_at_longest": (mbps(250000, longest) - mbps(250000, shortest)) / (peak - mbps(250000, shortest)),
        }
        for row, value in rows.items():
            out.writerow([row, buf, f"{value:.4f}"])
    for row, value in sharing_rows(sharing).items():
        out.writerow([row, "60KB" if row.startswith("ch3_parallel") else "70KB", f"{value:.4f}"])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
