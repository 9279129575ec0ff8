"""Reducers for Huang & Khazzam 2003 (the McGill ECSE-489B lab report). See README.md for every choice behind them.

Extractors (run in the sweep's workers on each run's full results):
``slow_start_end`` finds where cwnd stops growing exponentially, the report's slow-start end
("the point where the window size stops growing exponentially", read in Excel): the first
decrease of cwnd; ``cwnd_trace`` keeps the whole (short) cwnd trace of the five-drop runs;
``rtt_rto`` keeps the mean smoothed RTT and RTO, the RTT and T0 of Eq. 4-1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from nsim import analytic
from nsim.reproduction import only_rows, with_ns235

MSS = 8152  # bytes: "TCP Reno resets its congestion window to 8152 bytes, or 1 MSS"
DELAY, RATE, VARIANT, LOSS = "links[1].delay", "links[1].rate", "flows[0].transport.variant", "links[1].error.rate"


def _first_decrease(cwnd: pd.DataFrame) -> int | None:
    """Index (position) of the first change that lowers cwnd, or None."""
    drops = np.flatnonzero(np.diff(cwnd["cwnd_pkts"].to_numpy()) < 0)
    return int(drops[0]) + 1 if len(drops) else None


def _first_timeout(c: pd.DataFrame) -> float:
    """Time of the first retransmission timeout in a cwnd trace: the first time cwnd falls
    back to 1 segment after having grown (a fast retransmit leaves ssthresh >= 2)."""
    w = c["cwnd_pkts"].to_numpy(float)
    grown_before = np.concatenate(([False], np.maximum.accumulate(w)[:-1] > 1.0))
    rto = np.flatnonzero((w <= 1.0) & grown_before)
    return float(c["time_s"].to_numpy(float)[rto[0]]) if len(rto) else float("nan")


def slow_start_end(res: Any) -> pd.DataFrame:
    """Per flow: slow-start duration (start to the first cwnd decrease), the peak cwnd, the
    first timeout, and the run's drops on links other than the swept r1->r2 (none when the
    swept link is the bottleneck)."""
    rows = []
    cw = res.series("cwnd")
    q = res.queues
    elsewhere = int(q.loc[(q["from"] != "r1") | (q["to"] != "r2"), "dropped_pkts"].sum())
    for flow, start in zip(res.flows["flow"], res.flows["start_s"].fillna(0.0)):
        c = cw[cw["flow"] == flow].reset_index(drop=True)
        i = _first_decrease(c)
        rows.append({"slow_start_s": float(c["time_s"][i] - start) if i else float("nan"),
                     "peak_cwnd_pkts": float(c["cwnd_pkts"][i - 1]) if i else float("nan"),
                     "first_timeout_s": _first_timeout(c) - start, "drops_off_swept_link": elsewhere})
    return pd.DataFrame(rows)


def cwnd_trace(res: Any) -> pd.DataFrame:
    """Per flow: the cwnd trace up to the file's completion, the cwnd before the first
    decrease and the lowest after it (while the transfer lasts: a finished sender's idle
    timer resets cwnd, which is not a reaction to the drops)."""
    rows = []
    cw = res.series("cwnd")
    for flow, done in zip(res.flows["flow"], res.flows["completion_s"].fillna(np.inf)):
        c = cw[(cw["flow"] == flow) & (cw["time_s"] <= done)].reset_index(drop=True)
        i = _first_decrease(c)
        t, w = c["time_s"].to_numpy(float), c["cwnd_pkts"].to_numpy(float)
        loss_s = resume_s = float("nan")
        if i:
            low = i + int(np.argmin(w[i:]))
            up = np.flatnonzero(w[low:] > w[low])
            loss_s = float(t[i])
            resume_s = float(t[low + up[0]]) if len(up) else float("nan")
        rows.append({"cwnd_t": t.tolist(), "cwnd": w.tolist(),
                     "cwnd_before_loss_pkts": float(w[i - 1]) if i else float("nan"),
                     "cwnd_after_loss_pkts": float(w[i:].min()) if i else float("nan"),
                     "loss_s": loss_s, "resume_s": resume_s})
    return pd.DataFrame(rows)


def rtt_rto(res: Any) -> pd.DataFrame:
    """Per flow: mean smoothed RTT and mean RTO over the run's samples."""
    s = res.series("tcp")
    g = s.groupby("flow")
    return pd.DataFrame({"srtt_mean_s": g["srtt_s"].mean().reindex(res.flows["flow"]).to_numpy(),
                         "rto_mean_s": g["rto_s"].mean().reindex(res.flows["flow"]).to_numpy()})


def _linear_r2(x: np.ndarray, y: np.ndarray) -> float:
    """Coefficient of determination of the least-squares line through (x, y)."""
    slope, intercept = np.polyfit(x, y, 1)
    residual = y - (slope * x + intercept)
    return float(1.0 - residual.var() / y.var())


def slowstart_delay(table: pd.DataFrame) -> dict[str, Any]:
    """Exp. 1: "A linearly increasing latency results in linearly increasing slow start phase";
    "Once the first timeout is perceived, the phase ends". Each delay's durations are means over
    the seeds in the table (the seeds move the 500-ms clock's phase)."""
    t = table.groupby(DELAY, as_index=False)[["slow_start_s", "first_timeout_s"]].mean().sort_values(DELAY)
    x, y = t[DELAY].to_numpy(float), t["slow_start_s"].to_numpy(float)
    frame = pd.DataFrame({"delay_s": x, "slow_start_s": y})
    out: dict[str, Any] = {"__frames__": {"fig5_9": frame}}
    if len(y) and not np.isnan(t["first_timeout_s"]).all():
        out["ss_delay.timeout_after_end_s"] = float((t["first_timeout_s"] - t["slow_start_s"]).max())
    if np.isnan(y).any() or len(y) < 3:
        return out
    return out | {"ss_delay.linear_r2": _linear_r2(x, y), "ss_delay.longest_over_shortest": y[-1] / y[0]}


#: North American rates swept in Exp. 2 (bit/s)
DS1, DS3, OC3, OC12, OC24 = 1.544e6, 44.736e6, 155.52e6, 622.08e6, 1244.16e6


RATE_SWEEP_DELAY, LONG_DELAY = 0.10, 0.16  # one-way delays of the rate sweep (s): Exp. 1's range ends


def slowstart_rate(table: pd.DataFrame) -> dict[str, Any]:
    """Exp. 2: "throughput does not affect the duration much, especially above OC12", set
    beside Exp. 1's "linearly increasing latency results in linearly increasing slow start
    phase": the duration's relative change from DS1 to DS3 against OC-12 to OC-24, and from
    0.10 s to 0.16 s at OC-24 against OC-12 to OC-24 (the figure: the 0.10 s sweep). Durations
    are means over the seeds in the table."""
    t = table.groupby([DELAY, RATE], as_index=False).agg(
        slow_start_s=("slow_start_s", "mean"), drops_off_swept_link=("drops_off_swept_link", "max")).sort_values(RATE)
    at = {d: t[np.isclose(t[DELAY].astype(float), d)] for d in (RATE_SWEEP_DELAY, LONG_DELAY)}
    by_rate = dict(zip(at[RATE_SWEEP_DELAY][RATE], at[RATE_SWEEP_DELAY]["slow_start_s"]))
    slow = dict(zip(at[LONG_DELAY][RATE], at[LONG_DELAY]["slow_start_s"]))
    fig = pd.DataFrame({"rate_bps": at[RATE_SWEEP_DELAY][RATE], "slow_start_s": at[RATE_SWEEP_DELAY]["slow_start_s"]})
    out: dict[str, Any] = {"__frames__": {"fig5_10": fig},
                           "ss_rate.drops_off_swept_link": float(t["drops_off_swept_link"].max())}
    if all(r in by_rate for r in (DS1, DS3, OC12, OC24)):
        high_rate_change = abs(by_rate[OC24] / by_rate[OC12] - 1)
        out["ss_rate.low_minus_high_change"] = abs(by_rate[DS1] / by_rate[DS3] - 1) - high_rate_change
        if OC24 in slow:
            out["ss_rate.delay_minus_rate_change"] = slow[OC24] / by_rate[OC24] - 1 - high_rate_change
    return out


def _seed_mean(runs: pd.DataFrame) -> pd.Series:
    """One configuration's runs as one: every number the mean over the seeds, the traces (for
    the figures) those of the first seed."""
    row = runs.iloc[0].copy()
    numeric = runs.select_dtypes("number").columns
    row[numeric] = runs[numeric].mean()
    return row


def _pair(table: pd.DataFrame, column: str, value: float) -> tuple[pd.Series, pd.Series] | None:
    """The (reno, sack1) runs at ``column == value``, each the mean over the seeds."""
    t = table[np.isclose(table[column].astype(float), value)]
    reno, sack = t[t[VARIANT] == "reno"], t[t[VARIANT] == "sack1"]
    return (_seed_mean(reno), _seed_mean(sack)) if len(reno) and len(sack) else None


def _advantage(pair: tuple[pd.Series, pd.Series]) -> float:
    """SACK's advantage: the share of Reno's completion time SACK saves, 1 - T_sack / T_reno."""
    return 1.0 - pair[1]["completion_s"] / pair[0]["completion_s"]


BASE_DELAY = 0.01  # the Fig. 4-1 baseline's one-way delay on r1-r2 (s; our choice, README)


def sack_delay(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Exp. 3: windows and timeouts after the 5 drops at the baseline (Fig. 4-1), SACK's
    earlier recovery, its longer stall at 100 ms, its advantage vs delay, and its unnecessary
    retransmissions at 1 s (retransmissions beyond the packets dropped)."""
    out: dict[str, Any] = {}
    base = _pair(table, DELAY, BASE_DELAY)
    if base is not None:
        reno, sack = base
        out |= {"sack.base.reno_cwnd_after_loss": reno["cwnd_after_loss_pkts"] * MSS,
                "sack.base.sack_cwnd_after_loss": sack["cwnd_after_loss_pkts"] * MSS,
                "sack.base.reno_timeouts": reno["timeouts"], "sack.base.sack_timeouts": sack["timeouts"],
                "sack.base.resume_lead_s": reno["resume_s"] - sack["resume_s"],
                "sack.base.advantage": _advantage(base)}
        frames = [pd.DataFrame({"time_s": r["cwnd_t"], "cwnd_bytes": np.asarray(r["cwnd"]) * MSS,
                                "variant": name}) for name, r in (("nsim Reno", reno), ("nsim SACK", sack))]
        out["__frames__"] = {"fig4_1": pd.concat(frames, ignore_index=True)}
    moderate = _pair(table, DELAY, 0.1)
    if base is not None and moderate is not None:
        stall = [p[1]["resume_s"] - p[1]["loss_s"] for p in (moderate, base)]
        out["sack.stall_100ms_minus_base_s"] = stall[0] - stall[1]
    for delay, tag in ((0.75, "750ms"), (1.0, "1s")):
        pair = _pair(table, DELAY, delay)
        if pair is not None and base is not None:
            out[f"sack.advantage_{tag}_over_base"] = _advantage(pair) / _advantage(base)
            if tag == "1s":
                out["sack.advantage_base_minus_1s"] = _advantage(base) - _advantage(pair)
                out["sack.unnecessary_retransmits_1s"] = float(pair[1]["retransmits"] - pair[1]["dropped_pkts"])
    return with_ns235(out, rows)


def sack_rate(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Exp. 4: SACK recovers faster than Reno at DS0 and at T1, by about the same amount."""
    out: dict[str, Any] = {}
    adv = {}
    for rate, tag in ((64e3, "ds0"), (1.544e6, "t1")):
        pair = _pair(table, RATE, rate)
        if pair is not None:
            adv[tag] = _advantage(pair)
            out[f"sack_rate.advantage_{tag}"] = adv[tag]
    if len(adv) == 2:
        out["sack_rate.advantage_difference"] = abs(adv["ds0"] - adv["t1"])
    return with_ns235(out, rows)


def _kr_ewma(samples: list[float]) -> tuple[float, float]:
    """Kurose & Ross's estimator as the report applies it (Fig. 5-11): EstimatedRTT starts at
    the first sample and DevRTT at 0; EstimatedRTT is updated first, then DevRTT with it."""
    est, dev = samples[0], 0.0
    for s in samples[1:]:
        est = 0.875 * est + 0.125 * s
        dev = 0.75 * dev + 0.25 * abs(s - est)
    return est, dev


#: Huang & Khazzam 2003 Fig. 5-12 (inputs) and Fig. 5-13 (measured kbytes/s): packets ACKed, triple
#: duplicates, RTT (s), timeout T0 (s), W_max (packets); 1412-byte packets, b = 2.
SITES = {
    "hong_kong": (17432, 10, 0.29271, 0.314767, 12, 52.5),
    "israel": (17448, 12, 0.243764, 0.434176, 12, 74.0),
    "trinidad": (12684, 70, 0.161326, 0.257394, 12, 89.6),
}
#: Fig. 5-11: Hong Kong's RTT samples at its 10 triple duplicates (s).
HONG_KONG_SAMPLES = [0.290661, 0.290398, 0.297856, 0.290919, 0.290395, 0.297638, 0.276571, 0.298063,
                     0.29743, 0.298097]


def pftk_published(table: pd.DataFrame) -> dict[str, Any]:
    """Exp. 6: Eq. 4-1 (nsim.analytic.pftk_bps) on the report's published inputs."""
    out: dict[str, Any] = {}
    for site, (acked, losses, rtt, t0, w_max, measured) in SITES.items():
        p = losses / acked
        calc = analytic.pftk_bps(1412, rtt, p, t0, w_max_pkts=w_max, b=2) / 8 / 1000
        loss_term = analytic.pftk_bps(1412, rtt, p, t0, b=2) / 8 / 1412
        out[f"pftk.{site}.calc_kBps"] = calc
        out[f"pftk.{site}.error_pct"] = 100 * abs(calc - measured) / measured
        out[f"pftk.{site}.loss_over_window_term"] = loss_term / (w_max / rtt)
    est, dev = _kr_ewma(HONG_KONG_SAMPLES)
    out["pftk.hong_kong.estimated_rtt_s"] = est
    out["pftk.hong_kong.timeout_s"] = est + 4 * dev
    return out


#: Fig. 5-12 per site: RTT (s), p = triple duplicates / packets ACKed, file (bytes) and the
#: measured throughput of Fig. 5-13 (kbytes/s). W_max = 12 packets of 1412 B, b = 2.
DOWNLOADS = {"dl_hong_kong": (0.29271, 10 / 17432, 46.8e6, 52.5),
             "dl_israel": (0.243764, 12 / 17448, 46.8e6, 74.0),
             "dl_trinidad": (0.161326, 70 / 12684, 18e6, 89.6)}


def download(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """§5.4 in nsim: the download's throughput (file / completion time, as the Windows download
    window shows it, in kbytes/s) and Eq. 4-1's error against it when fed, as the report did,
    the run's own loss rate, mean smoothed RTT and mean RTO (T0), W_max = 12, b = 2 (means
    over the seeds in the table)."""
    part = rows[0]["id"].split(".")[0]
    size = DOWNLOADS[part][2]
    kbps = size / table["completion_s"].to_numpy(float) / 1000
    calc = analytic.pftk_bps(1412, table["srtt_mean_s"].to_numpy(float), table["loss_rate"].to_numpy(float),
                             table["rto_mean_s"].to_numpy(float), w_max_pkts=12, b=2) / 8 / 1000
    return {f"{part}.kBps": float(np.mean(kbps)),
            f"{part}.eq41_error_pct": float(np.mean(100 * np.abs(calc - kbps) / kbps))}


LOW_WINDOW = 38.0  # RFC 3649 Low_Window (packets): HighSpeed TCP is standard TCP up to here
HS_BIN_S = 10.0  # record.interval of the HighSpeed scenarios (s)


def hstcp_trace(res: Any) -> pd.DataFrame:
    """Per flow: first retransmission timeout (the first time cwnd falls back to 1 segment
    after having grown; a fast retransmit leaves it at ssthresh >= 2), peak cwnd, cwnd averaged
    over time in the run's last 100 s, and the 10 s throughput bins (wire bytes delivered)."""
    rows = []
    cw, tp = res.series("cwnd"), res.series("flow_throughput")
    end = float(tp["time_s"].max())
    for flow in res.flows["flow"]:
        c = cw[cw["flow"] == flow]
        t, w = c["time_s"].to_numpy(float), c["cwnd_pkts"].to_numpy(float)
        held = np.diff(np.append(t, end))
        late = (t >= end - 100.0) & (held > 0)
        f = tp[tp["flow"] == flow]
        rows.append({"first_timeout_s": _first_timeout(c),
                     "peak_cwnd_pkts": float(w.max()),
                     "late_cwnd_pkts": float(np.average(w[late], weights=held[late])) if late.any() else float("nan"),
                     "bin_t": f["time_s"].tolist(),
                     "bin_mbps": (f["delivered_bytes"].to_numpy(float) * 8 / HS_BIN_S / 1e6).tolist()})
    return pd.DataFrame(rows)


def _bins(table: pd.DataFrame, label: str) -> pd.DataFrame:
    """The 10 s throughput bins of every flow of ``table`` (one run), series named
    ``<label> <flow name>``."""
    return pd.concat([pd.DataFrame({"time_s": np.asarray(r["bin_t"]) - HS_BIN_S, "mbps": r["bin_mbps"],
                                    "flow": f"{label} {r['name']}"}) for _, r in table.iterrows()],
                     ignore_index=True)


CONNECTIONS = "flows[0].repeat"  # 2: the report's two connections; 1: the first alone (control)


def _lead(first: float, second: float) -> float:
    """The second connection's throughput minus the first's, over their sum (0 = an equal split)."""
    return (second - first) / (first + second)


def hstcp_ds0(table: pd.DataFrame) -> dict[str, Any]:
    """Exp. 5 at DS0 under heavy load (each a mean over the seeds in the table): how much later
    the first connection times out when alone (the run's end if never) than beside the second,
    the order of the two connections' first timeouts, the second connection's lead in goodput,
    and the largest window against Low_Window."""
    alone_later, order, lead = [], [], []
    pair_runs = table[table[CONNECTIONS] == 2]
    alone = {seed: run.iloc[0] for seed, run in table[table[CONNECTIONS] == 1].groupby("seed")}
    for seed, run in pair_runs.groupby("seed"):
        first, second = (run[run["name"] == n].iloc[0] for n in ("hs0", "hs1"))
        order.append(second["first_timeout_s"] - first["first_timeout_s"])
        lead.append(_lead(first["goodput_bps"], second["goodput_bps"]))
        if seed in alone:
            own = alone[seed]["first_timeout_s"]
            alone_later.append((alone[seed]["sim_time_s"] if np.isnan(own) else own) - first["first_timeout_s"])
    seed1 = pair_runs[pair_runs["seed"] == pair_runs["seed"].min()]
    out = {"hstcp_ds0.second_minus_first_timeout_s": float(np.mean(order)),
           "hstcp_ds0.later_flow_lead": float(np.mean(lead)),
           "hstcp_ds0.peak_cwnd_over_low_window": pair_runs["peak_cwnd_pkts"].max() / LOW_WINDOW,
           "__frames__": {"fig4_7": _bins(seed1, "nsim")}}
    if alone_later:
        out["hstcp_ds0.first_timeout_alone_minus_paired_s"] = float(np.mean(alone_later))
    return out


def transfer_times(res: Any) -> pd.DataFrame:
    """Per flow: the mean duration of its completed transfers and their number."""
    t = res.transfers
    g = t.groupby("flow")["duration_s"]
    return pd.DataFrame({"transfer_mean_s": g.mean().reindex(res.flows["flow"]).to_numpy(),
                         "transfers": g.size().reindex(res.flows["flow"]).fillna(0).to_numpy()})


def _jain(xs: list[float]) -> float:
    """Jain's fairness index of the values ``xs``: 1 when all are equal."""
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs))


def hstcp_light(table: pd.DataFrame) -> dict[str, Any]:
    """§5.3, light load: Jain's index of the two connections' transfer rates (the inverse of
    each one's mean transfer time, the transfers being the same size; mean over the seeds)."""
    jain = []
    for _, run in table.groupby("seed"):
        jain.append(_jain([1.0 / run[run["name"] == n].iloc[0]["transfer_mean_s"] for n in ("hs0", "hs1")]))
    return {"hstcp_light.jain": float(np.mean(jain))}


#: reference/ns2/highspeed_two_flow/summary.csv: ns-2.35 on the path of hstcp_fast.toml.
NS2_TWO_FLOW = Path(__file__).resolve().parents[2] / "reference" / "ns2" / "highspeed_two_flow" / "summary.csv"


def _converged_after(bins: list[dict[str, Any]], start: float, rate_mbps: float) -> float:
    """δ-fair convergence time (SlowCC's, δ = 0.1): from the second flow's start to the end of
    its first 10 s bin at or above (1 - δ)/2 of the link rate."""
    second = bins[1]
    hit = [t for t, m in zip(second["t"], second["mbps"]) if t >= start and m >= 0.45 * rate_mbps]
    return hit[0] + HS_BIN_S - start if hit else float("nan")


def _means_after(bins: list[dict[str, Any]], t0: float) -> list[float]:
    """Each flow's mean throughput over the bins starting at or after ``t0`` (Mb/s)."""
    return [float(np.mean([m for t, m in zip(b["t"], b["mbps"]) if t >= t0])) for b in bins]


def _two_flow_measures(runs: pd.DataFrame, part: str) -> dict[str, float]:
    """One seed's two-flow runs at 99 Mb/s x 100 ms, the second flow from 30 s, row ids under
    ``part``: each HighSpeed flow's time-averaged window over the last 100 s against
    Low_Window, per window rule the second flow's share and the Jain index over the last
    100 s, the utilisation after 30 s and the second flow's convergence time; for HighSpeed
    the second flow's lead and the Jain index over 30-300 s."""
    out: dict[str, float] = {}
    jains: dict[str, float] = {}
    end = max(max(t) for t in runs["bin_t"])
    for variant, run in runs.groupby(VARIANT):
        run = run.sort_values("name")
        bins = [{"t": np.asarray(r["bin_t"]) - HS_BIN_S, "mbps": r["bin_mbps"]} for _, r in run.iterrows()]
        last100, after30 = _means_after(bins, end - 100.0), _means_after(bins, 30.0)
        out[f"{part}.{variant}.second_share_last100s"] = last100[1] / sum(last100)
        out[f"{part}.{variant}.jain_last100s"] = _jain(last100)
        out[f"{part}.{variant}.utilization"] = sum(after30) / 99.0
        out[f"{part}.{variant}.convergence_s"] = _converged_after(bins, 30.0, 99.0)
        jains[variant] = _jain(after30)
        if variant == "highspeed":
            out[f"{part}.highspeed.late_cwnd_over_low_window"] = run["late_cwnd_pkts"].min() / LOW_WINDOW
            out[f"{part}.highspeed.later_lead_30_300"] = _lead(*after30)
            out[f"{part}.highspeed.jain_30_300"] = jains[variant]
    if {"highspeed", "sack1"} <= set(jains):
        out[f"{part}.gain_over_sack1"] = out[f"{part}.highspeed.utilization"] - out[f"{part}.sack1.utilization"]
        out[f"{part}.jain_sack1_minus_highspeed"] = jains["sack1"] - jains["highspeed"]
    return out


def _two_flow(table: pd.DataFrame, part: str) -> tuple[dict[str, Any], list[pd.DataFrame]]:
    """:func:`_two_flow_measures` as means over the seeds in ``table``, and the first seed's
    throughput bins per window rule (for the figure)."""
    per_seed = [_two_flow_measures(runs, part) for _, runs in table.groupby("seed")]
    out: dict[str, Any] = {k: float(np.mean([m[k] for m in per_seed])) for k in per_seed[0]}
    seed1 = table[table["seed"] == table["seed"].min()]
    return out, [_bins(run.sort_values("name"), f"nsim {variant}") for variant, run in seed1.groupby(VARIANT)]


def hstcp_fast(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The two-flow measures of :func:`_two_flow_measures` on the deterministic runs that
    ns-2.35 repeats (reference/ns2/highspeed_two_flow), with ns-2.35's bins in the figure."""
    out, frames = _two_flow(table, "hstcp_fast")
    out = only_rows(out, rows)
    if NS2_TWO_FLOW.exists():
        ns2 = pd.read_csv(NS2_TWO_FLOW)
        frames += [pd.DataFrame({"time_s": g["bin_start_s"], "mbps": g["mbps"], "flow": f"ns-2.35 {rule} flow {flow}"})
                   for (rule, flow), g in ns2.groupby(["rule", "flow"])]
    out["__frames__"] = {"hstcp_fast": pd.concat(frames, ignore_index=True)}
    return out


def hstcp_jitter(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The same measures over seeds whose flows start at jittered times (study.toml: within
    one 100-ms round trip), the rows that test the report's claims (means over the seeds)."""
    out, frames = _two_flow(table, "hstcp_jitter")
    return only_rows(out, rows) | {"__frames__": {"hstcp_jitter": pd.concat(frames, ignore_index=True)}}
