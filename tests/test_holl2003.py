"""The Holl 2003 study (experiments/holl2003): its generated files are current, its expected
rows are well formed, and its quick reproduction passes."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from nsim import reproduce

STUDY = Path(__file__).resolve().parent.parent / "experiments" / "holl2003"


def module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"holl2003_{name}", STUDY / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_generated_scenarios_and_sweeps_are_current(tmp_path: Path) -> None:
    module("generate").main(tmp_path)
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.toml"))
    assert made, "generate.py wrote nothing"
    for rel in made:
        assert (tmp_path / rel).read_text() == (STUDY / rel).read_text(), f"{rel} is stale: run generate.py"


def test_expected_rows_name_their_part_source_and_tolerance() -> None:
    study = tomllib.loads((STUDY / "study.toml").read_text())
    parts = {p["name"] for p in study["part"]}
    rows = tomllib.loads((STUDY / "expected.toml").read_text())["row"]
    assert len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        assert r["id"].split(".")[0] in parts, r["id"]
        assert r["source"].startswith("Holl 2003"), r["id"]
        assert ("tol_abs" in r) != ("tol_rel" in r), r["id"]
        assert r["reason"], r["id"]
        assert r.get("kind", "value") in ("value", "max", "min"), r["id"]
        if r.get("status") == "known-fail":
            assert "issue" in r["why"], r["id"]


def test_table_4_7_is_eq_4_2() -> None:
    eq = module("generate").eq_4_2
    assert [eq(n) for n in range(18)] == [2 * n for n in range(17)] + [51]


def test_quick_reproduction_passes(tmp_path: Path) -> None:
    """What CI runs: `nsim reproduce experiments/holl2003 --quick` (15 runs). Among its rows:
    §4.2.3's 462 ms CBR delay with one call under CBQ, 466 ms with 16, no loss below 17
    calls, the CBR loss at 17 calls with Drop-Tail and RED, and the 37 % frame error rate."""
    res = reproduce(STUDY, quick=True, out=tmp_path, workers=2)
    rows = res.rows.set_index("id")
    assert res.passed, rows[rows["status"] == "FAIL"][["paper", "nsim", "note"]]
    assert rows.loc["ch4cbq1.cbq.cbr_delay_ms.n1", "nsim"] == pytest.approx(462.0, abs=1.5)
    assert rows.loc["ch4cbq1.cbq.cbr_loss_pct.n1", "nsim"] == 0.0
    assert (rows["status"] == "pass").sum() >= 38
