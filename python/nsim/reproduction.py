"""Reproduce a published study: run its sweeps, reduce them, compare with the paper's numbers.

A study is a directory (see ``docs/guide/reproduce.md`` for the full contract)::

    experiments/<study>/
      study.toml      title, citation, [[part]] (sweep + reducer + quick overrides), [[figure]]
      expected.toml   [[row]]: every published number with source, unit and tolerance
      reduce.py       reducers: f(table[, rows]) -> {row_id: value, "__frames__": {...}}
      *.sweep.toml    ordinary sweep files (python/nsim/sweeps.py)

:func:`reproduce` runs every part's sweep through :func:`nsim.sweeps.sweep` (so runs are
cached and resumable, locally or on Dask), calls the part's reducer on the sweep table,
compares every expected row with what the reducer measured, and writes ``results.csv`` and
a self-contained ``report.html`` with the study's figures. A row that the reducer does not
measure fails ("not measured"); it is never skipped silently. Invalid study files raise
:class:`StudyError` naming the file, the field and the reason.

How much of the study that amounts to (evidence kinds, key results, null predictors, seed
statistics) is :mod:`nsim.scoring`'s part: the reports open with its headline.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import fnmatch
import hashlib
import importlib.util
import inspect
import math
import os
import re
import subprocess
import time
import tomllib
from pathlib import Path
from typing import Any, Callable, Optional, Union

import pandas as pd

from .errors import ScenarioError
from .outdir import check_dir, mark, write_via
from .scoring import (EVIDENCE, MEASURES, MIN_SEEDS_FOR_CI, Key, SeedStats, derive, null_predictions, passes,
                      predictor_passes, render_why, seed_stats, why_row_refs)
from .study import COLUMNS, Figure, Part, ReproduceResult, Row, Study
from .sweeps import Extract, SweepResult, SweepSpec, load_sweep, set_axis, set_path, sweep

__all__ = ["StudyError", "Part", "Figure", "Row", "Study", "ReproduceResult", "load_study", "reproduce",
           "compare", "study_digest", "with_ns235", "only_rows"]

_PART_KEYS = {"name", "sweep", "reducer", "extract", "seeds", "set", "grid", "quick", "description"}
_QUICK_KEYS = {"seeds", "set", "grid"}
_FIGURE_KEYS = {"name", "part", "title", "x", "y", "series", "xlabel", "ylabel", "xscale", "yscale", "caption",
                "drawstyle"}
_ROW_KEYS = {"id", "source", "quantity", "value", "unit", "tol_abs", "tol_rel", "reason", "quick", "kind",
             "status", "why", "figure", "x", "series", "params", "evidence", "metric", "measure", "fair", "of", "op",
             "contrast"}
_KEY_KEYS = {"id", "claim", "source", "rows", "why"}
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


class StudyError(ScenarioError):
    """A study directory is invalid: ``<file>: field `<path>`: <reason>`` (exit 2 in the CLI)."""


def _error(file: Union[str, Path], path: str, reason: str) -> StudyError:
    where = f"field `{path}`: " if path else ""
    return StudyError(f"{file}: {where}{reason}", file=str(file), path=path, reason=reason)


def _read_toml(file: Path) -> dict[str, Any]:
    try:
        with open(file, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise _error(file, "", f"cannot read: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise _error(file, "", f"invalid TOML: {e}") from None


def _check_keys(file: Path, where: str, table: Any, allowed: set[str], required: tuple[str, ...] = ()) -> None:
    if not isinstance(table, dict):
        raise _error(file, where, "must be a table")
    unknown = sorted(set(table) - allowed)
    if unknown:
        at = f"{where}.{unknown[0]}" if where else unknown[0]
        raise _error(file, at, f"unknown key (expected one of: {', '.join(sorted(allowed))})")
    for key in required:
        if key not in table:
            raise _error(file, f"{where}.{key}" if where else key, "required")


def _string(file: Path, where: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _error(file, where, "must be a non-empty string")
    return value


def _number(file: Path, where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise _error(file, where, f"must be a number, not {value!r}")
    return float(value)


def _load_module(file: Path) -> Any:
    """Import ``reduce.py`` under a private name (errors in it are study errors)."""
    if not file.is_file():
        raise _error(file, "", "missing: every study needs reduce.py with its reducers")
    spec = importlib.util.spec_from_file_location(f"_nsim_study_{file.parent.name}_reduce", file)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    except Exception as e:
        raise _error(file, "", f"cannot import: {type(e).__name__}: {e}") from None
    return module


def _parse_part(file: Path, i: int, doc: Any, module: Any, reduce_file: Path) -> Part:
    where = f"part[{i}]"
    _check_keys(file, where, doc, _PART_KEYS, ("name", "reducer"))
    name = _string(file, f"{where}.name", doc["name"])
    if not _NAME.fullmatch(name):
        raise _error(file, f"{where}.name", f"{name!r}: letters, digits, '_' and '-' only (it prefixes row ids)")
    for key in ("reducer", "extract"):
        if key in doc:
            fn = _string(file, f"{where}.{key}", doc[key])
            if not callable(getattr(module, fn, None)):
                raise _error(file, f"{where}.{key}", f"{reduce_file.name} has no function {fn!r}")
    if "sweep" in doc and not (file.parent / _string(file, f"{where}.sweep", doc["sweep"])).is_file():
        raise _error(file, f"{where}.sweep", f"no such file: {doc['sweep']}")
    if "extract" in doc and "sweep" not in doc:
        raise _error(file, f"{where}.extract", "needs a sweep")
    quick = doc.get("quick", {})
    _check_keys(file, f"{where}.quick", quick, _QUICK_KEYS)
    for key, table in (("set", doc.get("set", {})), ("grid", doc.get("grid", {})),
                       ("quick.set", quick.get("set", {})), ("quick.grid", quick.get("grid", {}))):
        if not isinstance(table, dict):
            raise _error(file, f"{where}.{key}", "must be a table of \"dotted.path\" = value")
        if table and "sweep" not in doc:
            raise _error(file, f"{where}.{key}", "needs a sweep")
    return Part(name, doc["reducer"], doc.get("sweep"), doc.get("extract"), doc.get("seeds"),
                doc.get("set", {}), doc.get("grid", {}), quick, doc.get("description", ""))


def _parse_figure(file: Path, i: int, doc: Any, parts: set[str]) -> Figure:
    where = f"figure[{i}]"
    _check_keys(file, where, doc, _FIGURE_KEYS, ("name", "part", "title", "x", "y", "xlabel", "ylabel"))
    for key in ("name", "part", "title", "x", "y", "xlabel", "ylabel"):
        _string(file, f"{where}.{key}", doc[key])
    if doc["part"] not in parts:
        raise _error(file, f"{where}.part", f"no part named {doc['part']!r}")
    for key in ("xscale", "yscale"):
        if doc.get(key, "linear") not in ("linear", "log"):
            raise _error(file, f"{where}.{key}", "must be 'linear' or 'log'")
    if doc.get("drawstyle", "default") not in ("default", "steps-post"):
        raise _error(file, f"{where}.drawstyle", "must be 'default' (lines) or 'steps-post' (a step per change)")
    return Figure(**doc)


def _parse_row(file: Path, i: int, doc: Any, parts: set[str], figures: set[str]) -> Row:
    where = f"row[{i}]"
    _check_keys(file, where, doc, _ROW_KEYS, ("id", "source", "quantity", "value", "unit", "reason"))
    for key in ("id", "source", "quantity", "reason"):
        _string(file, f"{where}.{key}", doc[key])
    if not isinstance(doc["unit"], str):
        raise _error(file, f"{where}.unit", "must be a string (\"\" for a pure number)")
    row_id = doc["id"]
    if row_id.split(".", 1)[0] not in parts or "." not in row_id:
        raise _error(file, f"{where}.id", f"{row_id!r} must start with a part name and a dot ({', '.join(sorted(parts))})")
    _number(file, f"{where}.value", doc["value"])
    kind = doc.get("kind", "two-sided")
    if kind not in ("two-sided", "max", "min"):
        raise _error(file, f"{where}.kind", f"{kind!r}: expected 'max' or 'min' (one-sided bound) or 'two-sided'")
    tols = [k for k in ("tol_abs", "tol_rel") if k in doc]
    if len(tols) > 1:
        raise _error(file, f"{where}.tol_rel", "give tol_abs or tol_rel, not both")
    if not tols and kind == "two-sided":
        raise _error(file, f"{where}", "needs tol_abs or tol_rel (or kind = 'max'/'min')")
    for k in tols:
        if _number(file, f"{where}.{k}", doc[k]) < 0:
            raise _error(file, f"{where}.{k}", "must not be negative")
    status = doc.get("status", "check")
    if status not in ("check", "known-fail"):
        raise _error(file, f"{where}.status", f"{status!r}: expected 'known-fail' (or leave it out)")
    if status == "known-fail" and not str(doc.get("why", "")).strip():
        raise _error(file, f"{where}.why", "required with status = 'known-fail': say why nsim cannot match yet")
    if not isinstance(doc.get("quick", True), bool):
        raise _error(file, f"{where}.quick", "must be true or false")
    if "figure" in doc:
        if doc["figure"] not in figures:
            raise _error(file, f"{where}.figure", f"no figure named {doc['figure']!r}")
        if "x" not in doc:
            raise _error(file, f"{where}.x", "required with figure: where the paper's point lies on the x axis")
    if not isinstance(doc.get("params", {}), dict):
        raise _error(file, f"{where}.params", "must be a table")
    if "evidence" in doc and doc["evidence"] not in EVIDENCE:
        raise _error(file, f"{where}.evidence", f"{doc['evidence']!r}: expected one of {', '.join(EVIDENCE)}")
    if "metric" in doc:
        _string(file, f"{where}.metric", doc["metric"])
    if "measure" in doc and doc["measure"] not in MEASURES:
        raise _error(file, f"{where}.measure", f"{doc['measure']!r}: expected one of {', '.join(MEASURES)}")
    if doc.get("measure") == "share" and "fair" not in doc:
        raise _error(file, f"{where}.fair", "required with measure = 'share': what a perfectly fair outcome reads")
    if "fair" in doc:
        _number(file, f"{where}.fair", doc["fair"])
    if "of" in doc:
        of = doc["of"]
        if not (isinstance(of, list) and len(of) == 2 and all(isinstance(x, str) and x for x in of)):
            raise _error(file, f"{where}.of", "two row ids: the row is nsim(a) - nsim(b) (or a / b with op = 'ratio')")
    if doc.get("op", "diff") not in ("diff", "ratio"):
        raise _error(file, f"{where}.op", f"{doc['op']!r}: expected 'diff' or 'ratio'")
    if "op" in doc and "of" not in doc:
        raise _error(file, f"{where}.op", "needs `of` (the two rows it combines)")
    return Row(**{**doc, "value": float(doc["value"])})


def _check_references(file: Path, rows: list[Row]) -> None:
    """Every derived row names two rows that exist and are measured by a reducer, and every
    ``{row:<id>}`` of a ``why`` names a row (a value the run has), so no page says "n/a" for a
    number that was never going to be measured."""
    by_id = {r.id: r for r in rows}
    for i, r in enumerate(rows):
        for name in r.of or []:
            if name not in by_id:
                raise _error(file, f"row[{i}].of", f"no row {name!r} in this study")
            if by_id[name].derived:
                raise _error(file, f"row[{i}].of", f"{name!r} is itself derived: name the measured rows")
        for name in why_row_refs(r.why):
            if name not in by_id:
                raise _error(file, f"row[{i}].why", f"{{row:{name}}} names no row of this study")
    _check_contrasts(file, rows)


def _check_contrasts(file: Path, rows: list[Row]) -> None:
    """A ``contrast`` names a published row of the study, itself without a contrast, that every
    null predictor fails: an effect the paper shows beside the row's claim (see
    :func:`nsim.scoring.null_passed`), so that the pair is something no model-free guess gives."""
    by_id = {r.id: r for r in rows}
    preds = null_predictions(rows)
    for i, r in enumerate(rows):
        if r.contrast is None:
            continue
        where = f"row[{i}].contrast"
        if r.evidence != "published":
            raise _error(file, where, "only a published row can have a contrast")
        other = by_id.get(r.contrast)
        if other is None:
            raise _error(file, where, f"no row {r.contrast!r} in this study")
        if other.evidence != "published" or other.contrast is not None:
            raise _error(file, where, f"{r.contrast!r} must be a published row without a contrast of its own")
        guessed = [name for name, values in preds.items() if predictor_passes(other, values, by_id)]
        if guessed:
            raise _error(file, where, f"{r.contrast!r} is passed by the {', '.join(guessed)} null predictor: "
                                      "a contrast must be an effect no null predictor gives")


def _parse_keys(file: Path, docs: Any, rows: list[Row]) -> list[Key]:
    """``[[key]]``: the paper's key results, each with the rows that test it."""
    if not isinstance(docs, list):
        raise _error(file, "key", "must be an array of tables ([[key]])")
    keys, ids = [], [r.id for r in rows]
    for i, doc in enumerate(docs):
        where = f"key[{i}]"
        _check_keys(file, where, doc, _KEY_KEYS, ("id", "claim", "source"))
        for name in ("id", "claim", "source"):
            _string(file, f"{where}.{name}", doc[name])
        patterns = doc.get("rows", [])
        if not isinstance(patterns, list) or not all(isinstance(p, str) and p for p in patterns):
            raise _error(file, f"{where}.rows", "a list of row ids or fnmatch patterns")
        key = Key(doc["id"], doc["claim"], doc["source"], list(patterns), str(doc.get("why", "")))
        for p in patterns:
            if not any(rid == p or fnmatch.fnmatchcase(rid, p) for rid in ids):
                raise _error(file, f"{where}.rows", f"{p!r} matches no row of this study")
        if not patterns and not key.why.strip():
            raise _error(file, f"{where}.why", "required when `rows` is empty: why the claim is not measured")
        keys.append(key)
    seen = [k.id for k in keys]
    if len(set(seen)) != len(seen):
        raise _error(file, "key", f"key ids repeat: {sorted({k for k in seen if seen.count(k) > 1})}")
    return keys


def load_study(directory: Union[str, os.PathLike[str]]) -> Study:
    """Read and check ``study.toml``, ``expected.toml`` and ``reduce.py`` of a study directory.

    Raises:
        StudyError: naming the file, the field and the reason (unknown keys, missing
            reducer, duplicate or orphan row ids, bad tolerances, ...).
    """
    d = Path(directory)
    if not d.is_dir():
        raise _error(d, "", "not a directory (expected a study directory with study.toml)")
    study_file, expected_file, reduce_file = d / "study.toml", d / "expected.toml", d / "reduce.py"
    doc = _read_toml(study_file)
    _check_keys(study_file, "", doc, {"title", "citation", "description", "part", "figure"},
                ("title", "citation", "part"))
    module = _load_module(reduce_file)
    if not isinstance(doc["part"], list) or not doc["part"]:
        raise _error(study_file, "part", "at least one [[part]]")
    parts = [_parse_part(study_file, i, p, module, reduce_file) for i, p in enumerate(doc["part"])]
    names = [p.name for p in parts]
    if len(set(names)) != len(names):
        raise _error(study_file, "part", f"part names repeat: {names}")
    figures = [_parse_figure(study_file, i, f, set(names)) for i, f in enumerate(doc.get("figure", []))]
    if len({f.name for f in figures}) != len(figures):
        raise _error(study_file, "figure", "figure names repeat")
    expected = _read_toml(expected_file)
    _check_keys(expected_file, "", expected, {"row", "key"}, ("row",))
    rows = [_parse_row(expected_file, i, r, set(names), {f.name for f in figures})
            for i, r in enumerate(expected["row"])]
    _check_references(expected_file, rows)
    seen: set[str] = set()
    for i, r in enumerate(rows):
        if r.id in seen:
            raise _error(expected_file, f"row[{i}].id", f"{r.id!r} repeats")
        seen.add(r.id)
    keys = _parse_keys(expected_file, expected.get("key", []), rows)
    return Study(d, doc["title"], doc["citation"], parts, figures, rows, module, doc.get("description", ""), keys)


def _seeds(file: Path, where: str, seeds: Any) -> list[int]:
    from .scenario import MAX_SEED
    from .sweeps import MAX_SEEDS

    if isinstance(seeds, int) and not isinstance(seeds, bool) and 0 < seeds <= MAX_SEEDS:
        return list(range(1, seeds + 1))
    if isinstance(seeds, list) and seeds and len(seeds) <= MAX_SEEDS \
            and all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= MAX_SEED for s in seeds) \
            and len(set(seeds)) == len(seeds):
        return list(seeds)
    raise _error(file, where, f"a positive count or a non-empty list of distinct seeds (at most {MAX_SEEDS:,}, "
                              f"each below 2**64)")


def part_spec(study: Study, index: int, quick: bool) -> Optional[SweepSpec]:
    """The sweep of part ``index`` with the part's (and, if ``quick``, its quick) overrides
    applied, checked against the scenario schema; None for a part without a sweep."""
    part = study.parts[index]
    if part.sweep is None:
        return None
    file, where = study.dir / "study.toml", f"part[{index}]"
    spec = load_sweep(study.dir / part.sweep)
    scenario, grid, seeds = copy.deepcopy(spec.scenario), dict(spec.grid), spec.seeds
    layers = [("", {"seeds": part.seeds, "set": part.set, "grid": part.grid})]
    if quick:
        layers.append(("quick.", part.quick))
    for prefix, layer in layers:
        for path, value in layer.get("set", {}).items():
            try:
                set_path(scenario, path, value)
            except ValueError as e:
                raise _error(file, f"{where}.{prefix}set.{path}", str(e)) from None
        for path, values in layer.get("grid", {}).items():
            if not isinstance(values, list) or not values:
                raise _error(file, f"{where}.{prefix}grid.{path}", "a non-empty list of values")
            grid[path] = values
        if layer.get("seeds") is not None:
            seeds = _seeds(file, f"{where}.{prefix}seeds", layer["seeds"])
    extract = Extract.of(study.dir / "reduce.py", part.extract) if part.extract else None
    spec = dataclasses.replace(spec, scenario=scenario, grid=grid, seeds=seeds, extract=extract,
                               name=f"{study.name}.{part.name}")
    _validate_overrides(spec, file, where)
    return spec


def _validate_overrides(spec: SweepSpec, file: Path, where: str) -> None:
    """Validate the scenario at every grid value (one axis at a time) before running anything,
    so a typo in an override exits 2 instead of failing every run."""
    from .scenario import Scenario

    points = [{}] + [{p: v} for p, values in spec.grid.items() for v in values]
    for point in points:
        config = copy.deepcopy(spec.scenario)
        try:
            for p, v in point.items():
                set_axis(config, p, v)
            Scenario.from_dict(config, source=f"{file} ({where})").validate()
        except ValueError as e:
            at = f" with {next(iter(point))} = {next(iter(point.values()))!r}" if point else ""
            raise _error(file, where, f"the part's scenario{at} is invalid: {e}") from None


def _call_reducer(study: Study, part: Part, table: pd.DataFrame) -> dict[str, Any]:
    """Call the part's reducer and check what it returns (unknown ids are study errors)."""
    fn: Callable[..., Any] = getattr(study.reducers, part.reducer)
    rows = [dataclasses.asdict(r) for r in study.rows if r.part == part.name and not r.derived]
    where = f"{part.reducer}()"
    reduce_file = study.dir / "reduce.py"
    try:
        nargs = len(inspect.signature(fn).parameters)
        out = fn(table, rows) if nargs >= 2 else fn(table)
    except Exception as e:
        raise _error(reduce_file, where, f"raised {type(e).__name__}: {e}") from e
    if not isinstance(out, dict):
        raise _error(reduce_file, where, f"must return a dict of row id -> value, not {type(out).__name__}")
    frames = out.pop("__frames__", {})
    ids = {r["id"] for r in rows}
    for key, value in out.items():
        if key not in ids:
            raise _error(reduce_file, where, f"returned {key!r}, which is not a row of part {part.name!r} in expected.toml")
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            try:
                out[key] = float(value)
            except (TypeError, ValueError):
                raise _error(reduce_file, where, f"value of {key!r} must be a number, not {value!r}") from None
    if not isinstance(frames, dict) or not all(isinstance(v, pd.DataFrame) for v in frames.values()):
        raise _error(reduce_file, where, "__frames__ must be a dict of figure name -> DataFrame")
    return {"values": out, "frames": frames}


def with_ns235(values: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """For reducers: ``values`` with each value also under ``<id>_ns235`` where the study has
    that row, the ``ns2`` row that holds ns-2.35's value of the same quantity on the same
    scenario (the convention of experiments/*/expected.toml); other keys pass unchanged.

    Args:
        values: The reducer's row id -> value (``__frames__`` and the like are left alone).
        rows: The part's rows, as the reducer receives them.
    """
    ids = {r["id"] for r in rows}
    return values | {k + "_ns235": v for k, v in values.items() if k + "_ns235" in ids}


def only_rows(values: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """For reducers whose tables compute more than the part's rows check: ``values`` without the
    ids that are not rows of the part (a reducer may not return those); ``__frames__`` and other
    ``__`` keys pass unchanged.

    Args:
        values: The reducer's row id -> value.
        rows: The part's rows, as the reducer receives them.
    """
    ids = {r["id"] for r in rows}
    return {k: v for k, v in values.items() if k in ids or k.startswith("__")}


def compare(row: Row, measured: Optional[float], quick: bool = False, failure: str = "",
            stats: Optional[SeedStats] = None, values: Optional[dict[str, Optional[float]]] = None,
            contrast_status: Optional[str] = None) -> dict[str, Any]:
    """One line of the results table: the row, what nsim measured, and its status.

    ``status`` is ``pass``, ``FAIL`` (outside the tolerance, or not measured), ``known-fail``
    (a row marked known-fail that fails), ``xpass`` (a known-fail row that now passes: update
    expected.toml) or ``skip`` (``quick = false`` rows under --quick).

    ``stats`` (the row over seeds) fills ``seeds``, ``mean`` and ``ci95``; with at least
    :data:`nsim.scoring.MIN_SEEDS_FOR_CI` seeds the row passes when the paper's value lies
    within the tolerance of nsim's 95 % interval. A pass that needs the interval (nsim's value
    itself lies outside the tolerance) sets ``interval_only`` and says so in the note: the
    paper's value is consistent with nsim's runs, but the seeds spread too widely for the row
    to tell much. ``values`` (every row's measured value) fills
    the ``{row:<id>}`` placeholders of the ``why`` text. ``contrast_status`` is the status of
    the row's ``contrast``: the row claims no difference beside that effect, so it passes only
    when the contrast passes too; when the contrast was not checked (``--quick``, ``--part``)
    the row is checked alone and its note says so.
    """
    m = float("nan") if measured is None else float(measured)
    line = {"id": row.id, "part": row.part, "evidence": row.evidence, "quantity": row.quantity, "unit": row.unit,
            "paper": row.value, "nsim": m, "diff": m - row.value,
            "rel_diff": (m - row.value) / abs(row.value) if row.value else float("nan"),
            "seeds": stats.n if stats else (1 if not math.isnan(m) else 0),
            "mean": stats.mean if stats else m, "ci95": stats.ci95 if stats else float("nan"),
            "tolerance": row.tolerance_text(), "tol_abs": row.tolerance, "kind": row.kind, "interval_only": False,
            "source": row.source, "reason": row.reason}
    line["why"] = render_why(row.why, line, values or {})
    if quick and not row.quick:
        return {**line, "status": "skip", "note": "not checked with --quick"}
    if failure:
        ok, note = False, failure
    elif math.isnan(m):
        ok, note = False, "not measured"
    else:
        ok = passes(row, m, stats.ci95 if stats is not None and stats.n >= MIN_SEEDS_FOR_CI else 0.0)
        line["interval_only"] = ok and not passes(row, m)
        note = ("on nsim's 95 % interval only: its value lies outside the tolerance" if line["interval_only"]
                else "" if ok else "outside tolerance")
    if row.contrast is not None:
        if contrast_status in (None, "skip"):
            note = "; ".join(n for n in (note, f"its contrast {row.contrast} was not checked in this run") if n)
        elif ok and contrast_status not in ("pass", "xpass"):
            ok, note = False, f"within tolerance, but its contrast {row.contrast} does not hold"
        elif ok:
            note = "; ".join(n for n in (f"with its contrast {row.contrast}", note) if n)
    if row.status == "known-fail":
        return {**line, "status": "xpass" if ok else "known-fail",
                "note": "passes now: remove status = 'known-fail'" if ok else (note + "; known: " + line["why"])}
    return {**line, "status": "pass" if ok else "FAIL", "note": note}


def study_digest(directory: Union[str, os.PathLike[str]]) -> str:
    """SHA-256 (first 16 hex digits) of a study's inputs: every ``.toml`` and ``.py`` file below
    the study directory, and the scenario files its sweeps name outside it. A committed page
    whose digest differs from the files' was not written by a run of the current study."""
    d = Path(directory).resolve()
    files = sorted(p for p in d.rglob("*") if p.is_file() and p.suffix in (".toml", ".py")
                   and "__pycache__" not in p.parts)
    for sweep_file in sorted(d.glob("*.sweep.toml")):
        try:
            scenario = tomllib.loads(sweep_file.read_text(encoding="utf-8")).get("scenario")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        if isinstance(scenario, str) and (sweep_file.parent / scenario).resolve().is_file():
            files.append((sweep_file.parent / scenario).resolve())
    h = hashlib.sha256()
    for f in dict.fromkeys(files):
        name = f.relative_to(d).as_posix() if f.is_relative_to(d) else os.path.relpath(f, d)
        h.update(name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _stamp(directory: Path) -> dict[str, Any]:
    """Commit (short hash, and whether the work tree had changes), UTC date, input digest."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", "-C", str(directory), *args], capture_output=True, text=True,
                                  timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    return {"commit": git("rev-parse", "--short=10", "HEAD") or "unknown",
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "digest": study_digest(directory), "cores": os.cpu_count() or 1}


def _per_seed(study: Study, part: Part, table: pd.DataFrame) -> tuple[dict[str, dict[int, Optional[float]]], str]:
    """The part's rows reduced on each seed's runs alone: ``({row id: {seed: value}}, "")``;
    empty with fewer than two seeds, and with the reason when the reducer cannot reduce one
    seed's table (the rows then have no interval)."""
    if "seed" not in table or table["seed"].nunique() < 2:
        return {}, ""
    out: dict[str, dict[int, Optional[float]]] = {}
    for seed, sub in table.groupby("seed", sort=True):
        try:
            values = _call_reducer(study, part, sub.reset_index(drop=True))["values"]
        except StudyError as e:
            return {}, f"{part.name}: no interval over seeds: the reducer failed on seed {seed} alone ({e.reason})"
        for rid, v in values.items():
            out.setdefault(rid, {})[int(seed)] = v
    return out, ""


def _derived_seeds(row: Row, per_seed: dict[str, dict[int, Optional[float]]]) -> dict[int, Optional[float]]:
    a, b = (per_seed.get(name, {}) for name in row.of or [])
    return {seed: derive(row.op, a[seed], b[seed]) for seed in sorted(set(a) & set(b))}


def _run_failures(result: SweepResult) -> str:
    """'' if every run worked, else the failure note for the part's rows."""
    if not result.failed:
        return ""
    first = result.table.loc[result.table["error"].notna(), "error"].iloc[0]
    return f"{result.failed} runs failed; first: {first}"


def reproduce(
    study: Union[str, os.PathLike[str], Study],
    quick: bool = False,
    out: Union[str, os.PathLike[str], None] = None,
    workers: Optional[int] = None,
    scheduler: Any = None,
    parts: Optional[list[str]] = None,
    progress: bool = False,
    log: Optional[Callable[[str], None]] = None,
    force: bool = False,
) -> ReproduceResult:
    """Run a study and compare it with the paper.

    Args:
        study: A study directory (or a :class:`Study` from :func:`load_study`).
        quick: Apply each part's ``[part.quick]`` overrides and skip rows with ``quick = false``
            (what CI runs).
        out: Output directory (default ``out/reproduce/<study>`` or ``...-quick``); holds
            each part's run cache, so a second call only runs what is missing.
        workers: Local worker processes per sweep (default: all cores).
        scheduler: A Dask scheduler address or Client (see :func:`nsim.sweeps.sweep`).
        parts: Only these parts (and their rows); default all.
        progress: Show a progress bar per sweep.
        log: Called with one line per part (e.g. ``print``); default silent.
        force: Write ``out`` even if it holds files nsim did not write (see :mod:`nsim.outdir`).

    Returns:
        A :class:`ReproduceResult`; ``results.csv`` and ``report.html`` are in ``out``.

    Raises:
        StudyError: invalid study files, an unknown part, a reducer that raises or returns
            ids that are not rows.
    """
    started = time.perf_counter()
    st = study if isinstance(study, Study) else load_study(study)
    say = log or (lambda _line: None)
    known = [p.name for p in st.parts]
    for name in parts or []:
        if name not in known:
            raise _error(st.dir / "study.toml", "part", f"no part named {name!r} (parts: {', '.join(known)})")
    chosen = [i for i, p in enumerate(st.parts) if not parts or p.name in parts]
    specs = {i: part_spec(st, i, quick) for i in chosen}  # all checked before anything runs
    out_dir = Path(out) if out is not None else Path("out") / "reproduce" / (st.name + ("-quick" if quick else ""))
    check_dir(str(out_dir), "reproduce", force)
    out_dir.mkdir(parents=True, exist_ok=True)
    mark(str(out_dir), "reproduce")  # at once, so an interrupted reproduction is known as one when resumed
    frames, sweeps = {}, {}
    measured: dict[str, Optional[float]] = {}
    per_seed: dict[str, dict[int, Optional[float]]] = {}
    failures: dict[str, str] = {}
    for i in chosen:
        part, spec = st.parts[i], specs[i]
        failure, table = "", pd.DataFrame()
        if spec is not None:
            result = sweep(spec, out=out_dir / part.name, workers=workers, scheduler=scheduler, progress=progress,
                           force=force)
            sweeps[part.name] = result
            failure = _run_failures(result)
            table = result.table[result.table["error"].isna()].reset_index(drop=True)
            say(f"{part.name}: {result.ran + result.cached} runs ({result.ran} ran, {result.cached} cached, "
                f"{result.failed} failed) in {result.wall_s:.1f} s")
        reduced = _call_reducer(st, part, table) if len(table) or spec is None else {"values": {}, "frames": {}}
        frames.update(reduced["frames"])
        measured.update(reduced["values"])
        seeds, problem = _per_seed(st, part, table) if len(table) else ({}, "")
        per_seed.update(seeds)
        if problem:
            say(problem)
        failures[part.name] = failure
    by_id = {r.id: r for r in st.rows}
    ran = {st.parts[i].name for i in chosen}
    for row in st.rows:
        if row.derived and row.part in ran:
            measured[row.id] = derive(row.op, *(measured.get(name) for name in row.of or []))
            per_seed[row.id] = _derived_seeds(row, per_seed)
    pending = []  # compare()'s arguments per row; rows with a contrast are compared after it
    for row in st.rows:
        if row.part not in ran:
            continue
        failure = failures[row.part]
        if row.derived:
            inputs = [by_id[name] for name in row.of or []]
            missing = [r.id for r in inputs if r.part not in ran]
            failure = "; ".join(f for f in [failure] + [failures.get(r.part, "") for r in inputs] if f)
            if missing:
                failure = f"needs {', '.join(missing)}, whose part did not run"
            if quick and not all(r.quick for r in inputs):
                row = dataclasses.replace(row, quick=False)
        pending.append((row, measured.get(row.id), quick, failure, seed_stats(per_seed.get(row.id, {}).values())))
    done = {args[0].id: compare(*args, values=measured) for args in pending if args[0].contrast is None}
    lines = [done.get(args[0].id) or compare(*args, values=measured,
                                             contrast_status=done.get(args[0].contrast or "", {}).get("status"))
             for args in pending]
    rows = pd.DataFrame(lines, columns=list(COLUMNS))
    res = ReproduceResult(st, rows, frames, sweeps, out_dir, quick, time.perf_counter() - started, _stamp(st.dir))
    trivial = rows["id"].isin(res.trivial) & rows["status"].isin(["pass", "xpass"])
    rows.loc[trivial, "note"] = [f"{n}; " if n else "" for n in rows.loc[trivial, "note"]]
    rows.loc[trivial, "note"] += "a null predictor passes this row too: no evidence, not counted for the key results"
    from .reproduction_report import write_html, write_markdown

    write_via(str(res.csv), lambda tmp: rows.to_csv(tmp, index=False))
    write_markdown(res, res.out / "results.md")
    write_html(res, res.html)
    return res
