"""Results of a run as pandas DataFrames, and their files on disk.

Column names carry their units (``throughput_bps``, ``delay_p99_s``, ``len_pkts``). See
``docs/results.md`` for every column.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from . import _core

if TYPE_CHECKING:
    import pandas as pd

    from .plots import ResultsPlotter

#: Drop reasons, in column order (``drops_<reason>``).
DROP_REASONS: list[str] = list(_core.drop_reasons())


def _rows_frame(rows: list[dict[str, Any]]) -> "pd.DataFrame":
    """Rows with a nested ``drops`` map -> one ``drops_<reason>`` column per reason.

    Built column by column (no per-cell type checks): sweeps convert thousands of results.
    Optional numbers (None when undefined, e.g. the delay of a flow that delivered nothing)
    become NaN.
    """
    import pandas as pd

    from . import accessor  # noqa: F401  (registers df.nsim)

    if not rows:
        return pd.DataFrame()
    cols: dict[str, list[Any]] = {k: [r[k] for r in rows] for k in rows[0] if k != "drops"}
    for reason in DROP_REASONS:
        cols[f"drops_{reason}"] = [int((r.get("drops") or {}).get(reason, 0)) for r in rows]
    for k, v in cols.items():
        if None in v and all(x is None or isinstance(x, (int, float)) for x in v):
            cols[k] = [float("nan") if x is None else float(x) for x in v]
    return pd.DataFrame(cols)


def _windows_frame(windows: list[dict[str, Any]], flows: "pd.DataFrame") -> "tuple[pd.DataFrame, pd.DataFrame]":
    """The core's ``windows`` (one entry per window, one value per flow) -> the long table,
    and ``flows`` with ``window<k>_goodput_bytes`` / ``_bps`` columns added."""
    import pandas as pd

    if not windows:
        return pd.DataFrame(), flows
    nan = float("nan")
    cols: dict[str, list[float]] = {}
    parts = []
    for k, w in enumerate(windows):
        b = [nan if x is None else float(x) for x in w["goodput_bytes"]]
        r = [nan if x is None else float(x) for x in w["goodput_bps"]]
        cols[f"window{k}_goodput_bytes"], cols[f"window{k}_goodput_bps"] = b, r
        parts.append(pd.DataFrame({"window": k, "t0_s": w["t0_s"], "t1_s": w["t1_s"], "flow": flows["flow"],
                                   "name": flows["name"], "goodput_bytes": b, "goodput_bps": r}))
    wide = pd.DataFrame(cols, index=flows.index)
    return pd.concat(parts, ignore_index=True), pd.concat([flows, wide], axis=1)


class Results:
    """What a run produced.

    Attributes:
        flows: One row per flow (sent/delivered/dropped counts, drops by reason, throughput,
            goodput, one-way delay statistics, jitter).
        queues: One row per link direction (arrivals, departures, drops by reason,
            occupancy, utilization).
        classes: One row per class of a scheduling discipline (priority, WRR, DRR, CBQ, ...):
            arrivals, departures, drops by reason, queue length, RED average. Empty when no
            link has classes.
        accounting: ``created == delivered + dropped + queued + in_flight`` totals.
        summary: Scenario name, seed, simulated time, event count, wall time, events/s.
        scenario: The scenario dict that was run.
        windows: One row per (``record.windows`` entry, flow): ``window``, ``t0_s``, ``t1_s``,
            ``flow``, ``name``, ``goodput_bytes``, ``goodput_bps`` (application goodput over
            the window). Empty when no windows were recorded. The same numbers are in
            :attr:`flows` as ``window<k>_goodput_bytes`` / ``window<k>_goodput_bps``.
    """

    def __init__(
        self,
        summary: dict[str, Any],
        accounting: dict[str, Any],
        flows: "pd.DataFrame",
        queues: "pd.DataFrame",
        series: "dict[str, pd.DataFrame]",
        scenario: dict[str, Any],
        classes: "pd.DataFrame | None" = None,
        windows: "pd.DataFrame | None" = None,
    ) -> None:
        import pandas as pd

        self.summary = summary
        self.accounting = accounting
        self.flows = flows
        self.queues = queues
        self.classes = classes if classes is not None else pd.DataFrame()
        self.windows = windows if windows is not None else pd.DataFrame()
        self._series = series
        self.scenario = scenario

    @classmethod
    def from_json(cls, text: str, scenario: dict[str, Any]) -> "Results":
        """Builds Results from the core's JSON output."""
        import pandas as pd

        raw = json.loads(text)
        flows = _rows_frame(raw["flows"])
        queues = _rows_frame(raw["queues"])
        ends = {int(q["link"]): (q["from"], q["to"]) for q in raw["queues"]}
        classes = _rows_frame(raw.get("classes", []))
        if len(classes):
            classes.insert(1, "from", classes["link"].map(lambda l: ends[l][0]))
            classes.insert(2, "to", classes["link"].map(lambda l: ends[l][1]))
        summary = {k: raw[k] for k in ("scenario", "seed", "sim_time_s", "events", "wall_s", "interrupted")}
        summary["events_per_s"] = raw["events"] / raw["wall_s"] if raw["wall_s"] > 0 else None
        series = {}
        names = dict(zip(flows.get("flow", []), flows.get("name", [])))
        for kind, cols in raw["series"].items():
            df = pd.DataFrame(cols)
            if df.empty:
                continue
            if "flow" in df:
                df.insert(2, "name", df["flow"].map(names))
            if "link" in df:
                df.insert(2, "from", df["link"].map(lambda l: ends[l][0]))
                df.insert(3, "to", df["link"].map(lambda l: ends[l][1]))
            series[kind] = df
        windows, flows = _windows_frame(raw.get("windows", []), flows)
        return cls(summary, raw["accounting"], flows, queues, series, scenario, classes, windows)

    def goodput_window(self, t0: float, t1: float) -> "pd.DataFrame":
        """Every flow's application goodput (in-order payload bytes delivered to the receiving
        application) over ``[t0, t1]`` seconds: columns ``flow``, ``name``,
        ``goodput_bytes``, ``goodput_bps``.

        Uses the snapshots of ``record.windows`` when one window is exactly ``[t0, t1]``,
        otherwise the ``goodput`` series when both ends are sampling instants (``t0`` may be
        0).

        Raises:
            KeyError: if neither was recorded; the message says what to record.
        """
        import pandas as pd

        close = lambda a, b: abs(a - b) <= 1e-9 * max(1.0, abs(b))  # noqa: E731
        if len(self.windows):
            hit = self.windows[[close(a, t0) and close(b, t1) for a, b in zip(self.windows["t0_s"], self.windows["t1_s"])]]
            if len(hit):
                w = hit[hit["window"] == hit["window"].iloc[0]]
                return w[["flow", "name", "goodput_bytes", "goodput_bps"]].reset_index(drop=True)
        g = self._series.get("goodput")
        if g is not None and t1 > t0:
            times = g["time_s"].drop_duplicates()
            at = {t: times[[close(x, t) for x in times]] for t in (t0, t1)}
            if len(at[t1]) and (len(at[t0]) or t0 == 0):
                end = g[g["time_s"] == at[t1].iloc[0]].set_index("flow")
                start = g[g["time_s"] == at[t0].iloc[0]].set_index("flow")["goodput_bytes"] if len(at[t0]) else 0
                b = (end["goodput_bytes"] - start).astype("int64")
                return pd.DataFrame({"flow": end.index, "name": end["name"].values, "goodput_bytes": b.values,
                                     "goodput_bps": b.values * 8.0 / (t1 - t0)})
        raise KeyError(
            f"goodput over [{t0}, {t1}] s was not recorded: add record.windows = [[\"{t0}s\", \"{t1}s\"]] "
            f"(or record.series = [\"goodput\"] with a record.interval that divides {t0} and {t1}) and run again"
        )

    @property
    def plot(self) -> "ResultsPlotter":
        """Standard plots of this run: ``res.plot.throughput()``, ``.cwnd()``, ``.queue()``,
        ``.ccdf()``, ``.goodput()``; each returns a matplotlib Figure."""
        from .plots import ResultsPlotter

        return ResultsPlotter(self)

    @property
    def series_kinds(self) -> list[str]:
        """Names of the recorded time series."""
        return sorted(self._series)

    def series(self, kind: str) -> "pd.DataFrame":
        """A recorded time series in long form (one row per time and flow or link).

        Raises:
            KeyError: if the series was not recorded (add it to ``record.series``).
        """
        if kind not in self._series:
            raise KeyError(f"series '{kind}' was not recorded; recorded: {self.series_kinds or 'none'} (set record.series)")
        return self._series[kind]

    @property
    def balanced(self) -> bool:
        """True if every created packet is delivered, dropped, queued or in flight, and the
        packet pool holds exactly the queued and in-flight ones."""
        a = self.accounting
        held = a["queued"] + a["in_flight"]
        return a["created"] == a["delivered"] + a["dropped"] + held and a.get("live", held) == held

    def save(self, directory: str | os.PathLike[str], parquet: bool = False) -> None:
        """Writes summary.json, scenario.json, flows.csv, queues.csv, classes.csv (when there
        are classes) and series_<kind>.csv (plus .parquet copies when ``parquet`` is True)
        into ``directory``."""
        d = os.fspath(directory)
        try:
            self._write(d, parquet)
        except OSError as e:
            from .errors import ResultsError

            raise ResultsError(f"{d}: cannot write results: {e.strerror or e}") from None

    def _write(self, d: str, parquet: bool) -> None:
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "summary.json"), "w", encoding="utf-8") as f:
            json.dump({**self.summary, "accounting": self.accounting}, f, indent=2)
        with open(os.path.join(d, "scenario.json"), "w", encoding="utf-8") as f:
            json.dump(self.scenario, f, indent=2)
        tables = {"flows": self.flows, "queues": self.queues, **{f"series_{k}": v for k, v in self._series.items()}}
        if len(self.classes):
            tables["classes"] = self.classes
        if len(self.windows):
            tables["windows"] = self.windows
        for name, df in tables.items():
            df.to_csv(os.path.join(d, f"{name}.csv"), index=False)
            if parquet:
                df.to_parquet(os.path.join(d, f"{name}.parquet"), index=False)

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> "Results":
        """Reads a directory written by :meth:`save` (or ``nsim run -o``)."""
        import pandas as pd

        from .errors import ResultsError

        d = os.fspath(directory)
        if not os.path.isfile(os.path.join(d, "summary.json")):
            raise ResultsError(f"{d}: not a results directory (no summary.json; write one with `nsim run -o {d}`)")
        with open(os.path.join(d, "summary.json"), encoding="utf-8") as f:
            summary = json.load(f)
        accounting = summary.pop("accounting")
        scenario: dict[str, Any] = {}
        if os.path.exists(os.path.join(d, "scenario.json")):
            with open(os.path.join(d, "scenario.json"), encoding="utf-8") as f:
                scenario = json.load(f)
        series = {
            name[len("series_") : -len(".csv")]: pd.read_csv(os.path.join(d, name))
            for name in sorted(os.listdir(d))
            if name.startswith("series_") and name.endswith(".csv")
        }
        classes_csv = os.path.join(d, "classes.csv")
        classes = pd.read_csv(classes_csv) if os.path.exists(classes_csv) else None
        windows_csv = os.path.join(d, "windows.csv")
        windows = pd.read_csv(windows_csv) if os.path.exists(windows_csv) else None
        flows, queues = pd.read_csv(os.path.join(d, "flows.csv")), pd.read_csv(os.path.join(d, "queues.csv"))
        return cls(summary, accounting, flows, queues, series, scenario, classes, windows)

    def __repr__(self) -> str:
        s = self.summary
        return f"<Results {s['scenario']!r} seed={s['seed']} t={s['sim_time_s']}s flows={len(self.flows)} events={s['events']}>"
