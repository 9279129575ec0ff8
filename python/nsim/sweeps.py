"""Parameter sweeps: a grid of scenario values times seeds, on local processes or Dask.

A sweep sets values at dotted paths of the scenario dict (``dumbbell.bottleneck.queue.limit``,
``flows[0].app.rate``), runs every (grid point, seed) pair and gathers one tidy table with one
row per (run, flow): the swept parameters and ``seed`` as columns, then the per-flow columns
of :attr:`nsim.Results.flows`. :func:`nsim.metrics.summarize` turns it into per-point means
with 95 % confidence intervals over seeds.

Runs are cached in ``<out>/runs/<key>.json.gz`` (gzip-compressed JSON), where ``key`` is the SHA-256 of the
scenario dict after the grid values are applied, the seed and the nsim version and build (and the
extractor, see :class:`Extract`). Re-running a
sweep skips every run whose file exists, so an interrupted sweep resumes where it stopped.
Only the process that drives the sweep writes files (atomically), after a run's result came
back, so a worker that dies mid-run leaves nothing behind and its run is simply done again
(Dask reschedules it). A run that fails is recorded in the table with its error message and is
not cached, so a later sweep retries it.

The sweep file (TOML)::

    scenario = "../scenarios/cbr_dumbbell.toml"   # relative to this file
    seeds = 3                                      # or a list: [1, 2, 3]
    metrics = ["goodput_bps", "delay_mean_s"]      # optional: columns summarized per point
    [grid]
    "dumbbell.bottleneck.queue.limit" = ["10p", "25p", "50p"]
    "flows[0].app.rate" = ["300kb", "450kb"]
"""

from __future__ import annotations

import contextlib
import copy
import functools
import gzip
import hashlib
import itertools
import json
import math
import os
import re
import sys
import time
import uuid
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Union

import pandas as pd

from . import accessor, metrics  # accessor: registers df.nsim on the tables
from .outdir import check_dir, mark, write_file, write_via

__all__ = ["SweepSpec", "SweepResult", "Run", "Extract", "load_sweep", "sweep", "set_path", "set_axis",
           "run_key", "DEFAULT_METRICS", "CACHE_SUFFIX"]

#: Per-flow columns summarized per grid point when the sweep names none.
DEFAULT_METRICS = ("goodput_bps", "throughput_bps", "loss_rate", "delay_mean_s")

_NAME = r"[^.\[\]]+"
_INDEX = r"\[(?:\d+|\*)\]"
_PATH = re.compile(rf"{_NAME}({_INDEX})*(\.{_NAME}({_INDEX})*)*")
_TOKEN = re.compile(rf"({_NAME})|\[(\d+|\*)\]")
#: The token of ``[*]`` in a parsed path: every element of the list.
EVERY = "[*]"


def _parse_path(path: str) -> list[Union[str, int]]:
    """``"flows[0].app.rate"`` -> ``["flows", 0, "app", "rate"]``; ``[*]`` becomes :data:`EVERY`."""
    if not _PATH.fullmatch(path):
        raise ValueError(f"malformed parameter path {path!r} (expected e.g. flows[0].app.rate or flows[*].app.rate)")
    return [m.group(1) if m.group(1) is not None else (EVERY if m.group(2) == "*" else int(m.group(2)))
            for m in _TOKEN.finditer(path)]


def set_path(config: dict[str, Any], path: str, value: Any) -> None:
    """Set ``value`` at the dotted ``path`` of a scenario dict, in place.

    Missing tables on the way are created (``dumbbell.bottleneck.queue.limit`` works even if
    the scenario has no ``queue`` table yet); list indices must exist. ``[*]`` stands for every
    element of a list (``flows[*].transport.tick`` sets every flow's clock).
    """
    _set_tokens(config, _parse_path(path), value, path)


def _set_tokens(node: Any, tokens: list[Union[str, int]], value: Any, path: str) -> None:
    """:func:`set_path` below ``node`` for the parsed ``tokens`` still to walk."""
    tok, rest = tokens[0], tokens[1:]
    if tok == EVERY:
        if not isinstance(node, list) or not node:
            raise ValueError(f"{path}: [*] needs a non-empty list")
        for i in range(len(node)):
            if rest:
                _set_tokens(node[i], rest, value, path)
            else:
                node[i] = copy.deepcopy(value)
        return
    if isinstance(tok, int):
        if not isinstance(node, list) or tok >= len(node):
            raise ValueError(f"{path}: index [{tok}] out of range")
        if rest:
            _set_tokens(node[tok], rest, value, path)
        else:
            node[tok] = value
        return
    if not isinstance(node, dict):
        raise ValueError(f"{path}: {tok!r} is not inside a table")
    if rest:
        _set_tokens(node.setdefault(tok, [] if isinstance(rest[0], int) or rest[0] == EVERY else {}), rest, value, path)
    else:
        node[tok] = value


#: What joins the paths of a linked grid axis ("flows + dumbbell.bottleneck.queue.limit"):
#: configurations whose fields must change together without crossing each other.
LINK = " + "


def axis_paths(key: str) -> list[str]:
    """The paths a grid key sets: one, or several joined by :data:`LINK` (a linked axis).
    Raises ValueError for a malformed path."""
    paths = key.split(LINK)
    for path in paths:
        _parse_path(path)
    return paths


def set_axis(config: dict[str, Any], key: str, value: Any) -> None:
    """Set one grid value: :func:`set_path` for a one-path key; for a linked key
    (``"a + b"``) ``value`` is a list with one value per path, set together."""
    paths = axis_paths(key)
    if len(paths) == 1:
        set_path(config, key, value)
        return
    if not isinstance(value, list) or len(value) != len(paths):
        raise ValueError(f"{key}: a linked axis takes a list of {len(paths)} values, one per path, got {value!r}")
    for path, one in zip(paths, value):
        set_path(config, path, one)


@dataclass(frozen=True)
class Extract:
    """A function ``f(results) -> dict | DataFrame`` run in the worker on each run's full
    :class:`nsim.Results` (series included), for what the per-flow table lacks (link
    counters, statistics of a time series). A dict's values (any JSON value) are added to
    every flow row of the run; a DataFrame must have one row per flow, in flow order.

    Named by file and function so any worker (fork, spawn, Dask) can import it; ``digest``
    (the file's SHA-256) is part of the cache key, so editing the file reruns the sweep.
    """

    file: str
    function: str
    digest: str

    @classmethod
    def of(cls, file: Union[str, os.PathLike[str]], function: str) -> "Extract":
        """The extractor ``function`` of the Python file ``file``."""
        path = Path(file).resolve()
        return cls(str(path), function, hashlib.sha256(path.read_bytes()).hexdigest())

    def __call__(self, results: Any) -> Any:
        import importlib.util

        module = _EXTRACT_MODULES.get(self.file)
        if module is None:
            spec = importlib.util.spec_from_file_location(f"_nsim_extract_{self.digest[:12]}", self.file)
            module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
            spec.loader.exec_module(module)  # type: ignore[union-attr]
            _EXTRACT_MODULES[self.file] = module
        return getattr(module, self.function)(results)


_EXTRACT_MODULES: dict[str, Any] = {}


@dataclass
class Run:
    """One (grid point, seed) pair: what to run and its cache key."""

    point: int
    params: dict[str, Any]
    seed: int
    scenario: dict[str, Any]
    key: str
    extract: Optional[Extract] = None


@functools.lru_cache(maxsize=1)
def _nsim_version() -> str:
    """The package version plus a digest of the compiled core: a model change rebuilds the
    extension, so runs cached by an earlier build of the same version are not reused."""
    from . import _core
    from ._core import __version__

    with open(_core.__file__, "rb") as f:
        build = hashlib.file_digest(f, "sha256").hexdigest()[:16]
    return f"{__version__}+{build}"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def run_key(scenario: Mapping[str, Any], seed: int, version: str, extract: Optional[Extract] = None) -> str:
    """SHA-256 of the scenario dict (canonical JSON), the seed, the nsim version and the
    extractor (if any)."""
    return _run_keys(scenario, version, extract)(seed)


def _run_keys(scenario: Mapping[str, Any], version: str, extract: Optional[Extract]) -> Callable[[int], str]:
    """:func:`run_key` of one scenario for any seed, the scenario encoded once. The hashed
    text is the canonical JSON of ``{"extract"?, "nsim", "scenario", "seed"}``, written key by
    key in that (sorted) order, as ``json.dumps(doc, sort_keys=True)`` writes it."""
    head = "{"
    if extract is not None:
        head += f'"extract":{_canonical([extract.function, extract.digest])},'
    head += f'"nsim":{_canonical(version)},"scenario":{_canonical(scenario)},"seed":'
    return lambda seed: hashlib.sha256(f"{head}{_canonical(seed)}}}".encode("utf-8")).hexdigest()


@dataclass
class SweepSpec:
    """A sweep: base scenario dict, grid of values per dotted path, seeds, metrics."""

    scenario: dict[str, Any]
    grid: dict[str, list[Any]]
    seeds: list[int]
    metrics: list[str] = field(default_factory=lambda: list(DEFAULT_METRICS))
    name: str = "sweep"
    extract: Optional[Extract] = None

    def runs(self) -> list[Run]:
        """Every (grid point, seed) pair, grid points in order (first path slowest), seeds
        inner."""
        version = _nsim_version()
        paths = list(self.grid)
        out = []
        for point, values in enumerate(itertools.product(*(self.grid[p] for p in paths))):
            params = dict(zip(paths, values))
            config = copy.deepcopy(self.scenario)
            for path, value in params.items():
                set_axis(config, path, copy.deepcopy(value))
            key = _run_keys(config, version, self.extract)
            out.extend(Run(point, params, seed, config, key(seed), self.extract) for seed in self.seeds)
        return out


def _spec_error(file: str, path: str, reason: str) -> Exception:
    from .errors import ScenarioError

    where = f"field `{path}`: " if path else ""
    return ScenarioError(f"{file}: {where}{reason}", file=file, path=path, reason=reason)


#: The keys of a sweep file and what each must hold (the sweep file's schema).
SWEEP_KEYS = {
    "scenario": "the path of a scenario TOML file, relative to the sweep file",
    "seeds": "a positive count or a non-empty list of distinct seeds >= 0",
    "grid": 'a table of "dotted.path" = [values] (or "path + path" = [[value, value], ...], a linked axis)',
    "metrics": "a list of per-flow column names",
    "name": "a name for the output directory: letters, digits, '.', '_' and '-', starting with a letter, digit or '_'",
}

#: A sweep name is one folder below the output root, never a path (issue 29: `name =
#: "../../x"` or an absolute name wrote the whole sweep outside it).
_SWEEP_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,127}")


def load_sweep(path: Union[str, os.PathLike[str]]) -> SweepSpec:
    """Read and check a sweep TOML file; the scenario path inside is relative to the file.

    Everything is checked before anything runs: the keys and their types (:data:`SWEEP_KEYS`),
    every grid value at its path against the scenario schema, and the metric names against
    the per-flow columns. Raises :class:`nsim.ScenarioError` naming the file, the field and
    the reason.
    """
    from .scenario import Scenario
    from .textfile import read_text

    file = os.fspath(path)
    try:
        doc = tomllib.loads(read_text(file))
    except tomllib.TOMLDecodeError as e:
        raise _spec_error(file, "", f"malformed TOML: {e}") from None
    for key in doc:
        if key not in SWEEP_KEYS:
            raise _spec_error(file, key, f"unknown key (expected {', '.join(SWEEP_KEYS)})")
    for key, want in (("scenario", str), ("name", str), ("grid", dict), ("metrics", list)):
        if key in doc and not isinstance(doc[key], want):
            raise _spec_error(file, key, f"expected {SWEEP_KEYS[key]}, got {type(doc[key]).__name__}")
    if "scenario" not in doc:
        raise _spec_error(file, "scenario", f"required: {SWEEP_KEYS['scenario']}")
    seeds = _seeds(file, doc.get("seeds", 1))
    grid = doc.get("grid", {})
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise _spec_error(file, f"grid.{key}", "a non-empty list of values")
        try:
            axis_paths(key)
        except ValueError as e:
            raise _spec_error(file, f"grid.{key}", str(e)) from None
    if "name" in doc and not _SWEEP_NAME.fullmatch(doc["name"]):
        raise _spec_error(file, "name", f"{doc['name']!r}: {SWEEP_KEYS['name']} (one folder, not a path)")
    chosen = doc.get("metrics", list(DEFAULT_METRICS))
    if not all(isinstance(m, str) for m in chosen):
        raise _spec_error(file, "metrics", SWEEP_KEYS["metrics"])
    base = Scenario.load(Path(file).parent / doc["scenario"]).to_dict()
    _check_grid(file, doc["scenario"], base, grid)
    _check_metrics(file, base, chosen)
    return SweepSpec(base, grid, seeds, chosen, str(doc.get("name", Path(file).stem)))


#: Most seeds one sweep may have (a count beyond it is a typo, not a plan).
MAX_SEEDS = 100_000


def _seeds(file: str, seeds: Any) -> list[int]:
    """The seeds of a sweep file: a count n (1..n) or a list of distinct seeds."""
    from .scenario import MAX_SEED

    if isinstance(seeds, int) and not isinstance(seeds, bool) and seeds > 0:
        if seeds > MAX_SEEDS:
            raise _spec_error(file, "seeds", f"{seeds} seeds: at most {MAX_SEEDS:,} in one sweep")
        return list(range(1, seeds + 1))
    if not (isinstance(seeds, list) and seeds and len(seeds) <= MAX_SEEDS
            and all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= MAX_SEED for s in seeds)):
        raise _spec_error(file, "seeds", SWEEP_KEYS["seeds"] + f" (at most {MAX_SEEDS:,}, each below 2**64)")
    if len(set(seeds)) != len(seeds):
        raise _spec_error(file, "seeds", "seeds repeat")
    return list(seeds)


def _check_grid(file: str, scenario: str, base: dict[str, Any], grid: dict[str, list[Any]]) -> None:
    """Every grid value, set alone at its path, must give a valid scenario (so a typo in a
    path or a value fails here, not in every run)."""
    from .errors import ScenarioError
    from .scenario import Scenario

    for key, values in grid.items():
        for value in values:
            config = copy.deepcopy(base)
            try:
                set_axis(config, key, value)
            except ValueError as e:
                raise _spec_error(file, f"grid.{key}", f"does not fit {scenario}: {e}") from None
            try:
                Scenario.from_dict(config, source=scenario).validate()
            except ScenarioError as e:
                where = f" (scenario field `{e.path}`)" if e.path else ""
                raise _spec_error(file, f"grid.{key}", f"value {value!r}: {e.reason}{where}") from None


def _check_metrics(file: str, base: dict[str, Any], chosen: list[str]) -> None:
    """Every metric must be a per-flow column: the columns are those of a 1 µs run of the
    base scenario (plus the columns the sweep adds)."""
    from .scenario import Scenario

    config = {k: v for k, v in base.items() if k != "record"}
    windows = base.get("record", {}).get("windows") if isinstance(base.get("record"), dict) else None
    if windows:  # the per-flow window<k>_goodput_* columns exist only when windows are recorded
        config["record"] = {"windows": windows}
    flows = Scenario.from_dict(config, source="<sweep>").run(until=1e-6).flows
    if not len(flows.columns):
        return
    known = set(flows.columns) | {"loss_rate", "sim_time_s"}
    for i, m in enumerate(chosen):
        if m not in known:
            raise _spec_error(file, f"metrics[{i}]", f"unknown per-flow column {m!r} (known: {', '.join(sorted(known))})")


#: `record` keys a sweep run ignores: a sweep keeps only the per-flow table (an extractor
#: may read the series, per-packet delays and the video log, so those stay when there is one).
_UNRECORDED = ("series", "trace", "interval", "packet_delays", "video_packets", "pcap")
_UNRECORDED_WITH_EXTRACT = ("trace", "pcap")


def _run_one(scenario: dict[str, Any], seed: int, extract: Optional[Extract] = None) -> dict[str, Any]:
    """Run one scenario in a worker; return its per-flow rows or the error (never raises).

    A sweep keeps only the per-flow table, so the run records no time series, trace or pcap
    (recording observes a run without changing it), and the rows come straight from the
    core's output: no DataFrame per run (issue 14: that cost ~4 ms a run). With an
    extractor the run keeps its series and the extractor gets the run's :class:`Results`.
    """
    try:
        from . import _core
        from .errors import from_core
        from .results import _row_columns

        config = dict(scenario)
        if "record" in config:
            dropped = _UNRECORDED_WITH_EXTRACT if extract is not None else _UNRECORDED
            config["record"] = {k: v for k, v in config["record"].items() if k not in dropped}
        try:
            text = _core.run(json.dumps(config), "<sweep>", "json", seed)
        except _core.ConfigError as e:
            raise from_core(e) from None
        raw = json.loads(text)
        cols = _row_columns(raw["flows"], raw.get("windows"))
        cols["sim_time_s"] = [raw["sim_time_s"]] * len(raw["flows"])
        rows = [dict(zip(cols, values)) for values in zip(*cols.values())]
        if extract is not None:
            from .results import Results

            rows = _with_extracted(rows, extract(Results.from_json(text, config)))
        return {"rows": rows, "error": None, "wall_s": raw["wall_s"]}
    except BaseException as e:  # incl. pyo3's PanicException; recorded, never lost
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        return _failed(e)


def _with_extracted(rows: list[dict[str, Any]], extra: Any) -> list[dict[str, Any]]:
    """The flow rows with an extractor's output added (see :class:`Extract`), as JSON values."""
    if isinstance(extra, Mapping):
        per_flow = [dict(extra)] * len(rows)
    else:
        per_flow = extra.to_dict("records")
        if len(per_flow) != len(rows):
            raise ValueError(f"the extractor returned {len(per_flow)} rows for {len(rows)} flows")
    plain = json.loads(json.dumps(per_flow, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o)))
    return [{**row, **more} for row, more in zip(rows, plain)]


def _run_batch(items: Sequence[tuple[dict[str, Any], int, Optional[Extract], str]],
               cache: Optional[tuple[str, str]] = None) -> list[dict[str, Any]]:
    """Several runs in one worker call (one task's overhead shared by the batch).

    Each run's rows come back as the JSON text of its cache file (``rows_json``), encoded
    here in the worker. ``cache`` is the driver's run cache directory and the name of a marker
    file the driver put there: when the worker sees the marker (the local pool, a Dask
    cluster on the same machine or a shared file system) it writes ``<key>.json.gz`` itself
    (``cached``). The driver's share of a run is then decoding that text once for the table
    (issue 14: sweeps' per-run overhead; creating a file costs the driver ~1 ms here).
    """
    shared = cache is not None and os.path.exists(os.path.join(*cache))
    done = []
    for scenario, seed, extract, key in items:
        outcome = _run_one(scenario, seed, extract)
        rows = outcome.pop("rows")
        outcome["rows_json"] = None if rows is None else json.dumps(rows)
        outcome["cached"] = False
        if shared and rows is not None:
            _write_atomic(outcome["rows_json"], _cache_file(Path(cache[0]), key))  # type: ignore[index]
            outcome["cached"] = True
        done.append(outcome)
    return done


#: Largest number of runs per worker call.
MAX_BATCH = 32


def _batches(runs: Sequence[Run], workers: int) -> list[list[Run]]:
    """Runs cut into batches: about four per worker so the load stays even, at most
    ``MAX_BATCH`` runs each so progress and resumption stay fine-grained."""
    size = max(1, min(MAX_BATCH, -(-len(runs) // (4 * max(1, workers)))))
    return [list(runs[i:i + size]) for i in range(0, len(runs), size)]


def _failed(e: BaseException) -> dict[str, Any]:
    """The outcome of a run that raised ``e``."""
    return {"rows": None, "rows_json": None, "cached": False, "error": f"{type(e).__name__}: {e}", "wall_s": 0.0}


Outcomes = Iterator[tuple[Run, dict[str, Any]]]


#: Times a batch whose worker process died is run again, on a fresh pool, before its runs
#: are recorded as failed.
MAX_WORKER_RETRIES = 2


def _die_with_parent() -> None:
    """Pool worker initializer: on Linux the kernel kills the worker when the process that
    started it dies (``prctl(PR_SET_PDEATHSIG)``), so a driver killed with SIGKILL leaves no
    orphaned workers running their batches to the end."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before the call: nobody is left to collect the work
        os._exit(1)


class _LocalExecutor:
    """A local process pool; ``submit`` returns (run, outcome) pairs as runs finish.

    A batch whose worker process dies (killed, out of memory) is run again on a fresh pool,
    up to :data:`MAX_WORKER_RETRIES` times, then its runs fail with the error; the broken
    pool is discarded without waiting for it. Workers die with the driver (:func:`_die_with_parent`).
    """

    def __init__(self, workers: Optional[int]) -> None:
        self.workers = workers or os.cpu_count() or 1
        self.pool: Any = None
        #: The run cache folder of the current ``submit`` (where workers write).
        self.cache_dir: Optional[str] = None

    def __enter__(self) -> "_LocalExecutor":
        return self

    def __exit__(self, exc_type: Any, *exc: object) -> None:
        if self.pool is None:
            return
        if exc_type is None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        else:  # Ctrl-C or an error: finished runs are cached; do not wait for the running ones
            self._discard_pool()

    def _new_pool(self, size: int, fork_ok: bool) -> Any:
        import multiprocessing
        import threading
        from concurrent.futures import ProcessPoolExecutor

        # fork starts a worker in milliseconds with nsim already imported, but is only safe
        # from a single-threaded process; otherwise (a Dask client, a notebook kernel's
        # threads, the progress bar when a pool is replaced) use forkserver, which starts
        # workers from a clean process.
        method = "fork" if fork_ok and threading.active_count() == 1 else "forkserver"
        if method not in multiprocessing.get_all_start_methods():
            method = "spawn"
        ctx = multiprocessing.get_context(method)
        if method == "forkserver":  # the server imports nsim once; its workers inherit it
            ctx.set_forkserver_preload(["nsim.sweeps"])
        return ProcessPoolExecutor(max_workers=size, mp_context=ctx, initializer=_die_with_parent)

    def _discard_pool(self) -> None:
        """Drop a broken pool at once: cancel what it holds and kill workers still alive. A
        worker killed while writing a run's cache file leaves its temporary file (named after
        its pid, see :func:`nsim.outdir.write_via`): once it is dead that file is removed, so
        the cache holds only whole runs."""
        pool, self.pool = self.pool, None
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            if proc.is_alive():
                proc.kill()
        if self.cache_dir is None:
            return
        for proc in processes:
            proc.join(timeout=5)
            for tmp in Path(self.cache_dir).glob(f"*.tmp-{proc.pid}"):
                tmp.unlink(missing_ok=True)

    def submit(self, runs: Sequence[Run], cache: tuple[str, str]) -> Outcomes:
        from concurrent.futures import as_completed
        from concurrent.futures.process import BrokenProcessPool

        size = min(self.workers, max(1, len(runs)))
        self.cache_dir = cache[0] if cache else None

        def send(batches: list[tuple[list[Run], int]]) -> dict[Any, tuple[list[Run], int]]:
            return {self.pool.submit(_run_batch, [(r.scenario, r.seed, r.extract, r.key) for r in batch], cache):
                    (batch, tries) for batch, tries in batches}

        # All first workers are forked here, before the progress bar starts its thread.
        self.pool = self._new_pool(size, fork_ok=True)
        futures = send([(batch, 0) for batch in _batches(runs, self.workers)])

        def outcomes() -> Outcomes:
            nonlocal futures
            while futures:
                retry: list[tuple[list[Run], int]] = []
                for fut in as_completed(futures):
                    batch, tries = futures[fut]
                    try:
                        done = fut.result()
                    except BrokenProcessPool as e:  # a worker process died
                        if tries < MAX_WORKER_RETRIES:
                            retry.append((batch, tries + 1))
                            continue
                        done = [_failed(e)] * len(batch)
                    except Exception as e:
                        done = [_failed(e)] * len(batch)
                    yield from zip(batch, done)
                futures = {}
                if retry:
                    self._discard_pool()
                    self.pool = self._new_pool(min(size, len(retry)), fork_ok=False)
                    futures = send(retry)

        return outcomes()


#: Seconds to wait for a Dask scheduler to answer before giving up with one line.
CONNECT_TIMEOUT_S = 5

_SCHEDULER = re.compile(r"(tcp|tls|ws|wss|ucx)://[^\s/:]+:\d{1,5}")


def scheduler_address(scheduler: Any) -> str:
    """A Dask scheduler address as given (``tcp://host:port``; ``host:port`` gets ``tcp://``).

    Raises:
        ScenarioError: anything else (``local``, ``localhost``, ``''``, a port out of range),
            naming the option and the expected form.
    """
    text = scheduler.strip() if isinstance(scheduler, str) else ""
    if text and "://" not in text:
        text = "tcp://" + text
    port = text.rsplit(":", 1)[-1]
    if not _SCHEDULER.fullmatch(text) or not 0 < int(port) < 65536:
        return _bad_scheduler(scheduler)
    return text


def _bad_scheduler(scheduler: Any) -> str:
    from .errors import ScenarioError

    reason = (f"{scheduler!r} is not a Dask scheduler address: expected tcp://HOST:PORT (e.g. tcp://10.0.0.1:8786), "
              f"or leave it out to run on local processes")
    raise ScenarioError(f"--scheduler: {reason}", file="--scheduler", reason=reason)


class _DaskExecutor:
    """A dask.distributed cluster (scheduler address or Client); ``submit`` as above."""

    def __init__(self, scheduler: Any) -> None:
        self.scheduler = scheduler
        self.client: Any = None
        self.futures: list[Any] = []

    def __enter__(self) -> "_DaskExecutor":
        from dask.distributed import Client

        if isinstance(self.scheduler, Client):
            self.client = self.scheduler
            return self
        address = scheduler_address(self.scheduler)
        try:
            self.client = Client(address, timeout=f"{CONNECT_TIMEOUT_S}s")
        except (OSError, TimeoutError) as e:
            from .errors import ResultsError

            raise ResultsError(f"--scheduler {address}: no Dask scheduler answered within {CONNECT_TIMEOUT_S} s "
                               f"({type(e).__name__}); start one with `dask scheduler` and workers with "
                               f"`dask worker {address}`") from None
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.cancel(self.futures)
        if self.client is not self.scheduler:
            self.client.close()

    def submit(self, runs: Sequence[Run], cache: tuple[str, str]) -> Outcomes:
        from dask.distributed import as_completed

        # A task's key comes from its runs' keys, so a rescheduled task is the same task,
        # never a copy.
        workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        batches = _batches(runs, workers)
        keys = [f"nsim-runs-{hashlib.sha256(''.join(r.key for r in b).encode()).hexdigest()}" for b in batches]
        self.futures = self.client.map(_run_batch, [[(r.scenario, r.seed, r.extract, r.key) for r in b] for b in batches],
                                       [cache] * len(batches), key=keys, pure=False)
        by_key = {f.key: b for f, b in zip(self.futures, batches)}

        def outcomes() -> Outcomes:
            for fut in as_completed(self.futures):
                batch = by_key[fut.key]
                try:
                    done = fut.result()
                except Exception as e:  # e.g. KilledWorker after repeated worker deaths
                    done = [_failed(e)] * len(batch)
                # Let the cluster forget the result, so a worker lost later does not make
                # it recompute runs we already have.
                fut.release()
                yield from zip(batch, done)

        return outcomes()


@dataclass
class SweepResult:
    """What a sweep produced, also written to its output directory.

    Attributes:
        table: One row per (run, flow): swept parameters, ``seed``, ``point``, ``run_key``,
            ``error`` (None for runs that worked), then the per-flow columns.
        summary: Per (grid point, flow) mean, 95 % CI half-width and count over seeds of
            each metric (``<metric>_mean``, ``<metric>_ci95``, ``<metric>_n``).
        out: The output directory (``table.parquet``, ``summary.parquet``, ``summary.csv``,
            ``runs/``).
        ran: Runs executed by this call. cached: Runs read from the cache. failed: Runs whose
            error is recorded in the table.
        wall_s: Wall-clock time of this call.
    """

    table: pd.DataFrame
    summary: pd.DataFrame
    out: Path
    ran: int
    cached: int
    failed: int
    wall_s: float


#: A cached run's file name after its key: JSON, gzip-compressed (a run of a few hundred flows
#: is ~2 MB of JSON, a study's cache gigabytes; compressed about a tenth).
CACHE_SUFFIX = ".json.gz"


def _cache_file(cache: Path, key: str) -> Path:
    """The file that caches run ``key`` in the run cache directory ``cache``."""
    return cache / f"{key}{CACHE_SUFFIX}"


def _write_atomic(rows_json: str, path: Path) -> None:
    """Cache a run's per-flow rows (their JSON text, NaN kept as NaN), gzip-compressed at the
    fastest level with no time stamp (the same rows give the same bytes), replacing the file
    atomically (:func:`nsim.outdir.write_file`).

    JSON rather than Parquet: a run's rows are a few dicts, and converting each run through
    Arrow cost the driver ~50 ms per run, more than the runs themselves.
    """
    write_file(str(path), gzip.compress(rows_json.encode("utf-8"), compresslevel=1, mtime=0))


def _read_cached(path: Path) -> str:
    """The JSON text of a run :func:`_write_atomic` cached."""
    return gzip.decompress(path.read_bytes()).decode("utf-8")


@contextlib.contextmanager
def _progress(total: int, enabled: bool, stream: Any = None) -> Iterator[Callable[[bool], None]]:
    """Yield a function ``advance(failed)`` called once per finished run: a rich progress bar
    on a terminal; when ``stream`` (default stderr) is not a terminal (piped, logged, CI), a
    plain line per run for up to :data:`LINES_MAX` runs, else per 1/:data:`LINES_MAX` of them
    (:func:`progress_line`), as ``nsim run`` does; nothing when disabled."""
    stream = stream if stream is not None else sys.stderr
    if not enabled:
        yield lambda failed: None
        return
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        started = time.monotonic()
        step = max(1, math.ceil(total / LINES_MAX))
        state = {"done": 0, "failed": 0}

        def line(failed: bool) -> None:
            state["done"] += 1
            state["failed"] += bool(failed)
            if state["done"] % step == 0 or state["done"] == total:
                print(progress_line(state["done"], total, state["failed"], time.monotonic() - started),
                      file=stream, flush=True)

        yield line
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("[bold]sweep"), BarColumn(), MofNCompleteColumn(), TextColumn("runs"),
                  TimeRemainingColumn(), console=Console(file=stream)) as bar:
        task = bar.add_task("sweep", total=total)
        yield lambda failed: bar.advance(task)


#: Most plain progress lines a piped sweep prints.
LINES_MAX = 20


def progress_line(done: int, total: int, failed: int, wall_s: float) -> str:
    """``sweep: 30/60 runs (50%), 0 failed, 12.3 s, ~12 s left``."""
    left = f", ~{wall_s / done * (total - done):.0f} s left" if 0 < done < total else ""
    return f"sweep: {done}/{total} runs ({100 * done // max(1, total)}%), {failed} failed, {wall_s:.1f} s{left}"


#: Longest grid value kept as plain text in a table column. A longer one (a whole flows list)
#: is stored once per distinct value (a categorical column: in memory, and dictionary-encoded
#: in table.parquet and summary.parquet) and written as its length and digest in summary.csv.
LONG_VALUE = 200


def _column_values(values: list[Any]) -> Any:
    """Grid values as a table column: numbers stay numbers, anything mixed becomes text,
    encoded once per grid point (the point's rows share the value). A column with a long
    value becomes categorical: a whole flows list is tens of kilobytes, times every flow of
    every run."""
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    if numeric:
        return values
    texts: dict[int, str] = {}
    out = []
    for v in values:
        s = texts.get(id(v))
        if s is None:
            s = texts[id(v)] = v if isinstance(v, str) else json.dumps(v)
        out.append(s)
    if not any(len(s) > LONG_VALUE for s in texts.values()):
        return out
    # Codes built here: handing the rows to pd.Categorical would first copy every row's text.
    index: dict[str, int] = {}
    codes = [index.setdefault(s, len(index)) for s in out]
    return pd.Categorical.from_codes(codes, categories=list(index))


def _summarize(ok: pd.DataFrame, present: list[str], by: list[str]) -> pd.DataFrame:
    """Per-point means over seeds (:func:`metrics.summarize`), the categorical (long-valued)
    grid columns grouped by their codes and restored after, so that no value is copied per
    summary row."""
    long = [c for c in by if isinstance(ok[c].dtype, pd.CategoricalDtype)]
    summary = metrics.summarize(ok.assign(**{c: ok[c].cat.codes for c in long}), present, by=by)
    for c in long:
        summary[c] = pd.Categorical.from_codes(summary[c].astype(int), dtype=ok[c].dtype)
    return summary


def _csv_ready(df: pd.DataFrame, paths: Sequence[str]) -> pd.DataFrame:
    """``df`` for summary.csv: long grid values (the categorical columns) as their length and
    digest."""
    out = df.copy(deep=False)
    for p in paths:
        if p in out and isinstance(out[p].dtype, pd.CategoricalDtype):
            out[p] = out[p].cat.rename_categories(
                lambda v: v if len(str(v)) <= LONG_VALUE else
                f"<{len(str(v))} characters, sha256 {hashlib.sha256(str(v).encode()).hexdigest()[:12]}>")
    return out


def _assemble(spec: SweepSpec, runs: Sequence[Run], cache: Path,
              errors: Mapping[str, str], fresh: Mapping[str, str]) -> pd.DataFrame:
    """The tidy table, in run order, from the rows of this call's runs (``fresh``: key ->
    rows JSON), the cache files of earlier ones, and the errors of this call."""
    paths = list(spec.grid)
    head = ["seed", "point", "run_key", "error"]
    records: list[dict[str, Any]] = []
    # A grid column per path, filled per run with the run's own value object (each row of a
    # point shares it: _column_values encodes it once).
    grid_values: dict[str, list[Any]] = {p: [] for p in paths}
    # Every run's columns, in first-seen order: an extractor may return keys only some runs
    # have (a video log's measures in the runs with video); a run's rows share their keys.
    flow_columns: dict[str, None] = {}
    for run in runs:
        base = {"seed": run.seed, "point": run.point, "run_key": run.key}
        if run.key in errors:
            rows = [{"error": errors[run.key]}]
        else:
            text = fresh.get(run.key)
            rows = json.loads(text if text is not None else _read_cached(_cache_file(cache, run.key)))
            if rows:
                flow_columns.update(dict.fromkeys(rows[0]))
            rows = [{"error": None, **row} for row in rows]
        records.extend({**base, **row} for row in rows)
        for p in paths:
            grid_values[p].extend([run.params[p]] * len(rows))
    table = pd.DataFrame.from_records(records, columns=head + list(flow_columns))
    for i, p in enumerate(paths):
        table.insert(i, p, _column_values(grid_values[p]))
    if "sent_pkts" in table:
        table["loss_rate"] = metrics.loss_rate(table["dropped_pkts"], table["sent_pkts"])
    return table


def sweep(
    spec: Union[SweepSpec, str, os.PathLike[str]],
    out: Union[str, os.PathLike[str], None] = None,
    workers: Optional[int] = None,
    scheduler: Any = None,
    progress: bool = False,
    on_result: Optional[Callable[[Run, Optional[str]], None]] = None,
    force: bool = False,
) -> SweepResult:
    """Run a sweep and gather its table and per-point summary.

    Args:
        spec: A :class:`SweepSpec` or the path of a sweep TOML file (see the module docs).
        out: Output directory (default ``out/<sweep name>``); holds the run cache.
        workers: Local worker processes (default: all cores). Ignored with ``scheduler``.
        scheduler: A Dask scheduler address (``"tcp://host:8786"``) or a
            ``dask.distributed.Client`` to run on instead of local processes.
        progress: Show progress on stderr: a bar on a terminal, otherwise a plain line per
            finished run (per 5 % of them beyond 20 runs).
        on_result: Called in this process after each run finishes and is cached, with the
            run and its error message (None if it worked).
        force: Write ``out`` even if it holds files nsim did not write (by default such a
            folder is refused with :class:`nsim.errors.ResultsError`; see :mod:`nsim.outdir`).

    Returns:
        A :class:`SweepResult`; the same tables are in ``out``.
    """
    started = time.perf_counter()
    if not isinstance(spec, SweepSpec):
        spec = load_sweep(spec)
    if not _SWEEP_NAME.fullmatch(spec.name):
        raise _spec_error("SweepSpec", "name", f"{spec.name!r}: {SWEEP_KEYS['name']} (one folder, not a path)")
    if scheduler is not None and not hasattr(scheduler, "submit"):
        scheduler = scheduler_address(scheduler)  # a malformed address fails before anything is written
    out_dir = Path(out) if out is not None else Path("out") / spec.name
    check_dir(str(out_dir), "sweep", force)
    cache = out_dir / "runs"
    cache.mkdir(parents=True, exist_ok=True)
    mark(str(out_dir), "sweep")  # at once, so an interrupted sweep is known as one when resumed
    runs = spec.runs()
    missing = [r for r in runs if not _cache_file(cache, r.key).exists()]
    # One task per key: a grid that repeats a value yields the same run twice.
    todo = list({r.key: r for r in missing}.values())
    executor = _DaskExecutor(scheduler) if scheduler is not None else _LocalExecutor(workers)
    errors: dict[str, str] = {}
    fresh: dict[str, str] = {}
    if todo:
        # Workers that see this marker share the cache directory and write their runs' files.
        marker = cache / f".driver-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        marker.touch()
        with contextlib.ExitStack() as cleanup, executor:
            cleanup.callback(marker.unlink, missing_ok=True)
            done = executor.submit(todo, (str(cache.resolve()), marker.name))  # before the progress bar thread
            with _progress(len(todo), progress) as advance:
                for run, outcome in done:
                    if outcome["error"] is None:
                        if not outcome["cached"]:
                            _write_atomic(outcome["rows_json"], _cache_file(cache, run.key))
                        fresh[run.key] = outcome["rows_json"]
                    else:
                        errors[run.key] = outcome["error"]
                    advance(outcome["error"] is not None)
                    if on_result is not None:
                        on_result(run, outcome["error"])
    table = _assemble(spec, runs, cache, errors, fresh)
    by = list(spec.grid) + ["flow", "name"]
    ok = table[table["error"].isna()]
    present = [m for m in spec.metrics if m in ok.columns]
    summary = _summarize(ok, present, by) if len(ok) else pd.DataFrame(columns=by)
    write_via(str(out_dir / "table.parquet"), lambda tmp: table.to_parquet(tmp, index=False))
    write_via(str(out_dir / "summary.parquet"), lambda tmp: summary.to_parquet(tmp, index=False))
    write_via(str(out_dir / "summary.csv"), lambda tmp: _csv_ready(summary, list(spec.grid)).to_csv(tmp, index=False))
    return SweepResult(table, summary, out_dir, ran=len(todo), cached=len(runs) - len(missing),
                       failed=len(errors), wall_s=time.perf_counter() - started)
