"""The Bakthavachalu 2004 study (experiments/bakthavachalu2004): rows well formed, and
its quick reproduction (two-flow 15 Mb/s Reno/Sack1/SF-SACK/TFRC rows of Table 6.2, n = 4 of
Tables 5.2/5.4) passes, SF-SACK's throughput CoV well below Sack1's."""

from __future__ import annotations

import csv
import json
import re
import tomllib
from pathlib import Path

import pytest

from nsim import reproduce
from conftest import load_module

STUDY = Path(__file__).resolve().parent.parent / "experiments" / "bakthavachalu2004"


def test_expected_rows_name_their_part_source_and_tolerance() -> None:
    parts = {p["name"] for p in tomllib.loads((STUDY / "study.toml").read_text())["part"]}
    rows = tomllib.loads((STUDY / "expected.toml").read_text())["row"]
    assert len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        assert r["id"].split(".")[0] in parts, r["id"]
        assert r["source"] and r["reason"], r["id"]
        assert ("tol_abs" in r) != ("tol_rel" in r), r["id"]
        assert r.get("status") != "known-fail" or r.get("why"), r["id"]
        assert r.get("evidence") in ("published", "ns2", "consistency"), r["id"]


def test_key_results_name_rows_and_quick_checks_each_table_group() -> None:
    """Every key result's rows exist; the quick run checks a published value of every table or
    figure group (issue 23)."""
    import fnmatch

    doc = tomllib.loads((STUDY / "expected.toml").read_text())
    ids = [r["id"] for r in doc["row"]]
    assert 10 <= len(doc["key"]) <= 30
    for k in doc["key"]:
        assert k["source"] and (k["rows"] or k.get("why")), k["id"]
        for pat in k["rows"]:
            assert any(i == pat or fnmatch.fnmatchcase(i, pat) for i in ids), (k["id"], pat)
    quick = {r["id"] for r in doc["row"] if r.get("quick") and r["evidence"] == "published"}
    groups = {"Tables 6.1/6.2": ("two15.", "two60.", "tfrc15."), "Tables 5.1-5.4": ("friend16.tcp.",),
              "Tables 5.5-5.8": ("friend4.vegas.",), "Figs. 6.7/6.12": ("sfsack16.",),
              "Figs. 6.8/6.13": ("sfsack15.",), "Figs. 6.1-6.4": ("tau15.",), "Figs. 6.9-6.11": ("cbr_",),
              "Tables 5.10/6.3": ("conv.",), "Fig. 5.5": ("onoff.",), "Fig. 6.14": ("sfonoff.",)}
    for group, prefixes in groups.items():
        assert any(i.startswith(prefixes) for i in quick), group


def test_quick_reproduction_passes(tmp_path: Path) -> None:
    res = reproduce(STUDY, quick=True, out=tmp_path, workers=1)
    assert res.passed, res.rows[res.rows["status"] == "FAIL"][["id", "paper", "nsim"]].to_string()
    nsim = res.rows.set_index("id")["nsim"]
    assert nsim["two15.sf_sack.cov_pct"] < 0.7 * nsim["two15.sack1.cov_pct"]


def test_friendliness_ns2_rows_hold_the_reference_runs() -> None:
    """Each `_ns235` row of the friendliness parts holds TFRC's class share from its ns-2.35
    run in reference/ns2/bakthavachalu2004_friendliness/summary.csv (the source names X and n)."""
    ref = STUDY.parent.parent / "reference" / "ns2" / "bakthavachalu2004_friendliness" / "summary.csv"
    runs = {(r["x"], int(r["n"])): float(r["tfrc_nt"]) for r in csv.DictReader(ref.open()) if r["seed"] == "1"}
    rows = tomllib.loads((STUDY / "expected.toml").read_text())["row"]
    checked = 0
    for r in rows:
        m = re.match(r"ns-2\.35, reference/ns2/bakthavachalu2004_friendliness/summary\.csv, (\w+) n = (\d+)", r["source"])
        if r.get("evidence") == "ns2" and m:
            assert r["value"] == pytest.approx(runs[(m[1], int(m[2]))], abs=1e-9), r["id"]
            checked += 1
    assert checked == 12


def test_convergence_ns2_rows_hold_the_reference_runs() -> None:
    """The convergence parts' `_ns235` rows hold reference/ns2/bakthavachalu2004_conv/convergence.csv:
    IIAD's and TFRC's mean convergence times (10 seeds, none "never") and the converged Vegas runs."""
    ref = STUDY.parent.parent / "reference" / "ns2" / "bakthavachalu2004_conv" / "convergence.csv"
    runs: dict[str, list[str]] = {}
    for r in csv.DictReader(ref.open()):
        runs.setdefault(r["variant"], []).append(r["convergence_s"])
    rows = {r["id"]: r for r in tomllib.loads((STUDY / "expected.toml").read_text())["row"]}
    for variant, rid in (("Iiad", "conv.iiad.mean_s_ns235"), ("TFRC", "conv.tfrc.mean_s_ns235")):
        assert len(runs[variant]) == 10 and "never" not in runs[variant]
        assert rows[rid]["value"] == pytest.approx(sum(map(float, runs[variant])) / 10, abs=1e-9), rid
    assert rows["conv.vegas_converged_runs_ns235"]["value"] == sum(v != "never" for v in runs["Vegas"])


def test_convergence_names_the_binomial_variants() -> None:
    mod = load_module(STUDY / "reduce.py")
    tcp = {"kind": "tcp", "window": 10000}
    assert mod._protocol_of(json.dumps({**tcp, "variant": "binomial"})) == "sqrt"
    assert mod._protocol_of({**tcp, "variant": "binomial", "binomial": {"k": 1.0, "l": 0.0}}) == "iiad"
    assert mod._protocol_of({**tcp, "variant": "gaimd"}) == "gaimd" and mod._protocol_of({"kind": "tfrc"}) == "tfrc"
