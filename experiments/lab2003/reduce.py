"""Reducers for seed 003 (McGill lab 2003). See README.md for every choice behind them.

Extractors (run in the sweep's workers on each run's full results):
``slow_start_end`` finds where cwnd stops growing exponentially, the seed's slow-start end
("the point where the window size stops growing exponentially", read in Excel): the first
decrease of cwnd; ``cwnd_trace`` keeps the whole (short) cwnd trace of the five-drop runs;
``rtt_rto`` keeps the mean smoothed RTT and RTO, the RTT and T0 of Eq. 4-1.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from nsim import analytic

MSS = 8152  # bytes: "TCP Reno resets its congestion window to 8152 bytes, or 1 MSS"
DELAY, RATE, VARIANT, LOSS = "links[1].delay", "links[1].rate", "flows[0].transport.variant", "links[1].error.rate"


def _first_decrease(cwnd: pd.DataFrame) -> int | None:
    """Index (position) of the first change that lowers cwnd, or None."""
    drops = np.flatnonzero(np.diff(cwnd["cwnd_pkts"].to_numpy()) < 0)
    return int(drops[0]) + 1 if len(drops) else None


def slow_start_end(res: Any) -> pd.DataFrame:
    """Per flow: slow-start duration (start to the first cwnd decrease) and the peak cwnd."""
    rows = []
    cw = res.series("cwnd")
    for flow, start in zip(res.flows["flow"], res.flows["start_s"].fillna(0.0)):
        c = cw[cw["flow"] == flow].reset_index(drop=True)
        i = _first_decrease(c)
        rows.append({"slow_start_s": float(c["time_s"][i] - start) if i else float("nan"),
                     "peak_cwnd_pkts": float(c["cwnd_pkts"][i - 1]) if i else float("nan")})
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
        rows.append({"cwnd_t": c["time_s"].tolist(), "cwnd": c["cwnd_pkts"].tolist(),
                     "cwnd_before_loss_pkts": float(c["cwnd_pkts"][i - 1]) if i else float("nan"),
                     "cwnd_after_loss_pkts": float(c["cwnd_pkts"][i:].min()) if i else float("nan")})
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
    """Exp. 1: "A linearly increasing latency results in linearly increasing slow start phase"."""
    t = table.sort_values(DELAY)
    x, y = t[DELAY].to_numpy(float), t["slow_start_s"].to_numpy(float)
    frame = pd.DataFrame({"delay_s": x, "slow_start_s": y})
    if np.isnan(y).any() or len(y) < 3:
        return {"__frames__": {"fig5_9": frame}}
    return {"ss_delay.linear_r2": _linear_r2(x, y), "ss_delay.longest_over_shortest": y[-1] / y[0],
            "__frames__": {"fig5_9": frame}}


def slowstart_rate(table: pd.DataFrame) -> dict[str, Any]:
    """Exp. 2: "throughput does not affect the duration much, especially above OC12"."""
    t = table.sort_values(RATE)
    by_rate = dict(zip(t[RATE], t["slow_start_s"]))
    out: dict[str, Any] = {"__frames__": {"fig5_10": pd.DataFrame({"rate_bps": t[RATE], "slow_start_s": t["slow_start_s"]})}}
    if 622.08e6 in by_rate and 1244.16e6 in by_rate:
        out["ss_rate.oc24_over_oc12"] = by_rate[1244.16e6] / by_rate[622.08e6]
    if 155.52e6 in by_rate and 1244.16e6 in by_rate:
        out["ss_rate.oc24_over_oc3"] = by_rate[1244.16e6] / by_rate[155.52e6]
    return out


def _pair(table: pd.DataFrame, column: str, value: float) -> tuple[pd.Series, pd.Series] | None:
    """The (reno, sack1) rows at ``column == value``."""
    t = table[np.isclose(table[column].astype(float), value)]
    reno, sack = t[t[VARIANT] == "reno"], t[t[VARIANT] == "sack1"]
    return (reno.iloc[0], sack.iloc[0]) if len(reno) and len(sack) else None


def sack_delay(table: pd.DataFrame) -> dict[str, Any]:
    """Exp. 3: windows after the 5 drops, timeouts, and SACK's advantage vs delay."""
    out: dict[str, Any] = {}
    base = _pair(table, DELAY, 0.1)
    if base is not None:
        reno, sack = base
        out |= {"sack.reno_cwnd_after_loss": reno["cwnd_after_loss_pkts"] * MSS,
                "sack.sack_cwnd_after_loss": sack["cwnd_after_loss_pkts"] * MSS,
                "sack.reno_timeouts": reno["timeouts"], "sack.sack_timeouts": sack["timeouts"],
                "sack.completion_ratio_100ms": sack["completion_s"] / reno["completion_s"]}
        frames = [pd.DataFrame({"time_s": r["cwnd_t"], "cwnd_bytes": np.asarray(r["cwnd"]) * MSS,
                                "variant": name}) for name, r in (("nsim Reno", reno), ("nsim SACK", sack))]
        out["__frames__"] = {"fig4_2": pd.concat(frames, ignore_index=True)}
    for delay, tag in ((0.75, "750ms"), (1.0, "1s")):
        pair = _pair(table, DELAY, delay)
        if pair is not None:
            out[f"sack.completion_ratio_{tag}"] = pair[1]["completion_s"] / pair[0]["completion_s"]
    return out


def sack_rate(table: pd.DataFrame) -> dict[str, Any]:
    """Exp. 4: SACK recovers faster than Reno at DS0 and at T1, by about the same amount."""
    out: dict[str, Any] = {}
    ratios = {}
    for rate, tag in ((64e3, "ds0"), (1.544e6, "t1")):
        pair = _pair(table, RATE, rate)
        if pair is not None:
            ratios[tag] = pair[1]["completion_s"] / pair[0]["completion_s"]
            out[f"sack_rate.completion_ratio_{tag}"] = ratios[tag]
    if len(ratios) == 2:
        out["sack_rate.ratio_difference"] = abs(ratios["ds0"] - ratios["t1"])
    return out


def _kr_ewma(samples: list[float]) -> tuple[float, float]:
    """Kurose & Ross's estimator as the seed applies it (Fig. 5-11): EstimatedRTT starts at
    the first sample and DevRTT at 0; EstimatedRTT is updated first, then DevRTT with it."""
    est, dev = samples[0], 0.0
    for s in samples[1:]:
        est = 0.875 * est + 0.125 * s
        dev = 0.75 * dev + 0.25 * abs(s - est)
    return est, dev


#: Seed 003 Fig. 5-12 (inputs) and Fig. 5-13 (measured kbytes/s): packets ACKed, triple
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
    """Exp. 6: Eq. 4-1 (nsim.analytic.pftk_bps) on the seed's published inputs."""
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


def pftk_simulated(table: pd.DataFrame) -> dict[str, Any]:
    """nsim Reno (delayed ACKs) goodput over Eq. 4-1 and over Mathis et al., per loss rate,
    each model fed the run's measured loss rate, mean smoothed RTT and mean RTO (T0)."""
    t = table.assign(p=table["loss_rate"], payload=1000.0)
    t["pftk_bps"] = analytic.pftk_bps(t["payload"], t["srtt_mean_s"], t["p"], t["rto_mean_s"], b=2)
    t["mathis_bps"] = analytic.mathis_bps(t["payload"], t["srtt_mean_s"], t["p"], b=2)
    g = t.groupby(LOSS)
    mean = g[["goodput_bps", "pftk_bps", "mathis_bps", "p"]].mean()
    out: dict[str, Any] = {}
    for rate, m in mean.iterrows():
        tag = f"p{rate:g}"
        out[f"pftk_sim.{tag}.nsim_over_pftk"] = m["goodput_bps"] / m["pftk_bps"]
        if rate <= 0.01:  # Mathis leaves out timeouts: a check only where they are rare
            out[f"pftk_sim.{tag}.nsim_over_mathis"] = m["goodput_bps"] / m["mathis_bps"]
    frame = pd.concat([pd.DataFrame({"p": mean["p"], "goodput_bps": mean[c], "model": label})
                       for c, label in (("goodput_bps", "nsim Reno"), ("pftk_bps", "Eq. 4-1 (PFTK)"),
                                        ("mathis_bps", "Mathis (b = 2)"))], ignore_index=True)
    out["__frames__"] = {"pftk_sim": frame}
    return out
