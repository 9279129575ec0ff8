"""The Holl 2003 study (experiments/holl2003): its generated files are current, its expected
rows are well formed, and one CBQ part reproduces the thesis' published CBR delay."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from nsim.sweeps import load_sweep, sweep

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


def test_one_call_under_cbq_sees_holl_s_462_ms(tmp_path: Path) -> None:
    """§4.2.3: 'with only one active call, CBR packets experienced a 462 ms delay' (460 ms
    propagation), with no loss, under CBQ and CBQ+RED with Table 4.7's 2-packet buffer."""
    spec = load_sweep(STUDY / "ch4cbq1.sweep.toml")
    spec.grid["flows[0].transport.variant"] = ["newreno"]
    got = module("reduce").ch4cbq1(sweep(spec, out=tmp_path, workers=2).table)
    for q in ("cbq", "cbq_red"):
        assert got[f"ch4cbq1.{q}.cbr_delay_ms.n1"] == pytest.approx(462.0, abs=1.5)
        assert got[f"ch4cbq1.{q}.cbr_loss_pct.n1"] == 0.0
    assert got["ch4cbq1.cbr_qlen_used"] == 2.0
