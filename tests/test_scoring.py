"""The scoring of a reproduction (nsim.scoring): evidence kinds, key-result verdicts, derived
ordering rows, null predictors, seed intervals and the page stamp, on the synthetic study
tests/data/reproduce/scored, whose every number is fixed by hand."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from conftest import ROOT, run_cli
from nsim.reproduction import Row, StudyError, compare, load_study, reproduce, study_digest
from nsim.reproduction_report import PAGE_MARK
from nsim.scoring import Key, SeedStats, key_verdicts, null_passed, null_predictions, null_scores, seed_stats

SCORED = ROOT / "tests" / "data" / "reproduce" / "scored"


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory):
    return reproduce(SCORED, out=tmp_path_factory.mktemp("scored"), workers=1)


def test_statuses_with_derived_rows_and_why_placeholders(result) -> None:
    rows = result.rows.set_index("id")
    assert dict(rows["status"]) == {
        "formula.a": "pass", "formula.b": "FAIL", "formula.c": "known-fail", "formula.a_minus_b": "pass",
        "formula.jain": "pass", "formula.share": "FAIL", "formula.recalc": "pass", "formula.vs_ns2": "pass",
        "noisy.first_share": "pass"}
    assert rows.loc["formula.a_minus_b", "nsim"] == pytest.approx(0.20)  # 0.90 - 0.70, no reducer
    assert rows.loc["formula.c", "why"] == "not built; A is 0.9 here"
    assert "known: not built; A is 0.9 here" in rows.loc["formula.c", "note"]
    assert dict(rows["evidence"])["formula.vs_ns2"] == "ns2"


def test_key_verdicts_count_only_published_rows(result) -> None:
    verdicts = {k["id"]: (k["verdict"], k["passed"], k["checked"]) for k in result.keys}
    assert verdicts == {"a_beats_b": ("reproduced", 2, 2), "b_level": ("not", 0, 1), "fairness": ("not", 0, 1),
                        "recomputed": ("not measured", 0, 0), "not_built": ("not measured", 0, 0),
                        "noisy_share": ("not measured", 0, 0), "a_and_b": ("partly", 1, 2)}


def test_a_pass_that_a_null_predictor_shares_is_not_counted(result) -> None:
    """formula.jain (0.98 ± 0.03) passes, but so does "perfectly fair" (1.0): that pass is set
    aside, so "fairness" rests on its failing share row alone; noisy.first_share is fair by
    construction and its key has nothing else, so it is not measured."""
    keys = {k["id"]: k for k in result.keys}
    assert keys["fairness"]["trivial_passes"] == 1 and keys["noisy_share"]["trivial_passes"] == 1
    assert keys["fairness"]["rows_text"] == "0 / 1 (+1 that a null predictor passes too, not counted)"
    assert keys["a_beats_b"]["trivial_passes"] == 0
    note = result.rows.set_index("id").loc["formula.jain", "note"]
    assert note.startswith("a null predictor passes this row too")
    summary = json.loads((result.out / "results.md").read_text().split("\n", 1)[0][len(PAGE_MARK):-len(" -->")])
    # noisy.first_share passes on its seeds' interval alone (and under "fair" too).
    assert summary["published"] == {"checked": 7, "pass": 4, "null_also_pass": 2, "interval_only": 1}


def test_null_predictors_leave_one_out() -> None:
    study = load_study(SCORED)
    preds = null_predictions(study.rows)
    # The efficiency of B is predicted from A and C's paper values only: median(0.91, 0.60).
    assert preds["constant"]["formula.b"] == pytest.approx(0.755)
    assert preds["constant"]["formula.a"] == pytest.approx(0.69)
    # An ordering alone in its measure has no constant; "no effect" predicts no difference.
    assert preds["constant"]["formula.a_minus_b"] is None and preds["no_effect"]["formula.a_minus_b"] == 0.0
    assert preds["fair"]["formula.jain"] == 1.0 and preds["fair"]["formula.share"] == 1.0
    scores = null_scores(study.rows)
    assert scores["published"] == 7
    assert scores["passes"] == {"constant": 3, "fair": 4, "no_effect": 3}
    assert scores["best"] == "fair" and scores["share"] == pytest.approx(4 / 7)


def test_orderings_get_no_constant_prediction() -> None:
    """Orderings are written in the paper's direction (A - B where A is above B): a median of
    the paper's other orderings would pass them all by convention alone."""
    rows = [Row(id=f"p.o{i}", source="s", quantity="A minus B", value=v, unit="", reason="r", kind="min",
                tol_abs=v - 0.01, evidence="published", of=["p.a", "p.b"]) for i, v in enumerate((0.1, 0.2, 0.3))]
    preds = null_predictions(rows)
    assert all(v is None for v in preds["constant"].values())
    assert all(v == 0.0 for v in preds["no_effect"].values())
    assert null_scores(rows)["best_passes"] == 0


def _no_difference_beside_an_effect() -> list[Row]:
    """The paper: full and one-way TCP alike (ratio 1 +- 0.1), while RED cuts the calls' loss
    by 10 points (at least 5)."""
    effect = Row(id="p.red_cut", source="s", quantity="loss, RED minus Drop-Tail", value=-10.0, unit="%",
                 reason="r", kind="max", tol_abs=5.0, evidence="published", measure="difference")
    same = Row(id="p.full_over_oneway", source="s", quantity="full over one-way", value=1.0, unit="", reason="r",
               tol_abs=0.1, evidence="published", measure="ratio", contrast="p.red_cut")
    return [effect, same]


def test_a_no_difference_claim_beside_its_effect_is_no_null_pass() -> None:
    """"No effect" predicts the claim of no difference, but not the effect beside it: with its
    contrast the pair is out of a model-free guess's reach; without it, the claim alone is not."""
    rows = _no_difference_beside_an_effect()
    assert null_passed(rows) == set() and null_scores(rows)["best_passes"] == 0
    alone = [rows[0], dataclasses.replace(rows[1], contrast=None)]
    assert null_passed(alone) == {"p.full_over_oneway"}


def test_a_row_with_a_contrast_passes_only_with_it() -> None:
    same = _no_difference_beside_an_effect()[1]
    line = compare(same, 1.05, contrast_status="pass")
    assert line["status"] == "pass" and line["note"] == "with its contrast p.red_cut"
    line = compare(same, 1.05, contrast_status="FAIL")
    assert line["status"] == "FAIL" and "its contrast p.red_cut does not hold" in line["note"]
    # A quick or partial run that did not check the contrast checks the row alone, and says so.
    line = compare(same, 1.05, contrast_status="skip")
    assert line["status"] == "pass" and line["note"] == "its contrast p.red_cut was not checked in this run"
    assert compare(same, 1.3, contrast_status="pass")["note"] == "outside tolerance"
    known = dataclasses.replace(same, status="known-fail", why="no effect here")
    assert compare(known, 1.05, contrast_status="known-fail")["status"] == "known-fail"


def test_seed_interval_widens_the_band_from_five_seeds() -> None:
    row = Row(id="p.x", source="s", quantity="q", value=1.0, unit="", reason="r", tol_abs=0.1, evidence="published")
    assert compare(row, 1.15)["status"] == "FAIL"
    assert compare(row, 1.15, stats=SeedStats(5, 1.15, 0.1, 0.124))["status"] == "pass"
    # Four seeds: the interval is reported but does not widen the band.
    line = compare(row, 1.15, stats=SeedStats(4, 1.15, 0.1, 0.159))
    assert line["status"] == "FAIL" and line["seeds"] == 4 and line["ci95"] == pytest.approx(0.159)
    s = seed_stats([1.0, 2.0, 3.0, 4.0, 5.0])
    assert (s.n, s.mean) == (5, 3.0) and s.ci95 == pytest.approx(2.776445 * 1.5811388 / 5 ** 0.5, rel=1e-6)
    assert seed_stats([1.0]) is None


def test_a_pass_on_the_interval_alone_is_marked_and_counted_in_its_key() -> None:
    """The row passes (the paper's value is consistent with nsim's seeds) but says that only the
    interval carried it; the key counts the pass and says how many of its passes are such."""
    row = Row(id="p.x", source="s", quantity="q", value=1.0, unit="", reason="r", tol_abs=0.1, evidence="published")
    wide = compare(row, 1.15, stats=SeedStats(5, 1.15, 0.1, 0.124))
    assert wide["status"] == "pass" and wide["interval_only"]
    assert wide["note"] == "on nsim's 95 % interval only: its value lies outside the tolerance"
    inside = compare(row, 1.05, stats=SeedStats(5, 1.05, 0.1, 0.124))
    assert inside["status"] == "pass" and not inside["interval_only"] and inside["note"] == ""
    assert not compare(row, 1.3, stats=SeedStats(5, 1.3, 0.1, 0.124))["interval_only"]
    table = pd.DataFrame([{"id": "p.x", "status": "pass"}, {"id": "p.y", "status": "pass"}])
    key = Key(id="k", claim="c", source="s", rows=["p.*"])
    (line,) = key_verdicts([key], table, {"p.x": "published", "p.y": "published"}, interval_only={"p.x"})
    assert line["verdict"] == "reproduced" and line["interval_passes"] == 1
    assert line["rows_text"] == "2 / 2 (1 of them on nsim's 95 % interval only)"


def test_seeds_reduce_separately(result) -> None:
    line = result.rows.set_index("id").loc["noisy.first_share"]
    assert line["seeds"] == 5 and line["ci95"] > 0
    # The zero-width band passes only through the interval over the five seeds.
    assert abs(line["nsim"] - 1.0) <= line["ci95"] + 1e-9


def test_page_leads_with_the_headline_and_is_stamped(result) -> None:
    text = (result.out / "results.md").read_text()
    first, rest = text.split("\n", 1)
    assert first.startswith(PAGE_MARK)
    summary = json.loads(first[len(PAGE_MARK):-len(" -->")])
    assert summary["keys"] == {"reproduced": 1, "partly": 1, "not": 2, "not measured": 3}
    assert summary["evidence"] == {"published": 7, "ns2": 1, "consistency": 1, "unclassified": 0}
    assert summary["null"]["best_passes"] == 4 and summary["digest"] == study_digest(SCORED)
    assert summary["quick"] is False and summary["commit"]
    assert rest.index("## Key results: 1 of 7 reproduced, 1 partly, 2 not, 3 not measured") < rest.index("## Rows")
    assert "| a_beats_b | reproduced | 2 / 2 |" in rest and "ABOVE the 10 % target" in rest
    html = result.html.read_text()
    assert html.index("Key results: 1 of 7 reproduced") < html.index("Paper vs nsim")


def test_cli_prints_the_headline_and_null_scores(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(SCORED), "-o", str(tmp_path), "-j", "1")
    assert r.returncode == 1
    assert r.stdout.startswith("Key results: 1 of 7 reproduced, 1 partly, 2 not, 3 not measured")
    assert "  reproduced    a_beats_b: A is more efficient than B [2 / 2 published rows]" in r.stdout
    r = run_cli("reproduce", str(SCORED), "--null")
    assert r.returncode == 0 and "pass 4 of 7 published rows" in r.stdout
    assert "passes under fair: formula.jain" in r.stdout and "formula.a_minus_b" not in r.stdout


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('evidence = "ns2"', 'evidence = "paper"', "row[7].evidence`: 'paper': expected one of published, ns2"),
        ('measure = "jain"', 'measure = "gini"', "row[4].measure`: 'gini'"),
        ('fair = 1.0\nvalue = 1.0', 'value = 1.0', "row[5].fair`: required with measure = 'share'"),
        ('of = ["formula.a", "formula.b"]', 'of = ["formula.a", "formula.z"]', "row[3].of`: no row 'formula.z'"),
        ('of = ["formula.a", "formula.b"]', 'of = ["formula.a"]', "row[3].of`: two row ids"),
        ('rows = ["formula.b"]', 'rows = ["formula.bb*"]', "key[1].rows`: 'formula.bb*' matches no row"),
        ('why = "needs a model nsim lacks"', "", "key[4].why`: required when `rows` is empty"),
        ('id = "b_level"', 'id = "a_beats_b"', "key ids repeat"),
        ('fair = 1.0\nvalue = 1.0', 'fair = 1.0\nvalue = 1.0\ncontrast = "formula.jain"',
         "row[5].contrast`: 'formula.jain' is passed by the fair null predictor"),
        ('fair = 1.0\nvalue = 1.0', 'fair = 1.0\nvalue = 1.0\ncontrast = "formula.vs_ns2"',
         "row[5].contrast`: 'formula.vs_ns2' must be a published row"),
        ('fair = 1.0\nvalue = 1.0', 'fair = 1.0\nvalue = 1.0\ncontrast = "formula.z"', "row[5].contrast`: no row 'formula.z'"),
    ],
)
def test_invalid_scoring_fields_name_the_field(tmp_path: Path, old: str, new: str, message: str) -> None:
    study = Path(shutil.copytree(SCORED, tmp_path / "scored"))
    path = study / "expected.toml"
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))
    with pytest.raises(StudyError) as e:
        load_study(study)
    assert message in str(e.value)


def test_digest_follows_the_study_inputs(tmp_path: Path) -> None:
    study = Path(shutil.copytree(SCORED, tmp_path / "scored"))
    before = study_digest(study)
    (study / "README.md").write_text("prose does not count\n")
    assert study_digest(study) == before
    (study / "noisy.toml").write_text((study / "noisy.toml").read_text().replace('"5p"', '"6p"'))
    assert study_digest(study) != before
