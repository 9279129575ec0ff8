"""How much of a study nsim reproduces: evidence kinds, key results, null predictors, seeds.

A reproduction's row table says, row by row, whether nsim lands within the paper's tolerance.
Read as evidence that nsim reproduces the paper, row counts overstate it: some rows cannot
fail, some bands are so wide that a constant passes them, some rows compare with another
simulator rather than the paper. This module turns the row table into the claims that matter:

* **Evidence kinds.** Every row says what it is: ``published`` (a number, bound or ordering
  printed in the paper), ``ns2`` (compared with an ns-2.35 run of ours) or ``consistency``
  (a recalculation of the paper's own formula, or a property that holds by construction).
  Only ``published`` rows count as reproducing the paper.
* **Key results** (``[[key]]`` in expected.toml): the claims of the paper's abstract,
  conclusions and chapter summaries, each with the rows that test it. A key is
  ``reproduced`` when every checked published row behind it passes, ``partly`` when at least
  one does, ``not`` when none does, and ``not measured`` when no published row behind it was
  checked.
* **Null predictors.** Each published row is also scored against trivial predictors that know
  nothing of networks: a constant per metric (the median of the paper's other values of that
  metric), "perfectly fair" (Jain index 1, equal shares) and "no effect" (every difference 0,
  every ratio 1). A tolerance that the best of them passes as often as nsim does cannot tell
  a model from a guess; the report prints the share. A paper's claim of *no* difference
  ("the full TCPs resembled the one-way ones") is what "no effect" predicts, so such a row can
  name a ``contrast``: the effect the paper shows beside it in the same experiment (RED cuts
  the calls' loss by 10 points). The row then claims both, for nsim and for the predictors
  alike, and a guess that has no effects anywhere cannot pass it.
* **Seeds.** With several seeds the part's reducer is also run per seed; each row gets the
  seed count, mean and a Student-t 95 % interval, and with 5 or more seeds a row passes when
  the paper's value lies within the tolerance of nsim's interval.
"""

from __future__ import annotations

import fnmatch
import math
import re
import statistics
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Sequence

__all__ = ["EVIDENCE", "MEASURES", "VERDICTS", "MIN_SEEDS_FOR_CI", "NULL_TARGET", "Key", "SeedStats", "seed_stats",
           "derive", "passes", "null_predictions", "predictor_passes", "null_passed", "null_scores", "key_verdicts",
           "verdict_counts", "render_why", "why_row_refs"]

#: Row evidence kinds; only ``published`` counts as reproducing the paper.
EVIDENCE = ("published", "ns2", "consistency")

#: What a row's number is, for the null predictors.
MEASURES = ("level", "jain", "share", "difference", "ratio")

#: Key-result verdicts, in report order.
VERDICTS = ("reproduced", "partly", "not", "not measured")

#: Fewest seeds for which the 95 % interval widens a row's pass band (with 2-4 seeds the
#: t quantile, 12.7 to 3.2, makes the interval too wide to mean anything; it is still shown).
MIN_SEEDS_FOR_CI = 5

#: Largest share of published rows the best null predictor may pass (issue 23's target).
NULL_TARGET = 0.10

_PLACEHOLDER = re.compile(r"\{(nsim|paper|diff|ci|row:[^{}]+)\}")


@dataclass
class Key:
    """One key result of the paper and the rows that test it."""

    id: str
    claim: str
    source: str
    rows: list[str] = field(default_factory=list)
    why: str = ""

    def matches(self, row_id: str) -> bool:
        """True if ``row_id`` is one of this key's rows (exact id or fnmatch pattern)."""
        return any(row_id == p or fnmatch.fnmatchcase(row_id, p) for p in self.rows)


@dataclass(frozen=True)
class SeedStats:
    """A row's value over seeds: count, mean, sample standard deviation, 95 % half-width."""

    n: int
    mean: float
    sd: float
    ci95: float


def seed_stats(values: Iterable[Optional[float]]) -> Optional[SeedStats]:
    """Mean and Student-t 95 % half-width of the finite values (None below two values)."""
    xs = [float(v) for v in values if v is not None and math.isfinite(float(v))]
    if len(xs) < 2:
        return None
    from scipy.stats import t

    sd = statistics.stdev(xs)
    return SeedStats(len(xs), statistics.fmean(xs), sd, float(t.ppf(0.975, len(xs) - 1)) * sd / math.sqrt(len(xs)))


def derive(op: str, a: Optional[float], b: Optional[float]) -> Optional[float]:
    """A derived row's value from its two inputs: ``a - b`` (``diff``) or ``a / b`` (``ratio``)."""
    if a is None or b is None or math.isnan(a) or math.isnan(b):
        return None
    if op == "ratio":
        return a / b if b else None
    return a - b


def passes(row: Any, value: float, extra: float = 0.0) -> bool:
    """The row's own pass rule applied to ``value``: within the band, or on the right side of
    the bound, widened by ``extra`` (nsim's 95 % interval over seeds, when it counts) and by
    float noise."""
    slack = 1e-9 * max(1.0, abs(row.value)) + extra
    if row.kind == "max":
        return value <= row.value + row.tolerance + slack
    if row.kind == "min":
        return value >= row.value - row.tolerance - slack
    return abs(value - row.value) <= row.tolerance + slack


def _median_of_others(values: list[tuple[str, float]], rid: str) -> Optional[float]:
    others = [v for i, v in values if i != rid]
    return statistics.median(others) if others else None


def null_predictions(rows: Sequence[Any]) -> dict[str, dict[str, Optional[float]]]:
    """The three null predictors' values for every published row: ``{predictor: {id: value}}``.

    ``constant``: the median of the paper's *other* values of the row's metric (published rows
    of the same measure, unit and metric; leave-one-out, so a row never predicts itself), or,
    for a row alone in its metric, of the paper's other values of the same measure and unit;
    None (no prediction, never a pass) when there is none, and for every difference or ratio:
    an ordering row is written in the paper's direction by convention (A - B where the paper
    has A above B), so a median of the paper's orderings would "predict" that convention, not
    the network. ``fair``: 1 for a Jain index, the row's ``fair`` value for a share, else the
    constant. ``no_effect``: 0 for a difference, 1 for a ratio, else the constant.
    """
    published = [r for r in rows if r.evidence == "published"]
    by_metric: dict[tuple[str, str, str], list[tuple[str, float]]] = {}
    by_unit: dict[tuple[str, str], list[tuple[str, float]]] = {}
    for r in published:
        by_metric.setdefault((r.measure_kind, r.unit, r.metric_name), []).append((r.id, r.value))
        by_unit.setdefault((r.measure_kind, r.unit), []).append((r.id, r.value))
    constant: dict[str, Optional[float]] = {}
    for r in published:
        if r.measure_kind in ("difference", "ratio"):
            constant[r.id] = None
            continue
        c = _median_of_others(by_metric[(r.measure_kind, r.unit, r.metric_name)], r.id)
        constant[r.id] = c if c is not None else _median_of_others(by_unit[(r.measure_kind, r.unit)], r.id)
    fair, no_effect = dict(constant), dict(constant)
    for r in published:
        if r.measure_kind == "jain":
            fair[r.id] = 1.0
        elif r.measure_kind == "share":
            fair[r.id] = float(r.fair)
        elif r.measure_kind == "difference":
            no_effect[r.id] = 0.0
        elif r.measure_kind == "ratio":
            no_effect[r.id] = 1.0
    return {"constant": constant, "fair": fair, "no_effect": no_effect}


def null_passed(rows: Sequence[Any]) -> set[str]:
    """Ids of the published rows that at least one null predictor passes.

    A pass on such a row is no evidence that nsim reproduces anything: a predictor with no
    model passes it too (a paper's own "no difference" claim, a bound every plausible value
    meets). :func:`key_verdicts` therefore does not count nsim's pass on it; a failure on it
    still counts against the key result.
    """
    preds = null_predictions(rows)
    by_id = {r.id: r for r in rows}
    return {r.id for r in rows if r.evidence == "published"
            and any(predictor_passes(r, v, by_id) for v in preds.values())}


def predictor_passes(row: Any, values: Mapping[str, Optional[float]], by_id: Mapping[str, Any]) -> bool:
    """A null predictor's values pass ``row``, and its ``contrast`` too when it has one: a claim
    of no difference made beside an effect is passed only by a predictor that gives both."""
    def one(r: Any) -> bool:
        return values.get(r.id) is not None and passes(r, values[r.id])
    return one(row) and (row.contrast is None or one(by_id[row.contrast]))


def null_scores(rows: Sequence[Any], checked: Optional[set[str]] = None) -> dict[str, Any]:
    """How many published rows each null predictor passes, and the best of them.

    Args:
        rows: The study's rows (:class:`nsim.reproduction.Row`).
        checked: Only these row ids (e.g. those a --quick run checked); default all.

    Returns:
        ``{"published": N, "passes": {predictor: n}, "best": name, "best_passes": n,
        "share": n / N, "target": NULL_TARGET}``.
    """
    preds = null_predictions(rows)
    by_id = {r.id: r for r in rows}
    published = [r for r in rows if r.evidence == "published" and (checked is None or r.id in checked)]
    counts = {name: sum(predictor_passes(r, values, by_id) for r in published) for name, values in preds.items()}
    best = max(counts, key=lambda k: counts[k])
    n = len(published)
    return {"published": n, "passes": counts, "best": best, "best_passes": counts[best],
            "share": counts[best] / n if n else 0.0, "target": NULL_TARGET}


def key_verdicts(keys: Sequence[Key], table: Any, evidence: Mapping[str, str],
                 trivial: frozenset[str] | set[str] = frozenset(),
                 interval_only: frozenset[str] | set[str] = frozenset()) -> list[dict[str, Any]]:
    """One line per key: id, claim, source, verdict, the published rows checked and passing.

    ``table`` is the reproduction's row table (``id`` and ``status`` columns); ``evidence`` maps
    row id to its kind; ``trivial`` holds the rows a null predictor passes
    (:func:`null_passed`). Skipped rows (``--quick``) are not checked; ``known-fail`` and
    ``FAIL`` are checked and not passing; ``pass`` and ``xpass`` pass. A pass on a trivial row
    is not counted (``trivial_passes`` says how many were set aside): a key whose every
    checked row is such a pass is ``not measured``, since nothing that could tell a model from
    no model was measured. ``interval_only`` holds the rows that pass only on nsim's 95 %
    interval over seeds: they count (the paper's value is consistent with nsim's runs), and
    the rows text says how many of the passes they are (``interval_passes``).
    """
    status = dict(zip(table["id"], table["status"])) if len(table) else {}
    out = []
    for k in keys:
        mine = [rid for rid in status if k.matches(rid)]
        checked = [rid for rid in mine if evidence.get(rid) == "published" and status[rid] != "skip"]
        passed = [rid for rid in checked if status[rid] in ("pass", "xpass")]
        set_aside = [rid for rid in passed if rid in trivial]
        counted = [rid for rid in checked if rid not in set_aside]
        counted_passes = [rid for rid in passed if rid not in set_aside]
        others = [rid for rid in mine if evidence.get(rid) != "published" and status[rid] != "skip"]
        if not counted:
            verdict = "not measured"
        elif len(counted_passes) == len(counted):
            verdict = "reproduced"
        else:
            verdict = "partly" if counted_passes else "not"
        text = f"{len(counted_passes)} / {len(counted)}"
        on_interval = [rid for rid in counted_passes if rid in interval_only]
        if on_interval:
            text += f" ({len(on_interval)} of them on nsim's 95 % interval only)"
        if set_aside:
            text += f" (+{len(set_aside)} that a null predictor passes too, not counted)"
        out.append({"id": k.id, "claim": k.claim, "source": k.source, "verdict": verdict,
                    "checked": len(counted), "passed": len(counted_passes), "trivial_passes": len(set_aside),
                    "interval_passes": len(on_interval),
                    "rows_text": text,
                    "other_rows": len(others), "rows": mine, "why": k.why})
    return out


def verdict_counts(lines: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Keys per verdict, every verdict present (zeros included), in :data:`VERDICTS` order."""
    return {v: sum(1 for line in lines if line["verdict"] == v) for v in VERDICTS}


def _fmt(x: Optional[float]) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.4g}"


def why_row_refs(text: str) -> list[str]:
    """The row ids a ``why`` text quotes through ``{row:<id>}`` placeholders."""
    return [m[4:] for m in _PLACEHOLDER.findall(text) if m.startswith("row:")]


def render_why(text: str, line: Mapping[str, Any], measured: Mapping[str, Optional[float]]) -> str:
    """Fill a ``why`` text's placeholders from the run: ``{nsim}``, ``{paper}``, ``{diff}``,
    ``{ci}`` (this row) and ``{row:<id>}`` (another row's measured value); 4 significant
    digits, ``n/a`` where nothing was measured. Unknown placeholders are left as written."""
    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if name.startswith("row:"):
            return _fmt(measured.get(name[4:]))
        return _fmt(line.get({"nsim": "nsim", "paper": "paper", "diff": "diff", "ci": "ci95"}[name]))
    return _PLACEHOLDER.sub(one, text)
