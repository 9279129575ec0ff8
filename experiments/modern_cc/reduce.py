"""Reducers for modern_cc: DCTCP (Alizadeh 2010, 2011), BBR (Cardwell 2016), CUBIC (Ha 2008,
RFC 9438). See README.md for every choice behind them.

Extractor (run in the sweep's workers on each run's full results): ``bottleneck`` keeps the
bottleneck link's counters (links[0], first direction, in every scenario of the study) and
statistics of its sampled queue after the warm-up: mean, 2nd and 98th percentiles and the
period of its oscillation (the strongest line of the queue's spectrum).

Reducers return one value per row, averaged over the seeds of the table they are given (the
framework also calls them on each seed alone for the confidence intervals).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

WARMUP_S = 0.5  # DCTCP runs: the queue statistics start here (slow start is long over)
K_AXIS = "links[0].queue.k"
LOSS_AXIS = "links[0].error.rate"
VARIANT_AXIS = "flows[0].transport.variant"


def _period_s(t: np.ndarray, q: np.ndarray) -> float:
    """Period of the queue's oscillation: the strongest non-zero frequency of its spectrum."""
    if len(q) < 16 or q.std() == 0:
        return float("nan")
    spectrum = np.abs(np.fft.rfft(q - q.mean()))
    freqs = np.fft.rfftfreq(len(q), d=float(np.median(np.diff(t))))
    peak = 1 + int(np.argmax(spectrum[1:]))
    return float(1.0 / freqs[peak])


def bottleneck(res: Any) -> dict[str, Any]:
    """links[0]'s first direction: utilization, marks and drops, and its sampled queue after
    ``WARMUP_S`` (mean, 2nd/98th percentiles, oscillation period), when the queue is recorded."""
    q = res.queues
    q = q[q["link"] == 0].iloc[0]
    out: dict[str, Any] = {"util": float(q["utilization"]), "ecn_marks": int(q["ecn_marks"]),
                           "link_drops": int(q["dropped_pkts"]), "arrivals": int(q["arrivals"])}
    try:
        s = res.series("queue")
    except (KeyError, ValueError):
        return out
    s = s[(s["link"] == 0) & (s["from"] == q["from"]) & (s["time_s"] >= WARMUP_S)]
    t, len_pkts = s["time_s"].to_numpy(float), s["len_pkts"].to_numpy(float)
    if len(len_pkts):
        out |= {"q_mean": float(len_pkts.mean()), "q_p2": float(np.percentile(len_pkts, 2)),
                "q_p98": float(np.percentile(len_pkts, 98)), "q_period_s": _period_s(t, len_pkts)}
    return out


def _runs(table: pd.DataFrame) -> pd.DataFrame:
    """One row per run (the extractor's columns repeat on every flow row of a run)."""
    return table.drop_duplicates("run_key")


def _sum_per_run(table: pd.DataFrame, column: str) -> pd.Series:
    """A flow column summed over each run's flows."""
    return table.groupby("run_key")[column].sum()


def dctcp_queue(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Queue statistics of the 1 Gb/s bottleneck (mean, 98th percentile, 2nd-98th percentile
    swing, period in base-RTT units) and the goodput of all flows, each row's ``params.metric``."""
    runs = _runs(table)
    goodput = _sum_per_run(table, "goodput_bps")
    values = {
        "q_mean": runs["q_mean"].mean(),
        "q_max": runs["q_p98"].mean(),
        "amplitude": (runs["q_p98"] - runs["q_p2"]).mean(),
        "goodput_mbps": goodput.mean() / 1e6,
    }
    out: dict[str, Any] = {}
    for row in rows:
        metric = row["params"]["metric"]
        if metric == "period_rtt":
            out[row["id"]] = float(runs["q_period_s"].mean() / row["params"]["rtt_s"])
        else:
            out[row["id"]] = float(values[metric])
    return out


def dctcp_k(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Bottleneck utilization (%) at each K of the sweep, and the K figure's frame."""
    runs = _runs(table).assign(k_pkts=lambda d: d[K_AXIS].str.rstrip("p").astype(float))
    by_k = runs.groupby("k_pkts")["util"].mean() * 100.0
    out: dict[str, Any] = {row["id"]: float(by_k.get(float(row["params"]["k"]), np.nan)) for row in rows}
    frame = runs.groupby("k_pkts").agg(util_pct=("util", "mean"), q_mean=("q_mean", "mean")).reset_index()
    frame["util_pct"] *= 100.0
    out["__frames__"] = {"dctcp_k": frame}
    return out


def bbr_loss(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Throughput (Mb/s, headers included, as the article's link rate x fraction delivered)
    and timeouts per variant and loss rate, and the loss figure's frame."""
    t = table.assign(loss_pct=table[LOSS_AXIS] * 100.0, variant=table[VARIANT_AXIS],
                     mbps=table["throughput_bps"] / 1e6)
    mean = t.groupby(["variant", "loss_pct"]).agg(mbps=("mbps", "mean"), timeouts=("timeouts", "mean"))
    out: dict[str, Any] = {}
    for row in rows:
        p = row["params"]
        key = (p["variant"], float(p["loss_pct"]))
        out[row["id"]] = float(mean[p.get("metric", "mbps")].get(key, np.nan))
    out["__frames__"] = {"bbr_loss": mean.reset_index()}
    return out


def bbr_rtt(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean round trip of the one flow alone (ms): its mean one-way delay plus the base delay
    of the way back (the path's base RTT minus its minimum one-way delay), per variant."""
    t = table.assign(variant=table[VARIANT_AXIS])
    rtt_ms = (t["delay_mean_s"] - t["delay_min_s"]) * 1e3
    by_variant = rtt_ms.groupby(t["variant"]).mean()
    return {row["id"]: float(by_variant.get(row["params"]["variant"], np.nan) + row["params"]["base_rtt_ms"])
            for row in rows}


def late_flows(res: Any) -> pd.DataFrame:
    """Per flow, over the run's second half (the start-up race is over): mean throughput,
    congestion window and smoothed RTT."""
    half = float(res.summary["sim_time_s"]) / 2.0
    tput = res.series("flow_throughput")
    tcp = res.series("tcp")
    tput, tcp = tput[tput["time_s"] > half], tcp[tcp["time_s"] > half]
    flows = res.flows["flow"]
    return pd.DataFrame({"late_tput_bps": tput.groupby("flow")["throughput_bps"].mean().reindex(flows).to_numpy(),
                         "late_cwnd_pkts": tcp.groupby("flow")["cwnd_pkts"].mean().reindex(flows).to_numpy(),
                         "late_srtt_s": tcp.groupby("flow")["srtt_s"].mean().reindex(flows).to_numpy()})


def rtt_fairness(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Over the second half of each run: the two flows' throughput ratio (short RTT over
    long), their mean smoothed-RTT ratio (long over short), their window ratio, and the
    exponent e of throughput ratio = RTT ratio ** e (1: linear, CUBIC's claim; 2: quadratic)."""
    per_run = []
    for _, run in table.groupby("run_key"):
        short = run[run["name"] == "short"].iloc[0]
        long = run[run["name"] == "long"].iloc[0]
        tput = short["late_tput_bps"] / long["late_tput_bps"]
        rtt = long["late_srtt_s"] / short["late_srtt_s"]
        per_run.append({"tput_ratio": tput, "rtt_ratio": rtt, "exponent": np.log(tput) / np.log(rtt),
                        "window_ratio": long["late_cwnd_pkts"] / short["late_cwnd_pkts"]})
    values = pd.DataFrame(per_run).mean()
    return {row["id"]: float(values[row["params"]["metric"]]) for row in rows}


def friendliness(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """CUBIC's share of the two flows' throughput."""
    shares = []
    for _, run in table.groupby("run_key"):
        cubic = run.loc[run["name"] == "cubic", "throughput_bps"].sum()
        shares.append(cubic / run["throughput_bps"].sum())
    return {row["id"]: float(np.mean(shares)) for row in rows}
