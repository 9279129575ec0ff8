"""Reducers for red_two_source: the RED link's counters and ave_ statistics per run.

``red_link`` runs in the sweep's workers on each run's full results (series included) and
keeps what the rows need; ``envelopes`` measures every row of a part on every seed and
reports the seed farthest from ns-2, so a row passes only if every seed is within its
tolerance (as crates/nsim-core/tests/queue_red_ns2.rs checks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

REFERENCE = Path(__file__).resolve().parents[2] / "reference" / "ns2" / "red_two_source"


def red_link(res: Any) -> dict[str, Any]:
    """The RED link r1->r2: counters and its sampled queue length and RED average."""
    q = res.queues[(res.queues["from"] == "r1") & (res.queues["to"] == "r2")].iloc[0]
    s = res.series("queue")
    s = s[(s["from"] == "r1") & (s["to"] == "r2")]
    return {
        "red_arrivals": int(q["arrivals"]),
        "red_early_drops": int(q["drops_red_early"]),
        "red_forced_drops": int(q["drops_red_forced"] + q["drops_overflow"]),
        "red_max_len_pkts": int(q["max_len_pkts"]),
        "red_t": s["time_s"].tolist(),
        "red_ave": s["avg_len"].tolist(),
        "red_len": s["len_pkts"].tolist(),
    }


def _metric(run: pd.Series, params: dict[str, Any]) -> float:
    """One run's value of a row's metric (see expected.toml's params)."""
    name = params["metric"]
    if name in ("arrivals", "red_early_drops", "forced_drops", "max_len_pkts"):
        column = {"arrivals": "red_arrivals", "forced_drops": "red_forced_drops",
                  "max_len_pkts": "red_max_len_pkts"}.get(name, name)
        return float(run[column])
    t = np.asarray(run["red_t"], float)
    window = (t >= params.get("t_from", 0.0)) & (t < params.get("t_to", np.inf))
    ave = np.asarray(run["red_ave"], float)[window]
    if name == "mean_ave":
        return float(ave.mean())
    if name == "max_ave":
        return float(ave.max())
    if name == "ave_quantile":  # the order statistic queue_red_ns2.rs uses
        return float(np.sort(ave)[int(params["q"] * (len(ave) - 1))])
    if name == "mean_len":
        return float(np.asarray(run["red_len"], float)[window].mean())
    raise ValueError(f"unknown metric {name!r}")


def envelopes(table: pd.DataFrame, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Each row's value on the seed farthest from ns-2, and the ave_ figure's frame."""
    runs = table.drop_duplicates("run_key").sort_values("seed")
    out: dict[str, Any] = {}
    for row in rows:
        values = [_metric(run, row["params"]) for _, run in runs.iterrows()]
        out[row["id"]] = max(values, key=lambda v: abs(v - row["value"]))
    part = rows[0]["id"].split(".")[0]
    first = runs.iloc[0]
    nsim = pd.DataFrame({"time_s": first["red_t"], "ave_pkts": first["red_ave"],
                         "run": f"nsim seed {first['seed']}"})
    ns2 = pd.read_csv(REFERENCE / ("queue_sampled.csv" if part == "base" else "stress_queue_sampled.csv"))
    ns2 = pd.DataFrame({"time_s": ns2["time"], "ave_pkts": ns2["ave"], "run": "ns-2.35"})
    out["__frames__"] = {f"ave_{part}": pd.concat([nsim, ns2], ignore_index=True)}
    return out
