"""Reducers for Noureddine 2002 (Stanford PhD thesis).

This file holds one section per chapter.
Chapter 3 (selective flow control in switched Ethernet LANs) runs its scenarios with nsim's
Ethernet ports (docs/models/ethernet.md): one extractor reads the per-link PAUSE counters and
the bottleneck's utilization from each run, and one reducer per part turns the sweep table
into the numbers of expected.toml. Every choice the thesis leaves open is in README.md.

Chapter 2 parts (``ch2*``) check the thesis's TCP timing statements with full TCP
(``transport = { kind = "tcp_full" }``): FTP's first data after about 3 RTT, HTTP saving one
RTT, the 5 transactions/s cap of Nagle x delayed ACK, the 100 ms mean first delayed ACK
of BSD's 200 ms tick, the 3 s / 6 s cost of a lost SYN, and Telnet's echo delays. Every reducer works on the sweep's per-flow table (one row per run and
flow) and measures a round trip as the connection's own `setup_s` (SYN to SYN-ACK).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from nsim.reproduction import only_rows, with_ns235
from nsim.units import bits_per_second, seconds, size_bytes


def _grid_value(v: Any) -> Any:
    """A swept table or list as the sweep table holds it (JSON text) or as written (an object)."""
    return json.loads(v) if isinstance(v, str) else v


# --- Chapter 2 ---

DELAY = "links[0].delay"
NAGLE = "flows[0].transport.nagle"
DELACK = "flows[0].transport.delayed_ack"


def _flow(table: pd.DataFrame, name: str) -> pd.DataFrame:
    return table[table["name"] == name].set_index(DELAY).sort_index()


def ch2_apps(table: pd.DataFrame) -> dict[str, Any]:
    """FTP: first data ~3 RTT after the control SYN; HTTP: 1 RTT sooner (§2.x, Fig. 2.9).

    FTP's first data byte reaches the client after the command has crossed a new control
    connection (its ``first_data_s``) and the first segment has crossed the new data
    connection the server opens (its ``first_data_s``). HTTP's one-segment response reaches
    the client ``setup_s + transaction_mean_s`` after its SYN. RTT = the control
    connection's ``setup_s``.
    """
    ctl, data, http = (_flow(table, n) for n in ("ftp_control", "ftp_data", "http"))
    rtt = ctl["setup_s"]
    ftp_first = ctl["first_data_s"] + data["first_data_s"]
    http_first = http["setup_s"] + http["transaction_mean_s"]
    out: dict[str, Any] = {}
    for delay in rtt.index:
        ms = int(round(delay * 1000))
        out[f"ch2_apps.d{ms}ms.ftp_first_data_rtt"] = float(ftp_first[delay] / rtt[delay])
        out[f"ch2_apps.d{ms}ms.http_saving_rtt"] = float((ftp_first[delay] - http_first[delay]) / rtt[delay])
    frame = pd.DataFrame({"one_way_delay_s": rtt.index, "rtt_s": rtt.to_numpy(),
                          "ftp_first_data_s": ftp_first.to_numpy(), "http_response_s": http_first.to_numpy()})
    out["__frames__"] = {"ch2_apps_table": frame}
    return out


def ch2_nagle(table: pd.DataFrame) -> dict[str, Any]:
    """Split requests: 5 transactions/s with Nagle + 200 ms delayed ACK; far more without."""
    nagle = table[NAGLE].map(lambda v: str(v).lower() == "true")
    rate = 1.0 / table["transaction_mean_s"].astype(float)
    on, off = float(rate[nagle].mean()), float(rate[~nagle].mean())
    return {"ch2_nagle.with_nagle_per_s": on,
            "__frames__": {"ch2_nagle_table": pd.DataFrame({"nagle": [True, False], "transactions_per_s": [on, off]})}}


def ch2_delack(table: pd.DataFrame) -> dict[str, Any]:
    """Mean wait for the first delayed ACK (BSD 200 ms tick): expected 100 ms.

    Each 2-segment transfer with a 1-segment initial window takes handshake (1 RTT) + first
    segment and its delayed ACK (1 RTT + wait) + second segment and its ACK (1 RTT): the wait
    is ``completion_s - 3 setup_s`` (LAN round trips are ~0.1 ms).
    """
    wait = table["completion_s"].astype(float) - 3.0 * table["setup_s"].astype(float)
    return {"ch2_delack.mean_wait_s": float(wait.mean()), "ch2_delack.max_wait_s": float(wait.max()),
            "__frames__": {"ch2_delack_table": pd.DataFrame({"wait_s": wait.to_numpy()})}}


def slowstart_growth(res: Any) -> pd.DataFrame:
    """Extractor, per flow: cwnd's growth factor per RTT in slow start. cwnd is read in the
    middle of rounds 5 to 11 after the SYN (RTT = ``setup_s``). Rounds whose cwnd has reached
    half the 1000-segment cap are dropped. The factor is the geometric mean ratio."""
    rows = []
    cw = res.series("cwnd")
    for flow, rtt in zip(res.flows["flow"], res.flows["setup_s"]):
        c = cw[cw["flow"] == flow]
        t, w = c["time_s"].to_numpy(), c["cwnd_pkts"].to_numpy()
        samples = [float(w[np.searchsorted(t, rtt * (k + 0.5), side="right") - 1]) for k in range(5, 12)]
        samples = [x for x in samples if x < 500]
        rows.append({"growth_per_rtt": (samples[-1] / samples[0]) ** (1.0 / (len(samples) - 1))})
    return pd.DataFrame(rows)


def ch2_slowstart(table: pd.DataFrame) -> dict[str, Any]:
    """Slow start: x2 per RTT with an ACK per segment, x1.5 with delayed ACKs (§3.9, V16 (c))."""
    delack = table[DELACK].map(lambda v: str(v).lower() == "true")
    g = table["growth_per_rtt"].astype(float)
    every, delayed = float(g[~delack].mean()), float(g[delack].mean())
    return {"ch2_slowstart.ack_every_segment_growth": every, "ch2_slowstart.delayed_ack_growth": delayed,
            "__frames__": {"ch2_slowstart_table": pd.DataFrame({"delayed_ack": [False, True],
                                                                "growth_per_rtt": [every, delayed]})}}


SYN_RTO = "flows[1].transport.initial_rto"


def ch2_synloss(table: pd.DataFrame) -> dict[str, Any]:
    """A lost SYN costs the initial RTO: 3 s (RFC 1122) or 6 s (§2.6.1, §2.9.4; V17).

    Penalty = the lossy connection's ``setup_s`` minus the clean one's (same path, same run).
    """
    out: dict[str, Any] = {}
    rows = []
    for rto, run in table.groupby(SYN_RTO):
        by = run.set_index("name")["setup_s"].astype(float)
        penalty = float(by["lost"] - by["clean"])
        out[f"ch2_synloss.rto{int(round(float(rto)))}s_penalty_s"] = penalty
        rows.append({"initial_rto_s": float(rto), "setup_clean_s": float(by["clean"]),
                     "setup_lost_syn_s": float(by["lost"]), "penalty_s": penalty})
    out["__frames__"] = {"ch2_synloss_table": pd.DataFrame(rows)}
    return out


def ch2_telnet(table: pd.DataFrame) -> dict[str, Any]:
    """Telnet echo (§2.9.3): one RTT without loss (the server's ACK rides on the echo); a lost
    keystroke waits for the retransmission timeout (at least 1 s), a lost retransmission for
    the backed-off one (1 s + 2 s). RTT = the session's ``setup_s``."""
    by = table.set_index("name")
    echo = by["transaction_mean_s"].astype(float)
    rtt = float(by.loc["telnet", "setup_s"])
    out = {
        "ch2_telnet.echo_rtt": float(echo["telnet"] / rtt),
        "ch2_telnet.lost_echo_s": float(echo["lost_once"]),
        "ch2_telnet.lost_twice_echo_s": float(echo["lost_twice"]),
    }
    frame = pd.DataFrame({"session": ["telnet", "lost_once", "lost_twice"],
                          "echo_s": [float(echo[n]) for n in ("telnet", "lost_once", "lost_twice")],
                          "transactions": [int(by.loc[n, "transactions"]) for n in ("telnet", "lost_once", "lost_twice")]})
    out["__frames__"] = {"ch2_telnet_table": frame}
    return out


# --- Chapter 3 ---

PAUSE = "links[0].ethernet.pause"
#: TCP payload rate at 10 Mb/s: 1000-byte segments carry 40 bytes of headers more (ns-2's
#: packetSize is the payload).
MAX_GOODPUT_10MB = 10e6 * 1000 / 1040


def ch3_links(res: Any) -> dict[str, Any]:
    """Per run: link 0's utilization, drops anywhere, PAUSE frames sent, and link 0's paused
    time (the port links[0] of each chapter-3 scenario describes)."""
    q = res.queues.set_index("link")
    return {
        "l0_util": float(q.loc[0, "utilization"]),
        "l0_paused_s": float(q.loc[0, "paused_s"]),
        "net_drops": int(q["dropped_pkts"].sum()),
        "pause_frames": int(q["pause_sent"].sum() + q["resume_sent"].sum()),
    }


def _one_per_run(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    cols = ["l0_util", "l0_paused_s", "net_drops", "pause_frames"]
    return table.groupby(keys + ["seed"], as_index=False)[cols].first().groupby(keys, as_index=False)[cols].mean()


def ch3_pause_time(table: pd.DataFrame) -> dict[str, Any]:
    """Annex 31B: s's NIC paused by one PAUSE of 65535 quanta, per s-sw link rate."""
    runs = _one_per_run(table, ["links[0].rate"])
    return {f"ch3_pause_time.{rate}.paused_s": float(r["l0_paused_s"]) for rate, r in runs.set_index("links[0].rate").iterrows()}


def ch3_mismatch(table: pd.DataFrame) -> dict[str, Any]:
    """Fig 3.11: aggregate goodput / 9.6 Mb/s and drops, per back-pressure and N."""
    n = "flows[0].repeat"
    agg = table.groupby([PAUSE, n, "seed"], as_index=False)["goodput_bps"].sum().groupby([PAUSE, n], as_index=False).mean()
    runs = _one_per_run(table, [PAUSE, n]).merge(agg, on=[PAUSE, n])
    runs["throughput"] = runs["goodput_bps"] / MAX_GOODPUT_10MB
    out: dict[str, Any] = {}
    for _, r in runs[runs[PAUSE] == "simple"].iterrows():
        key = f"ch3_mismatch.simple.n{int(r[n])}"
        out[f"{key}.throughput"] = float(r["throughput"])
        out[f"{key}.drops"] = int(r["net_drops"])
    on = runs[runs[PAUSE] == "simple"].set_index(n)["throughput"]
    off = runs[runs[PAUSE] == "off"].set_index(n)["throughput"]
    if 8 in on.index and 8 in off.index:
        out["ch3_mismatch.n8.off_over_simple"] = float(off[8] / on[8])
    out["__frames__"] = {"ch3_mismatch": runs.rename(columns={PAUSE: "pause", n: "connections"})}
    return out


def ch3_fairness(table: pd.DataFrame) -> dict[str, Any]:
    """Fig 3.15: s1's aggregate (N connections, 100 Mb/s) against s2 (one, 10 Mb/s)."""
    out: dict[str, Any] = {}
    rows = []
    for mode, g in table.groupby(PAUSE):
        s1 = g[g["name"].str.startswith("s1_")].groupby("seed")["goodput_bps"].sum().mean()
        s2 = g[g["name"] == "s2"].groupby("seed")["goodput_bps"].sum().mean()
        rows.append({"pause": mode, "s1_bps": s1, "s2_bps": s2})
        if mode == "off":
            out["ch3_fairness.off.s1_bps"] = float(s1)
        else:
            out[f"ch3_fairness.{mode}.s1_over_s2"] = float(s1 / s2) if s2 > 0 else float("inf")
    out["__frames__"] = {"ch3_fairness": pd.DataFrame(rows)}
    return out


def _transfer_bps(g: pd.DataFrame, prefix: str, size: int) -> float:
    """Mean of size / transfer time (`completion_s`, from the flow's start) over the
    finished transfers of flows named prefix*."""
    f = g[g["name"].str.startswith(prefix)].dropna(subset=["completion_s"])
    return float((size * 8 / f["completion_s"]).mean()) if len(f) else 0.0


def _destination(table: pd.DataFrame, part: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-transfer throughput of s2's 32 KB and 100 KB files and s1's aggregate per
    back-pressure mode of a ch3_destination.toml sweep; rows ``<part>.<mode>.s1_throughput`` and
    ``<part>.<mode>.f32k_vs_off`` (s2's 32 KB files against no back-pressure), those of the part."""
    per: dict[str, dict[str, float]] = {}
    for mode, g in table.groupby(PAUSE):
        per[mode] = {
            "t32": _transfer_bps(g, "f32k_", 32_000),
            "t100": _transfer_bps(g, "f100k_", 100_000),
            "s1": float(g[g["name"].str.startswith("s1_")].groupby("seed")["goodput_bps"].sum().mean()) / MAX_GOODPUT_10MB,
        }
    out: dict[str, Any] = {}
    for mode in per.keys() - {"off"}:
        out[f"{part}.{mode}.s1_throughput"] = per[mode]["s1"]
        if "off" in per and per["off"]["t32"] > 0:
            out[f"{part}.{mode}.f32k_vs_off"] = per[mode]["t32"] / per["off"]["t32"]
    frame = pd.DataFrame([{"pause": m, "f32k_bps": v["t32"], "f100k_bps": v["t100"], "s1_throughput": v["s1"]} for m, v in per.items()])
    out["__frames__"] = {part: frame}
    return only_rows(out, rows)


def ch3_destination(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Fig 3.17/3.18: s2's transfers and s1's aggregate without, with simple and with
    destination back-pressure."""
    return _destination(table, "ch3_destination", rows)


def ch3_nonresponsive(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Fig 3.19 (L1934): the same with s1's NIC ignoring PAUSE, without and with simple
    back-pressure."""
    return _destination(table, "ch3_nonresponsive", rows)


def ch3_transfer_times(res: Any) -> pd.DataFrame:
    """Per flow (in the flows' order): completed back-to-back transfers, their bytes and their
    summed duration (the `transfers` table of a `repeat` app)."""
    t = res.transfers
    per = (t.groupby("flow").agg(transfers=("bytes", "size"), transfer_bytes=("bytes", "sum"), transfer_s=("duration_s", "sum"))
           if len(t) else pd.DataFrame(columns=["transfers", "transfer_bytes", "transfer_s"]))
    per = per.reindex(res.flows["flow"]).fillna(0)
    return per.reset_index(drop=True)


def ch3_rtt_run(res: Any) -> pd.DataFrame:
    """:func:`ch3_transfer_times` with the path's round-trip propagation delay in ms:
    scenarios/ch3_transfers.toml is one path (s - sw - d), so twice the sum of its links'
    delays."""
    rtt_s = 2 * sum(seconds(link["delay"], "links[].delay") for link in res.scenario["links"])
    return ch3_transfer_times(res).assign(rtt_ms=round(1e3 * rtt_s, 3))


def _repeat_bps(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Aggregate transfer throughput per run: sum over connections of file size / transfer
    time (each connection's bytes over its summed transfer times), averaged over seeds."""
    t = table.assign(bps=8.0 * table["transfer_bytes"] / table["transfer_s"].where(table["transfer_s"] > 0))
    runs = t.groupby(keys + ["seed"], as_index=False).agg(bps=("bps", "sum"), transfers=("transfers", "sum"), drops=("dropped_pkts", "sum"))
    return runs.groupby(keys, as_index=False)[["bps", "transfers", "drops"]].mean()


def ch3_transfers(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Fig 3.2 (drop-tail): back-to-back 100 KB transfers, loss-free (70 KB buffer) over lossy
    (30 KB) throughput; `<row>_ns235` rows measure the same against ns-2.35's twin
    (reference/ns2/noureddine2002_transfers)."""
    buf = "links[0].queue.limit"
    runs = _repeat_bps(table, [buf]).set_index(buf)
    return with_ns235({"ch3_transfers.fig3_2.slowdown_100kb": float(runs.loc["70KB", "bps"] / runs.loc["30KB", "bps"]),
                       "ch3_transfers.b70kb_mbps": float(runs.loc["70KB", "bps"] / 1e6)}, rows)


def ch3_transfers_red(table: pd.DataFrame) -> dict[str, Any]:
    """Fig 3.2 bottom: the same transfers with gentle RED at the bottleneck; row: the 70 KB
    buffer's throughput (Mb/s), against drop tail's in a derived row."""
    limit = table["links[0].queue"].map(lambda v: _grid_value(v)["limit"])
    runs = _repeat_bps(table.assign(limit=limit), ["limit"]).set_index("limit")
    return {"ch3_transfers_red.b70kb_mbps": float(runs.loc["70KB", "bps"] / 1e6), "__frames__": {"ch3_transfers_red": runs.reset_index()}}


def ch3_rtt(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Fig 3.3 (L1722): back-to-back transfers through a 50 KB buffer against the RTT (the
    path's round-trip propagation, :func:`ch3_rtt_run`). Rows: the loss of 100 KB and 250 KB files
    at the shortest RTT, the 1 MB over 250 KB throughput there, the jump of 250 KB transfers
    once the loss is gone (best throughput up to 40 ms over that at the shortest RTT) against
    5 MB's, the shortest RTT at which 250 KB transfers lose nothing, 100 KB's fall from the
    shortest RTT to 40 ms, and how much of 250 KB's jump is left at 60 ms; `<row>_ns235` rows
    measure the same against ns-2.35's twin (reference/ns2/noureddine2002_transfers)."""
    size = "flows[0].app.size"
    runs = _repeat_bps(table, [size, "rtt_ms"])
    runs = runs.assign(mbps=runs["bps"] / 1e6, drops_per_transfer=runs["drops"] / runs["transfers"].where(runs["transfers"] > 0))
    by = runs.set_index([size, "rtt_ms"])
    rtts = sorted(runs["rtt_ms"].unique())
    shortest, longest, rtt40 = rtts[0], rtts[-1], min(rtts, key=lambda r: abs(r - 40.0))

    def mbps(f: str, rtt: float) -> float:
        return float(by.loc[(f, rtt), "mbps"])

    def jump(f: str) -> float:
        upto40 = runs[(runs[size] == f) & (runs["rtt_ms"] <= rtt40)]
        return float(upto40["mbps"].max()) / mbps(f, shortest)

    f250 = runs[runs[size] == "250KB"]
    lossfree = f250.loc[f250["drops_per_transfer"] == 0, "rtt_ms"]
    peak = float(f250[f250["rtt_ms"] <= rtt40]["mbps"].max())
    return with_ns235({"ch3_rtt.shortest.f100kb_drops_per_transfer": float(by.loc[("100KB", shortest), "drops_per_transfer"]),
            "ch3_rtt.shortest.f250kb_drops_per_transfer": float(by.loc[("250KB", shortest), "drops_per_transfer"]),
            "ch3_rtt.shortest.f1mb_over_f250kb": mbps("1MB", shortest) / mbps("250KB", shortest),
            "ch3_rtt.f250kb.jump": jump("250KB"),
            "ch3_rtt.jump_f250kb_minus_f5mb": jump("250KB") - jump("5MB"),
            "ch3_rtt.f250kb.lossfree_rtt_ms": float(lossfree.min()) if len(lossfree) else float("inf"),
            "ch3_rtt.f100kb.rtt40_over_shortest": mbps("100KB", rtt40) / mbps("100KB", shortest),
            "ch3_rtt.f250kb.jump_left_at_longest": (mbps("250KB", longest) - mbps("250KB", shortest)) / (peak - mbps("250KB", shortest)),
            "__frames__": {"ch3_rtt": runs[[size, "rtt_ms", "mbps", "transfers", "drops", "drops_per_transfer"]].rename(columns={size: "file"})}}, rows)


def ch3_parallel(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Fig 3.4: aggregate throughput loss of 4 parallel back-to-back 100 KB connections against
    one, 60 KB buffer (and against ns-2.35's twin, `<row>_ns235`)."""
    n = "flows[0].repeat"
    runs = _repeat_bps(table, [n]).set_index(n)
    return with_ns235({"ch3_parallel.fig3_4.drop_n4": float(1.0 - runs.loc[4, "bps"] / runs.loc[1, "bps"])}, rows)


def _sharing(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per run point of a link-sharing sweep (Figs 3.6, 3.8): S1's and S2's aggregate goodput
    (flows named s1* and s2*), averaged over seeds, and S1's share of their sum."""
    t = table.assign(src=table["name"].astype(str).str[:2])
    per = t.pivot_table(index=keys + ["seed"], columns="src", values="goodput_bps", aggfunc="sum").reset_index()
    runs = per.groupby(keys, as_index=False)[["s1", "s2"]].mean()
    return runs.assign(s1_mbps=runs["s1"] / 1e6, s2_mbps=runs["s2"] / 1e6, s1_share=runs["s1"] / (runs["s1"] + runs["s2"]))


def ch3_link_sharing(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Fig 3.6 (L1750): N transfers of a fixed size from the 100 Mb/s source against one long
    transfer from the 10 Mb/s source. Rows: S1's largest share with the 70 KB buffer (the
    thesis: "mediocre", "clearly unbalanced"), and how much closer to an even split the
    loss-free buffer brings it (mean over N and file size of |share - 0.5|, 70 KB minus 10 MB)."""
    n, size, buf = "flows[0].repeat", "flows[0].app.size", "links[0].queue.limit"
    runs = _sharing(table, [n, size, buf])
    skew = runs.assign(skew=(runs["s1_share"] - 0.5).abs()).groupby(buf)["skew"].mean()
    return with_ns235({"ch3_link_sharing.b70kb.s1_share_max": float(runs.loc[runs[buf] == "70KB", "s1_share"].max()),
                       "ch3_link_sharing.skew_70kb_minus_lossless": float(skew["70KB"] - skew["10MB"]),
                       "__frames__": {"ch3_link_sharing": runs}}, rows)


def ch3_link_sharing_red(table: pd.DataFrame) -> dict[str, Any]:
    """Fig 3.7 (L1757-1759): Fig 3.6's link sharing with RED at the shared port against drop
    tail, 70 KB. Rows: S1's goodput with one connection, RED over drop tail (mean over file
    sizes: "better than for Drop Tail"); S1's share with 5 connections, RED minus drop tail
    ("comparably fair"); and the port's total goodput, RED over drop tail, mean over the six
    N x size points ("significantly decreased aggregate performance, over a wide range of file
    sizes")."""
    n, size = "flows[0].repeat", "flows[0].app.size"
    t = table.assign(queue=table["links[0].queue"].map(lambda v: _grid_value(v)["kind"]))
    runs = _sharing(t, ["queue", n, size])
    runs = runs.assign(total_mbps=runs["s1_mbps"] + runs["s2_mbps"], file_kb=runs[size].map(lambda v: size_bytes(v, size) / 1e3),
                       setting=runs["queue"] + ", N = " + runs[n].astype(str))
    red, dt = (runs[runs["queue"] == q].set_index([n, size]) for q in ("red", "droptail"))
    return {"ch3_link_sharing_red.n1.s1_red_over_droptail": float((red.loc[1, "s1"] / dt.loc[1, "s1"]).mean()),
            "ch3_link_sharing_red.n5.s1_share_red_minus_droptail": float((red.loc[5, "s1_share"] - dt.loc[5, "s1_share"]).mean()),
            "ch3_link_sharing_red.total_red_over_droptail": float((red["total_mbps"] / dt["total_mbps"]).mean()),
            "__frames__": {"ch3_link_sharing_red": runs}}


def ch3_link_sharing_rev(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Fig 3.8 (L1761): one long transfer from the 100 Mb/s source against N transfers of a fixed
    size from the 10 Mb/s source, 70 KB. Rows: S1's share with 8 transfers of 1 MB ("effectively
    shut down"), S2's aggregate there over the link's goodput ("the full capacity"), and S1's
    share with fewer (1) or smaller (20 KB) transfers minus that one ("for sufficiently large
    number and file size")."""
    n, size = "flows[1].repeat", "flows[1].app.size"
    runs = _sharing(table, [n, size]).set_index([n, size])
    shut = runs.loc[(8, "1MB")]
    return with_ns235({"ch3_link_sharing_rev.n8.f1mb.s1_share": float(shut["s1_share"]),
                       "ch3_link_sharing_rev.n8.f1mb.s2_utilization": float(shut["s2"] / MAX_GOODPUT_10MB),
                       "ch3_link_sharing_rev.f1mb.s1_share_n1_minus_n8": float(runs.loc[(1, "1MB"), "s1_share"] - shut["s1_share"]),
                       "ch3_link_sharing_rev.n8.s1_share_20kb_minus_1mb": float(runs.loc[(8, "20KB"), "s1_share"] - shut["s1_share"]),
                       "__frames__": {"ch3_link_sharing_rev": runs.reset_index()}}, rows)


def _high(v: Any) -> float:
    """The `high` of a swept `ethernet` table (a dict, or its JSON text)."""
    return float(_grid_value(v)["high"])


def ch3_merging(table: pd.DataFrame) -> dict[str, Any]:
    """Fig 3.13 note: the largest high watermark (fraction of 50 KB) with no drop, and the
    aggregate goodput there."""
    key = "links[0].ethernet"
    t = table.assign(high=table[key].map(_high))
    runs = t.groupby(["high", "seed"], as_index=False).agg(net_drops=("net_drops", "first"), goodput_bps=("goodput_bps", "sum"))
    runs = runs.groupby("high", as_index=False)[["net_drops", "goodput_bps"]].mean()
    runs["throughput"] = runs["goodput_bps"] / MAX_GOODPUT_10MB
    lossless = runs[runs["net_drops"] == 0]
    # The largest high watermark below which every tried one is also lossless.
    best = float("nan")
    for _, r in runs.sort_values("high").iterrows():
        if r["net_drops"] > 0:
            break
        best = float(r["high"])
    out: dict[str, Any] = {"ch3_merging.high_for_zero_loss": best}
    if len(lossless):
        out["ch3_merging.lossless.throughput"] = float(lossless["throughput"].min())
    out["__frames__"] = {"ch3_merging": runs}
    return out


#: Noureddine 2002 §3.5.3: a video packet later than 100 ms end to end is lost to the application.
VIDEO_DEADLINE_S = 0.1


def ch3_video_late(res: Any) -> dict[str, Any]:
    """Per run: fraction of the video's packets that missed the 100 ms deadline (delivered
    late, or lost), the 99th percentile of the delivered packets' delay, plus the link
    counters of `ch3_links`."""
    f = res.flows.set_index("name").loc["video"]
    d = res.packet_delays()
    late = int((d["delay_s"] > VIDEO_DEADLINE_S).sum())
    sent = int(f["sent_pkts"])
    # Lost, or still waiting at the end of the run (behind a backlog: late too).
    missed = late + sent - int(f["delivered_pkts"])
    return {**ch3_links(res), "video_late": missed / sent if sent else float("nan"),
            "video_p99_s": _percentile(d["delay_s"], 99)}


def ch3_video(table: pd.DataFrame) -> dict[str, Any]:
    """Fig 3.23: fraction of video packets late (> 100 ms) per back-pressure and N."""
    n = "flows[1].repeat"
    runs = table.groupby([PAUSE, n, "seed"], as_index=False)["video_late"].first().groupby([PAUSE, n], as_index=False)["video_late"].mean()
    out: dict[str, Any] = {}
    for _, r in runs.iterrows():
        out[f"ch3_video.{r[PAUSE]}.n{int(r[n])}.late"] = float(r["video_late"])
    out["__frames__"] = {"ch3_video": runs.rename(columns={PAUSE: "pause", n: "connections"})}
    return out


def ch3_video_same_link(table: pd.DataFrame) -> dict[str, Any]:
    """Fig 3.24 (L1981-1983): video and data on one incoming link behind simple back-pressure,
    per threshold margin (high minus low watermark). Rows: the late fraction with the smallest
    margin, and the video's 99th-percentile delay with the largest margin over the smallest."""
    key = "links[0].ethernet.high + links[0].ethernet.low"
    margin = table[key].map(lambda v: round(float(np.subtract(*_grid_value(v))), 2))
    runs = table.assign(margin=margin).groupby(["margin", "seed"], as_index=False)[["video_late", "video_p99_s"]].first()
    runs = runs.groupby("margin", as_index=False)[["video_late", "video_p99_s"]].mean().sort_values("margin", ascending=False, ignore_index=True)
    by = runs.set_index("margin")
    small, large = by.index.min(), by.index.max()
    return {"ch3_video_same_link.small_margin.late": float(by.loc[small, "video_late"]),
            "ch3_video_same_link.p99_large_over_small_margin": float(by.loc[large, "video_p99_s"] / by.loc[small, "video_p99_s"]),
            "__frames__": {"ch3_video_same_link": runs.drop(columns="video_p99_s").assign(video_p99_ms=runs["video_p99_s"] * 1e3)}}


def ch3_sharing(table: pd.DataFrame) -> dict[str, Any]:
    """Fig 3.21: s1 (10 connections to the congested d1) and s2 (one to d2) share a's 500 KB
    port. Goodputs relative to their maxima (s1: 9.615 Mb/s; s2: s2's goodput without
    back-pressure, window-limited)."""
    a_key = "links[1].ethernet"
    a = table[a_key].map(_grid_value)
    t = table.assign(a_pause=a.map(lambda d: d["pause"]), a_cap=a.map(lambda d: "blocked_cap" in d))
    t = t[t["a_pause"] == t[PAUSE]]
    per: dict[str, tuple[float, float]] = {}
    for (mode, cap), g in t.groupby([PAUSE, "a_cap"]):
        s1 = g[g["name"].str.startswith("s1_")].groupby("seed")["goodput_bps"].sum().mean() / MAX_GOODPUT_10MB
        s2 = g[g["name"] == "s2"].groupby("seed")["goodput_bps"].sum().mean()
        per[f"{mode}_cap" if cap else mode] = (float(s1), float(s2))
    out: dict[str, Any] = {}
    for mode in ("simple", "destination"):
        if mode in per:
            out[f"ch3_sharing.{mode}.s1_throughput"] = per[mode][0]
    if "off" in per:
        for mode in ("simple", "destination", "destination_cap"):
            if mode in per:
                out[f"ch3_sharing.{mode}.s2_vs_off"] = per[mode][1] / per["off"][1]
    frame = pd.DataFrame([{"back_pressure": m, "s1_throughput": v[0], "s2_bps": v[1]} for m, v in per.items()])
    out["__frames__"] = {"ch3_sharing": frame}
    return out


# --- Chapter 4 ---
# Chapter 4 (improving interactive TCP applications) runs the Fig. 4.1 tree of 800 hosts with
# Telnet, web and FTP sessions over ns-2-style one-way NewReno agents (docs/models/web.md). One
# extractor keeps, per flow, the durations of the transactions a figure needs (probe pages,
# 80 ms-RTT Telnet echoes, FTP probe files) and the central buffer's drop rate; the reducers
# turn them into drop rates, fractions over a limit and CCDF frames.

#: The central buffer (side A -> side B) of the chapter-4 trees: bottleneck router br0's link
#: to the root (README.md: the central link is br0-core-br1).
CH4_CENTRAL = ("br0", "core")
#: Transactions starting in the first seconds (sessions still starting, empty queues) are left
#: out of every distribution.
CH4_WARMUP_S = 5.0
#: Telnet sessions with an 80 ms RTT: host j's RTT is the (j mod 5)-th of 20/40/80/120/200 ms.
CH4_RTT_MS = (20, 40, 80, 120, 200)
CH4_RATE = "tree.levels[0].link.rate"


def _ch4_kept_kind(name: str) -> "str | None":
    """The transaction kind kept for flow ``name`` (None: the flow's are not needed)."""
    if name.startswith(("probe10_", "probe11_")) and "/" not in name:
        return "page"
    if name.startswith("telnet"):
        return "echo"
    if name.startswith("ftpprobe"):
        return "file"
    return None


def ch4_transactions(res: Any) -> pd.DataFrame:
    """Extractor, per flow: ``durations`` (list, seconds) of the probe pages, Telnet echoes and
    FTP probe files that started after the warm-up, and the run's central drop rate and
    utilization (same value on every row)."""
    c = _queue_row(res, *CH4_CENTRAL)
    drop = float(c["dropped_pkts"]) / float(c["arrivals"]) if c["arrivals"] else float("nan")
    t = res.transfers
    kept: dict[str, list[float]] = {}
    if len(t):
        t = t[t["start_s"] >= CH4_WARMUP_S]
        for name, g in t.groupby("name"):
            kind = _ch4_kept_kind(str(name))
            if kind is not None:
                kept[str(name)] = [round(float(v), 6) for v in g.loc[g["kind"] == kind, "duration_s"]]
    names = res.flows["name"].astype(str)
    return pd.DataFrame({"durations": [kept.get(n, []) for n in names],
                         "central_drop": drop, "central_util": float(c["utilization"])})


def _pooled(g: pd.DataFrame, select: "Any") -> np.ndarray:
    """All durations of the flows ``select`` (a boolean Series over g) picks, over seeds."""
    lists = g.loc[select, "durations"]
    return np.array([v for lst in lists for v in (lst if isinstance(lst, list) else [])], dtype=float)


def _ccdf_frame(samples: dict[Any, np.ndarray], series: str, grid: np.ndarray) -> pd.DataFrame:
    """P(X > x) on ``grid`` per series value (one frame for a CCDF figure)."""
    rows = []
    for key, x in samples.items():
        if len(x) == 0:
            continue
        s = np.sort(x)
        for v in grid:
            rows.append({series: key, "x": float(v), "ccdf": float(1.0 - np.searchsorted(s, v, side="right") / len(s))})
    return pd.DataFrame(rows)


def _mbps(rate: Any, field: str) -> float:
    """A rate as the scenarios write it ("100Mb", or b/s) in Mb/s; `field` names it in errors."""
    return bits_per_second(rate, field) / 1e6


def _queue_row(res: Any, frm: str, to: str) -> pd.Series:
    """The `queues` row of the link direction `frm` -> `to`."""
    q = res.queues
    return q[(q["from"] == frm) & (q["to"] == to)].iloc[0]


def _at_rtt(names: pd.Series, rtt_ms: int = 80, prefix: str = "telnet") -> pd.Series:
    """The ``prefix`` flows (Telnet sessions unless said, or ``ftpprobe``) whose host has the RTT
    ``rtt_ms`` (80 ms: Figs 4.8's and 4.27's; 120 ms: Fig 4.9's): flow i runs on host h{i}."""
    idx = pd.to_numeric(names.str.extract(rf"^{prefix}(\d+)$")[0], errors="coerce")
    return idx.notna() & (idx.fillna(-1).astype(int) % len(CH4_RTT_MS) == CH4_RTT_MS.index(rtt_ms))


def _frac_over(x: np.ndarray, limit: float) -> float:
    """Fraction of the samples ``x`` above ``limit`` (NaN without samples)."""
    return float((x > limit).mean()) if len(x) else float("nan")


def _table_rows(frame: pd.DataFrame, row_id: "Any", columns: tuple[str, ...], rows: list[dict[str, Any]]) -> dict[str, float]:
    """The values of a part's summary ``frame`` that are rows of the part (``rows``, as the
    reducer receives them): for each line and column, ``row_id(line, column)`` names the row;
    only values that exist count."""
    out: dict[str, float] = {}
    for _, r in frame.iterrows():
        for col in columns:
            if not np.isnan(r[col]):
                out[row_id(r, col)] = float(r[col])
    return only_rows(out, rows)


#: The published points of Fig 4.3 / 4.8 (central rate in Mb/s) that are rows of expected.toml;
#: the other rates are in the reduced table only.
CH4_DROP_POINTS = (45, 60, 100, 175)
CH4_PAGE_POINTS = (60, 100)


def ch4_baseline(table: pd.DataFrame) -> dict[str, Any]:
    """C4-1/C4-2/C4-7 (Fig 4.3, 4.8): central drop rate, probe pages over 10 s (HTTP/1.0 and
    1.1) and 80 ms-RTT Telnet echoes over 0.5 s, per bottleneck rate (drop tail, 500 packets)."""
    out: dict[str, Any] = {}
    drops, pages10, pages11, echoes, summary = {}, {}, {}, {}, []
    for rate, g in table.groupby(CH4_RATE):
        mb = round(_mbps(rate, CH4_RATE))
        names = g["name"].astype(str)
        drop = float(g.groupby("seed")["central_drop"].first().mean())
        p10 = _pooled(g, names.str.match(r"^probe10_\d+$"))
        p11 = _pooled(g, names.str.match(r"^probe11_\d+$"))
        e80 = _pooled(g, _at_rtt(names))
        drops[mb], pages10[mb], pages11[mb], echoes[mb] = drop, p10, p11, e80
        over = {tag: _frac_over(x, 10.0) for tag, x in (("http10", p10), ("http11", p11))}
        slow_echo = _frac_over(e80, 0.5)
        if mb in CH4_DROP_POINTS:
            out[f"ch4_baseline.r{mb}.drop_rate"] = drop
        if mb in CH4_PAGE_POINTS:
            out.update({f"ch4_baseline.r{mb}.{tag}_over_10s": v for tag, v in over.items() if not np.isnan(v)})
        if mb == 100 and len(e80):
            out["ch4_baseline.r100.echo80_over_0.5s"] = slow_echo
            out["ch4_baseline.r100.echo80_median_s"] = float(np.median(e80))
        summary.append({"bottleneck_mbps": mb, "drop_rate": drop, "pages_http10": len(p10), "pages_http11": len(p11),
                        "http10_over_10s": over["http10"], "http11_over_10s": over["http11"],
                        "echoes_80ms": len(e80), "echo80_over_0.5s": slow_echo,
                        "echo80_median_s": _median(e80)})
    if all(len(echoes.get(mb, ())) for mb in (60, 100)):
        out["ch4_baseline.echo80_over_0.5s_60_vs_100"] = float((echoes[60] > 0.5).mean() / max((echoes[100] > 0.5).mean(), 1e-9))
    page_grid = np.linspace(0.0, 30.0, 121)
    echo_grid = np.linspace(0.0, 4.0, 161)
    out["__frames__"] = {
        "ch4_baseline_drop": pd.DataFrame({"bottleneck_mbps": list(drops), "drop_rate": list(drops.values())}).sort_values("bottleneck_mbps"),
        "ch4_baseline_http10": _ccdf_frame(pages10, "bottleneck_mbps", page_grid),
        "ch4_baseline_http11": _ccdf_frame(pages11, "bottleneck_mbps", page_grid),
        "ch4_baseline_echo80": _ccdf_frame(echoes, "bottleneck_mbps", echo_grid),
        "ch4_baseline_table": pd.DataFrame(summary).sort_values("bottleneck_mbps"),
    }
    return out


def _scheme(tree: Any) -> str:
    """The scheme a swept chapter-4 ``tree`` stands for, told by its queues: ``wrr<N>`` (a
    separate Telnet queue with N % of the WRR packets, read off the central link's classes:
    ch4_scaled), ``tcp_ds`` (host schedulers), ``er_tbm`` (trTCM markers on the hosts' uplinks;
    ``er_tbm<kb/s>`` when their HIGH rate, the CIR, is not Fig 4.25's 250 kb/s),
    ``appl`` (per-mark host shapers; ``appl<kb/s>`` when the MED shaper, the hosts' second,
    runs at another rate than the 250 kb/s the rows default to), ``red`` (a RED central link)
    or ``droptail``."""
    t = _grid_value(tree)
    central = t["levels"][0]["link"]["queue"]
    if central.get("kind") == "wrr":
        weights = {c["name"]: c.get("weight", 1) for c in central["classes"]}
        return f"wrr{round(100 * weights['telnet'] / sum(weights.values()))}"
    text = json.dumps(t)
    if "host_sched" in text:
        return "tcp_ds"
    if "trtcm" in text:
        kbps = round(_mbps(t["levels"][-1]["link"]["queue"]["cir"], "trTCM CIR") * 1000)
        return "er_tbm" if kbps == 250 else f"er_tbm{kbps}"
    if "shaper" in text:
        kbps = round(_mbps(t["levels"][-1]["link"]["queue"]["classes"][1]["queue"]["rate"], "MED shaper rate") * 1000)
        return "appl" if kbps == 250 else f"appl{kbps}"
    return "red" if '"red"' in text else "droptail"


#: C4-19/C4-20 (Figs 4.26, 4.27): a scheme's FTP probes against RED's at the same rate, as
#: (row id with {mb} for the rate, scheme, table column, rates). ``er_tbm188`` is Fig 4.27's
#: ER-TBM, HIGH at 75 Mb/s over the 400 users.
CH4_TCPDS_FTP_ROWS = [("ch4_tcpds.ftp.r{mb}.mean_tcpds_over_red", "tcp_ds", "ftp_mean_s", (75,)),
                      ("ch4_tcpds.ftp.r{mb}.p90_tcpds_over_red", "tcp_ds", "ftp_p90_s", (75,)),
                      ("ch4_tcpds.ftp.r{mb}.files_tcpds_over_red", "tcp_ds", "ftp_files_per_probe", (60,)),
                      ("ch4_tcpds.ftp.r{mb}.cov80_tcpds_over_red", "tcp_ds", "ftp80_cov", (75,)),
                      ("ch4_tcpds.er_tbm188.r{mb}.ftp_files_over_red", "er_tbm188", "ftp_files_per_probe", (60,))]


def ch4_tcpds(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """C4-15/C4-18/C4-19/C4-20 (Figs 4.22, 4.25-4.27): probe pages over 5 s and 10 s, 80 ms-RTT
    echoes over 0.5 s, the central drop rate and the FTP probes' 200 KB transfer times (mean,
    90th percentile, files per probe, and the coefficient of variation of the 80 ms-RTT probes'
    times, Fig 4.27 bottom's "individual connection") under RED, TCP-DS and ER-TBM, per central
    link rate. Rows: every scheme's and rate's pages over 5 s and 10 s and echoes over 0.5 s
    (the orderings against drop tail are derived rows of expected.toml), and TCP-DS's and
    Fig 4.27's ER-TBM's FTP figures over RED's (``CH4_TCPDS_FTP_ROWS``)."""
    t = table.assign(scheme=table["tree"].map(_scheme))
    summary, pages = [], {}
    for (scheme, rate), g in t.groupby(["scheme", CH4_RATE]):
        mb = round(_mbps(rate, CH4_RATE))
        names = g["name"].astype(str)
        p10 = _pooled(g, names.str.match(r"^probe10_\d+$"))
        p11 = _pooled(g, names.str.match(r"^probe11_\d+$"))
        e80 = _pooled(g, _at_rtt(names))
        files = _pooled(g, names.str.match(r"^ftpprobe\d+$"))
        files80 = _pooled(g, _at_rtt(names, 80, "ftpprobe"))
        probes = int(names.str.match(r"^ftpprobe\d+$").sum())
        pages[f"{scheme} {mb} Mb/s"] = p10
        summary.append({"scheme": scheme, "bottleneck_mbps": mb,
                        "drop_rate": float(g.groupby("seed")["central_drop"].first().mean()),
                        "pages_http10": len(p10), "pages_http11": len(p11),
                        "http10_over_5s": _frac_over(p10, 5.0), "http10_over_10s": _frac_over(p10, 10.0),
                        "http11_over_5s": _frac_over(p11, 5.0), "http11_over_10s": _frac_over(p11, 10.0),
                        "echo80_over_0.5s": _frac_over(e80, 0.5),
                        "ftp_files": len(files), "ftp_files_per_probe": len(files) / probes if probes else float("nan"),
                        "ftp_mean_s": _mean(files),
                        "ftp_p90_s": _percentile(files, 90),
                        "ftp80_cov": float(files80.std() / files80.mean()) if len(files80) > 1 else float("nan")})
    frame = pd.DataFrame(summary)
    out: dict[str, Any] = _table_rows(frame, lambda r, col: f"ch4_tcpds.{r['scheme']}.r{r['bottleneck_mbps']}.{col}",
                                      ("http10_over_5s", "http10_over_10s", "echo80_over_0.5s"), rows)
    by = frame.set_index(["scheme", "bottleneck_mbps"])
    for rid, scheme, col, rates in CH4_TCPDS_FTP_ROWS:
        for mb in rates:
            if (scheme, mb) in by.index and ("red", mb) in by.index:
                out[rid.format(mb=mb)] = _ratio(float(by.loc[(scheme, mb), col]), float(by.loc[("red", mb), col]))
    out["__frames__"] = {"ch4_tcpds_http10": _ccdf_frame(pages, "scheme", np.linspace(0.0, 30.0, 121)),
                         "ch4_tcpds_table": frame}
    return out


def _flow_loss(g: pd.DataFrame, select: "Any") -> float:
    """Packets dropped over packets sent, summed over the flows ``select`` picks."""
    sent = float(g.loc[select, "sent_pkts"].sum())
    return float(g.loc[select, "dropped_pkts"].sum()) / sent if sent else float("nan")


CH4_TIMERS = "flows[*].transport.tick + flows[*].transport.min_rto + flows[*].transport.initial_rto"
#: The three TCP timer settings of ch4_timers.sweep.toml (clock, minimum RTO, initial RTO).
CH4_TIMER_VARIANTS = {("200ms", "1s", "6s"): "standard", ("20ms", "100ms", "6s"): "tick20", ("200ms", "1s", "1s"): "rto1"}


def _mean(x: np.ndarray) -> float:
    """The mean of the samples ``x`` (NaN without samples)."""
    return float(x.mean()) if len(x) else float("nan")


def _median(x: np.ndarray) -> float:
    """The median of the samples ``x`` (NaN without samples)."""
    return float(np.median(x)) if len(x) else float("nan")


def _percentile(x: np.ndarray, q: float) -> float:
    """The ``q``-th percentile of the samples ``x`` (NaN without samples)."""
    return float(np.percentile(x, q)) if len(x) else float("nan")


def _ratio(a: float, b: float) -> float:
    """a / b, NaN when b is 0 or missing (a seed without a slow page or echo in the standard runs)."""
    return a / b if b and not np.isnan(b) else float("nan")


def ch4_timers(table: pd.DataFrame) -> dict[str, Any]:
    """C4-9/C4-10 (Fig 4.10; L2154-2159): every TCP of the mix with a 20 ms clock (minimum RTO
    100 ms) or a 1 s initial RTO against the standard timers, drop tail at 100 Mb/s. Rows: the
    ratios of the 80 ms-RTT echoes over 0.5 s, of the HTTP/1.0 probe pages' mean time and of
    the central drop rate to the standard runs'. (The pages over 10 s, the tail the other ch4
    rows read, are about ten per seed here: too few for a ratio per seed.)"""
    variant = table[CH4_TIMERS].map(lambda v: CH4_TIMER_VARIANTS[tuple(_grid_value(v))])
    stats: dict[str, dict[str, Any]] = {}
    echoes: dict[str, np.ndarray] = {}
    pages: dict[str, np.ndarray] = {}
    for name, g in table.assign(variant=variant).groupby("variant"):
        names = g["name"].astype(str)
        pages[name] = _pooled(g, names.str.match(r"^probe10_\d+$"))
        echoes[name] = _pooled(g, _at_rtt(names))
        stats[name] = {"variant": name, "drop_rate": float(g.groupby("seed")["central_drop"].first().mean()),
                       "pages_http10": len(pages[name]), "http10_over_10s": _frac_over(pages[name], 10.0),
                       "http10_mean_s": _mean(pages[name]), "echoes_80ms": len(echoes[name]),
                       "echo80_over_0.5s": _frac_over(echoes[name], 0.5)}
    std = stats["standard"]
    out: dict[str, Any] = {}
    if "tick20" in stats:
        out["ch4_timers.tick20.echo80_over_0.5s_ratio"] = _ratio(stats["tick20"]["echo80_over_0.5s"], std["echo80_over_0.5s"])
        out["ch4_timers.tick20.http10_mean_ratio"] = _ratio(stats["tick20"]["http10_mean_s"], std["http10_mean_s"])
    if "rto1" in stats:
        out["ch4_timers.rto1.http10_mean_ratio"] = _ratio(stats["rto1"]["http10_mean_s"], std["http10_mean_s"])
        out["ch4_timers.rto1.drop_rate_ratio"] = _ratio(stats["rto1"]["drop_rate"], std["drop_rate"])
    out["__frames__"] = {"ch4_timers_table": pd.DataFrame(list(stats.values())),
                         "ch4_timers_echo80": _ccdf_frame(echoes, "variant", np.linspace(0.0, 4.0, 161)),
                         "ch4_timers_http10": _ccdf_frame(pages, "variant", np.linspace(0.0, 30.0, 121))}
    return out


CH4_PROBE_PAGE = "flows[5].app.page"


def ch4_objects(table: pd.DataFrame) -> dict[str, Any]:
    """C4-3 (Fig 4.4; L2112): HTTP/1.0 probe pages of 1 KB + 80 KB in N equal images at
    60 Mb/s. Per N: the pooled page times' mean, standard deviation and share over 10 s; the
    row is the standard deviation at N = 16 over that at N = 1."""
    objects = table[CH4_PROBE_PAGE].map(lambda v: int(_grid_value(v)["objects"]))
    pages: dict[int, np.ndarray] = {}
    summary = []
    for n, g in table.assign(objects=objects).groupby("objects"):
        x = _pooled(g, g["name"].astype(str).str.match(r"^probe10_\d+$"))
        pages[int(n)] = x
        summary.append({"objects": int(n), "pages_http10": len(x), "mean_s": _mean(x),
                        "std_s": float(x.std()) if len(x) else float("nan"), "http10_over_10s": _frac_over(x, 10.0)})
    frame = pd.DataFrame(summary)
    by = frame.set_index("objects")
    out: dict[str, Any] = {}
    if {1, 16} <= set(by.index):
        out["ch4_objects.std_ratio_16_over_1"] = _ratio(float(by.loc[16, "std_s"]), float(by.loc[1, "std_s"]))
    out["__frames__"] = {"ch4_objects_table": frame,
                         "ch4_objects_http10": _ccdf_frame(pages, "objects", np.linspace(0.0, 30.0, 121))}
    return out


CH4_LINK = "tree.levels[0].link"


def _central_buffer_pkts(link: Any) -> int:
    """The central buffer (packets) of a swept ``tree.levels[0].link`` (a dict or its JSON)."""
    link = _grid_value(link)
    return int(str(link["queue"]["limit"]).rstrip("p"))


def _buffer_sweep(table: pd.DataFrame, part: str) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Per central buffer of a buffer sweep: drop rate, HTTP/1.0 probe pages over 5 s and 10 s,
    120 ms-RTT echoes (median, over 0.2 s) and the FTP probes' mean 200 KB time; and the
    frames of the pages' and echoes' CCDFs, named after ``part``."""
    t = table.assign(buffer_pkts=table[CH4_LINK].map(_central_buffer_pkts))
    summary, pages, echoes = [], {}, {}
    for buf, g in t.groupby("buffer_pkts"):
        names = g["name"].astype(str)
        p10 = _pooled(g, names.str.match(r"^probe10_\d+$"))
        e120 = _pooled(g, _at_rtt(names, 120))
        files = _pooled(g, names.str.match(r"^ftpprobe\d+$"))
        label = f"{buf / 1000:g} MB"
        pages[label], echoes[label] = p10, e120
        summary.append({"buffer_pkts": int(buf), "buffer_mb": buf / 1000,
                        "drop_rate": float(g.groupby("seed")["central_drop"].first().mean()),
                        "pages_http10": len(p10), "http10_over_5s": _frac_over(p10, 5.0),
                        "http10_over_10s": _frac_over(p10, 10.0),
                        "echoes_120ms": len(e120), "echo120_median_s": _median(e120),
                        "echo120_over_0.2s": _frac_over(e120, 0.2),
                        "ftp_files": len(files), "ftp_mean_s": _mean(files)})
    frame = pd.DataFrame(summary).sort_values("buffer_pkts").reset_index(drop=True)
    return frame, {f"{part}_table": frame,
                   f"{part}_http10": _ccdf_frame(pages, "buffer", np.linspace(0.0, 30.0, 121)),
                   f"{part}_echo120": _ccdf_frame(echoes, "buffer", np.linspace(0.0, 4.0, 161))}


def ch4_buffers(table: pd.DataFrame) -> dict[str, Any]:
    """C4-4/C4-8/C4-21 (Fig 4.5 top, 4.6, 4.9, 4.28): drop tail at 60 Mb/s, central buffer
    125 KB to 20 MB. Rows: the 20 MB drop rate, the best buffer's pages over 5 s, the 20 MB
    echoes over 200 ms, and the FTP probes' mean time at 20 MB over 125 KB."""
    frame, frames = _buffer_sweep(table, "ch4_buffers")
    by = frame.set_index("buffer_pkts")
    top, bottom = int(by.index.max()), int(by.index.min())
    out: dict[str, Any] = {
        "ch4_buffers.b20MB.drop_rate": float(by.loc[top, "drop_rate"]),
        "ch4_buffers.best.http10_over_5s": float(frame["http10_over_5s"].min()),
        "ch4_buffers.b20MB.echo120_over_0.2s": float(by.loc[top, "echo120_over_0.2s"]),
        "ch4_buffers.ftp_mean_20MB_over_125KB": float(by.loc[top, "ftp_mean_s"] / by.loc[bottom, "ftp_mean_s"]),
    }
    out["__frames__"] = frames
    return out


def ch4_buffers_tcpds(table: pd.DataFrame) -> dict[str, Any]:
    """C4-16/C4-17 (Fig 4.23, 4.24): the buffer sweep under TCP-DS at 60 Mb/s. Rows: the
    120 ms-RTT echoes over 200 ms at 500 KB and at 2 MB, and the worst buffer's pages over 10 s."""
    frame, frames = _buffer_sweep(table, "ch4_buffers_tcpds")
    by = frame.set_index("buffer_pkts")
    out: dict[str, Any] = {f"ch4_buffers_tcpds.b{label}.echo120_over_0.2s": float(by.loc[pkts, "echo120_over_0.2s"])
                           for label, pkts in (("500KB", 500), ("2MB", 2000)) if pkts in by.index}
    out["ch4_buffers_tcpds.worst.http10_over_10s"] = float(frame["http10_over_10s"].max())
    out["__frames__"] = frames
    return out


def ch4_appl(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """C4-11/C4-12/C4-14/C4-18/C4-19/C4-20 (Fig 4.13, 4.15, 4.25-4.27): application-based
    marking against drop tail at 75 and 100 Mb/s. Per scheme and rate: central drop rate,
    Telnet's packet loss, HTTP/1.0 probe pages over 5 s and 10 s, 80 ms-RTT echoes over 0.5 s,
    the FTP probes' 200 KB transfer times (mean) and files per second per probe. APPL runs with
    its two MED profiles (Fig 4.13, 4.15): ``appl`` (250 kb/s) and ``appl110``."""
    t = table.assign(scheme=table["tree"].map(_scheme))
    summary = []
    for (scheme, rate), g in t.groupby(["scheme", CH4_RATE]):
        names = g["name"].astype(str)
        p10 = _pooled(g, names.str.match(r"^probe10_\d+$"))
        e80 = _pooled(g, _at_rtt(names))
        files = _pooled(g, names.str.match(r"^ftpprobe\d+$"))
        probes = int(names.str.match(r"^ftpprobe\d+$").sum())
        summary.append({"scheme": scheme, "bottleneck_mbps": round(_mbps(rate, CH4_RATE)),
                         "drop_rate": float(g.groupby("seed")["central_drop"].first().mean()),
                         "telnet_loss": _flow_loss(g, names.str.match(r"^telnet\d+$")),
                         "pages_http10": len(p10), "http10_mean_s": _mean(p10), "http10_over_5s": _frac_over(p10, 5.0),
                         "http10_over_10s": _frac_over(p10, 10.0), "echo80_over_0.5s": _frac_over(e80, 0.5),
                         "ftp_files": len(files), "ftp_mean_s": _mean(files),
                         "ftp_files_per_probe": len(files) / probes if probes else float("nan")})
    frame = pd.DataFrame(summary).sort_values(["scheme", "bottleneck_mbps"]).reset_index(drop=True)
    by = frame.set_index(["scheme", "bottleneck_mbps"])
    values: dict[str, Any] = {}
    for mb in (75, 100):
        if ("appl", mb) in by.index:
            r = by.loc[("appl", mb)]
            for col in ("telnet_loss", "http10_over_5s", "echo80_over_0.5s"):
                values[f"ch4_appl.appl.r{mb}.{col}"] = float(r[col])
            if ("droptail", mb) in by.index:
                values[f"ch4_appl.r{mb}.ftp_mean_appl_over_droptail"] = float(r["ftp_mean_s"] / by.loc[("droptail", mb), "ftp_mean_s"])
            if ("appl110", mb) in by.index:
                low = by.loc[("appl110", mb)]
                values[f"ch4_appl.r{mb}.ftp_mean_appl_over_appl110"] = _ratio(float(r["ftp_mean_s"]), float(low["ftp_mean_s"]))
                values[f"ch4_appl.r{mb}.http10_mean_appl110_over_appl"] = _ratio(float(low["http10_mean_s"]), float(r["http10_mean_s"]))
    values["__frames__"] = {"ch4_appl_table": frame}
    return only_rows(values, rows)


#: ch4_scaled's schemes in the order its table and figure show them.
CH4_SCALED_SCHEMES = ("droptail", "red", "appl", "tcp_ds", "wrr10", "wrr20", "wrr40")


def ch4_scaled(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """C4-13 (Fig 4.14): the 80 ms-RTT Telnet echoes on the 360-user tree with links / 10, per
    scheme: median, 99th percentile, fractions over 0.2 s (the thesis's Telnet criterion, L2743),
    0.5 s and 1 s, Telnet's packet loss and the central drop rate. Rows: those of
    the part (the orderings are derived rows of expected.toml)."""
    t = table.assign(scheme=table["tree"].map(_scheme))
    summary, echoes = [], {}
    for scheme, g in t.groupby("scheme"):
        names = g["name"].astype(str)
        e80 = _pooled(g, _at_rtt(names))
        echoes[scheme] = e80
        summary.append({"scheme": scheme, "echoes_80ms": len(e80),
                         "echo80_median_s": _median(e80),
                         "echo80_p99_s": _percentile(e80, 99),
                         "echo80_over_0.2s": _frac_over(e80, 0.2), "echo80_over_0.5s": _frac_over(e80, 0.5),
                         "echo80_over_1s": _frac_over(e80, 1.0),
                         "telnet_loss": _flow_loss(g, names.str.match(r"^telnet\d+$")),
                         "drop_rate": float(g.groupby("seed")["central_drop"].first().mean())})
    order = {s: i for i, s in enumerate(CH4_SCALED_SCHEMES)}
    frame = pd.DataFrame(summary).sort_values("scheme", key=lambda c: c.map(order)).reset_index(drop=True)
    out: dict[str, Any] = _table_rows(frame, lambda r, col: f"ch4_scaled.{r['scheme']}.{col}",
                                      ("echo80_median_s", "echo80_p99_s", "echo80_over_0.2s"), rows)
    out["__frames__"] = {"ch4_scaled_echo80": _ccdf_frame(echoes, "scheme", np.linspace(0.0, 4.0, 161)),
                         "ch4_scaled_table": frame}
    return out


#: The workloads of ch4_load.sweep.toml, told apart by their flows' names (an HTTP/1.0
#: page's extra connections are `<name>/c<k>`; `ftprev` sessions run but are not counted).
CH4_LOAD_WORKLOADS = {"web": r"^web1[01]_\d+(/c\d+)?$", "web_surge": r"^surge1[01]_\d+(/c\d+)?$",
                      "ftp": r"^ftp\d+$", "telnet": r"^telnet\d+$"}


def ch4_load(table: pd.DataFrame) -> dict[str, Any]:
    """The lossless load of each chapter-4 workload alone (L2090, L2094, L2102): the summed
    application goodput of its sessions (forward FTPshort only) in Mb/s, mean over seeds."""
    names = table["name"].astype(str)
    out: dict[str, Any] = {}
    summary = []
    for workload, pattern in CH4_LOAD_WORKLOADS.items():
        mine = table[names.str.match(pattern)]
        if not len(mine):
            continue
        per_seed = mine.groupby("seed")["goodput_bps"].sum() / 1e6
        out[f"ch4_load.{workload}_mbps"] = float(per_seed.mean())
        summary.append({"workload": workload, "seeds": len(per_seed), "lossless_mbps": float(per_seed.mean())})
    out["__frames__"] = {"ch4_load_table": pd.DataFrame(summary)}
    return out


#: Goodput samples (2 s apart) before this time are left out of FTPlong means and CoVs.
CH4_FTPLONG_WARMUP_S = 10.0
#: Payload share of a 1000 B segment's 1040 B on the wire.
CH4_PAYLOAD = 1000 / 1040


def ch4_ftplong_series(res: Any) -> pd.DataFrame:
    """Extractor, per flow: mean goodput of the 2-s samples after the warm-up, their
    coefficient of variation (std / mean) and the fraction of idle (zero-goodput) samples."""
    s = res.series("goodput")
    s = s[s["time_s"] > CH4_FTPLONG_WARMUP_S]
    stats = s.groupby("name")["goodput_bps"].agg(["mean", "std", lambda v: float((v <= 0).mean())])
    stats.columns = ["gp_mean_bps", "gp_std_bps", "idle_frac"]
    names = res.flows["name"].astype(str)
    st = stats.reindex(names)
    return pd.DataFrame({"gp_mean_bps": st["gp_mean_bps"].to_numpy(),
                         "gp_cov": (st["gp_std_bps"] / st["gp_mean_bps"]).to_numpy(),
                         "idle_frac": st["idle_frac"].to_numpy()})


def ch4_ftplong(table: pd.DataFrame) -> dict[str, Any]:
    """C4-22/C4-23 (Fig 4.29/4.30): the 200 ms-RTT FTPlong connection's goodput over its fair
    share (central rate x 1000/1040 / 400 flows) and the CoV of its 2-s samples, drop tail
    against TCP-DS, per central rate (100 and 200 Mb/s) and HIGH threshold (MED = 2 x HIGH).
    Rows at 100 Mb/s are named ``ch4_ftplong.<scheme>...``, at 200 Mb/s ``ch4_ftplong.r200...``."""
    thr_key = "flows[0].transport.tcp_ds"
    t = table.assign(scheme=table["tree"].map(_scheme), mbps=table[CH4_RATE].map(lambda r: round(_mbps(r, CH4_RATE))),
                     high=table[thr_key].map(lambda v: int(_grid_value(v)["high"])))
    rows = []
    for (scheme, mbps, high), g in t.groupby(["scheme", "mbps", "high"]):
        fair = mbps * 1e6 * CH4_PAYLOAD / len(g.groupby("name"))
        probe = g[g["name"] == "ftplong_200ms"]
        others = g[g["name"] != "ftplong_200ms"]
        rows.append({"scheme": scheme, "bottleneck_mbps": int(mbps), "curve": f"{scheme} {mbps} Mb/s", "high_thresh": int(high),
                     "share_200ms": float(probe["gp_mean_bps"].mean() / fair),
                     "cov_200ms": float(probe["gp_cov"].mean()), "idle_200ms": float(probe["idle_frac"].mean()),
                     "others_share_mean": float(others["gp_mean_bps"].mean() / fair),
                     "others_cov_mean": float(others["gp_cov"].mean())})
    frame = pd.DataFrame(rows)
    out: dict[str, Any] = {}
    for mbps, f in frame.groupby("bottleneck_mbps"):
        prefix = "ch4_ftplong" if mbps == 100 else f"ch4_ftplong.r{mbps}"
        dt, ds = f[f["scheme"] == "droptail"], f[f["scheme"] == "tcp_ds"]
        if len(dt):
            out[f"{prefix}.droptail.share_200ms"] = float(dt["share_200ms"].mean())
        if len(ds):
            best = ds.loc[ds["share_200ms"].idxmax()]
            out[f"{prefix}.tcp_ds.best_share_200ms"] = float(best["share_200ms"])
            if len(dt):
                out[f"{prefix}.cov_ratio_tcpds_over_droptail"] = float(best["cov_200ms"] / dt["cov_200ms"].mean())
    out["__frames__"] = {"ch4_ftplong": frame}
    return out

# --- Chapter 5 ---
# Integrated support of TCP and UDP (Noureddine 2002 ch. 5, notes seed-002b §4.4): the bottleneck
# "bandwidth need" of each configuration = the lowest swept rate from which every run meets
# the acceptance criteria (web, Telnet, video; the ones that apply to the traffic present).

RATE = "dumbbell.bottleneck.rate"
#: Runs are measured after this warm-up (web and FTP sessions starting together), or after a
#: quarter of a shorter run (the --quick runs).
CH5_WARMUP_S = 5.0
#: Acceptance criteria (§5.4.1, L2743): web probes <= 10 % of pages over 5 s and none over 10 s;
#: Telnet about 1 % or fewer echoes over 200 ms (applied only where the thesis applies it, see
#: `_ch5_part`) (80 ms RTT sessions, the thesis's Fig 4.8
#: connection: with 200 ms RTT no echo can be under 200 ms); video: PDM is not computable, so
#: the proxy of notes §5 (ref 93): packet loss <= 1e-3, of the base layer for layered video
#: and of every packet for unlayered video, over all 20 streams.
WEB_SLOW_S, WEB_SLOW_MAX, WEB_BAD_S = 5.0, 0.10, 10.0
ECHO_S, ECHO_MAX = 0.2, 0.01
VIDEO_LOSS_MAX = 1e-3
#: Data sources of the study's chapter-5 scenarios (L2733: 180 of the 200 hosts).
CH5_DATA_SOURCES = 180
#: Pairs i with i % 5 == 2 have an 80 ms RTT (scenarios/gen_ch5.py): their Telnet sessions
#: (`tel<i>`) are the ones the Telnet criterion reads.
ECHO_RTT_GROUP = 2


def ch5_run(res: Any) -> dict[str, Any]:
    """Per run: bottleneck drop rate, forward FTPshort goodput, how TCP is marked
    (:func:`ch5_marking_of`), web-probe page times, 80 ms Telnet echoes, and video loss per
    layer from the per-packet video log (`record.video_packets`)."""
    warmup = min(CH5_WARMUP_S, float(res.summary["sim_time_s"]) / 4)
    b = _queue_row(res, "r0", "r1")
    f = res.flows
    out: dict[str, Any] = {"drop_rate": float(b["dropped_pkts"] / b["arrivals"]) if b["arrivals"] else 0.0,
                           "ftp_mbps": float(f.loc[f["name"].str.match(r"^ftp\d+$"), "goodput_bps"].sum() / 1e6),
                           "marking": ch5_marking_of(res.scenario)}
    t = res.transfers
    if len(t):
        t = t[t["start_s"] >= warmup]
        pages = t[(t["kind"] == "page") & t["name"].str.startswith("probe10_")]["duration_s"]
        pages11 = t[(t["kind"] == "page") & t["name"].str.startswith("probe11_")]["duration_s"]
        pair = pd.to_numeric(t["name"].str.extract(r"^tel(\d+)$")[0], errors="coerce")
        echoes = t[(t["kind"] == "echo") & (pair % 5 == ECHO_RTT_GROUP)]["duration_s"]
        out.update(pages=len(pages), web_slow=_frac_over(pages, WEB_SLOW_S),
                   web_bad=int((pages > WEB_BAD_S).sum()), web_max_s=float(pages.max()) if len(pages) else float("nan"),
                   pages11=len(pages11), web11_slow=_frac_over(pages11, WEB_SLOW_S),
                   web11_bad=int((pages11 > WEB_BAD_S).sum()),
                   echoes=len(echoes), echo_slow=_frac_over(echoes, ECHO_S))
    v = res.video_packets() if res.has_video_packets else None
    if v is not None and len(v):  # a run without video flows logs nothing
        v = v[(v["sent_s"] >= warmup) & (v["fate"] != "in_flight")]
        lost = v["fate"].str.startswith("dropped")
        out["video_loss"] = float(lost.mean())
        for layer, name in enumerate(("base", "middle", "enh")):
            sel = v["layer"] == layer
            out[f"video_loss_{name}"] = float(lost[sel].mean()) if sel.any() else float("nan")
        # Per (stream, sequence): the share of sequences whose loss exceeds the proxy bound.
        per_seq = lost.groupby([v["flow"], v["sequence"]]).mean()
        out["video_bad_sequences"] = float((per_seq > VIDEO_LOSS_MAX).mean())
    return out


def _ch5_generator() -> Any:
    """scenarios/gen_ch5.py, which defines the markings (one source for the sweep and this
    file)."""
    spec = importlib.util.spec_from_file_location("gen_ch5", Path(__file__).parent / "scenarios" / "gen_ch5.py")
    gen = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(gen)  # type: ignore[union-attr]
    return gen


_CH5_GEN = _ch5_generator()
#: (Telnet, web, FTP) drop priorities -> marking name (gen_ch5.MARKINGS).
CH5_MARKINGS = {tuple(v): k for k, v in _CH5_GEN.MARKINGS.items()}


def ch5_marking_of(scenario: dict[str, Any]) -> str:
    """How a chapter-5 run marks TCP: "tcp_ds", a name of gen_ch5.MARKINGS, or "none" (no
    data flows, or unmarked: every `prio` 0 without TCP-DS reads as "high")."""
    by_name = {f.get("name"): f for f in scenario.get("flows", [])}
    first = {app: by_name[name] for app, name in (("telnet", "tel{i}"), ("web", "web{i}"), ("ftp", "ftp{i}")) if name in by_name}
    if len(first) < 3:
        return "none"
    if any("tcp_ds" in f.get("transport", {}) for f in first.values()):
        return "tcp_ds"
    prios = tuple(int(first[a].get("prio", 0)) for a in ("telnet", "web", "ftp"))
    return CH5_MARKINGS.get(prios, "prio " + "/".join(map(str, prios)))


def _ch5_runs(table: pd.DataFrame, mbps: pd.Series | None = None) -> pd.DataFrame:
    """One row per bottleneck rate (seeds averaged), sorted by rate: the rate is the dumbbell's
    bottleneck, or `mbps` (Mb/s per table row) where another link is swept."""
    cols = [c for c in ("drop_rate", "ftp_mbps", "pages", "web_slow", "web_bad", "web_max_s", "pages11", "web11_slow", "web11_bad",
                        "echoes", "echo_slow", "video_loss",
                        "video_loss_base", "video_loss_middle", "video_loss_enh", "video_bad_sequences",
                        "central_drops", "tier_drops") if c in table]
    rate = table[RATE].map(lambda v: _mbps(v, RATE)) if mbps is None else mbps
    runs = table.assign(rate_mbps=rate).groupby(["rate_mbps", "seed"], as_index=False)[cols].first()
    return runs.groupby("rate_mbps", as_index=False)[cols].mean().sort_values("rate_mbps").reset_index(drop=True)


def _web_ok(r: pd.Series) -> bool:
    """The Web criterion on the HTTP/1.0 probes (§5.4.1, L2743)."""
    return bool(r["web_slow"] <= WEB_SLOW_MAX and r["web_bad"] == 0)


def _web11_ok(r: pd.Series) -> bool:
    """The same criterion on the HTTP/1.1 probes (Fig 5.4's text: HTTP/1.1 needs 50 Mb/s)."""
    return bool(r["web11_slow"] <= WEB_SLOW_MAX and r["web11_bad"] == 0)


def _telnet_ok(r: pd.Series) -> bool:
    """The Telnet criterion (§5.4.1, L2743: "1% or so" of the echoes over 200 ms)."""
    return bool(r["echo_slow"] <= ECHO_MAX)


def _video_ok(r: pd.Series, layered: bool) -> bool:
    return bool((r["video_loss_base"] if layered else r["video_loss"]) <= VIDEO_LOSS_MAX)


def _need(runs: pd.DataFrame, ok: Any) -> float:
    """The lowest swept rate from which every higher swept rate meets `ok` (NaN if the top
    one fails)."""
    need = float("nan")
    for _, r in runs.sort_values("rate_mbps", ascending=False).iterrows():
        if not ok(r):
            break
        need = float(r["rate_mbps"])
    return need


def _value_at(runs: pd.DataFrame, column: str, mbps: float) -> float:
    """`column` of the swept rate `mbps` (NaN if it was not swept)."""
    at = runs[np.isclose(runs["rate_mbps"], mbps)]
    return float(at[column].iloc[0]) if len(at) else float("nan")


def _ch5_part(table: pd.DataFrame, part: str, tcp: bool, video: str | None,
              values_at: tuple[tuple[str, str, float], ...] = (),
              needs: tuple[str, ...] = ("need",), telnet: bool = False) -> dict[str, Any]:
    """Bandwidth needs of one configuration, the rows named in `needs`: `web_need_mbps` (the
    TCP criteria: Web, and Telnet where `telnet`), `video_need_mbps` (the video proxy),
    `need_mbps` (every criterion that applies), `http11_need_mbps` (Web on the HTTP/1.1
    probes). Telnet is a criterion only in the parts before §5.4.2's "In the remainder of this
    chapter, we focus on the Web application" (L2765): TCP alone (Fig 5.4) and mixed (Fig 5.6).
    The part's table lists every swept rate with its measures and verdicts (Telnet's too)."""
    runs = _ch5_runs(table)
    layered = video == "layered"
    checks = {}
    if tcp:
        checks["web"] = (lambda r: _web_ok(r) and _telnet_ok(r)) if telnet else _web_ok
    if video:
        checks["video"] = lambda r: _video_ok(r, layered)
    criteria = [f for f in checks.values()]
    checks["all"] = lambda r: all(f(r) for f in criteria)
    if tcp:
        checks["telnet"] = _telnet_ok
        checks["http11"] = _web11_ok
    names = {"need": "all", "web_need": "web", "video_need": "video", "http11_need": "http11"}
    out: dict[str, Any] = {f"{part}.{n}_mbps": _need(runs, checks[names[n]]) for n in needs}
    for name, column, mbps in values_at:
        out[f"{part}.{name}"] = _value_at(runs, column, mbps)
    for name, f in checks.items():
        runs[f"{name}_ok"] = runs.apply(f, axis=1)
    out["__frames__"] = {part: runs}
    return out


#: L2777's two points of chapter 5's data load: (sources, Mb/s). Between them the load is read
#: as linear in the number of sources (the thesis gives only the ends of Fig 5.8's axis).
CH5_LOAD_SCALE = ((80, 20.0), (480, 170.0))
#: The data workload's parts in ch5_load's runs (forward sessions only; the reverse FTPshort
#: sessions run but are not counted, as in ch4_load). SURGE runs name their web flows `surge`.
CH5_LOAD_PARTS = {"telnet": r"^tel\d+$", "web": r"^(web|surge)\d+(/c\d+)?$", "ftp": r"^ftp\d+$"}


def ch5_thesis_load_mbps(sources: int) -> float:
    """Chapter 5's data load for `sources` data sources on L2777's scale (linear between its
    two points)."""
    (n0, l0), (n1, l1) = CH5_LOAD_SCALE
    return l0 + (sources - n0) * (l1 - l0) / (n1 - n0)


def ch5_load(table: pd.DataFrame) -> dict[str, Any]:
    """The lossless load of chapter 5's data sources (L2777, Fig 5.8's axis): per run the
    summed application goodput of the forward Telnet, web and FTPshort sessions in Mb/s, mean
    over seeds, for each source count (the forward FTP sessions' count) and workload."""
    names = table["name"].astype(str)
    parts = pd.DataFrame({part: table["goodput_bps"].where(names.str.match(pattern), 0.0) / 1e6
                          for part, pattern in CH5_LOAD_PARTS.items()})
    parts["sources"] = names.str.match(CH5_LOAD_PARTS["ftp"]).astype(int)
    parts["surge"] = names.str.startswith("surge")
    runs = parts.groupby([table["point"], table["seed"]]).agg(
        {"telnet": "sum", "web": "sum", "ftp": "sum", "sources": "sum", "surge": "any"})
    runs["workload"] = np.where(runs.pop("surge"), "surge", "stated")
    runs["total"] = runs[list(CH5_LOAD_PARTS)].sum(axis=1)
    summary = runs.groupby(["workload", "sources"], as_index=False).agg(
        seeds=("total", "size"), telnet_mbps=("telnet", "mean"), web_mbps=("web", "mean"),
        ftp_mbps=("ftp", "mean"), lossless_mbps=("total", "mean"))
    summary["thesis_mbps"] = summary["sources"].map(ch5_thesis_load_mbps)
    out: dict[str, Any] = {}
    for r in summary.itertuples():
        prefix = "ch5_load." + ("" if r.workload == "stated" else f"{r.workload}_")
        out[f"{prefix}s{r.sources}_mbps"] = float(r.lossless_mbps)
        if r.workload == "stated" and r.sources == CH5_DATA_SOURCES:
            out["ch5_load.web_mbps"] = float(r.web_mbps)
    out["__frames__"] = {"ch5_load_table": summary}
    return out


def ch5_tcp(table: pd.DataFrame) -> dict[str, Any]:
    """C5-1 (Fig 5.4): TCP alone, drop tail: 60 Mb/s needed, drop rate 1.8 % there."""
    return _ch5_part(table, "ch5_tcp", True, None, values_at=(("drop_rate_60", "drop_rate", 60),),
                     needs=("need", "http11_need"), telnet=True)


def ch5_video(table: pd.DataFrame) -> dict[str, Any]:
    """C5-2 (Fig 5.5): 20 unlayered video streams alone, drop tail: 120 Mb/s, drop rate 2e-4."""
    return _ch5_part(table, "ch5_video", False, "plain",
                     values_at=tuple((f"drop_rate_{mbps}", "drop_rate", mbps) for mbps in (100, 110, 120)))


def ch5_mixed(table: pd.DataFrame) -> dict[str, Any]:
    """C5-3/C5-4 (Fig 5.6/5.7): one drop-tail queue (buffer doubled): TCP fine at 180 Mb/s,
    video needs 230 Mb/s."""
    return _ch5_part(table, "ch5_mixed", True, "plain", needs=("web_need", "video_need"), telnet=True)


#: Fig 5.8's linked sweep axis: the flows list (TCP alone, or with video) and its buffer.
CH5_EXCESS_AXIS = "flows + dumbbell.bottleneck.queue.limit"
#: The video-alone need in Fig 5.8's sum of separate needs: the thesis's 120 Mb/s (L2751), which
#: nsim's ch5_video part measures too (row ch5_video.need_mbps).
CH5_VIDEO_ALONE_MBPS = 120.0


def _ch5_excess(table: pd.DataFrame, sources: int) -> dict[str, Any]:
    """C5-5 (Fig 5.8, L2777-2779) at one TCP load: the TCP-alone need (Web and Telnet criteria,
    500-packet drop tail, as ch5_tcp), the mixed need (Web, Telnet and video in one 1000-packet
    drop-tail queue, as ch5_mixed) and the excess, mixed need minus the separate needs' sum
    (TCP alone + CH5_VIDEO_ALONE_MBPS). The part's table has both configurations' rates."""
    part = f"ch5_excess{sources}"
    axis = table[CH5_EXCESS_AXIS]
    buffer = {v: _grid_value(v)[1] for v in axis.unique()}  # one decode per value
    mixed = axis.map(buffer) == "1000p"
    alone = _ch5_part(table[~mixed], part, True, None, telnet=True)
    both = _ch5_part(table[mixed], part, True, "plain", telnet=True)
    tcp, mix = alone[f"{part}.need_mbps"], both[f"{part}.need_mbps"]
    frame = pd.concat([alone["__frames__"][part].assign(config="TCP alone", need_mbps=tcp),
                       both["__frames__"][part].assign(config="TCP + video", need_mbps=mix)], ignore_index=True)
    return {f"{part}.excess_mbps": mix - tcp - CH5_VIDEO_ALONE_MBPS, "__frames__": {part: frame}}


def ch5_excess80(table: pd.DataFrame) -> dict[str, Any]:
    """Fig 5.8 at 80 data sources (20 Mb/s on L2777's scale)."""
    return _ch5_excess(table, 80)


def ch5_excess480(table: pd.DataFrame) -> dict[str, Any]:
    """Fig 5.8 at 480 data sources (170 Mb/s on L2777's scale)."""
    return _ch5_excess(table, 480)


def ch5_wrr(table: pd.DataFrame) -> dict[str, Any]:
    """C5-7 (Fig 5.11): separate drop-tail queues, WRR 90 % video: 160 Mb/s for both."""
    return _ch5_part(table, "ch5_wrr", True, "plain")


#: Fig 5.9's network (scenarios/ch5_aggregation.toml): the central link is links[0], the 100 Mb/s
#: tier's links are a<k> -> r0 and r1 -> b<k>, gen_ch5.AGG_ROUTERS a side.
AGG_CENTRAL = "links[0].rate"
AGG_ROUTERS = _CH5_GEN.AGG_ROUTERS


def ch5_agg_run(res: Any) -> dict[str, Any]:
    """:func:`ch5_run`, and the packets dropped in the data's direction at the central link
    (r0 -> r1) and at the 100 Mb/s tier's eight links (a<k> -> r0, r1 -> b<k>)."""
    q = res.queues
    tier = (q["from"].str.match(r"^a\d+$") & (q["to"] == "r0")) | ((q["from"] == "r1") & q["to"].str.match(r"^b\d+$"))
    return ch5_run(res) | {"central_drops": int(_queue_row(res, "r0", "r1")["dropped_pkts"]),
                           "tier_drops": int(q.loc[tier, "dropped_pkts"].sum())}


def _agg_runs(table: pd.DataFrame, mbps: pd.Series) -> pd.DataFrame:
    """:func:`_ch5_runs` over the swept rate `mbps`, with the 100 Mb/s tier's share of the drops
    at the tier and the central link (NaN if none) and the video verdict per rate."""
    runs = _ch5_runs(table, mbps)
    total = runs["tier_drops"] + runs["central_drops"]
    runs["tier_drop_share"] = (runs["tier_drops"] / total).where(total > 0)
    runs["video_ok"] = runs.apply(lambda r: _video_ok(r, False), axis=1)
    return runs


def ch5_agg480(table: pd.DataFrame) -> dict[str, Any]:
    """C5-6 (Fig 5.9, L2779) at 480 data sources with the video: the video's loss at a 400
    Mb/s central link minus at 380, and where the drops are at each (the tier's share at 400,
    the central link's at 380). The part's table has every rate."""
    runs = _agg_runs(table, table[AGG_CENTRAL].map(lambda v: _mbps(v, AGG_CENTRAL)))
    return {"ch5_agg480.video_loss_400_minus_380": _value_at(runs, "video_loss", 400) - _value_at(runs, "video_loss", 380),
            "ch5_agg480.tier_drop_share_400": _value_at(runs, "tier_drop_share", 400),
            "ch5_agg480.central_drop_share_380": 1.0 - _value_at(runs, "tier_drop_share", 380),
            "__frames__": {"ch5_agg480": runs}}


def ch5_agg180(table: pd.DataFrame) -> dict[str, Any]:
    """C5-6's second statement (L2779) at the study's 180 sources with the video: the central
    link at 1 Gb/s and the tier's links swept together; the lowest aggregate tier rate (four
    links' worth) from which the video meets its criterion, and the central link's drops
    (none, if only the tier congests). The part's table has every aggregate."""
    axis = next(c for c in table.columns if c.startswith("links[1].rate + "))
    runs = _agg_runs(table, table[axis].map(lambda v: AGG_ROUTERS * _mbps(_grid_value(v)[0], axis)))
    return {"ch5_agg180.video_need_mbps": _need(runs, lambda r: bool(r["video_ok"])),
            "ch5_agg180.central_drops": float(runs["central_drops"].max()),
            "__frames__": {"ch5_agg180": runs.rename(columns={"rate_mbps": "aggregate_mbps"})}}


#: What §5.5.1 compares TCP-DS with the other markings on (L2820-2824): the share of HTTP/1.0
#: probe pages over 5 s at 100 Mb/s, the video's middle (MED) layer loss at 125 Mb/s, the
#: forward FTPshort goodput at 100 Mb/s.
CH5_MARKING_AT = (("web_slow_100", "web_slow", 100), ("video_mid_loss_125", "video_loss_middle", 125),
                  ("ftp_mbps_100", "ftp_mbps", 100))


def ch5_af(table: pd.DataFrame) -> dict[str, Any]:
    """C5-8/C5-11 (Fig 5.12/5.13): one priority-drop queue, layered video, TCP-DS: video good
    at 150 Mb/s, web excellent down to 100 Mb/s."""
    enh = tuple((f"video_enh_loss_{mbps}", "video_loss_enh", mbps) for mbps in (100, 125, 150))
    return _ch5_part(table, "ch5_af", True, "layered", values_at=CH5_MARKING_AT + enh + CH5_EARLY_DROP_AT,
                     needs=("web_need", "video_need"))


#: Where C5-8's early drop is compared with threshold drop (L2813): the MED layer's loss at the
#: lowest swept rate.
CH5_EARLY_DROP_AT = (("video_mid_loss_100", "video_loss_middle", 100),)


def ch5_af_red(table: pd.DataFrame) -> dict[str, Any]:
    """C5-8 (Fig 5.12, dashed lines; L2813): ch5_af's queue with random early drop (the `af`
    queue's `red` mode) instead of thresholds on the instantaneous occupancy. Row: the video's
    middle (MED) layer loss at 100 Mb/s; the part's table has every rate's verdicts."""
    return _ch5_part(table, "ch5_af_red", True, "layered", values_at=CH5_EARLY_DROP_AT, needs=())


#: What each marking's claim is measured on (L2817-2824): (needs, values at a rate).
CH5_MARKING_ROWS = {"low": (("web_need",), ()), "high": (("video_need",), (("video_mid_loss_180", "video_loss_middle", 180),)),
                    "med": ((), CH5_MARKING_AT[:2]), "appl": ((), CH5_MARKING_AT[2:])}


def ch5_marking(table: pd.DataFrame) -> dict[str, Any]:
    """C5-9 to C5-12 (L2817-2824, Figs 5.13, 5.14): the queue of ch5_af with TCP marked LOW,
    HIGH or MED throughout, or by application: the Web need with LOW, the layered-video need
    with HIGH, and with MED and APPL the values ch5_af measures for TCP-DS at the same rates.
    The part's table has every marking's verdicts at every rate."""
    out: dict[str, Any] = {}
    frames = []
    for marking, g in table.groupby("marking"):
        part = f"ch5_marking.{marking}"
        needs, values_at = CH5_MARKING_ROWS[marking]
        measured = _ch5_part(g, part, True, "layered", values_at=values_at, needs=needs)
        frames.append(measured.pop("__frames__")[part].assign(marking=marking))
        out.update(measured)
    frame = pd.concat(frames, ignore_index=True)
    out["__frames__"] = {"ch5_marking_web": frame, "ch5_marking_video": frame}
    return out


def ch5_af_wrr(table: pd.DataFrame) -> dict[str, Any]:
    """C5-13 (Fig 5.15): separate priority-drop queues, WRR 90 % video: 125 Mb/s."""
    return _ch5_part(table, "ch5_af_wrr", True, "layered")


def ch5_layered(table: pd.DataFrame) -> dict[str, Any]:
    """C5-14 (Fig 5.16): layered video alone on a priority-drop queue: 105 Mb/s."""
    return _ch5_part(table, "ch5_layered", False, "layered",
                     values_at=tuple((f"video_enh_loss_{mbps}", "video_loss_enh", mbps) for mbps in (75, 105, 115)))


def ch5_tcpds(table: pd.DataFrame) -> dict[str, Any]:
    """C5-14 (Fig 5.16): TCP-DS marked TCP alone on a priority-drop queue: 20 Mb/s."""
    return _ch5_part(table, "ch5_tcpds", True, None)
