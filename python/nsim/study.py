"""What a study is (its parts, figures, expected rows and key results) and what reproducing it
produced: the data that :mod:`nsim.reproduction` fills and :mod:`nsim.reproduction_report`
writes out, kept apart from both so that neither imports the other.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import pandas as pd

from .scoring import Key, key_verdicts, null_passed, null_scores
from .sweeps import SweepResult

__all__ = ["COLUMNS", "STATUSES", "Part", "Figure", "Row", "Study", "ReproduceResult"]

#: Columns of :attr:`ReproduceResult.rows` (and results.csv).
COLUMNS = ("id", "part", "evidence", "quantity", "unit", "paper", "nsim", "diff", "rel_diff", "seeds", "mean",
           "ci95", "tolerance", "tol_abs", "kind", "status", "interval_only", "note", "source", "reason", "why")

#: Row statuses, in report order. ``FAIL`` is the only one that makes a study fail.
STATUSES = ("FAIL", "known-fail", "xpass", "pass", "skip")

@dataclass
class Part:
    """One sweep of a study and the reducer that turns its table into row values."""

    name: str
    reducer: str
    sweep: Optional[str] = None
    extract: Optional[str] = None
    seeds: Any = None
    set: dict[str, Any] = field(default_factory=dict)
    grid: dict[str, list[Any]] = field(default_factory=dict)
    quick: dict[str, Any] = field(default_factory=dict)
    description: str = ""


@dataclass
class Figure:
    """A figure of the paper: a reduced frame's ``y`` against ``x`` (one line per ``series``),
    with the paper's points (expected rows naming this figure) overlaid."""

    name: str
    part: str
    title: str
    x: str
    y: str
    xlabel: str
    ylabel: str
    series: Optional[str] = None
    xscale: str = "linear"
    yscale: str = "linear"
    caption: str = ""
    drawstyle: str = "default"


@dataclass
class Row:
    """One published number and how close nsim must come to it."""

    id: str
    source: str
    quantity: str
    value: float
    unit: str
    reason: str
    tol_abs: Optional[float] = None
    tol_rel: Optional[float] = None
    quick: bool = True
    kind: str = "two-sided"
    status: str = "check"
    why: str = ""
    figure: Optional[str] = None
    x: Any = None
    series: Any = None
    params: dict[str, Any] = field(default_factory=dict)
    evidence: str = ""
    metric: Optional[str] = None
    measure: Optional[str] = None
    fair: Optional[float] = None
    of: Optional[list[str]] = None
    op: str = "diff"
    contrast: Optional[str] = None

    @property
    def derived(self) -> bool:
        """True for a row measured from two other rows (``of``), not by a reducer."""
        return self.of is not None

    @property
    def metric_name(self) -> str:
        """The null predictor's group: ``metric``, else the quantity up to its first comma."""
        return self.metric or self.quantity.split(",", 1)[0].strip()

    @property
    def measure_kind(self) -> str:
        """``measure``, else difference/ratio for a derived row, else level."""
        if self.measure:
            return self.measure
        if self.derived:
            return "ratio" if self.op == "ratio" else "difference"
        return "level"

    @property
    def part(self) -> str:
        """The part whose reducer measures this row (the id's first component)."""
        return self.id.split(".", 1)[0]

    @property
    def tolerance(self) -> float:
        """The absolute tolerance (0 for a one-sided bound without slack)."""
        if self.tol_abs is not None:
            return float(self.tol_abs)
        if self.tol_rel is not None:
            return float(self.tol_rel) * abs(self.value)
        return 0.0

    def tolerance_text(self) -> str:
        """``±0.5 %`` (relative), ``±3 pkts`` (absolute), ``≤ 12 s`` / ``≥ 4`` (bounds)."""
        unit = f" {self.unit}" if self.unit else ""
        if self.kind == "max":
            return f"≤ {_num(self.value + self.tolerance)}{unit}"
        if self.kind == "min":
            return f"≥ {_num(self.value - self.tolerance)}{unit}"
        if self.tol_rel is not None:
            return f"±{_num(100 * self.tol_rel)} %"
        return f"±{_num(self.tolerance)}{unit}"


@dataclass
class Study:
    """A parsed and checked study directory."""

    dir: Path
    title: str
    citation: str
    parts: list[Part]
    figures: list[Figure]
    rows: list[Row]
    reducers: Any  # the loaded reduce.py module
    description: str = ""
    keys: list[Key] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The directory name (``red_two_source``)."""
        return self.dir.name


def _num(x: float) -> str:
    """A number for tables: 4 significant digits, no exponent for ordinary magnitudes."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return f"{x:.4g}"


@dataclass
class ReproduceResult:
    """What :func:`reproduce` produced (also written to ``out``).

    Attributes:
        study: The parsed study.
        rows: One row per expected number: id, part, quantity, unit, paper, nsim, diff,
            rel_diff, tolerance, status, note, source, reason.
        frames: Figure name -> the reduced frame the figure plots.
        sweeps: Part name -> its :class:`nsim.sweeps.SweepResult` (parts with a sweep).
        out: Output directory (``results.csv``, ``results.md``, ``report.html``, one sweep
            directory per part).
        quick: Whether the quick overrides were applied.
        wall_s: Wall-clock time.
        stamp: Where and when it was measured: ``commit``, ``dirty``, ``date``, ``digest``
            (of the study's input files, see :func:`study_digest`), ``cores``.
    """

    study: Study
    rows: pd.DataFrame
    frames: dict[str, pd.DataFrame]
    sweeps: dict[str, SweepResult]
    out: Path
    quick: bool
    wall_s: float
    stamp: dict[str, Any] = field(default_factory=dict)

    @functools.cached_property
    def trivial(self) -> set[str]:
        """Published rows a null predictor passes (:func:`nsim.scoring.null_passed`)."""
        return null_passed(self.study.rows)

    @property
    def keys(self) -> list[dict[str, Any]]:
        """One line per key result: id, claim, source, verdict, checked/passed published rows."""
        interval_only = set(self.rows.loc[self.rows["interval_only"].astype(bool), "id"])
        return key_verdicts(self.study.keys, self.rows, {r.id: r.evidence for r in self.study.rows}, self.trivial,
                            interval_only)

    @property
    def null(self) -> dict[str, Any]:
        """The null predictors' scores over the published rows this run checked."""
        checked = set(self.rows.loc[self.rows["status"] != "skip", "id"]) if len(self.rows) else set()
        return null_scores(self.study.rows, checked)

    @property
    def passed(self) -> bool:
        """True if no row has status FAIL."""
        return not (self.rows["status"] == "FAIL").any()

    @property
    def counts(self) -> dict[str, int]:
        """Rows per status."""
        return {s: int((self.rows["status"] == s).sum()) for s in STATUSES if (self.rows["status"] == s).any()}

    @property
    def csv(self) -> Path:
        return self.out / "results.csv"

    @property
    def html(self) -> Path:
        return self.out / "report.html"
