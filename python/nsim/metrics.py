"""Metrics computed from nsim results: rates, fairness, variability, loss, convergence.

Read first:

- Holl (2003), Holl 2003 §6.2.1: the *windowed time-averaged rate*
  ``R_W(t) = (sum of bytes_j with t - W < t_j <= t) / W`` and the *instantaneous rate*
  ``r_i = bytes_i / (t_i - t_{i-1})``.
- Chiu & Jain (1989) via Bakthavachalu 2004 §4: Jain's fairness index
  ``J = (sum x_i)^2 / (n * sum x_i^2)``, in ``[1/n, 1]``.
- Bakthavachalu 2004 §4: coefficient of variation ``sigma / mu`` of a binned throughput series;
  normalized throughput ``T_i / (C / N)``; loss rate ``dropped / sent``.
- Bansal, Balakrishnan, Floyd & Shenker (SIGCOMM 2001) via Bakthavachalu 2004 §4 item 9: the
  *delta-fair convergence time*, the time two flows take to go from the allocation
  ``(B - b0, b0)`` to ``((1 + delta) B / 2, (1 - delta) B / 2)``.

Every rate is in bits per second (``_bps``) and every time in seconds (``_s``). Holl's plots
are in bytes/s; multiply by 1/8 to compare. Functions take plain arrays or the long-form
DataFrames of :class:`nsim.Results` and return numbers, Series or DataFrames; none of them
modifies its input.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Union

import numpy as np
import pandas as pd

ArrayLike = Union[Sequence[float], np.ndarray, pd.Series]

__all__ = [
    "goodput",
    "mean_rate",
    "jain",
    "cov",
    "windowed_rate",
    "windowed_throughput",
    "instantaneous_rate",
    "ccdf",
    "fair_share",
    "normalized_throughput",
    "loss_rate",
    "delta_fair_convergence_time",
    "t_quantile",
    "mean_ci",
    "summarize",
]


def goodput(flows: pd.DataFrame) -> pd.Series:
    """Per-flow goodput in bit/s, indexed by flow name.

    Goodput is the application bytes delivered in order, as bits over the flow's active time
    (from ``start_s`` to ``stop_s`` or the end of the run); the simulator computes it per flow
    as ``goodput_bps``. Use :func:`mean_rate` for the rate over a measurement window that
    excludes a warm-up.
    """
    return flows.set_index("name")["goodput_bps"].rename("goodput_bps")


def mean_rate(series: pd.DataFrame, start_s: float, stop_s: float) -> pd.Series:
    """Mean delivery rate of each flow over ``(start_s, stop_s]``, in bit/s, indexed by name.

    ``series`` is ``Results.series("flow_throughput")``: one row per (sampling interval,
    flow) with the bytes delivered in the interval that ends at ``time_s``. The window should
    be aligned to the sampling interval; intervals are counted when their end lies inside it.
    This is Holl's per-connection throughput over a record window (Holl 2003 §5) and seed
    004's long-run throughput after discarding the warm-up.
    """
    if not stop_s > start_s:
        raise ValueError(f"stop_s ({stop_s}) must be greater than start_s ({start_s})")
    inside = series[(series["time_s"] > start_s) & (series["time_s"] <= stop_s)]
    total = inside.groupby("name", sort=False)["delivered_bytes"].sum()
    names = pd.Index(series["name"].unique(), name="name")
    return (total.reindex(names, fill_value=0) * 8.0 / (stop_s - start_s)).rename("rate_bps")


def jain(x: ArrayLike) -> float:
    """Jain's fairness index ``(sum x)^2 / (n sum x^2)`` of the allocations ``x``.

    Equal shares give 1; one flow taking everything among ``n`` gives ``1/n``. Returns NaN
    for an empty input or when every allocation is zero (the index is undefined).
    """
    a = np.asarray(x, dtype=float)
    sq = float(np.sum(a * a))
    if a.size == 0 or sq == 0.0:
        return math.nan
    return float(np.sum(a)) ** 2 / (a.size * sq)


def cov(x: ArrayLike, ddof: int = 0) -> float:
    """Coefficient of variation ``std / mean`` of ``x`` (a fraction, not a percentage).

    Bakthavachalu 2004 reports ``100 * CoV`` of a flow's 0.5 s binned throughput as its smoothness.
    ``ddof`` is the standard deviation's delta degrees of freedom (0: population). Returns
    NaN when the mean is zero or there are too few values.
    """
    a = np.asarray(x, dtype=float)
    if a.size <= ddof:
        return math.nan
    mean = float(np.mean(a))
    if mean == 0.0:
        return math.nan
    return float(np.std(a, ddof=ddof)) / mean


def _merge_simultaneous(times_s: ArrayLike, nbytes: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Sort arrivals by time and sum the bytes of arrivals at the same instant."""
    t = np.asarray(times_s, dtype=float)
    b = np.asarray(nbytes, dtype=float)
    if t.shape != b.shape:
        raise ValueError(f"times ({t.shape}) and bytes ({b.shape}) differ in shape")
    order = np.argsort(t, kind="stable")
    t, b = t[order], b[order]
    uniq, first = np.unique(t, return_index=True)
    return uniq, np.add.reduceat(b, first) if b.size else b


def windowed_rate(
    times_s: ArrayLike, nbytes: ArrayLike, window_s: float, at_s: ArrayLike | None = None
) -> np.ndarray:
    """Windowed time-averaged rate (Holl 2003 §6.2.1), in bit/s.

    ``R_W(t) = 8 * (sum of nbytes_j with t - W < times_j <= t) / W``, evaluated at each time
    in ``at_s`` (default: at every arrival time). Holl chose W = 3 s: 0.5 s shows bursts,
    7 s blurs step changes. Arrivals need not be sorted.
    """
    if not window_s > 0:
        raise ValueError(f"window_s must be positive, got {window_s}")
    t, b = _merge_simultaneous(times_s, nbytes)
    at = t if at_s is None else np.asarray(at_s, dtype=float)
    cum = np.concatenate(([0.0], np.cumsum(b)))
    upto = cum[np.searchsorted(t, at, side="right")]
    before = cum[np.searchsorted(t, at - window_s, side="right")]
    return 8.0 * (upto - before) / window_s


def windowed_throughput(series: pd.DataFrame, window_s: float) -> pd.DataFrame:
    """Per-flow windowed time-averaged throughput from a ``flow_throughput`` series.

    Applies :func:`windowed_rate` to each flow, treating the bytes delivered in each
    sampling interval as arriving at the interval's end, and evaluates it at every sample
    time. Exact when ``window_s`` is a multiple of the sampling interval. Returns long form:
    ``time_s, flow, name, throughput_bps``.
    """
    parts = []
    for (flow, name), g in series.groupby(["flow", "name"], sort=True):
        parts.append(
            pd.DataFrame(
                {
                    "time_s": g["time_s"].to_numpy(),
                    "flow": flow,
                    "name": name,
                    "throughput_bps": windowed_rate(
                        g["time_s"], g["delivered_bytes"], window_s, at_s=g["time_s"]
                    ),
                }
            )
        )
    if not parts:
        return pd.DataFrame(columns=["time_s", "flow", "name", "throughput_bps"])
    return pd.concat(parts, ignore_index=True)


def instantaneous_rate(times_s: ArrayLike, nbytes: ArrayLike) -> pd.DataFrame:
    """Instantaneous rate ``r_i = 8 * bytes_i / (t_i - t_{i-1})`` (Holl 2003 §6.2.1), in bit/s.

    Arrivals at the same instant are merged first, so every gap is positive. The first
    arrival has no predecessor and gets NaN. Returns ``time_s, rate_bps``. Holl notes the
    spikes within bursts and the dips between them that make this rate hard to read; prefer
    :func:`windowed_rate` for plots.
    """
    t, b = _merge_simultaneous(times_s, nbytes)
    rate = np.full(t.shape, np.nan)
    rate[1:] = 8.0 * b[1:] / np.diff(t)
    return pd.DataFrame({"time_s": t, "rate_bps": rate})


def ccdf(x: ArrayLike) -> pd.DataFrame:
    """Empirical complementary CDF ``P(X > v)`` at each distinct value ``v`` of ``x``.

    Returns ``value, ccdf`` sorted by value; NaNs are ignored. For the sample
    ``[1, 2, 2, 3]`` it is ``(1, 0.75), (2, 0.25), (3, 0.0)``.
    """
    a = np.asarray(x, dtype=float)
    a = np.sort(a[~np.isnan(a)])
    values, counts = np.unique(a, return_counts=True)
    at_or_below = np.cumsum(counts)
    return pd.DataFrame({"value": values, "ccdf": 1.0 - at_or_below / a.size})


def fair_share(capacity_bps: float, n_flows: int) -> float:
    """Fair share ``C / N`` of a bottleneck of capacity ``capacity_bps`` among ``n_flows``."""
    if n_flows <= 0:
        raise ValueError(f"n_flows must be positive, got {n_flows}")
    return capacity_bps / n_flows


def normalized_throughput(x: ArrayLike, capacity_bps: float | None = None) -> np.ndarray:
    """Throughput normalized to the fair share, ``T_i / (C / N)`` (Bakthavachalu 2004 §4 item 4).

    With ``capacity_bps`` the fair share is ``C / N``; without it, the mean of ``x`` (the form
    that equals it under full utilization). 1 means exactly the fair share.
    """
    a = np.asarray(x, dtype=float)
    share = float(np.mean(a)) if capacity_bps is None else fair_share(capacity_bps, a.size)
    return a / share


def loss_rate(dropped: ArrayLike | float, sent: ArrayLike | float) -> np.ndarray | float:
    """Loss rate ``dropped / sent`` (a fraction); NaN where nothing was sent.

    Per flow use ``dropped_pkts`` and ``sent_pkts``; per queue, ``dropped_pkts`` and
    ``arrivals``.
    """
    d = np.asarray(dropped, dtype=float)
    s = np.asarray(sent, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(s > 0, d / np.where(s > 0, s, 1.0), np.nan)
    return float(out) if out.ndim == 0 else out


def delta_fair_convergence_time(
    time_s: ArrayLike,
    rate_low_bps: ArrayLike,
    rate_high_bps: ArrayLike,
    capacity_bps: float,
    delta: float = 0.1,
    start_s: float = 0.0,
) -> float:
    """Delta-fair convergence time (Bansal et al. 2001; Bakthavachalu 2004 §4 item 9), in seconds.

    Two flows start at ``start_s`` from the allocation ``(b0, B - b0)``: ``rate_low_bps`` is
    the flow that starts low, ``rate_high_bps`` the one that starts high, both sampled at
    ``time_s`` (use windowed rates). The result is the first ``t >= start_s`` with
    ``low(t) >= (1 - delta) B / 2`` and ``high(t) <= (1 + delta) B / 2``, minus ``start_s``.
    NaN when they never converge (Bakthavachalu 2004 reports Vegas as "—").
    """
    if not 0 < delta < 1:
        raise ValueError(f"delta must be in (0, 1), got {delta}")
    t = np.asarray(time_s, dtype=float)
    low = np.asarray(rate_low_bps, dtype=float)
    high = np.asarray(rate_high_bps, dtype=float)
    half = capacity_bps / 2.0
    ok = (t >= start_s) & (low >= (1 - delta) * half) & (high <= (1 + delta) * half)
    hits = np.flatnonzero(ok)
    return float(t[hits[0]] - start_s) if hits.size else math.nan


def t_quantile(q: float, dof: int) -> float:
    """Quantile ``q`` (in (0.5, 1)) of Student's t distribution with ``dof`` degrees of
    freedom (``scipy.stats.t.ppf``, computed by the same ``scipy.special.stdtrit``, whose
    import is a fraction of ``scipy.stats``'); ``t_quantile(0.975, 9) = 2.2622``."""
    from scipy.special import stdtrit

    if dof < 1:
        raise ValueError(f"dof must be >= 1, got {dof}")
    if not 0.5 < q < 1:
        raise ValueError(f"q must be in (0.5, 1), got {q}")
    return float(stdtrit(dof, q))


def mean_ci(x: ArrayLike, level: float = 0.95) -> tuple[float, float]:
    """Mean of ``x`` and the half-width of its two-sided ``level`` t confidence interval.

    Half-width ``t_{(1+level)/2, n-1} * s / sqrt(n)`` with the sample standard deviation
    ``s``; NaN half-width for fewer than two values. NaNs in ``x`` are ignored.
    """
    a = np.asarray(x, dtype=float)
    a = a[~np.isnan(a)]
    if a.size == 0:
        return math.nan, math.nan
    mean = float(np.mean(a))
    if a.size < 2:
        return mean, math.nan
    half = t_quantile((1 + level) / 2, a.size - 1) * float(np.std(a, ddof=1)) / math.sqrt(a.size)
    return mean, half


def summarize(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    by: str | Sequence[str] | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """Per-group mean, CI half-width and count of each of ``columns`` (see :func:`mean_ci`).

    Returns one row per group of ``by`` (one row in all without ``by``) with the ``by``
    columns, then ``<col>_mean``, ``<col>_ci95`` (for ``level`` = 0.95; the suffix follows the
    level) and ``<col>_n`` for each column. Used for per-point means over seeds in sweeps.
    """
    cols = [columns] if isinstance(columns, str) else list(columns)
    keys = [] if by is None else ([by] if isinstance(by, str) else list(by))
    suffix = f"ci{round(level * 100):d}"
    names = keys + [f"{c}_{s}" for c in cols for s in ("mean", suffix, "n")]
    if not keys:
        row: dict[str, object] = {}
        for c in cols:
            mean, half = mean_ci(df[c], level)
            row.update({f"{c}_mean": mean, f"{c}_{suffix}": half, f"{c}_n": int(df[c].notna().sum())})
        return pd.DataFrame([row], columns=names)
    # One vectorized pass (a sweep's summary has a group per point and flow: tens of thousands).
    values = df[cols].astype(float)
    g = values.groupby([df[k] for k in keys], sort=True, dropna=False)
    mean, std, count = g.mean(), g.std(ddof=1), g.count()
    out = mean.index.to_frame(index=False)
    out.columns = keys
    for c in cols:
        n = count[c].to_numpy()
        quantiles = {k: t_quantile((1 + level) / 2, k - 1) for k in np.unique(n) if k >= 2}  # once per sample size
        t = np.array([quantiles.get(k, np.nan) for k in n])
        with np.errstate(invalid="ignore", divide="ignore"):
            half = t * std[c].to_numpy() / np.sqrt(n)
        out[f"{c}_mean"], out[f"{c}_{suffix}"], out[f"{c}_n"] = mean[c].to_numpy(), half, n.astype(int)
    return out[names]
