"""The ``df.nsim`` pandas accessor: metrics on nsim tables without subclassing DataFrame.

Importing :mod:`nsim` registers it. It works on the per-flow table (``Results.flows``), on
sweep tables (the same columns plus the swept parameters and ``seed``), on the per-queue
table (``Results.queues``) and on the ``flow_throughput`` series, and checks in its
constructor that the frame is one of these (pandas' accessor convention)::

    res.flows.nsim.jain()                                   # fairness of goodputs
    table.nsim.jain(by=["dumbbell.bottleneck.queue.limit", "seed"])  # one per run
    res.series("flow_throughput").nsim.windowed(3.0)        # Holl's 3 s windowed rate
"""

from __future__ import annotations

from typing import Callable, Optional, Union

import pandas as pd

from . import metrics

__all__ = ["NsimAccessor"]

#: Columns that identify each kind of table the accessor accepts.
KINDS: dict[str, frozenset[str]] = {
    "flows": frozenset({"flow", "name", "sent_pkts", "dropped_pkts", "goodput_bps"}),
    "queues": frozenset({"link", "arrivals", "dropped_pkts", "utilization"}),
    "flow_series": frozenset({"time_s", "flow", "name", "delivered_bytes"}),
}

By = Optional[Union[str, list[str]]]


@pd.api.extensions.register_dataframe_accessor("nsim")
class NsimAccessor:
    """Metrics on an nsim flows, queues, sweep or ``flow_throughput`` table (``df.nsim``)."""

    def __init__(self, df: pd.DataFrame) -> None:
        cols = set(df.columns)
        kind = next((k for k, need in KINDS.items() if need <= cols), None)
        if kind is None:
            wanted = "; ".join(f"{k}: {sorted(v)}" for k, v in KINDS.items())
            raise AttributeError(f"not an nsim table; df.nsim needs the columns of one of {wanted}")
        self._df = df
        #: Which kind of table this is: "flows" (also sweep tables), "queues" or "flow_series".
        self.kind: str = kind

    def _need(self, *kinds: str) -> None:
        if self.kind not in kinds:
            raise TypeError(f"this needs a {' or '.join(kinds)} table, not {self.kind}")

    def _reduce(self, column: str, fn: Callable[[pd.Series], float], by: By) -> Union[float, pd.Series]:
        if by is None:
            return fn(self._df[column])
        return self._df.groupby(by, sort=True)[column].agg(fn)

    def goodput(self) -> pd.Series:
        """Per-flow goodput in bit/s, indexed by flow name (:func:`nsim.metrics.goodput`)."""
        self._need("flows")
        return metrics.goodput(self._df)

    def jain(self, column: str = "goodput_bps", by: By = None) -> Union[float, pd.Series]:
        """Jain's fairness index of ``column``, overall or per group of ``by`` columns."""
        return self._reduce(column, metrics.jain, by)

    def cov(self, column: str = "goodput_bps", by: By = None) -> Union[float, pd.Series]:
        """Coefficient of variation (std/mean, population) of ``column``, overall or per group."""
        return self._reduce(column, metrics.cov, by)

    def normalized(
        self, column: str = "goodput_bps", capacity_bps: Optional[float] = None, by: By = None
    ) -> pd.Series:
        """``column`` divided by the fair share (``capacity_bps / N``, or the mean if no
        capacity is given), computed within each group of ``by``; aligned to the rows."""
        def norm(s: pd.Series) -> pd.Series:
            return pd.Series(metrics.normalized_throughput(s, capacity_bps), index=s.index)

        if by is None:
            return norm(self._df[column]).rename(f"{column}_norm")
        return self._df.groupby(by, sort=False)[column].transform(norm).rename(f"{column}_norm")

    def loss_rate(self) -> pd.Series:
        """Per-row loss rate: ``dropped_pkts / sent_pkts`` for flows, ``/ arrivals`` for queues."""
        self._need("flows", "queues")
        sent = self._df["sent_pkts" if self.kind == "flows" else "arrivals"]
        return pd.Series(
            metrics.loss_rate(self._df["dropped_pkts"], sent), index=self._df.index, name="loss_rate"
        )

    def ccdf(self, column: str) -> pd.DataFrame:
        """Empirical CCDF ``P(X > value)`` of ``column`` (:func:`nsim.metrics.ccdf`)."""
        return metrics.ccdf(self._df[column])

    def windowed(self, window_s: float) -> pd.DataFrame:
        """Per-flow windowed time-averaged throughput (Holl 2003 §6.2.1) of a
        ``flow_throughput`` series (:func:`nsim.metrics.windowed_throughput`)."""
        self._need("flow_series")
        return metrics.windowed_throughput(self._df, window_s)

    def mean_rate(self, start_s: float, stop_s: float) -> pd.Series:
        """Per-flow mean rate over ``(start_s, stop_s]`` of a ``flow_throughput`` series."""
        self._need("flow_series")
        return metrics.mean_rate(self._df, start_s, stop_s)

    def convergence_time(
        self,
        low: str,
        high: str,
        capacity_bps: float,
        window_s: float,
        delta: float = 0.1,
        start_s: float = 0.0,
    ) -> float:
        """Delta-fair convergence time of flows named ``low`` and ``high`` (Bakthavachalu 2004), using
        their ``window_s`` windowed throughputs (:func:`nsim.metrics.delta_fair_convergence_time`)."""
        self._need("flow_series")
        wide = self.windowed(window_s).pivot(index="time_s", columns="name", values="throughput_bps")
        wide = wide.fillna(0.0)
        return metrics.delta_fair_convergence_time(
            wide.index.to_numpy(), wide[low].to_numpy(), wide[high].to_numpy(),
            capacity_bps, delta, start_s,
        )

    def summary(self, columns: Union[str, list[str]] = "goodput_bps", by: By = None) -> pd.DataFrame:
        """Mean and 95 % CI half-width over rows of ``columns``, per group of ``by``
        (:func:`nsim.metrics.summarize`); on a sweep table group by the swept parameters
        (and flow) to average over seeds."""
        return metrics.summarize(self._df, columns, by)
