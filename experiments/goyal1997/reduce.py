"""Reducers for seed 001 (Goyal, Jain et al., ATM Forum/97-0423, 1997), Tables 1 to 4.

Each LAN/WAN part is one network with one number of sources; its sweep runs every buffer size
x drop policy once with SACK TCP (Tables 1-2, per-configuration rows). The `*_avg` parts run
Vanilla and Reno TCP over the four configurations of one network (N = 5 and 15 x two buffer
sizes) for the tables' "Vanilla TCP Average" and "Reno TCP Average" rows. The satellite part
crosses TCP variant x buffer x policy (Tables 3-4). Per run, as in seed 001 §4:

* efficiency = (sum of the TCP goodputs) / (maximum possible TCP throughput), the maximum being
  the MSS payload per AAL5 frame of cells at 155.52 Mb/s: 512 bytes per 12 cells of 53 bytes =
  125.2 Mb/s (§4); for the satellite's 9180-byte MSS, 9180 bytes per 193 cells = 139.6 Mb/s
  (the paper does not state it: the same formula, seed-001 notes §3 [derived]);
* fairness = Jain's index (sum x)^2 / (n sum x^2) over the sources' goodputs.

Goodput is application bytes delivered in order over the whole run (no warm-up excluded), the
paper's "total number of bytes delivered to the application divided by the simulation time".
"""

from __future__ import annotations

from typing import Any

import pandas as pd

BUFFER, POLICY = "links[0].atm.buffer", "links[0].atm.policy"
VARIANT, SOURCES = "flows[0].transport.variant", "flows[0].repeat"
LINE_RATE_BPS = 155.52e6
HEADERS, CELL, PAYLOAD, ENCAP = 40, 53, 48, 16
LAN_WAN_MSS, SATELLITE_MSS = 512, 9180


def max_goodput_bps(mss: int = LAN_WAN_MSS) -> float:
    """Seed 001 §4: the largest TCP payload rate the cell tax leaves (125.2 Mb/s for 512 B)."""
    cells = -(-(mss + HEADERS + ENCAP) // PAYLOAD)
    return LINE_RATE_BPS * mss / (cells * CELL)


def _per_run(table: pd.DataFrame, keys: list[str], mss: int) -> pd.DataFrame:
    """One row per configuration and seed: efficiency and fairness."""
    def one(g: pd.DataFrame) -> pd.Series:
        x = g["goodput_bps"].astype(float)
        return pd.Series({"efficiency": x.sum() / max_goodput_bps(mss),
                          "fairness": x.sum() ** 2 / (len(x) * (x ** 2).sum()) if (x > 0).any() else 0.0})
    return table.groupby(keys + ["seed"]).apply(one, include_groups=False).reset_index()


def _reduce(part: str, table: pd.DataFrame) -> dict[str, Any]:
    means = _per_run(table, [BUFFER, POLICY], LAN_WAN_MSS).groupby([BUFFER, POLICY])[["efficiency", "fairness"]].mean()
    out: dict[str, Any] = {}
    for (k, policy), row in means.iterrows():
        for metric in ("efficiency", "fairness"):
            out[f"{part}.k{int(k)}.{policy}.{metric}"] = float(row[metric])
    # Seed 001's claim for LANs (small buffers): frame-aware dropping beats plain UBR.
    for k in [1000] if part.startswith("lan") else []:
        base = means.loc[(k, "tail_drop"), "efficiency"] if (k, "tail_drop") in means.index else None
        for policy in ("epd", "selective_drop"):
            if base is not None and (k, policy) in means.index:
                out[f"{part}.k{k}.{policy}.efficiency_gain"] = float(means.loc[(k, policy), "efficiency"] - base)
    frame = means.reset_index().rename(columns={BUFFER: "buffer_cells", POLICY: "policy"})
    out["__frames__"] = {f"{part}_table": frame}
    return out


def _average(part: str, table: pd.DataFrame) -> dict[str, Any]:
    """Tables 1-2 "<variant> TCP Average" rows: per variant and policy, the mean over N x buffer."""
    runs = _per_run(table, [VARIANT, SOURCES, BUFFER, POLICY], LAN_WAN_MSS)
    means = runs.groupby([VARIANT, POLICY])[["efficiency", "fairness"]].mean()
    out: dict[str, Any] = {}
    for (variant, policy), row in means.iterrows():
        for metric in ("efficiency", "fairness"):
            out[f"{part}.{variant}.{policy}.{metric}"] = float(row[metric])
    configs = runs.groupby([VARIANT, SOURCES, BUFFER, POLICY])[["efficiency", "fairness"]].mean().reset_index()
    out["__frames__"] = {f"{part}_table": configs.rename(columns={VARIANT: "variant", SOURCES: "sources", BUFFER: "buffer_cells", POLICY: "policy"})}
    return out


def lan5(table: pd.DataFrame) -> dict[str, Any]:
    """LAN, 5 sources (Tables 1-2, rows 'LAN 5 1000' and 'LAN 5 3000')."""
    return _reduce("lan5", table)


def lan15(table: pd.DataFrame) -> dict[str, Any]:
    """LAN, 15 sources."""
    return _reduce("lan15", table)


def wan5(table: pd.DataFrame) -> dict[str, Any]:
    """WAN, 5 sources."""
    return _reduce("wan5", table)


def wan15(table: pd.DataFrame) -> dict[str, Any]:
    """WAN, 15 sources."""
    return _reduce("wan15", table)


def lan_avg(table: pd.DataFrame) -> dict[str, Any]:
    """LAN, Vanilla and Reno over N = 5, 15 and 1000, 3000 cells (Tables 1-2 average rows)."""
    return _average("lan_avg", table)


def wan_avg(table: pd.DataFrame) -> dict[str, Any]:
    """WAN, Vanilla and Reno over N = 5, 15 and 12000, 36000 cells (Tables 1-2 average rows)."""
    return _average("wan_avg", table)


def sat5(table: pd.DataFrame) -> dict[str, Any]:
    """Satellite, 5 sources: TCP variant x buffer x policy (Tables 3 and 4)."""
    means = _per_run(table, [VARIANT, BUFFER, POLICY], SATELLITE_MSS).groupby([VARIANT, BUFFER, POLICY])[["efficiency", "fairness"]].mean()
    out: dict[str, Any] = {}
    for (variant, k, policy), row in means.iterrows():
        for metric in ("efficiency", "fairness"):
            out[f"sat5.{variant}.k{int(k)}.{policy}.{metric}"] = float(row[metric])
    # §8-§9 claims: SACK improves TCP over satellite; fast retransmit and recovery (Reno) is
    # worse than none (Vanilla) over large delay-bandwidth links. Written as differences.
    eff = means["efficiency"]
    for (variant, k, policy) in eff.index:
        if variant != "reno":
            continue
        for better in ("sack1", "vanilla"):
            if (better, k, policy) in eff.index:
                out[f"sat5.k{int(k)}.{policy}.{better}_over_reno"] = float(eff[(better, k, policy)] - eff[(variant, k, policy)])
    frame = means.reset_index().rename(columns={VARIANT: "variant", BUFFER: "buffer_cells", POLICY: "policy"})
    frame["series"] = frame["variant"] + " " + frame["policy"]
    out["__frames__"] = {"sat5_table": frame}
    return out
