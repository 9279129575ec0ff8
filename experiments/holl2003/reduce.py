"""Reducers for the Holl 2003 study: sweep table (one row per run and flow) -> {row id: value}.

Every reducer takes the tidy table of its part's sweep and returns the measured value of each
``expected.toml`` row of that part, plus ``"__frames__"`` with the figure frames. Flow roles
come from the generated scenarios' names: ``call{i}`` are CBR call flows, everything else
is best effort (``be{i}``, ``b<k>be{i}``, ``far{i}``, ``near{i}``). BE throughput is the
application goodput over the record window (``window0_goodput_bps``: in-order payload bytes
over [63.6, 123.6] s, Holl's measure, §5 of the notes); CBR loss and delay are over each call's
whole life (its packets are stationary after the first seconds).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from nsim.reproduction import with_ns235

_spec = importlib.util.spec_from_file_location("holl2003_generate", Path(__file__).with_name("generate.py"))
assert _spec is not None and _spec.loader is not None
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

#: CBR packets per call direction per minute (92 B every 8 ms), Holl §4.2.1.
CBR_PER_MIN = 7500
TCPS = gen.VARIANTS


def queue_label(spec: Any) -> str:
    """A queue table (JSON text from the sweep column, or dict) -> droptail/red/cbq/cbq_red."""
    q = json.loads(spec) if isinstance(spec, str) else spec
    if q["kind"] == "cbq":
        return "cbq_red" if q["classes"][1]["queue"]["kind"] == "red" else "cbq"
    return str(q["kind"])


def protocol_label(spec: Any) -> str:
    """A transport table (JSON text from the sweep column, or dict) -> the label generate.py's
    ``transport()`` was given: a one-way TCP variant, ``stp`` or ``full_<variant>``."""
    t = json.loads(spec) if isinstance(spec, str) else spec
    if t["kind"] == "stp":
        return "stp"
    return f"full_{t['variant']}" if t["kind"] == "tcp_full" else str(t["variant"])


def _is_call(names: pd.Series) -> pd.Series:
    return names.str.startswith("call")


def run_stats(rows: pd.DataFrame) -> dict[str, float]:
    """One run's BE goodput mean/std across flows and its calls' loss and delay."""
    be = rows[~_is_call(rows["name"])]
    calls = rows[_is_call(rows["name"])]
    out = {"be_mean_bps": float(be["window0_goodput_bps"].mean()),
           "be_std_bps": float(be["window0_goodput_bps"].std(ddof=0))}
    if len(calls):
        sent, lost = calls["sent_pkts"].sum(), calls["dropped_pkts"].sum()
        out["cbr_loss_pct"] = 100.0 * lost / sent
        out["cbr_loss_per_min"] = CBR_PER_MIN * lost / sent
        n = calls["delivered_pkts"].astype(float)
        m = float((n * calls["delay_mean_s"]).sum() / n.sum())
        var = float((n * (calls["delay_std_s"] ** 2 + (calls["delay_mean_s"] - m) ** 2)).sum() / n.sum())
        out["cbr_delay_ms"] = 1e3 * m
        out["cbr_delay_std_ms"] = 1e3 * np.sqrt(var)
    return out


def per_run(table: pd.DataFrame, keys: dict[str, str]) -> pd.DataFrame:
    """Per-run statistics with readable key columns (``keys``: new name -> sweep column)."""
    ok = table[table["error"].isna()]
    recs = []
    for _, rows in ok.groupby("run_key", sort=False):
        first = rows.iloc[0]
        rec: dict[str, Any] = {}
        for new, col in keys.items():
            rec[new] = first[col]
        recs.append({**rec, **run_stats(rows)})
    df = pd.DataFrame(recs)
    if "queue" in df:
        df["queue"] = df["queue"].map(queue_label)
    if keys.get("variant") == "flows[0].transport":
        df["variant"] = df["variant"].map(protocol_label)
    if "n" in df:
        df["n"] = (df["n"] // 2).astype(int)
    return df


CH4_KEYS = {"queue": "links[0].queue", "variant": "flows[0].transport", "n": "flows[1].repeat"}


def _at(df: pd.DataFrame, **sel: Any) -> pd.DataFrame:
    m = np.ones(len(df), dtype=bool)
    for k, v in sel.items():
        m &= (df[k] == v).to_numpy()
    return df[m]


def _one(df: pd.DataFrame, col: str, **sel: Any) -> float:
    x = _at(df, **sel)[col]
    return float(x.mean()) if len(x) else float("nan")


def _frames(df: pd.DataFrame, queues: dict[str, str]) -> dict[str, pd.DataFrame]:
    """Figure frames: per queue, BE mean/std (kb/s) and CBR loss/delay vs calls per TCP."""
    out = {}
    for q, figs in queues.items():
        d = _at(df, queue=q).sort_values(["variant", "n"]).copy()
        d["be_mean_kbps"] = d["be_mean_bps"] / 1e3
        d["be_std_kbps"] = d["be_std_bps"] / 1e3
        be_fig, cbr_fig = figs.split(",")
        out[be_fig] = d[["variant", "n", "be_mean_kbps", "be_std_kbps"]]
        out[cbr_fig] = d[["variant", "n", "cbr_loss_pct", "cbr_loss_per_min", "cbr_delay_ms", "cbr_delay_std_ms"]]
    return out


def _tcps(df: pd.DataFrame) -> pd.DataFrame:
    """The runs of the six one-way TCPs (the thesis' "TCP" means: STP and FullTcp apart)."""
    return df[df["variant"].isin(TCPS)]


def _stp_over_tcp(df: pd.DataFrame, col: str, against: str = "mean", **sel: Any) -> float:
    """STP's ``col`` over the TCPs' (their ``against``: mean, max or min of the per-TCP
    values), each first averaged over the selected runs (e.g. a range of call counts)."""
    d = _at(df, **sel)
    per = d.groupby("variant")[col].mean()
    tcp = per[per.index.isin(TCPS)]
    return float(per.get("stp", np.nan) / getattr(tcp, against)()) if len(tcp) else float("nan")


def ch4(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Drop-Tail and RED routers vs 1..17 calls (Holl §4.2.1, §4.2.2). A ``<row>_ns235`` row
    measures the same as ``<row>``, against ns-2.35 on the same scenario
    (reference/ns2/holl2003_ch4)."""
    df = per_run(table, CH4_KEYS)
    tcp = _tcps(df)
    out: dict[str, Any] = {}
    for q in ("droptail", "red"):
        for p in ("newreno", "stp"):
            out[f"ch4.{q}.{p}.cbr_loss_pct.n17"] = _one(df, "cbr_loss_pct", queue=q, variant=p, n=17)
        out[f"ch4.{q}.tcp.be_mean_bps.n17"] = _one(tcp, "be_mean_bps", queue=q, n=17)
    # "never reaches its claimed advantage at low CBR load", with Drop-Tail and RED alike:
    # the larger of the two STP/TCP ratios at 1 call.
    out["ch4.stp_over_tcp.be_mean.n1.max_droptail_red"] = max(
        _stp_over_tcp(df, "be_mean_bps", queue=q, n=1) for q in ("droptail", "red"))
    out["ch4.red.stp_over_tcp.be_mean.n10_17"] = _stp_over_tcp(df[df["n"] >= 10], "be_mean_bps", queue="red")
    out["ch4.droptail.stp_over_best_tcp.be_mean.n10_17"] = _stp_over_tcp(df[df["n"] >= 10], "be_mean_bps", "max", queue="droptail")
    out["ch4.droptail.stp_over_lowest_tcp.be_std.n1_17"] = _stp_over_tcp(df, "be_std_bps", "min", queue="droptail")
    dt, red = out["ch4.droptail.tcp.be_mean_bps.n17"], out["ch4.red.tcp.be_mean_bps.n17"]
    out["ch4.red_vs_droptail.be_mean_drop_pct.n17"] = 100.0 * (dt - red) / dt
    out["ch4.droptail.newreno.cbr_delay_rise_ms.n1_n17"] = (
        _one(df, "cbr_delay_ms", queue="droptail", variant="newreno", n=17)
        - _one(df, "cbr_delay_ms", queue="droptail", variant="newreno", n=1))
    low = tcp[tcp["n"] <= 12]
    out["ch4.red_minus_droptail.be_std_kbps.n1_12"] = (
        _at(low, queue="red")["be_std_bps"].mean() - _at(low, queue="droptail")["be_std_bps"].mean()) / 1e3
    spread = _at(tcp, queue="droptail", n=17).groupby("variant")["be_mean_bps"].mean()  # per TCP, over seeds
    out["ch4.droptail.tcp_spread_pct.n17"] = 100.0 * (spread.max() - spread.min()) / spread.mean()
    out = with_ns235(out, rows)
    out["__frames__"] = _frames(df, {"droptail": "fig4_4,fig4_5", "red": "fig4_7,fig4_8"})
    return out


def ch4cbq(table: pd.DataFrame) -> dict[str, Any]:
    """CBQ and CBQ+RED routers vs 1..16 calls (Holl §4.2.3, §4.2.4)."""
    df = per_run(table, CH4_KEYS)
    tcp = _tcps(df)
    out: dict[str, Any] = {}
    for q in ("cbq", "cbq_red"):
        out[f"ch4cbq.{q}.cbr_loss_pct.max_n1_16"] = float(_at(df, queue=q)["cbr_loss_pct"].max())
        out[f"ch4cbq.{q}.cbr_delay_ms.n16"] = _one(tcp, "cbr_delay_ms", queue=q, n=16)
    out["ch4cbq.cbq.cbr_delay_std_ms.n16"] = _one(tcp, "cbr_delay_std_ms", queue="cbq", n=16)
    out["ch4cbq.cbq.stp_over_tcp.be_mean.n1"] = _stp_over_tcp(df, "be_mean_bps", queue="cbq", n=1)
    out["ch4cbq.cbq.stp_over_tcp.be_mean.n14_16"] = _stp_over_tcp(df[df["n"] >= 14], "be_mean_bps", queue="cbq")
    out["ch4cbq.cbq.stp_over_lowest_tcp.be_std.n1_16"] = _stp_over_tcp(df, "be_std_bps", "min", queue="cbq")
    out["ch4cbq.cbq_red.stp_over_tcp.be_mean.n1_16"] = _stp_over_tcp(df, "be_mean_bps", queue="cbq_red")
    cbq_red_vs_cbq = _at(df, variant="stp", queue="cbq_red")["be_mean_bps"].mean() / _at(df, variant="stp", queue="cbq")["be_mean_bps"].mean()
    out["ch4cbq.cbq_red_over_cbq.stp.be_mean.n1_16"] = float(cbq_red_vs_cbq)
    low = tcp[tcp["n"] <= 12]
    out["ch4cbq.cbq_red_minus_cbq.be_std_kbps.n1_12"] = (
        _at(low, queue="cbq_red")["be_std_bps"].mean() - _at(low, queue="cbq")["be_std_bps"].mean()) / 1e3
    # "BE throughput drops proportionally as calls increase": BE goodput at 16 calls over that
    # at 1 call (expected.toml holds the ratio of the link the calls leave).
    b1, b16 = _one(tcp, "be_mean_bps", queue="cbq", n=1), _one(tcp, "be_mean_bps", queue="cbq", n=16)
    out["ch4cbq.cbq.be_mean_ratio.n16_n1"] = b16 / b1
    out["__frames__"] = _frames(df, {"cbq": "fig4_9,fig4_10", "cbq_red": "fig4_11,fig4_12"})
    return out


def _exact(table: pd.DataFrame, n: int) -> tuple[pd.DataFrame, dict[str, Any]]:
    df = per_run(table, CH4_KEYS)
    limits = {queue_label(q): json.loads(q)["classes"][0]["queue"]["limit"] for q in table["links[0].queue"].unique()}
    out = {f"ch4cbq{n}.cbr_qlen_used": float(limits["cbq"])}
    return df, out


def ch4cbq1(table: pd.DataFrame) -> dict[str, Any]:
    """One call with Table 4.7's 2-packet CBR buffer: delay 462 ms, no loss."""
    df, out = _exact(table, 1)
    for q in ("cbq", "cbq_red"):
        out[f"ch4cbq1.{q}.cbr_delay_ms.n1"] = _one(df, "cbr_delay_ms", queue=q, n=1)
        out[f"ch4cbq1.{q}.cbr_loss_pct.n1"] = float(_at(df, queue=q)["cbr_loss_pct"].max())
    return out


def ch4cbq17(table: pd.DataFrame) -> dict[str, Any]:
    """17 calls (more than the link carries) with Table 4.7's 51-packet CBR buffer."""
    df, out = _exact(table, 17)
    for q in ("cbq", "cbq_red"):
        out[f"ch4cbq17.{q}.cbr_loss_pct.n17"] = _one(df, "cbr_loss_pct", queue=q, n=17)
    return out


def ch5(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """BER sweep, Drop-Tail and RED (Holl §5.2)."""
    df = per_run(table, {"link": "links[0]", "variant": "flows[0].transport"})
    link = df["link"].map(json.loads)
    df["queue"] = link.map(lambda l: queue_label(l["queue"]))
    df["ber"] = link.map(lambda l: float(l["error"]["ber"]))
    tcp = _tcps(df)
    ok = table[table["error"].isna()]
    ok = ok[ok["flows[0].transport"].map(protocol_label).isin(TCPS)]  # TCP data packets only
    fer = ok.groupby("links[0]").apply(lambda r: r["drops_error_model"].sum() / (r["sent_pkts"] - r["drops_overflow"] - r["drops_red_early"] - r["drops_red_forced"]).sum(), include_groups=False)
    out: dict[str, Any] = {}
    lowber = tcp[tcp["ber"] < 2e-6]
    for q in ("droptail", "red"):
        lo = _at(lowber, queue=q)
        per_variant = lo.groupby("variant")["be_mean_bps"].mean()
        if q == "droptail":  # RED's level is tested through the thesis' 4 % fall (below)
            out[f"ch5.{q}.tcp.be_mean_kbps.ber_lt_2e-6"] = float(lo["be_mean_bps"].mean()) / 1e3
        out[f"ch5.{q}.tcp.be_mean_bps.ber1e-4"] = _one(tcp, "be_mean_bps", queue=q, ber=1e-4)
        out[f"ch5.{q}.tcp.be_mean_bps.ber2e-4"] = _one(tcp, "be_mean_bps", queue=q, ber=2e-4)
        out[f"ch5.{q}.stp.be_mean_bps.ber1e-4"] = _one(df, "be_mean_bps", queue=q, variant="stp", ber=1e-4)
        out[f"ch5.{q}.stp.be_mean_bps.ber7e-4"] = _one(df, "be_mean_bps", queue=q, variant="stp", ber=7e-4)
        if q == "droptail":  # with RED the thesis gives no number (the lead is gone after 2e-7)
            sack = per_variant[per_variant.index.isin(["sack1", "fack"])]
            other = per_variant[~per_variant.index.isin(["sack1", "fack"])]
            out[f"ch5.{q}.sack_fack_lead_kbps.ber_lt_2e-6"] = float(sack.mean() - other.mean()) / 1e3
    # STP alike below 2e-6 and about 5 kb/s ahead at 3e-5: each the mean over Drop-Tail and RED
    # (the thesis gives the same numbers for both).
    out["ch5.stp_over_tcp.be_mean.ber_lt_2e-6"] = float(np.mean(
        [_stp_over_tcp(df[df["ber"] < 2e-6], "be_mean_bps", queue=q) for q in ("droptail", "red")]))
    out["ch5.stp_lead_kbps.ber3e-5"] = float(np.mean(
        [_one(df, "be_mean_bps", queue=q, variant="stp", ber=3e-5) - _one(tcp, "be_mean_bps", queue=q, ber=3e-5)
         for q in ("droptail", "red")])) / 1e3
    # 'At 4e-6 STP takes a slight lead' (Drop-Tail and RED alike): STP over the TCPs' mean.
    out["ch5.stp_over_tcp.be_mean.ber4e-6"] = float(np.mean(
        [_stp_over_tcp(df, "be_mean_bps", queue=q, ber=4e-6) for q in ("droptail", "red")]))
    # SACK/FACK 'behind Vegas and STP for BER > 7e-6' (Drop-Tail): their mean over Vegas' and
    # over STP's, each averaged over the BERs above 7e-6 up to 1e-4.
    hi = _at(df[(df["ber"] > 7e-6) & (df["ber"] <= 1e-4)], queue="droptail").groupby("variant")["be_mean_bps"].mean()
    if {"sack1", "fack"} <= set(hi.index):
        for other in ("vegas", "stp"):
            out[f"ch5.droptail.sackfack_over_{other}.be_mean.ber1e-5_1e-4"] = float(
                hi[["sack1", "fack"]].mean() / hi.get(other, np.nan))
    d = out["ch5.droptail.tcp.be_mean_kbps.ber_lt_2e-6"]
    r = float(_at(lowber, queue="red")["be_mean_bps"].mean()) / 1e3
    out["ch5.red_vs_droptail.be_mean_drop_pct.ber_lt_2e-6"] = 100.0 * (d - r) / d
    fer_by_ber = {float(json.loads(k)["error"]["ber"]): v for k, v in fer.items() if json.loads(k)["queue"]["kind"] == "droptail"}
    out["ch5.droptail.data_fer_pct.ber1e-4"] = 100.0 * fer_by_ber.get(1e-4, np.nan)
    frames = {}
    for q, fig in (("droptail", "fig5_3"), ("red", "fig5_4")):
        f = _at(df, queue=q).sort_values(["variant", "ber"]).copy()
        f["be_mean_kbps"], f["be_std_kbps"] = f["be_mean_bps"] / 1e3, f["be_std_bps"] / 1e3
        frames[fig] = f[["variant", "ber", "be_mean_kbps", "be_std_kbps"]]
    out = with_ns235(out, rows)
    out["__frames__"] = frames
    return out


def _temporal(rows: pd.DataFrame, spans: dict[str, tuple[float, float]], t0: float, t1: float) -> pd.Series:
    """Per BE flow: coefficient of variation over time of its 3 s windowed goodput
    (Holl's windowed time averaging, §6.2.1, on consecutive windows inside [t0, t1])."""
    be = rows[~_is_call(rows["name"])]
    inside = [c for c, (a, b) in spans.items()
              if c in rows and a >= t0 - 1e-9 and b <= t1 + 1e-9 and abs(b - a - 3.0) < 1e-6]
    if not inside:
        return pd.Series(np.nan, index=be["name"])
    x = be[inside].to_numpy(dtype=float)
    return pd.Series(x.std(axis=1) / x.mean(axis=1), index=be["name"])


def _window_spans(scenario_file: str) -> dict[str, tuple[float, float]]:
    import tomllib

    doc = tomllib.loads((Path(__file__).parent / "scenarios" / scenario_file).read_text(encoding="utf-8"))
    secs = lambda s: float(s.rstrip("s"))  # noqa: E731  (the generator writes plain seconds)
    return {f"window{k}_goodput_bps": (secs(a), secs(b)) for k, (a, b) in enumerate(doc["record"]["windows"])}


POST = (183.6, 423.6)
#: Fair BE share per direction after the step: (link - 8 calls) / 64 flows, wire bps.
FAIR_AFTER = (gen.SAT_BW - 8 * 92 * 8 / 0.008) / 64


def _step_stats(table: pd.DataFrame, scenario_file: str) -> pd.DataFrame:
    spans = _window_spans(scenario_file)
    ok = table[table["error"].isna()]
    recs = []
    for _, rows in ok.groupby("run_key", sort=False):
        be = rows[~_is_call(rows["name"])]
        # --quick runs stop before the step: no post-step windows, so NaN rows (quick = false).
        after = be.get("window1_goodput_bps", pd.Series(np.nan, index=be.index))
        recs.append({"queue": queue_label(rows.iloc[0]["links[0].queue"]),
                     "variant": protocol_label(rows.iloc[0]["flows[0].transport"]) if "flows[0].transport" in rows else None,
                     "temporal_cov_median": float(_temporal(rows, spans, *POST).median()),
                     "across_cov_after": float(after.std(ddof=0) / after.mean()),
                     "rows": rows})
    return pd.DataFrame(recs)


def ch6step(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Step response without window limits (Holl §6.2.2): flows keep oscillating."""
    stats = _step_stats(table, "ch6_step.toml")
    # mean over seeds of each run's median temporal CoV
    s = stats.groupby(["queue", "variant"])["temporal_cov_median"].mean()
    out: dict[str, Any] = {}
    qs = ("cbq", "cbq_red")
    # No self-pacing with or without RED: the smaller of the two disciplines' values.
    out["ch6step.newreno.temporal_cov_median.min_cbq_cbqred"] = float(min(s.get((q, "newreno"), np.nan) for q in qs))
    out["ch6step.stp.temporal_cov_median.min_cbq_cbqred"] = float(min(s.get((q, "stp"), np.nan) for q in qs))
    # STP's peaks are "lower than New Reno's regardless of RED" (Figs 6.16, 6.17): the larger ratio.
    # RED 'reduces the throughput peaks' of NewReno (Fig. 6.13 against 6.10).
    out["ch6step.newreno.cbqred_over_cbq.temporal_cov"] = float(s.get(("cbq_red", "newreno"), np.nan) / s.get(("cbq", "newreno"), np.nan))
    out["ch6step.stp_over_newreno.temporal_cov.max_cbq_cbqred"] = float(max(
        s.get((q, "stp"), np.nan) / s.get((q, "newreno"), np.nan) for q in qs))
    # Vegas "drastically reduced the sharp throughput peaks" of NewReno (Figs 6.14, 6.15).
    out["ch6step.cbq.vegas_over_newreno.temporal_cov"] = float(s.get(("cbq", "vegas"), np.nan) / s.get(("cbq", "newreno"), np.nan))
    return with_ns235(out, rows)


#: The span Table 6.4's phases are read over: from the first second of Figs 6.11/6.12 (158 s)
#: to the end of the post-step window.
TIMELINE = (158.0, POST[1])


def _episodes(t: np.ndarray, cwnd: np.ndarray, ssthresh: np.ndarray, state: np.ndarray) -> list[tuple[str, float, float, float]]:
    """(kind, start, end, ssthresh at the start) of one TCP sender's episodes, from its ``cwnd`` series (every window
    change with ssthresh and the sender's state): ``ss``, from a retransmission timeout (the
    window falls to 1 in the ``loss`` state) until the window reaches ssthresh; ``fr``, the
    ``recovery`` state (fast retransmit to the ACK that ends fast recovery); ``ca``, from the
    end of either to the next timeout or fast retransmit (Table 6.4's phases)."""
    out: list[tuple[str, float, float, float]] = []
    phase, since, target = "", 0.0, 0.0
    for i in range(len(t)):
        was_timeout = i > 0 and state[i - 1] == "loss" and cwnd[i - 1] <= 1.0
        timeout = state[i] == "loss" and cwnd[i] <= 1.0 and not was_timeout
        enters_fr = state[i] == "recovery" and (i == 0 or state[i - 1] != "recovery")
        if timeout or enters_fr:
            if phase:
                out.append((phase, since, t[i], target))
            phase, since, target = ("ss" if timeout else "fr"), t[i], ssthresh[i]
        elif (phase == "fr" and state[i] != "recovery") or (phase == "ss" and cwnd[i] >= ssthresh[i]):
            out.append((phase, since, t[i], target))
            phase, since, target = "ca", t[i], ssthresh[i]
    return out


def newreno_phases(res: Any) -> pd.DataFrame:
    """Extractor (runs on each run's full results): per flow, the durations of its ``ss``,
    ``ca`` and ``fr`` episodes wholly inside :data:`TIMELINE` and the ssthresh each slow start
    aims at (``ss_ssthresh``), as a JSON object of lists."""
    s = res.series("cwnd")
    s = s[(s["time_s"] >= TIMELINE[0]) & (s["time_s"] <= TIMELINE[1])]
    by_flow = {int(f): g for f, g in s.groupby("flow", sort=False)}
    rows = []
    for flow in res.flows["flow"]:
        g = by_flow.get(int(flow))
        durations: dict[str, list[float]] = {"ss": [], "ca": [], "fr": [], "ss_ssthresh": []}
        if g is not None:
            for kind, a, b, target in _episodes(g["time_s"].to_numpy(float), g["cwnd_pkts"].to_numpy(float),
                                                g["ssthresh_pkts"].to_numpy(float), g["state"].to_numpy(str))[1:]:
                durations[kind].append(round(b - a, 6))  # [1:]: the first may have begun before the span
                if kind == "ss":
                    durations["ss_ssthresh"].append(float(target))
        rows.append({"phase_durations": json.dumps(durations)})
    return pd.DataFrame(rows)


def ch6timeline(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Table 6.4 (Holl §6.2.2): the median duration of NewReno's slow-start (after a timeout),
    congestion-avoidance and fast-recovery episodes over every BE flow's episodes, and the
    median ssthresh a slow start climbs to."""
    ok = table[table["error"].isna() & ~_is_call(table["name"])]
    pooled: dict[str, list[float]] = {"ss": [], "ca": [], "fr": [], "ss_ssthresh": []}
    for text in ok["phase_durations"]:
        for kind, values in json.loads(text).items():
            pooled[kind].extend(values)
    med = {k: float(np.median(v)) if v else np.nan for k, v in pooled.items()}
    return with_ns235({"ch6timeline.newreno.ss_after_timeout_s": med["ss"], "ch6timeline.newreno.ca_s": med["ca"],
                       "ch6timeline.newreno.fr_s": med["fr"], "ch6timeline.newreno.ss_ssthresh_pkts": med["ss_ssthresh"],
                       "ch6timeline.newreno.episodes": float(sum(len(pooled[k]) for k in ("ss", "ca", "fr")))}, rows)


def _wl(table: pd.DataFrame, variant: str) -> dict[str, Any]:
    s = _step_stats(table, f"ch6_step_wl_{variant}.toml")  # one record per run (seed): means over them
    if variant == "stp":
        return {"ch6wl_stp.temporal_cov_median": float(s["temporal_cov_median"].mean())}
    if variant == "newreno":
        return {"ch6wl_newreno.temporal_cov_median": float(s["temporal_cov_median"].mean()),
                "ch6wl_newreno.across_cov_after": float(s["across_cov_after"].mean())}
    shares = []
    for rows in s["rows"]:
        be = rows[~_is_call(rows["name"])]
        # Pair 0 (4 ms access) is block b0's be0 and be1.
        short = be[be["name"].isin(["b0be0", "b0be1"])].get("window1_goodput_bps", pd.Series([np.nan])).mean()
        shares.append(short / FAIR_AFTER)
    return {f"ch6wl_{variant}.short_rtt_share_of_fair_after": float(np.mean(shares))}


def ch6wl_newreno(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Window-limited NewReno (Holl §6.3, Fig. 6.18)."""
    out = _wl(table, "newreno")
    del out["ch6wl_newreno.across_cov_after"]  # the even split is tested with Eq. 6.5's buffer
    return with_ns235(out, rows)


def ch6wl401_newreno(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Window-limited NewReno with a 401-packet BE buffer (Eq. 6.5), Holl §6.3, Fig. 6.18."""
    return with_ns235({k.replace("ch6wl_", "ch6wl401_"): v for k, v in _wl(table, "newreno").items()}, rows)


def ch6wl_vegas(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Window-limited Vegas (Holl §6.3, Fig. 6.19): 4 ms flows fall to 35 % of fair share."""
    return with_ns235(_wl(table, "vegas"), rows)


def ch6wl_stp(table: pd.DataFrame) -> dict[str, Any]:
    """Window-limited STP (Holl §6.3, Fig. 6.20): it does not self-pace but oscillates."""
    return _wl(table, "stp")


def ch6nf(table: pd.DataFrame) -> dict[str, Any]:
    """Near/far chain (Holl §6.4): satellite flows get less than near flows; Vegas and then STP
    share more fairly than NewReno, FACK like NewReno (Figs 6.22-6.29)."""
    ok = table[table["error"].isna()]
    acc: dict[str, list[float]] = {}
    for _, rows in ok.groupby("run_key", sort=False):
        q = queue_label(rows.iloc[0]["links[0].queue"])
        p = protocol_label(json.loads(rows.iloc[0]["flows"])[0]["transport"])
        far, near = rows[rows["name"].str.startswith("far")], rows[rows["name"].str.startswith("near")]
        for k, when in ((0, "before"), (1, "after")):
            col = f"window{k}_goodput_bps"
            if col not in rows:
                continue
            acc.setdefault(f"ch6nf.{q}.{p}.far_over_near.{when}", []).append(float(far[col].mean() / near[col].mean()))
    per = {k: float(np.mean(v)) for k, v in acc.items()}  # mean over seeds

    def over(a: str, b: str) -> list[float]:
        """Protocol a's far/near ratio over protocol b's, for each discipline and period."""
        pairs = [(per.get(f"ch6nf.{q}.{a}.far_over_near.{w}"), per.get(f"ch6nf.{q}.{b}.far_over_near.{w}"))
                 for q in ("cbq", "cbq_red") for w in ("before", "after")]
        return [x / y for x, y in pairs if x is not None and y is not None]

    # A 'definite disadvantage' for the satellite flows of any protocol, discipline and
    # period: the largest far/near ratio. 'More fair' holds in all four discipline x period
    # cells: the smallest ratio of ratios; 'similarly' too: the one farthest from 1.
    res: dict[str, Any] = {}
    if per:
        res["ch6nf.far_over_near.max"] = float(max(per.values()))
    for a, b in (("stp", "newreno"), ("vegas", "newreno"), ("stp", "vegas")):
        if len(r := over(a, b)) == 4:
            res[f"ch6nf.{a}_over_{b}.far_over_near.min"] = float(min(r))
    if len(r := over("fack", "newreno")) == 4:
        res["ch6nf.fack_over_newreno.far_over_near.worst"] = float(max(r, key=lambda x: abs(x - 1.0)))
    return res


def ch4full(table: pd.DataFrame) -> dict[str, Any]:
    """Two-way FullTcp (Tahoe, Reno, NewReno, SACK) beside the same one-way TCPs at 17 calls
    (Holl §4.1: the full results 'closely resembled' the one-way ones)."""
    df = per_run(table, CH4_KEYS)
    full = df[df["variant"].str.startswith("full_")]
    one = df[~df["variant"].str.startswith("full_")]
    out: dict[str, Any] = {}
    ratio, diff = [], []
    for q in ("droptail", "red"):
        f, o = _at(full, queue=q), _at(one, queue=q)
        out[f"ch4full.{q}.full_tcp.be_mean_bps.n17"] = float(f["be_mean_bps"].mean())
        ratio.append(float(f["be_mean_bps"].mean() / o["be_mean_bps"].mean()))
        diff.append(float(f["cbr_loss_pct"].mean() - o["cbr_loss_pct"].mean()))
    # "closely resembled" holds for both disciplines: the one farther from no difference.
    out["ch4full.full_over_oneway.be_mean.n17.worst"] = max(ratio, key=lambda x: abs(x - 1.0))
    out["ch4full.full_minus_oneway.cbr_loss_pct.n17.worst"] = max(diff, key=abs)
    return out


def table4_7(table: pd.DataFrame) -> dict[str, Any]:
    """Table 4.7: the CBR class buffer of Eq. 4.2 for 0..17 calls, as the runs use it."""
    return {f"table4_7.cbr_qlen.n{n:02d}": float(gen.eq_4_2(n)) for n in range(18)}


def eq6_5(table: pd.DataFrame) -> dict[str, Any]:
    """Eq. 6.4: W_opt per pair (5, 6, 7 segments for 8, 31, 25 pairs); Eq. 6.5: their sum."""
    w = [gen.w_opt(gen.be_delay_ms(j)) for j in range(gen.BE_PAIRS)]
    out: dict[str, Any] = {f"eq6_5.w_opt_pairs.w{k}": float(w.count(k)) for k in (5, 6, 7)}
    out["eq6_5.worst_case_burst_pkts"] = float(sum(w))
    return out


def _proxy_label(spec: Any) -> str:
    """The sweep's `middlebox` column (JSON text or list) -> "cbq" (no proxy) or "ip_abr"."""
    m = json.loads(spec) if isinstance(spec, str) else spec
    return "ip_abr" if m else "cbq"


def _col(rows: pd.DataFrame, col: str) -> pd.Series:
    """A window column, or NaNs when the run did not reach it (--quick stops at 10 s)."""
    return rows[col] if col in rows else pd.Series(np.nan, index=rows.index)


def _cov(x: pd.Series) -> float:
    return float(x.std(ddof=0) / x.mean())


def _ch7_runs(table: pd.DataFrame, scenario_file: str) -> dict[str, list[pd.DataFrame]]:
    """Proxy label -> the BE rows of each of its runs (one per seed)."""
    ok = table[table["error"].isna()]
    out: dict[str, list[pd.DataFrame]] = {}
    for _, rows in ok.groupby("run_key", sort=False):
        out.setdefault(_proxy_label(rows.iloc[0]["middlebox"]), []).append(rows[~_is_call(rows["name"])])
    return out


def _flow_mean(runs: list[pd.DataFrame], col: str) -> pd.Series:
    """Per BE flow name, the mean of ``col`` over the runs (seeds): the figures' points."""
    return pd.concat([_col(be, col).set_axis(be["name"].to_numpy()) for be in runs]).groupby(level=0).mean()


def ch7step(table: pd.DataFrame) -> dict[str, Any]:
    """IP-ABR step response (Holl §7.2.2, Figs 7.4-7.7): the spread across flows collapses."""
    runs = _ch7_runs(table, "ch7_step.toml")
    out: dict[str, Any] = {}
    stats = {p: {k: float(np.mean([_cov(_col(be, f"window{w}_goodput_bps")) for be in rs]))
                 for k, w in (("before", 0), ("after", 1))} for p, rs in runs.items()}
    if {"cbq", "ip_abr"} <= stats.keys():
        # 'drastically cut the variation across flows': before and after the step, the larger ratio.
        out["ch7step.ipabr_over_cbq.across_cov.max_before_after"] = max(
            stats["ip_abr"][k] / stats["cbq"][k] for k in ("before", "after"))
    frames = []
    for p, rs in runs.items():
        g = _flow_mean(rs, "window1_goodput_bps")
        j = pd.Series(g.index).str.removeprefix("be").astype(int) // 2
        frames.append(pd.DataFrame({"proxy": p, "access_delay_ms": [gen.be_delay_ms(x) for x in j],
                                    "goodput_after_kbps": g.to_numpy() / 1e3}))
    out["__frames__"] = {"fig7_4": pd.concat(frames).sort_values(["proxy", "access_delay_ms"])}
    return out


#: A near flow's window under IP-ABR before the step: share (bytes/s) x RTT (6 ms), Holl
#: §7.2.2's explanation of why near flows keep an edge (it is below one 536 B segment).
NEAR_SHARE_X_RTT = gen.ABR_SHARE / 8 * 0.006


def ch7nf(table: pd.DataFrame) -> dict[str, Any]:
    """IP-ABR near/far (Holl §7.2.2, Figs 7.8, 7.9): throughputs stabilise, near flows keep a
    slight edge because share x RTT is below one segment for them."""
    spans = _window_spans("ch7_nearfar.toml")
    runs = _ch7_runs(table, "ch7_nearfar.toml")
    out: dict[str, Any] = {"ch7nf.near_share_x_rtt_bytes": float(NEAR_SHARE_X_RTT)}
    ratio, temporal = {}, {}
    for p, rs in runs.items():
        for k, when in ((0, "before"), (1, "after")):
            col = f"window{k}_goodput_bps"
            ratio[(p, when)] = float(np.mean([_col(be[be["name"].str.startswith("far")], col).mean()
                                              / _col(be[be["name"].str.startswith("near")], col).mean() for be in rs]))
        temporal[p] = float(np.mean([_temporal(be, spans, *POST).median() for be in rs]))
    if ("ip_abr", "before") in ratio and ("ip_abr", "after") in ratio:
        # near flows 'keep a slight advantage' before and after the step: the larger ratio.
        out["ch7nf.ipabr.far_over_near.max_before_after"] = max(ratio[("ip_abr", w)] for w in ("before", "after"))
    if {("ip_abr", "after"), ("cbq", "after")} <= ratio.keys():
        out["ch7nf.ipabr_over_cbq.far_over_near.after"] = ratio[("ip_abr", "after")] / ratio[("cbq", "after")]
    if {"cbq", "ip_abr"} <= temporal.keys():
        out["ch7nf.ipabr_over_cbq.temporal_cov"] = temporal["ip_abr"] / temporal["cbq"]
    frames = []
    for p, rs in runs.items():
        g = _flow_mean(rs, "window1_goodput_bps")
        for side in ("near", "far"):
            sel = g[g.index.str.startswith(side)]
            frames.append(pd.DataFrame({"series": f"{side}, {p}", "flow": sel.index.str.removeprefix(side).astype(int).to_numpy(),
                                        "goodput_after_kbps": sel.to_numpy() / 1e3}))
    out["__frames__"] = {"fig7_9": pd.concat(frames).sort_values(["series", "flow"])}
    return out
