"""Reducers for seed 004 (Bakthavachalu 2004, SF-SACK and TFRC on a RED dumbbell).

Two-flow parts (Tables 6.1/6.2): per flow, the throughput in 0.5 s bins (wire bytes delivered,
headers included, as the thesis' bottleneck-link trace counts them) after a 20 s warm-up; its
mean, standard deviation and CoV = 100·σ/μ. A protocol's row is the mean over its two flows
and the seeds; utilisation is the sum of the two means over the bottleneck rate; fairness is
Jain's index of the two means.

Friendliness parts (Tables 5.1-5.7): n flows of TFRC and n of protocol X; a flow's normalized
throughput is its throughput after the warm-up over the fair share C/(2n) of the capacity
(notes §4.4), and a class's value is its mean over its flows (and seeds).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

WARMUP_S = 20.0
VARIANT = "flows[0].transport.variant"


def binned_throughput(res: Any) -> pd.DataFrame:
    """Per flow: mean, std and CoV of the 0.5 s throughput after the warm-up (one row per flow)."""
    s = res.series("flow_throughput")
    s = s[s["time_s"] > WARMUP_S + 1e-9]
    rows = []
    for flow in res.flows["flow"]:
        mbps = s.loc[s["flow"] == flow, "delivered_bytes"].to_numpy(float) * 8 / 0.5 / 1e6
        mean = float(mbps.mean()) if len(mbps) else float("nan")
        std = float(mbps.std()) if len(mbps) else float("nan")
        rows.append({"tput_mean_mbps": mean, "tput_std_mbps": std, "tput_cov_pct": 100 * std / mean if mean else float("nan")})
    return pd.DataFrame(rows)


def _protocol(table: pd.DataFrame) -> pd.Series:
    """The protocol of each flow row: the TCP variant, or 'tfrc'."""
    if VARIANT in table.columns:
        return table[VARIANT].astype(str).where(table["transport"] == "tcp", "tfrc")
    return table["transport"].where(table["transport"] != "tcp", "tcp")


def _two_flow(part: str, table: pd.DataFrame, rate_mbps: float, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The rows of a two-flow part; `<row>_ns235` rows measure the same as `<row>`."""
    t = table.assign(protocol=_protocol(table))
    out: dict[str, Any] = {}
    frames = []
    for proto, g in t.groupby("protocol"):
        runs = g.groupby("seed")
        util = runs["tput_mean_mbps"].sum().mean() / rate_mbps
        jain = runs["tput_mean_mbps"].apply(lambda x: x.sum() ** 2 / (len(x) * (x ** 2).sum())).mean()
        cov = g["tput_cov_pct"].mean()
        out[f"{part}.{proto}.cov_pct"] = float(cov)
        out[f"{part}.{proto}.utilization"] = float(util)
        out[f"{part}.{proto}.jain"] = float(jain)
        frames.append({"protocol": proto, "cov_pct": cov, "cov_pct_min": g["tput_cov_pct"].min(),
                       "cov_pct_max": g["tput_cov_pct"].max(), "utilization": util, "jain": jain,
                       "mean_mbps": g["tput_mean_mbps"].mean(), "std_mbps": g["tput_std_mbps"].mean()})
    covs = {r["protocol"]: r["cov_pct"] for r in frames}
    if "sf_sack" in covs and "sack1" in covs:
        out[f"{part}.cov_ratio_sf_sack_to_sack1"] = float(covs["sf_sack"] / covs["sack1"])
    ids = {r["id"] for r in rows}
    out.update({k + "_ns235": v for k, v in list(out.items()) if k + "_ns235" in ids})
    out["__frames__"] = {f"{part}_table": pd.DataFrame(frames)}
    return out


def two60(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Table 6.1: two flows of one protocol, 60 Mb/s."""
    return _two_flow("two60", table, 60.0, rows)


def two15(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Table 6.2: two flows of one protocol, 15 Mb/s."""
    return _two_flow("two15", table, 15.0, rows)


def tfrc60(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Table 6.1, TFRC rows."""
    return _two_flow("tfrc60", table, 60.0, rows)


def tfrc15(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Table 6.2, TFRC rows."""
    return _two_flow("tfrc15", table, 15.0, rows)


def _class_shares(n: int, table: pd.DataFrame) -> pd.DataFrame:
    """Per X: the mean normalized throughput of the first class (flows[0], n flows) and of
    the X class (flows named x*), each flow's throughput after the warm-up over C/(2n)."""
    fair = 60.0 / (2 * n)
    frames = []
    for x, g in table.groupby("flows[1].transport.variant"):
        nt = g["tput_mean_mbps"] / fair
        is_x = g["name"].str.startswith("x")
        frames.append({"n": n, "x": x, "first_nt": float(nt[~is_x].mean()), "x_nt": float(nt[is_x].mean()),
                       "first_nt_std": float(nt[~is_x].std()),
                       "utilization": float(g["tput_mean_mbps"].sum() / g["seed"].nunique() / 60.0)})
    return pd.DataFrame(frames)


def _friendliness(n: int, table: pd.DataFrame) -> dict[str, Any]:
    """Tables 5.1-5.7 (no ECN), TFRC rows: the TFRC class's mean normalized throughput."""
    f = _class_shares(n, table).rename(columns={"first_nt": "tfrc_nt", "first_nt_std": "tfrc_nt_std"})
    out: dict[str, Any] = {f"friend{n}.{r.x}.tfrc_nt": r.tfrc_nt for r in f.itertuples()}
    out["__frames__"] = {f"friend{n}": f}
    return out


def sfsack16(table: pd.DataFrame) -> dict[str, Any]:
    """§6.2.3 (Figs. 6.7): 16 SF-SACK + 16 X flows; SF-SACK's mean normalized throughput."""
    f = _class_shares(16, table).rename(columns={"first_nt": "sf_sack_nt", "first_nt_std": "sf_sack_nt_std"})
    out: dict[str, Any] = {f"sfsack16.{r.x}.sf_sack_nt": r.sf_sack_nt for r in f.itertuples()}
    out["__frames__"] = {"sfsack16": f}
    return out


def friend4(table: pd.DataFrame) -> dict[str, Any]:
    """Tables 5.1-5.7, n = 4."""
    return _friendliness(4, table)


def friend16(table: pd.DataFrame) -> dict[str, Any]:
    """Tables 5.1-5.7, n = 16."""
    return _friendliness(16, table)


def friend32(table: pd.DataFrame) -> dict[str, Any]:
    """Tables 5.1-5.7, n = 32."""
    return _friendliness(32, table)


def friend64(table: pd.DataFrame) -> dict[str, Any]:
    """Tables 5.1-5.7, n = 64."""
    return _friendliness(64, table)


def tau15(table: pd.DataFrame) -> dict[str, Any]:
    """§6.1: SF-SACK's throughput CoV against the filter constant tau (two flows, 15 Mb/s)."""
    tau = "flows[0].transport.sf_sack.tau"
    secs = table[tau].map(lambda v: float(v[:-2]) / 1000 if v.endswith("ms") else float(v[:-1]))
    cov = table.assign(tau_s=secs).groupby("tau_s")["tput_cov_pct"].mean()
    out: dict[str, Any] = {"tau15.cov_1s_minus_0p1s": float(cov[1.0] - cov[0.1])}
    if len(cov) > 2:
        out["tau15.cov_0p1s_minus_min"] = float(cov[0.1] - cov.min())
    out["__frames__"] = {"tau15": cov.rename("cov_pct").reset_index()}
    return out
