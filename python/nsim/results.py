"""Results of a run as pandas DataFrames, and their files on disk.

Column names carry their units (``throughput_bps``, ``delay_p99_s``, ``len_pkts``). See
``docs/results.md`` for every column.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Callable

from . import _core
from .flow_columns import write_narrow_flows

if TYPE_CHECKING:
    import pandas as pd

    from .plots import ResultsPlotter

#: Drop reasons, in column order (``drops_<reason>``).
DROP_REASONS: list[str] = list(_core.drop_reasons())

def _row_columns(rows: list[dict[str, Any]], windows: "list[dict[str, Any]] | None" = None) -> dict[str, list[Any]]:
    """Rows with a nested ``drops`` map -> columns, one ``drops_<reason>`` per reason.

    Pure Python (sweep workers use it without building a frame). Optional numbers (None when
    undefined, e.g. the delay of a flow that delivered nothing) become NaN.
    """
    if not rows:
        return {}
    cols: dict[str, list[Any]] = {k: [r[k] for r in rows] for k in rows[0] if k != "drops"}
    for reason in DROP_REASONS:
        cols[f"drops_{reason}"] = [int((r.get("drops") or {}).get(reason, 0)) for r in rows]
    for k, v in cols.items():
        if None in v and all(x is None or isinstance(x, (int, float)) for x in v):
            cols[k] = [float("nan") if x is None else float(x) for x in v]
    cols.update(_window_columns(windows or []))
    return cols


def _rows_frame(rows: list[dict[str, Any]], windows: "list[dict[str, Any]] | None" = None) -> "pd.DataFrame":
    """Rows with a nested ``drops`` map as a frame (see :func:`_row_columns`), built column
    by column (no per-cell type checks)."""
    import pandas as pd

    from . import accessor  # noqa: F401  (registers df.nsim)

    return pd.DataFrame(_row_columns(rows, windows))


def _plain_frame(rows: list[dict[str, Any]]) -> "pd.DataFrame":
    """Rows without a drops map (``transfers``, ``event_log``) as a frame, columns in the
    core's order."""
    import pandas as pd

    return pd.DataFrame({k: [r[k] for r in rows] for k in rows[0]} if rows else {})


def _columns_frame(cols: dict[str, list[Any]], names: dict[int, str], ends: dict[int, tuple[str, str]]) -> "pd.DataFrame":
    """Column-wise data (series, packet delays) as a frame, with the flow ``name`` after a
    ``flow`` column and the link's ``from``, ``to`` after a ``link`` column."""
    import pandas as pd

    from . import accessor  # noqa: F401  (registers df.nsim)

    df = pd.DataFrame(cols)
    if df.empty:
        return df
    if "flow" in df:
        df.insert(df.columns.get_loc("flow") + 1, "name", df["flow"].map(names))
    if "link" in df:
        at = df.columns.get_loc("link") + 1
        df.insert(at, "from", df["link"].map(lambda l: ends[l][0]))
        df.insert(at + 1, "to", df["link"].map(lambda l: ends[l][1]))
    return df


def _window_columns(windows: list[dict[str, Any]]) -> dict[str, list[float]]:
    """The core's ``windows`` (one entry per ``record.windows`` window, one value per flow) as
    per-flow columns ``window<k>_goodput_bytes`` / ``window<k>_goodput_bps`` (NaN where the run
    did not reach the window). Pure Python: sweep rows carry them too."""
    nan = float("nan")
    cols: dict[str, list[float]] = {}
    for k, w in enumerate(windows):
        cols[f"window{k}_goodput_bytes"] = [nan if x is None else float(x) for x in w["goodput_bytes"]]
        cols[f"window{k}_goodput_bps"] = [nan if x is None else float(x) for x in w["goodput_bps"]]
    return cols


def _windows_frame(windows: list[dict[str, Any]], flows: list[dict[str, Any]]) -> "pd.DataFrame":
    """The core's ``windows`` as the long table: one row per (window, flow)."""
    import pandas as pd

    ids, names = [f["flow"] for f in flows], [f["name"] for f in flows]
    parts = [
        pd.DataFrame({"window": k, "t0_s": w["t0_s"], "t1_s": w["t1_s"], "flow": ids, "name": names,
                      "goodput_bytes": cols[f"window{k}_goodput_bytes"], "goodput_bps": cols[f"window{k}_goodput_bps"]})
        for cols in [_window_columns(windows)]
        for k, w in enumerate(windows)
    ]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


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
        summary: Scenario name, seed, simulated time, event count, wall time of the event
            loop (``wall_s`` = ``run_wall_s``) and of building the simulator (``setup_wall_s``),
            events/s, and ``interrupted`` (the run stopped early, e.g. on Ctrl-C); ``tcp_profiles``
            (only when a TCP flow named a defaults ``profile``): per flow name, the settings
            the profile resolved to.
        scenario: The scenario dict that was run.
        windows: One row per (``record.windows`` entry, flow): ``window``, ``t0_s``, ``t1_s``,
            ``flow``, ``name``, ``goodput_bytes``, ``goodput_bps`` (application goodput over
            the window). Empty when no windows were recorded. The same numbers are in
            :attr:`flows` as ``window<k>_goodput_bytes`` / ``window<k>_goodput_bps``.
        transfers: One row per completed transaction of a TCP ``file``, ``repeat``,
            ``telnet`` or ``http`` flow: ``flow``, ``name``, ``transfer`` (0, 1, ...),
            ``kind`` (``file``, ``echo``: keystroke to echo, ``page``: request to last byte,
            ``object``: one item of a page), ``bytes``, ``start_s``, ``end_s``, ``duration_s``
            (bytes handed to TCP, or the request sent, until the last byte acknowledged).
            Empty when no transaction completed.
        event_log: One row per change the run made (the scenario's ``[[event]]`` tables,
            :class:`nsim.Simulation` steering) and per route recomputation: ``time_s``,
            ``action`` (``down``, ``up``, ``set rate``, ..., ``reroute``), ``target`` (the
            link as written), ``dropped_pkts`` (packets a failure dropped from the link's wire
            and queue). Empty in a run without changes.
    """

    def __init__(
        self,
        summary: dict[str, Any],
        accounting: dict[str, Any],
        flows: "pd.DataFrame | Callable[[], pd.DataFrame]",
        queues: "pd.DataFrame | Callable[[], pd.DataFrame]",
        series: "dict[str, pd.DataFrame] | Callable[[], dict[str, pd.DataFrame]]",
        scenario: dict[str, Any],
        classes: "pd.DataFrame | Callable[[], pd.DataFrame] | None" = None,
        packet_delays: "pd.DataFrame | Callable[[], pd.DataFrame | None] | None" = None,
        windows: "pd.DataFrame | Callable[[], pd.DataFrame] | None" = None,
        transfers: "pd.DataFrame | Callable[[], pd.DataFrame] | None" = None,
        video_packets: "pd.DataFrame | Callable[[], pd.DataFrame | None] | None" = None,
        event_log: "pd.DataFrame | Callable[[], pd.DataFrame] | None" = None,
    ) -> None:
        # Tables may be given as functions that build them: each is built on first use
        # (a caller that reads only `flows` never pays for the series).
        self.summary = summary
        self.accounting = accounting
        self.scenario = scenario
        self._tables: dict[str, Any] = {"flows": flows, "queues": queues, "series": series,
                                        "classes": classes, "packet_delays": packet_delays, "windows": windows,
                                        "transfers": transfers, "video_packets": video_packets,
                                        "event_log": event_log}

    def _table(self, name: str) -> Any:
        t = self._tables[name]
        if callable(t):
            t = self._tables[name] = t()
        return t

    @property
    def flows(self) -> "pd.DataFrame":
        """One row per flow (see the class docs)."""
        return self._table("flows")

    @property
    def queues(self) -> "pd.DataFrame":
        """One row per link direction (see the class docs)."""
        return self._table("queues")

    @property
    def classes(self) -> "pd.DataFrame":
        """One row per scheduler class (empty when no link has classes)."""
        c = self._table("classes")
        if c is None:
            import pandas as pd

            c = self._tables["classes"] = pd.DataFrame()
        return c

    @property
    def windows(self) -> "pd.DataFrame":
        """Goodput over each ``record.windows`` window, one row per (window, flow); empty when
        none were recorded (see the class docs)."""
        w = self._table("windows")
        if w is None:
            import pandas as pd

            w = self._tables["windows"] = pd.DataFrame()
        return w

    @property
    def transfers(self) -> "pd.DataFrame":
        """One row per completed transaction of a TCP ``file``, ``repeat``, ``telnet`` or
        ``http`` flow (see the class docs); empty when none completed."""
        t = self._table("transfers")
        if t is None:
            import pandas as pd

            t = self._tables["transfers"] = pd.DataFrame()
        return t

    @property
    def event_log(self) -> "pd.DataFrame":
        """One row per change and route recomputation, in time order (see the class docs);
        empty in a run without changes."""
        e = self._table("event_log")
        if e is None:
            import pandas as pd

            e = self._tables["event_log"] = pd.DataFrame(columns=["time_s", "action", "target", "dropped_pkts"])
        return e

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
    def _series(self) -> "dict[str, pd.DataFrame]":
        return self._table("series")

    @property
    def has_packet_delays(self) -> bool:
        """True if per-packet delays were recorded (``record.packet_delays``)."""
        return self._table("packet_delays") is not None

    def packet_delays(self) -> "pd.DataFrame":
        """One row per delivered data packet of the flows chosen by ``record.packet_delays``:
        ``time_s`` (delivery), ``flow``, ``name``, ``seq``, ``delay_s`` (creation to delivery).

        Raises:
            KeyError: if per-packet delays were not recorded.
        """
        df = self._table("packet_delays")
        if df is None:
            raise KeyError("per-packet delays were not recorded (set record.packet_delays = true or a list of flows)")
        return df

    @property
    def has_video_packets(self) -> bool:
        """True if the per-packet video log was recorded (``record.video_packets``)."""
        return self._table("video_packets") is not None

    def video_packets(self) -> "pd.DataFrame":
        """One row per sent packet of the video flows chosen by ``record.video_packets``, in
        sending order: ``flow``, ``name``, ``seq`` (UDP sequence number), ``sequence`` (the
        stream's n-th sequence, from 0), ``frame`` (in the sequence), ``layer`` (0 base,
        1 middle, 2 enhancement; 0 if unlayered), ``size``, ``sent_s``, ``fate``
        (``delivered``, ``late``, ``dropped:<reason>``, ``in_flight``) and ``delay_s``
        (empty unless it arrived). Per-layer loss: ``df.groupby("layer")["fate"]``.

        Raises:
            KeyError: if the log was not recorded.
        """
        df = self._table("video_packets")
        if df is None:
            raise KeyError("the video packet log was not recorded (set record.video_packets = true or a list of video flows)")
        return df

    @classmethod
    def from_json(cls, text: str, scenario: dict[str, Any]) -> "Results":
        """Builds Results from the core's JSON output (the DataFrames on first use)."""
        raw = json.loads(text)
        summary = {k: raw[k] for k in ("scenario", "seed", "sim_time_s", "events", "wall_s", "interrupted")}
        summary["events_per_s"] = raw["events"] / raw["wall_s"] if raw["wall_s"] > 0 else None
        for k in ("setup_wall_s", "run_wall_s", "tcp_profiles"):
            if k in raw:
                summary[k] = raw[k]
        ends = {int(q["link"]): (q["from"], q["to"]) for q in raw["queues"]}
        names = {int(f["flow"]): f["name"] for f in raw["flows"]}

        def classes() -> "pd.DataFrame":
            df = _rows_frame(raw.get("classes", []))
            if len(df):
                df.insert(1, "from", df["link"].map(lambda l: ends[l][0]))
                df.insert(2, "to", df["link"].map(lambda l: ends[l][1]))
            return df

        def series() -> "dict[str, pd.DataFrame]":
            out = {}
            for kind, cols in raw["series"].items():
                df = _columns_frame(cols, names, ends)
                if not df.empty:
                    out[kind] = df
            return out

        def packet_delays() -> "pd.DataFrame | None":
            cols = raw.get("packet_delays")
            return None if cols is None else _columns_frame(cols, names, ends)

        def video_packets() -> "pd.DataFrame | None":
            cols = raw.get("video_packets")
            return None if cols is None else _columns_frame(cols, names, ends)

        windows = raw.get("windows", [])
        return cls(summary, raw["accounting"], lambda: _rows_frame(raw["flows"], windows), lambda: _rows_frame(raw["queues"]),
                   series, scenario, classes, packet_delays, lambda: _windows_frame(windows, raw["flows"]),
                   lambda: _plain_frame(raw.get("transfers", [])), video_packets,
                   lambda: _plain_frame(raw.get("event_log", [])) if raw.get("event_log") else None)

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

    def save(self, directory: str | os.PathLike[str], parquet: bool = False, force: bool = False) -> None:
        """Writes summary.json, scenario.json, flows.csv (the columns that apply to the run's
        flows) and flows_all.csv (every column), queues.csv, classes.csv (when there
        are classes), transfers.csv (when a transfer completed) and series_<kind>.csv (plus
        .parquet copies when ``parquet`` is True) into ``directory``, replacing it whole (files
        of an earlier run do not stay). Raises :class:`nsim.errors.ResultsError` if
        ``directory`` holds files nsim did not write, unless ``force``."""
        from .outdir import StagedDir

        d = os.fspath(directory)
        with StagedDir(d, "run", force) as staged:
            try:
                self._write(staged.path, parquet)
            except OSError as e:
                from .errors import ResultsError

                raise ResultsError(f"{d}: cannot write results: {e.strerror or e}") from None
            staged.commit()

    def _write(self, d: str, parquet: bool) -> None:
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "summary.json"), "w", encoding="utf-8") as f:
            json.dump({**self.summary, "accounting": self.accounting}, f, indent=2)
        with open(os.path.join(d, "scenario.json"), "w", encoding="utf-8") as f:
            json.dump(self.scenario, f, indent=2)
        tables = {"flows": self.flows, "queues": self.queues, **{f"series_{k}": v for k, v in self._series.items()}}
        if len(self.classes):
            tables["classes"] = self.classes
        if self.has_packet_delays:
            tables["packet_delays"] = self.packet_delays()
        if self.has_video_packets:
            tables["video_packets"] = self.video_packets()
        if len(self.windows):
            tables["windows"] = self.windows
        if len(self.transfers):
            tables["transfers"] = self.transfers
        if len(self.event_log):
            tables["events"] = self.event_log
        for name, df in tables.items():
            df.to_csv(os.path.join(d, f"{name}.csv"), index=False)
            if parquet:
                df.to_parquet(os.path.join(d, f"{name}.parquet"), index=False)
        write_narrow_flows(d)

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> "Results":
        """Reads a directory written by :meth:`save` (or ``nsim run -o``).

        Raises:
            ResultsError: the folder is not a results folder, or a file in it is damaged
                (not JSON / CSV, not UTF-8, empty, or without the columns nsim writes),
                naming the file and what is wrong.
        """
        from .errors import ResultsError

        d = os.fspath(directory)
        if not os.path.isfile(os.path.join(d, "summary.json")):
            raise ResultsError(f"{d}: not a results directory (no summary.json; write one with `nsim run -o {d}`)")
        summary = _read_json(d, "summary.json")
        if not isinstance(summary, dict) or not isinstance(summary.get("accounting"), dict):
            raise ResultsError(f"{d}: damaged results: summary.json has no accounting table")
        accounting = summary.pop("accounting")
        scenario = _read_json(d, "scenario.json") if os.path.exists(os.path.join(d, "scenario.json")) else {}
        series = {name[len("series_"): -len(".csv")]: _read_csv(d, name)
                  for name in sorted(os.listdir(d)) if name.startswith("series_") and name.endswith(".csv")}

        def optional(name: str) -> Any:
            return _read_csv(d, name) if os.path.exists(os.path.join(d, name)) else None

        def deferred(name: str) -> Any:
            return (lambda: _read_csv(d, name)) if os.path.exists(os.path.join(d, name)) else None

        # flows_all.csv has every column; a folder written before it existed has them in flows.csv
        flows = _read_csv(d, "flows_all.csv" if os.path.exists(os.path.join(d, "flows_all.csv")) else "flows.csv",
                          ("flow", "name"))
        queues = _read_csv(d, "queues.csv", ("from", "to"))
        return cls(summary, accounting, flows, queues, series, scenario, optional("classes.csv"),
                   deferred("packet_delays.csv"), optional("windows.csv"), optional("transfers.csv"),
                   deferred("video_packets.csv"), optional("events.csv"))

    def __repr__(self) -> str:
        s = self.summary
        return f"<Results {s['scenario']!r} seed={s['seed']} t={s['sim_time_s']}s flows={len(self.flows)} events={s['events']}>"


def _read_json(d: str, name: str) -> Any:
    """A JSON file of a results folder; ResultsError naming it if it cannot be read."""
    from .errors import ResultsError

    try:
        with open(os.path.join(d, name), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ResultsError(f"{d}: damaged results: {name}: {getattr(e, 'strerror', None) or e}") from None


def _read_csv(d: str, name: str, columns: tuple[str, ...] = ()) -> "pd.DataFrame":
    """A CSV table of a results folder with the ``columns`` nsim always writes in it;
    ResultsError naming the file if it is unreadable, empty, not UTF-8 or lacks one."""
    import pandas as pd

    from .errors import ResultsError

    try:
        df = pd.read_csv(os.path.join(d, name), encoding="utf-8")
    except (OSError, UnicodeDecodeError, pd.errors.EmptyDataError, pd.errors.ParserError) as e:
        reason = "empty" if isinstance(e, pd.errors.EmptyDataError) else (getattr(e, "strerror", None) or e)
        raise ResultsError(f"{d}: damaged results: {name}: {reason}") from None
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ResultsError(f"{d}: damaged results: {name} has no column {', '.join(repr(c) for c in missing)}")
    return df
