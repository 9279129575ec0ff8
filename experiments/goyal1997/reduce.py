"""Reducers for Goyal, Jain et al. 1997 (ATM Forum/97-0423), Tables 1 to 4.

Three parts, one per network: `lan` and `wan` cross TCP variant (SACK, Reno, Vanilla) x number of
sources (5, 15) x buffer x drop policy (Tables 1-2: SACK per configuration, and the "<variant>
Average" rows = the mean over N x buffer per policy); `sat` crosses variant x buffer x policy
with 5 sources (Tables 3-4). Per run, as in the paper's §6.2:

* efficiency = (sum of the TCP goodputs) / (maximum possible TCP throughput), §6.2's 125.2 Mb/s
  (512 bytes per 12 cells of 53 bytes at 155.52 Mb/s) for every network, the satellite included:
  §8 lists what changes for the satellite runs and the denominator is not among the changes, and
  Table 3's SACK 600000-cell efficiencies of 1.00 are out of reach under the other reading
  (README.md, "The efficiency denominator"). That other reading, the same formula with the
  satellite's 9180-byte MSS (9180 bytes per 193 cells = 139.6 Mb/s), is in the frames as
  `efficiency_mss`;
* fairness = Jain's index (sum x)^2 / (n sum x^2) over the sources' goodputs.

Goodput is application bytes delivered in order over the whole run (no warm-up excluded), the
paper's "total number of bytes delivered to the application divided by the simulation time".
Every value is the mean over the part's seeds (the framework also calls the reducer per seed).
Only values that are rows of expected.toml are returned; the frames hold them all.

Three more parts test the paper's analysis of the senders on drop-list runs (one flow, no
randomness, one seed): `analysis_sack` (§4.2, how many round trips SACK needs to retransmit k
contiguous losses from a 40-segment window), `analysis_reno` (§2.3 and Fig. 2, BSD Reno's three
consecutive losses) and `analysis_ca` (§7.2, integer congestion avoidance above MSS^2 bytes).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd

BUFFER, POLICY = "links[0].atm.buffer", "links[0].atm.policy"
TRANSPORT, SOURCES = "flows[0].transport", "flows[0].repeat"
VARIANT = "variant"
LINE_RATE_BPS = 155.52e6
HEADERS, CELL, PAYLOAD, ENCAP = 40, 53, 48, 16
LAN_WAN_MSS, SATELLITE_MSS = 512, 9180
METRICS = ("efficiency", "fairness")


def max_goodput_bps(mss: int = LAN_WAN_MSS) -> float:
    """§6.2: the largest TCP payload rate the cell tax leaves (125.2 Mb/s for 512 B)."""
    cells = -(-(mss + HEADERS + ENCAP) // PAYLOAD)
    return LINE_RATE_BPS * mss / (cells * CELL)


def _with_variant(table: pd.DataFrame) -> pd.DataFrame:
    """The sweeps' variant axis is the whole transport table (JSON text in the frame: Reno carries
    `bugfix = false`); the rows name it by its `variant`."""
    column = table[TRANSPORT]
    variant = {v: (json.loads(v) if isinstance(v, str) else v)["variant"] for v in column.unique()}  # one decode per table
    return table.assign(**{VARIANT: column.map(variant)})


def _per_run(table: pd.DataFrame, keys: list[str], mss: int) -> pd.DataFrame:
    """One row per configuration and seed: efficiency (and its per-MSS reading) and fairness."""
    table = _with_variant(table)
    def one(g: pd.DataFrame) -> pd.Series:
        x = g["goodput_bps"].astype(float)
        return pd.Series({"efficiency": x.sum() / max_goodput_bps(LAN_WAN_MSS),
                          "efficiency_mss": x.sum() / max_goodput_bps(mss),
                          "fairness": x.sum() ** 2 / (len(x) * (x ** 2).sum()) if (x > 0).any() else 0.0,
                          "timeouts": float(g["timeouts"].sum()) if "timeouts" in g else float("nan")})
    return table.groupby(keys + ["seed"]).apply(one, include_groups=False).reset_index()


def _keep(out: dict[str, Any], rows: list[dict[str, Any]] | None) -> dict[str, Any]:
    """The values that are rows of expected.toml. A row id with one component "x-y" (e.g.
    ``lan.reno-sack1.avg.epd.efficiency``) is an ordering: the cell with x minus the cell with y
    (here ``lan.reno.avg.epd.efficiency - lan.sack1.avg.epd.efficiency``), per seed like any value."""
    if rows is None:
        return out
    kept: dict[str, Any] = {"__frames__": out.get("__frames__", {})}
    for r in rows:
        rid = r["id"]
        parts = rid.split(".")
        pair = [i for i, c in enumerate(parts) if "-" in c]
        if not pair:
            if rid in out:
                kept[rid] = out[rid]
            continue
        i = pair[0]
        x, y = parts[i].split("-", 1)
        a, b = ".".join(parts[:i] + [x] + parts[i + 1:]), ".".join(parts[:i] + [y] + parts[i + 1:])
        if a in out and b in out:
            kept[rid] = out[a] - out[b]
    return kept


def _terrestrial(part: str, table: pd.DataFrame, rows: list[dict[str, Any]] | None) -> dict[str, Any]:
    """Tables 1-2 for one network: per configuration, and the average over N x buffer."""
    runs = _per_run(table, [VARIANT, SOURCES, BUFFER, POLICY], LAN_WAN_MSS)
    cols = ["efficiency", "efficiency_mss", "fairness", "timeouts"]
    configs = runs.groupby([VARIANT, SOURCES, BUFFER, POLICY])[cols].mean()
    # The "<variant> Average" rows: the mean over the four configurations (N x buffer) per policy,
    # of the per-configuration means over seeds.
    avgs = configs.groupby(level=[0, 3])[cols].mean()
    out: dict[str, Any] = {}
    for (variant, n, k, policy), row in configs.iterrows():
        for m in METRICS:
            out[f"{part}.{variant}.n{int(n)}.k{int(k)}.{policy}.{m}"] = float(row[m])
    for (variant, policy), row in avgs.iterrows():
        for m in METRICS:
            out[f"{part}.{variant}.avg.{policy}.{m}"] = float(row[m])
    frame = configs.reset_index().rename(columns={SOURCES: "sources", BUFFER: "buffer_cells", POLICY: "policy"})
    frame["series"] = frame["variant"] + " N=" + frame["sources"].astype(int).astype(str) + " " + frame["policy"]
    out["__frames__"] = {f"{part}_table": frame}
    return _keep(out, rows)


def lan(table: pd.DataFrame, rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """LAN (5 µs links): Tables 1-2, upper half."""
    return _terrestrial("lan", table, rows)


def wan(table: pd.DataFrame, rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """WAN (5 ms links): Tables 1-2, lower half."""
    return _terrestrial("wan", table, rows)


def sat(table: pd.DataFrame, rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Satellite, 5 sources: TCP variant x buffer x policy (Tables 3 and 4)."""
    runs = _per_run(table, [VARIANT, BUFFER, POLICY], SATELLITE_MSS)
    cols = ["efficiency", "efficiency_mss", "fairness", "timeouts"]
    means = runs.groupby([VARIANT, BUFFER, POLICY])[cols].mean()
    out: dict[str, Any] = {}
    for (variant, k, policy), row in means.iterrows():
        for m in METRICS:
            out[f"sat.{variant}.k{int(k)}.{policy}.{m}"] = float(row[m])
    frame = means.reset_index().rename(columns={BUFFER: "buffer_cells", POLICY: "policy"})
    frame["series"] = frame["variant"] + " " + frame["policy"]
    out["__frames__"] = {"sat_table": frame}
    return _keep(out, rows)


# ---- The paper's analysis of the senders (§4.2, §2.3 and Fig. 2, §7.2) ----

#: scenarios/sack_drops.toml: the SACK sender's window (segments) when the losses start.
SACK_WINDOW = 40
#: scenarios/sack_drops.toml: an ACK's way back from d to s, 2 x 25 ms of propagation plus 40 B
#: at 3 Mb/s (the reverse path carries only ACKs, so they never queue).
ACK_RETURN_S = 0.050 + 40 * 8 / 3e6
#: Slack when an ACK's arrival and the send it clocks fall on the same instant; data packets
#: leave the 3 Mb/s bottleneck 2.8 ms apart, so no other ACK lies within it.
SAME_INSTANT_S = 1e-3
#: scenarios/ca_stall.toml: its round trip (2 x 50 ms on idle 1 Gb/s links) and duration.
CA_RTT_S, CA_DURATION_S = 0.100, 3.05


def sack_rounds(res: Any) -> dict[str, Any]:
    """One `analysis_sack` run: the segments lost (`lost`) and the round trips SACK needed to
    retransmit them all (`rounds`), counted by the ACK clock as §4.2 counts them.

    A retransmission is a delivered copy sent after a higher sequence number was first sent
    (packet_delays: send time = delivery time - delay). Retransmissions clocked by the
    duplicate ACKs of the original window are round 1; one sent when the ACK of a round-r
    retransmission had come back (its delivery plus ACK_RETURN_S) is round r + 1, as the partial
    ACKs of §4.2's second round release "2 more segments" each.
    """
    d = res.packet_delays()
    d = d.assign(sent=d["time_s"] - d["delay_s"]).sort_values(["seq", "sent"]).drop_duplicates("seq")
    sent, back = d["sent"].to_numpy(), (d["time_s"] + ACK_RETURN_S).to_numpy()
    first_sent_after = pd.Series(sent[::-1]).cummin().to_numpy()[::-1]
    rtx = sorted((i for i in range(len(sent) - 1) if sent[i] > first_sent_after[i + 1] + SAME_INSTANT_S), key=lambda i: sent[i])
    rounds: dict[int, int] = {}
    for j in rtx:
        rounds[j] = 1 + max((r for i, r in rounds.items() if back[i] <= sent[j] + SAME_INSTANT_S), default=0)
    lost = len(res.scenario["links"][0]["error"]["packets"])
    return {"lost": lost, "rounds": max(rounds.values(), default=0)}


def _analysis_rounds(k: int, w: int = SACK_WINDOW) -> float:
    """§4.2: the round trips SACK needs for a loss of W/n = k segments, ceil(log2(n/(n-2))) for
    n > 2 (the first m rounds retransmit (2^m - 1)(W/2 - W/n)); infinite from half the window."""
    return float(math.ceil(math.log2(w / (w - 2 * k)) - 1e-12)) if 2 * k < w else math.inf


def _largest_within(frame: pd.DataFrame, rounds: int) -> float:
    """The largest loss k such that every loss up to k is retransmitted within `rounds`."""
    over = frame.loc[frame["rounds"] > rounds, "lost"]
    return float((over.min() if len(over) else frame["lost"].max() + 1) - 1)


def _rounds_by_series(f: pd.DataFrame) -> pd.DataFrame:
    """The sack_rounds figure's frame: round trips against the loss for nsim (with its
    timeouts), §4.2's bound (where finite, below half the window) and slow start."""
    curves = [f.assign(series="nsim sack1")[["lost", "rounds", "timeouts", "series"]],
              f.assign(series="§4.2 bound ceil(log2(n/(n-2)))", rounds=f["analysis_rounds"], timeouts=math.nan),
              f.assign(series="slow start ceil(log2(k+1))", rounds=f["slow_start_rounds"], timeouts=math.nan)]
    long = pd.concat([c[["lost", "rounds", "timeouts", "series"]] for c in curves], ignore_index=True)
    return long[long["rounds"] != math.inf]


def analysis_sack(table: pd.DataFrame, rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """§4.2: the largest contiguous loss SACK retransmits within one and within two round
    trips (the paper: W/4 and 3W/8, 10 and 15 of 40 segments), and its timeouts up to half the
    window and beyond (the paper: none, "unless a retransmitted packet were dropped")."""
    f = table.groupby("lost", as_index=False).agg(rounds=("rounds", "max"), timeouts=("timeouts", "sum"))
    f["analysis_rounds"] = [_analysis_rounds(int(k)) for k in f["lost"]]
    f["slow_start_rounds"] = [math.ceil(math.log2(k + 1)) for k in f["lost"]]
    half = f["lost"] <= SACK_WINDOW // 2
    out: dict[str, Any] = {
        "analysis_sack.one_round.max_loss": _largest_within(f, 1),
        "analysis_sack.two_rounds.max_loss": _largest_within(f, 2),
        "analysis_sack.up_to_half.timeouts": float(f.loc[half, "timeouts"].sum()),
        "analysis_sack.over_half.timeouts": float(f.loc[~half, "timeouts"].sum()) if (~half).any() else math.nan,
        "__frames__": {"sack_rounds": _rounds_by_series(f)},
    }
    return _keep(out, rows)


def analysis_newreno(table: pd.DataFrame, rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """§2.3 (New Reno): "the sender will recover from N segment losses in N round trips ...
    without having to time out": the largest difference between round trips and losses over
    the runs, a run with a timeout counting as infinite (it did not recover by retransmissions)."""
    f = table.groupby("lost", as_index=False).agg(rounds=("rounds", "max"), timeouts=("timeouts", "sum"))
    off = (f["rounds"] - f["lost"]).abs().where(f["timeouts"] == 0, math.inf)
    out: dict[str, Any] = {"analysis_newreno.rounds_minus_losses.max_abs": float(off.max()),
                           "__frames__": {"newreno_rounds": f}}
    return _keep(out, rows)


def reno_three_losses(res: Any) -> dict[str, Any]:
    """One `analysis_reno` run, from its cwnd trace: the window when the first loss is noticed
    (the first duplicate ACK) and ssthresh when the retransmission timer fires."""
    c = res.series("cwnd")
    first = c[c["state"] != "open"]
    timeout = c[c["state"] == "loss"]
    return {"window_at_loss": float(first["cwnd_pkts"].iloc[0]) if len(first) else math.nan,
            "ssthresh_at_timeout": float(timeout["ssthresh_pkts"].iloc[0]) if len(timeout) else math.nan}


def _farthest(values: pd.Series, paper: float | None) -> float:
    """The case farthest from the paper's value (every case must agree with it), or the mean."""
    if paper is None:
        return float(values.mean())
    return float(values.iloc[int((values - paper).abs().to_numpy().argmax())])


def analysis_reno(table: pd.DataFrame, rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """§2.3, Fig. 2: fast retransmits, timeouts, and ssthresh at the timeout over the window at
    the first loss, each the case (window 16, 32, 64) farthest from the paper's value."""
    f = table.assign(ssthresh_over_window=table["ssthresh_at_timeout"] / table["window_at_loss"])
    paper = {r["id"]: r["value"] for r in rows or []}
    out: dict[str, Any] = {"__frames__": {"reno_three_losses": f[["window_at_loss", "fast_retransmits", "timeouts", "ssthresh_at_timeout", "ssthresh_over_window"]]}}
    for rid, col in (("analysis_reno.fast_retransmits", "fast_retransmits"), ("analysis_reno.timeouts", "timeouts"),
                     ("analysis_reno.ssthresh_over_window", "ssthresh_over_window")):
        out[rid] = _farthest(f[col].astype(float), paper.get(rid))
    return _keep(out, rows)


def ca_growth(res: Any) -> dict[str, Any]:
    """One `analysis_ca` run: the window's growth (packets) from its start to the end."""
    c = res.series("cwnd")["cwnd_pkts"]
    return {"growth_pkts": float(c.iloc[-1] - c.iloc[0])}


def analysis_ca(table: pd.DataFrame, rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """§7.2: congestion-avoidance growth per round trip above MSS^2 bytes, per increase rule
    (integer, ACK counting, floating point), over the run's round trips after the first."""
    rtts = (CA_DURATION_S - CA_RTT_S) / CA_RTT_S
    f = table.groupby("flows[0].transport.ca_increase", as_index=False)["growth_pkts"].mean()
    f = f.rename(columns={"flows[0].transport.ca_increase": "ca_increase"})
    f["growth_per_rtt"] = f["growth_pkts"] / rtts
    out: dict[str, Any] = {f"analysis_ca.{m}.growth_per_rtt": float(g) for m, g in zip(f["ca_increase"], f["growth_per_rtt"])}
    out["__frames__"] = {"ca_growth": f}
    return _keep(out, rows)
