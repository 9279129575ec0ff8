"""Reducers for seed 001 (Goyal, Jain et al., ATM Forum/97-0423, 1997), Tables 1 and 2.

Each part is one network (LAN or WAN) with one number of sources; its sweep runs every
buffer size x drop policy once. Per run, as in seed 001 §4:

* efficiency = (sum of the TCP goodputs) / (maximum possible TCP throughput), the maximum being
  512 payload bytes per 12 cells of 53 bytes at 155.52 Mb/s = 125.2 Mb/s;
* fairness = Jain's index (sum x)^2 / (n sum x^2) over the sources' goodputs.

Goodput is application bytes delivered in order over the whole run (no warm-up excluded), the
paper's "total number of bytes delivered to the application divided by the simulation time".
"""

from __future__ import annotations

from typing import Any

import pandas as pd

BUFFER, POLICY = "links[0].atm.buffer", "links[0].atm.policy"
LINE_RATE_BPS = 155.52e6
MSS, HEADERS, CELL, PAYLOAD, ENCAP = 512, 40, 53, 48, 16


def max_goodput_bps() -> float:
    """Seed 001 §4: the largest TCP payload rate the cell tax leaves (125.2 Mb/s)."""
    cells = -(-(MSS + HEADERS + ENCAP) // PAYLOAD)
    return LINE_RATE_BPS * MSS / (cells * CELL)


def _per_run(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (buffer, policy, seed): efficiency and fairness."""
    def one(g: pd.DataFrame) -> pd.Series:
        x = g["goodput_bps"].astype(float)
        return pd.Series({"efficiency": x.sum() / max_goodput_bps(),
                          "fairness": x.sum() ** 2 / (len(x) * (x ** 2).sum()) if (x > 0).any() else 0.0})
    return table.groupby([BUFFER, POLICY, "seed"]).apply(one, include_groups=False).reset_index()


def _reduce(part: str, table: pd.DataFrame) -> dict[str, Any]:
    runs = _per_run(table)
    means = runs.groupby([BUFFER, POLICY])[["efficiency", "fairness"]].mean()
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
