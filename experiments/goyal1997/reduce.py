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
"""

from __future__ import annotations

from typing import Any

import pandas as pd

BUFFER, POLICY = "links[0].atm.buffer", "links[0].atm.policy"
VARIANT, SOURCES = "flows[0].transport.variant", "flows[0].repeat"
LINE_RATE_BPS = 155.52e6
HEADERS, CELL, PAYLOAD, ENCAP = 40, 53, 48, 16
LAN_WAN_MSS, SATELLITE_MSS = 512, 9180
METRICS = ("efficiency", "fairness")


def max_goodput_bps(mss: int = LAN_WAN_MSS) -> float:
    """§6.2: the largest TCP payload rate the cell tax leaves (125.2 Mb/s for 512 B)."""
    cells = -(-(mss + HEADERS + ENCAP) // PAYLOAD)
    return LINE_RATE_BPS * mss / (cells * CELL)


def _per_run(table: pd.DataFrame, keys: list[str], mss: int) -> pd.DataFrame:
    """One row per configuration and seed: efficiency (and its per-MSS reading) and fairness."""
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
    frame = configs.reset_index().rename(columns={VARIANT: "variant", SOURCES: "sources", BUFFER: "buffer_cells", POLICY: "policy"})
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
    frame = means.reset_index().rename(columns={VARIANT: "variant", BUFFER: "buffer_cells", POLICY: "policy"})
    frame["series"] = frame["variant"] + " " + frame["policy"]
    out["__frames__"] = {"sat_table": frame}
    return _keep(out, rows)
