"""Reducers for seed 002 (Noureddine 2002, PhD thesis, Stanford).

# --- Chapter 2 ---
Chapter 2 parts (``ch2*``) check the thesis's TCP timing statements with full TCP
(``transport = { kind = "tcp_full" }``): FTP's first data after about 3 RTT, HTTP saving one
RTT, the 5 transactions/s cap of Nagle x delayed ACK, and the 100 ms mean first delayed ACK
of BSD's 200 ms tick. Every reducer works on the sweep's per-flow table (one row per run and
flow) and measures a round trip as the connection's own `setup_s` (SYN to SYN-ACK).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

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
    return {"ch2_nagle.with_nagle_per_s": on, "ch2_nagle.without_nagle_per_s": off,
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
