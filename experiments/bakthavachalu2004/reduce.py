"""Reducers for Bakthavachalu 2004 (SF-SACK and TFRC on a RED dumbbell).

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

import json
from typing import Any

import numpy as np
import pandas as pd

from nsim.reproduction import only_rows, with_ns235

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


def binned_throughput_cwnd(res: Any) -> pd.DataFrame:
    """As `binned_throughput`, plus each flow's congestion window sampled every 0.5 s after the
    warm-up (the scenario records the `tcp` series): its mean and CoV = 100·σ/μ, the thesis'
    "variation of cwnd" of Figs. 6.1-6.4 put in one number (the thesis plots the trace only)."""
    out = binned_throughput(res)
    s = res.series("tcp")
    s = s[s["time_s"] > WARMUP_S + 1e-9]
    cwnd = [s.loc[s["flow"] == flow, "cwnd_pkts"].to_numpy(float) for flow in res.flows["flow"]]
    out["cwnd_mean_pkts"] = [float(c.mean()) if len(c) else float("nan") for c in cwnd]
    out["cwnd_cov_pct"] = [100 * float(c.std() / c.mean()) if len(c) and c.mean() else float("nan") for c in cwnd]
    return out


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
    if "cwnd_cov_pct" in t.columns:  # §6.2.1 (Figs. 6.3/6.4); TFRC has no window (the thesis leaves it out)
        cwnd = t[t["protocol"] != "tfrc"].groupby("protocol")["cwnd_cov_pct"].mean()
        for r in frames:
            r["cwnd_cov_pct"] = float(cwnd.get(r["protocol"], float("nan")))
        if {"sf_sack", "sack1"} <= set(cwnd.index):
            out[f"{part}.cwnd_cov_ratio_sf_sack_to_sack1"] = float(cwnd["sf_sack"] / cwnd["sack1"])
        if {"tahoe", "reno", "newreno", "sack1"} <= set(cwnd.index):
            out[f"{part}.cwnd_cov_tahoe_over_others"] = float(cwnd["tahoe"] / cwnd[["reno", "newreno", "sack1"]].max())
    out = with_ns235(out, rows)
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


SETBIT = "dumbbell.bottleneck.queue.setbit"
TCP_VARIANTS = ("tahoe", "reno", "newreno", "sack1")


def _jain(x: pd.Series) -> float:
    """Jain's fairness index (Chiu & Jain) of the values in ``x``."""
    square_sum = float((x ** 2).sum())
    return float(x.sum() ** 2 / (len(x) * square_sum)) if square_sum > 0 else float("nan")


def _class_shares(n: int, table: pd.DataFrame, label: str | None = None, rate_mbps: float = 60.0,
                  by: str = "flows[1].transport.variant") -> pd.DataFrame:
    """Per X (named ``label`` if given, else by the column ``by``) and per ECN setting: the mean
    normalized throughput of the first class (flows[0], n flows) and of the X class (flows
    named x*), each flow's throughput after the warm-up over C/(2n), C = ``rate_mbps``; Jain's
    index over all 2n flows; the bottleneck loss rate (packets dropped over packets sent, both
    classes)."""
    fair = rate_mbps / (2 * n)
    t = table.assign(ecn=table[SETBIT].astype(str).str.lower() == "true" if SETBIT in table.columns else False)  # grid values come back as text
    frames = []
    for (x, ecn), g in t.groupby([by, "ecn"]):
        nt = g["tput_mean_mbps"] / fair
        is_x = g["name"].str.startswith("x")
        frames.append({"n": n, "x": label or x, "ecn": bool(ecn), "first_nt": float(nt[~is_x].mean()),
                       "x_nt": float(nt[is_x].mean()), "first_nt_std": float(nt[~is_x].std()),
                       "jain": float(g.groupby("seed")["tput_mean_mbps"].apply(_jain).mean()),
                       "loss_pct": float(100 * g["dropped_pkts"].sum() / g["sent_pkts"].sum()),
                       "utilization": float(g["tput_mean_mbps"].sum() / g["seed"].nunique() / rate_mbps)})
    return pd.DataFrame(frames)


def _friendliness(part: str, n: int, table: pd.DataFrame, rows: list[dict[str, Any]], label: str | None = None) -> dict[str, Any]:
    """Tables 5.1-5.8 (without ECN, and with it: suffix ``_ecn``), TFRC rows: the TFRC class's
    mean normalized throughput, Jain's index over all flows (Figs. 5.3/5.4) and, where both
    settings ran, the ECN/no-ECN ratio of the loss rate and the change of Jain's index."""
    f = _class_shares(n, table, label).rename(columns={"first_nt": "tfrc_nt", "first_nt_std": "tfrc_nt_std"})
    out: dict[str, Any] = {}
    for r in f.itertuples():
        key = f"{part}.{r.x}" if label is None else part
        tail = "_ecn" if r.ecn else ""
        out[f"{key}.tfrc_nt{tail}"] = r.tfrc_nt
        out[f"{key}.jain{tail}"] = r.jain
    for x, g in f.groupby("x"):
        if g["ecn"].nunique() == 2:
            on, off = g[g["ecn"]].iloc[0], g[~g["ecn"]].iloc[0]
            key = f"{part}.{x}" if label is None else part
            out[f"{key}.loss_ratio_ecn"] = on["loss_pct"] / off["loss_pct"] if off["loss_pct"] else float("nan")
            out[f"{key}.jain_gain_ecn"] = on["jain"] - off["jain"]
    tcp = f[f["x"].isin(TCP_VARIANTS)] if label is None else f.iloc[0:0]
    if len(tcp):  # Tables 5.1-5.4's conclusions: TFRC vs the TCP classes, and ECN's shift
        for ecn, g in tcp.groupby("ecn"):
            out[f"{part}.tcp.tfrc_minus_x_nt{'_ecn' if ecn else ''}"] = float((g["tfrc_nt"] - g["x_nt"]).mean())
        if tcp["ecn"].nunique() == 2:
            on = tcp[tcp["ecn"]].set_index("x")
            off = tcp[~tcp["ecn"]].set_index("x")
            out[f"{part}.tcp.ecn_shift"] = float((on["tfrc_nt"] - off["tfrc_nt"]).mean())
            ratio = (on["loss_pct"] / off["loss_pct"].where(off["loss_pct"] > 0)).dropna()
            out[f"{part}.tcp.loss_ratio_ecn"] = float(ratio.mean()) if len(ratio) else float("nan")
    out = only_rows(with_ns235(out, rows), rows)  # the table keeps what no row checks
    out["__frames__"] = {part: f}
    return out


def sfsack16(table: pd.DataFrame) -> dict[str, Any]:
    """§6.2.3 / §6.2.5 (Figs. 6.7, 6.12): 16 SF-SACK + 16 X flows; SF-SACK's mean normalized
    throughput and Jain's index of all 32 flows."""
    f = _class_shares(16, table).rename(columns={"first_nt": "sf_sack_nt", "first_nt_std": "sf_sack_nt_std"})
    out: dict[str, Any] = {f"sfsack16.{r.x}.sf_sack_nt": r.sf_sack_nt for r in f.itertuples()}
    out |= {f"sfsack16.{r.x}.jain": r.jain for r in f.itertuples()}
    out["__frames__"] = {"sfsack16": f}
    return out


SF_N, X_N = "flows[0].repeat", "flows[1].repeat"


def sfsack60(table: pd.DataFrame) -> dict[str, Any]:
    """§6.2.5 at 60 Mb/s (Fig. 6.12): n SF-SACK + n X flows, n = 16, 32, 64 (linked). Rows:
    Jain's index of all 2n flows at n = 64 minus at n = 16, per X ("closely fair" with few flows,
    "fair" beyond 30)."""
    n = table["flows[0].repeat + flows[1].repeat"].map(lambda v: int(json.loads(v)[0]) if isinstance(v, str) else int(v[0]))
    f = pd.concat([_class_shares(int(k), g) for k, g in table.assign(n=n).groupby("n")], ignore_index=True)
    f = f.rename(columns={"first_nt": "sf_sack_nt", "first_nt_std": "sf_sack_nt_std"})
    jain = f.pivot_table(index="x", columns="n", values="jain")
    out: dict[str, Any] = {f"sfsack60.{x}.jain_64_minus_16": float(r[64] - r[16])
                           for x, r in jain.iterrows() if {16, 64} <= set(r.dropna().index)}
    out["__frames__"] = {"fig6_12": f}
    return out


def sfsack15(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """§6.2.3 / §6.2.5 at 15 Mb/s (Figs. 6.8, 6.13): n SF-SACK + n X flows, n = 4-64, X a TCP
    variant or TFRC (the grid's whole ``flows[1].transport``). Per X: SF-SACK's smallest class
    mean normalized throughput over n, Jain's index and the loss rate at the largest n minus
    at the smallest, the largest loss rate; and the smallest margin, over n, of TFRC's X-class
    share over the mean X-class share of the four TCP variants."""
    t = table[table[SF_N].astype(int) == table[X_N].astype(int)]  # the product grid also pairs unequal n
    t = t.assign(x=t[TRANSPORT].map(_protocol_of), n=t[SF_N].astype(int))
    f = pd.concat([_class_shares(n, g, rate_mbps=15.0, by="x") for n, g in t.groupby("n")], ignore_index=True)
    f = f.rename(columns={"first_nt": "sf_sack_nt", "first_nt_std": "sf_sack_nt_std"}).drop(columns="ecn")
    out: dict[str, Any] = {}
    for x, g in f.sort_values("n").groupby("x"):
        out[f"sfsack15.{x}.sf_sack_nt_min"] = float(g["sf_sack_nt"].min())
        out[f"sfsack15.{x}.jain_change"] = float(g["jain"].iloc[-1] - g["jain"].iloc[0])
        out[f"sfsack15.{x}.loss_change_pct"] = float(g["loss_pct"].iloc[-1] - g["loss_pct"].iloc[0])
        out[f"sfsack15.{x}.loss_pct_max"] = float(g["loss_pct"].max())
    if len(f):
        out["sfsack15.sf_sack_nt_min"] = float(f["sf_sack_nt"].min())
        out["sfsack15.loss_pct_max"] = float(f["loss_pct"].max())
    tcp = f[f["x"] != "tfrc"].groupby("n")["x_nt"].mean()
    tfrc = f[f["x"] == "tfrc"].set_index("n")["x_nt"]
    if len(tfrc) and len(tcp):
        out["sfsack15.tfrc_minus_tcp_x_nt_min"] = float((tfrc - tcp).dropna().min())
    out = only_rows(out, rows)
    out["__frames__"] = {"fig6_8": f, "fig6_13": f}
    return out


def friend4(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Tables 5.1-5.7, n = 4."""
    return _friendliness("friend4", 4, table, rows)


def friend16(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Tables 5.1-5.7, n = 16."""
    return _friendliness("friend16", 16, table, rows)


def friend32(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Tables 5.1-5.7, n = 32."""
    return _friendliness("friend32", 32, table, rows)


def friend64(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Tables 5.1-5.7, n = 64."""
    return _friendliness("friend64", 64, table, rows)


def iiad4(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Table 5.8 (IIAD), n = 4."""
    return _friendliness("iiad4", 4, table, rows, label="iiad")


def iiad16(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Table 5.8 (IIAD), n = 16."""
    return _friendliness("iiad16", 16, table, rows, label="iiad")


def iiad32(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Table 5.8 (IIAD), n = 32."""
    return _friendliness("iiad32", 32, table, rows, label="iiad")


def iiad64(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Table 5.8 (IIAD), n = 64."""
    return _friendliness("iiad64", 64, table, rows, label="iiad")


def _tau(part: str, table: pd.DataFrame) -> dict[str, Any]:
    """§6.1: SF-SACK's cwnd variation (CoV of the sampled window, what Figs. 6.1/6.2 plot)
    against the filter constant tau (two flows); the throughput CoV goes to the figure only."""
    tau = "flows[0].transport.sf_sack.tau"
    secs = table[tau].map(lambda v: float(v[:-2]) / 1000 if v.endswith("ms") else float(v[:-1]))
    by_tau = table.assign(tau_s=secs).groupby("tau_s")
    cwnd = by_tau["cwnd_cov_pct"].mean()
    out: dict[str, Any] = {f"{part}.cwnd_cov_1s_minus_0p1s": float(cwnd[1.0] - cwnd[0.1])}
    if 0.01 in cwnd.index:
        out[f"{part}.cwnd_cov_10ms_minus_0p1s"] = float(cwnd[0.01] - cwnd[0.1])
    frame = pd.concat([cwnd.rename("cov_pct").reset_index().assign(metric="cwnd CoV (0.5 s samples)"),
                       by_tau["tput_cov_pct"].mean().rename("cov_pct").reset_index().assign(metric="throughput CoV (0.5 s bins)")],
                      ignore_index=True)
    out["__frames__"] = {part: frame}
    return out


def tau15(table: pd.DataFrame) -> dict[str, Any]:
    """§6.1 (Fig. 6.2): the tau sweep, two SF-SACK flows at 15 Mb/s."""
    return _tau("tau15", table)


def tau60(table: pd.DataFrame) -> dict[str, Any]:
    """§6.1 (Fig. 6.1): the tau sweep, two SF-SACK flows at 60 Mb/s."""
    return _tau("tau60", table)


CBR_RATE = "flows[0].app.rate"
LINK_1M = 1.0  # Mb/s, the bottleneck of §6.2.4
FIGURE = {"cbr_udp": "fig6_9", "cbr_tcp": "fig6_10", "cbr_sfsack": "fig6_11"}


def _cbr_vs_ftp(part: str, table: pd.DataFrame, cbr_cap: float) -> dict[str, Any]:
    """Figs. 6.9-6.11: per CBR rate, the CBR and FTP flows' goodput over the run (Mb/s).
    ``cbr_cap`` is what the CBR flow should get at most: the link (UDP) or half of it (a
    congestion-controlled transport), drawn in the figure. Rows: the CBR's goodput at the top
    rate (1 Mb/s), where UDP and TCP differ most, and the smallest CBR + FTP over the link
    rate (a consistency check)."""
    rate = table[CBR_RATE].map(lambda v: float(str(v).removesuffix("kb")) / 1000.0)
    t = table.assign(rate=rate, mbps=table["goodput_bps"] / 1e6)
    by = t.pivot_table(index="rate", columns="name", values="mbps")
    frame = pd.concat([pd.DataFrame({"cbr_rate_mbps": by.index, "mbps": by["cbr"], "series": "CBR"}),
                       pd.DataFrame({"cbr_rate_mbps": by.index, "mbps": by["ftp"], "series": "FTP"}),
                       pd.DataFrame({"cbr_rate_mbps": by.index, "mbps": LINK_1M - by.index.to_series().clip(upper=LINK_1M),
                                     "series": "available to FTP (link - CBR rate)"})], ignore_index=True)
    return {f"{part}.cbr_mbps_top": float(by["cbr"].iloc[-1]),
            f"{part}.utilization_min": float((by["cbr"] + by["ftp"]).min() / LINK_1M),
            "__frames__": {FIGURE[part]: frame}}


def cbr_udp(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Fig. 6.9: "UDP always gets its share of bandwidth, leaving only the remaining ... for TCP"."""
    return with_ns235(_cbr_vs_ftp("cbr_udp", table, LINK_1M), rows)


def cbr_tcp(table: pd.DataFrame) -> dict[str, Any]:
    """Fig. 6.10: TCP-carried CBR gets what it needs up to its fair share (half the link)."""
    return _cbr_vs_ftp("cbr_tcp", table, LINK_1M / 2)


def cbr_sfsack(table: pd.DataFrame) -> dict[str, Any]:
    """Fig. 6.11: SF-SACK "behaves like other TCP protocols in being fair when carrying data and video"."""
    return _cbr_vs_ftp("cbr_sfsack", table, LINK_1M / 2)


TRANSPORT = "flows[1].transport"
CONV_BIN_S = 1.0  # record.interval of convergence_10.toml
CBR_OFF_S = 20.0


def convergence_time(res: Any) -> pd.DataFrame:
    """Per run: the δ-fair convergence time (SlowCC's, δ = 0.1, B = 10 Mb/s; notes §4.9): from
    the CBR's end (20 s) to the end of flow0's first 1-s bin at or above (1 - δ)·B/2 = 4.5 Mb/s
    (NaN if it never gets there), on every flow's row."""
    s = res.series("flow_throughput")
    name = dict(zip(res.flows["flow"], res.flows["name"]))
    s = s[s["flow"].map(name) == "flow0"]
    mbps = s["delivered_bytes"].to_numpy(float) * 8 / CONV_BIN_S / 1e6
    ends = s["time_s"].to_numpy(float)
    hit = ends[(ends - CONV_BIN_S >= CBR_OFF_S - 1e-9) & (mbps >= 4.5)]
    value = float(hit[0] - CBR_OFF_S) if len(hit) else float("nan")
    return pd.DataFrame({"convergence_s": [value] * len(res.flows)})  # one row per flow: the run's value


def _protocol_of(transport: Any) -> str:
    """The protocol named by a grid value of ``flows[1].transport`` (a table or its JSON); the
    binomial variant is ``iiad`` with k = 1, l = 0 and ``sqrt`` with its defaults."""
    t = json.loads(transport) if isinstance(transport, str) else transport
    if t["kind"] != "tcp":
        return t["kind"]
    if t.get("variant") == "binomial":
        return "iiad" if t.get("binomial", {}).get("k") == 1.0 else "sqrt"
    return t.get("variant", "sack1")


#: The conv part's linked axis: both flows ECN-capable with RED marking (Table 5.10's ECN
#: column) against neither.
CONV_ECN = "flows[1].transport.ecn + links[2].queue.setbit"


def _conv_ecn(value: Any) -> bool:
    """Whether a grid value of :data:`CONV_ECN` (a pair, or its JSON) is the ECN setting."""
    pair = json.loads(value) if isinstance(value, str) else value
    return bool(pair[1])


def conv(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Tables 5.10 / 6.3 orderings, without ECN and with it (suffix ``_ecn``): Tahoe converges
    fastest, SF-SACK slowest of the window-based protocols, TFRC slowest of all (GAIMD, SQRT
    and IIAD included), IIAD slower than the TCPs (mean over seeds; a run that never converges
    counts as the run's remaining time, 40 s); and how many Vegas runs converge (the thesis:
    none; Vegas is left out of the orderings, as the thesis leaves it out of its table)."""
    runs = table.drop_duplicates("run_key")
    ecn = runs[CONV_ECN].map(_conv_ecn) if CONV_ECN in runs.columns else False
    t = runs.assign(protocol=runs[TRANSPORT].map(_protocol_of), conv=runs["convergence_s"].fillna(40.0), ecn=ecn)
    out: dict[str, Any] = {}
    frames = []
    for on, te in t.groupby("ecn"):
        tail = "_ecn" if on else ""
        g = te.groupby("protocol")["conv"]
        mean, ci = g.mean(), 2.262 * g.std() / np.sqrt(g.count())  # t(0.975, 9) for 10 runs
        window = [p for p in ("tahoe", "reno", "newreno", "sack1") if p in mean]
        out |= {f"conv.{p}.mean_s{tail}": float(m) for p, m in mean.items()}
        vegas = te[te["protocol"] == "vegas"]
        if len(vegas):
            out[f"conv.vegas_converged_runs{tail}"] = float(vegas["convergence_s"].notna().sum())
        if "tahoe" in mean:
            out[f"conv.tahoe_minus_fastest_other_s{tail}"] = float(mean["tahoe"] - mean.drop(["tahoe", "vegas"], errors="ignore").min())
        if "sf_sack" in mean and len(window) > 1:
            out[f"conv.sf_sack_minus_slowest_tcp_s{tail}"] = float(mean["sf_sack"] - mean[window].max())
        if "tfrc" in mean and "sf_sack" in mean:
            out[f"conv.tfrc_over_sf_sack{tail}"] = float(mean["tfrc"] / mean["sf_sack"])
        if "tfrc" in mean and len(mean.drop(["tfrc", "vegas"], errors="ignore")):
            out[f"conv.tfrc_minus_slowest_other_s{tail}"] = float(mean["tfrc"] - mean.drop(["tfrc", "vegas"], errors="ignore").max())
        if "iiad" in mean and window:
            out[f"conv.iiad_minus_slowest_tcp_s{tail}"] = float(mean["iiad"] - mean[window].max())
        frames.append(pd.DataFrame({"ecn": bool(on), "protocol": mean.index, "mean_s": mean.values,
                                    "ci95_s": ci.values, "runs": g.count().values}))
    out = only_rows(with_ns235(out, rows), rows)
    out["__frames__"] = {"conv": pd.concat(frames, ignore_index=True)}
    return out


def _period_s(flows2: Any) -> float:
    """The CBR period of a grid value of ``flows[2]`` (a table or its JSON)."""
    v = json.loads(flows2) if isinstance(flows2, str) else flows2
    every = v["stagger"]["every"]
    return float(every.removesuffix("ms")) / 1000 if every.endswith("ms") else float(every.removesuffix("s"))


def _onoff_shares(table: pd.DataFrame, first: str, x: pd.Series) -> pd.DataFrame:
    """Per X (``x``, one label per table row) and CBR period: the class mean normalized
    throughput of the flows named ``first``*, each flow's throughput over the mean of the 2n
    non-CBR flows (notes §4.4's form under full use: the bandwidth left by the CBR alternates);
    Jain's index of the 2n flows; the link's utilisation (every flow's delivered bytes, the
    CBR's too, over the run and the 15 Mb/s link). Each is computed per run (seed) and then
    averaged over the seeds."""
    t = table.assign(x=x, period_s=table["flows[2]"].map(_period_s))
    frames = []
    for (label, p, _seed), g in t.groupby(["x", "period_s", "seed"]):
        flows = g[~g["name"].str.startswith("cbr")]
        nt = flows["throughput_bps"] / flows["throughput_bps"].mean()
        frames.append({"x": label, "period_s": p, "nt": float(nt[flows["name"].str.startswith(first)].mean()),
                       "jain": _jain(flows["throughput_bps"]),
                       "utilization": float(g["delivered_bytes"].sum() * 8 / g["sim_time_s"].iloc[0] / 15e6)})
    return pd.DataFrame(frames).groupby(["x", "period_s"], as_index=False).mean()


def onoff(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Fig. 5.5: per X and CBR period, the TFRC class's mean normalized throughput. Rows: the
    smallest over the periods against the TCP variants and Vegas, the largest against GAIMD
    and SQRT."""
    f = _onoff_shares(table, "tfrc", table["flows[1].transport.variant"]).rename(columns={"nt": "tfrc_nt"})
    out: dict[str, Any] = {}
    for x, g in f.groupby("x"):
        out[f"onoff.{x}.tfrc_nt_min"] = float(g["tfrc_nt"].min())
        out[f"onoff.{x}.tfrc_nt_max"] = float(g["tfrc_nt"].max())
    out = only_rows(with_ns235(out, rows), rows)
    out["__frames__"] = {"fig5_5": f}
    return out


SHORT_PERIOD_S = 1.0  # §6.3.1: fair "when the period of CBR source is low", unfair "beyond 1 sec"


def sfonoff(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Fig. 6.14 (§6.3.1): n SF-SACK flows (flows[1], named x*) and n X flows (flows[0], X a
    TCP variant or TFRC) under the ON/OFF CBR. Per X: SF-SACK's class mean normalized
    throughput averaged over the periods; Jain's index of the 2n flows averaged over the
    periods up to 1 s, and that mean minus the smallest index beyond 1 s; the smallest link
    utilisation over the periods."""
    f = _onoff_shares(table, "x", table["flows[0].transport"].map(_protocol_of)).rename(columns={"nt": "sf_sack_nt"})
    out: dict[str, Any] = {}
    for x, g in f.groupby("x"):
        short, long = g[g["period_s"] <= SHORT_PERIOD_S], g[g["period_s"] > SHORT_PERIOD_S]
        out[f"sfonoff.{x}.sf_sack_nt_mean"] = float(g["sf_sack_nt"].mean())
        out[f"sfonoff.{x}.utilization_min"] = float(g["utilization"].min())
        if len(short):
            out[f"sfonoff.{x}.jain_short"] = float(short["jain"].mean())
        if len(short) and len(long):
            out[f"sfonoff.{x}.jain_drop_beyond_1s"] = float(short["jain"].mean() - long["jain"].min())
    if len(f):
        out["sfonoff.sf_sack_nt_mean_min"] = float(f.groupby("x")["sf_sack_nt"].mean().min())
        out["sfonoff.utilization_min"] = float(f["utilization"].min())
    out = only_rows(out, rows)
    out["__frames__"] = {"fig6_14": f}
    return out
