"""`nsim reproduce`: the study frame (tests/data/reproduce/toy) and its checks of study files
(the --quick runs of experiments/red_two_source and experiments/lab2003 are in
tests/test_lab2003.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from nsim.reproduction import StudyError, load_study, only_rows, reproduce, with_ns235

TOY = ROOT / "tests" / "data" / "reproduce" / "toy"


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    """A writable copy of the toy study."""
    return Path(shutil.copytree(TOY, tmp_path / "toy"))


def test_toy_study_fails_with_every_row_reported(tmp_path: Path) -> None:
    r = run_cli("reproduce", str(TOY), "--quick", "-o", str(tmp_path / "out"), "-j", "1")
    assert r.returncode == 1, r.stderr
    lines = {line.split()[0]: line for line in r.stdout.splitlines() if line.startswith(("cbr.", "formula."))}
    assert "pass" in lines["cbr.goodput_1mb"] and "pass" in lines["cbr.arrivals_ab"]
    assert "FAIL" in lines["cbr.goodput_wrong"]
    assert "FAIL" in lines["cbr.never"] and "not measured" in r.stdout
    assert "known-fail" in lines["formula.known"] and "pass" in lines["formula.two"]
    assert "FAILED" in r.stdout
    csv = (tmp_path / "out" / "results.csv").read_text()
    assert "cbr.goodput_wrong" in csv and "outside tolerance" in csv


def test_python_api_rows_resume_and_html(toy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    import nsim

    assert nsim.reproduce is reproduce and nsim.reproduce is reproduce  # not shadowed by a module
    first = reproduce(toy, out=out, workers=1)
    status = dict(zip(first.rows["id"], first.rows["status"]))
    assert status == {"cbr.goodput_1mb": "pass", "cbr.arrivals_ab": "pass", "cbr.goodput_wrong": "FAIL",
                      "cbr.never": "FAIL", "formula.two": "pass", "formula.known": "known-fail"}
    assert not first.passed and first.sweeps["cbr"].ran == 4
    measured = first.rows.set_index("id")["nsim"]
    assert measured["cbr.goodput_1mb"] == pytest.approx(1e6, rel=0.02)
    again = reproduce(toy, out=out, workers=1)  # every run from the cache
    assert again.sweeps["cbr"].ran == 0 and again.sweeps["cbr"].cached == 4
    assert again.rows["nsim"].equals(first.rows["nsim"])
    html = first.html.read_text()
    assert "cbr.goodput_wrong" in html and "Goodput vs offered rate" in html
    assert html.count("data:image/png;base64,") == 1 and "http" not in html.split("<body>")[1]
    # Editing reduce.py changes the extractor's cache key: the runs are done again.
    (toy / "reduce.py").write_text((toy / "reduce.py").read_text() + "\n# edited\n")
    assert reproduce(toy, out=out, workers=1, parts=["cbr"]).sweeps["cbr"].ran == 4


def test_quick_skips_rows_marked_not_quick(toy: Path, tmp_path: Path) -> None:
    text = (toy / "expected.toml").read_text()
    (toy / "expected.toml").write_text(text.replace('reason = "must fail"', 'reason = "must fail"\nquick = false'))
    res = reproduce(toy, quick=True, out=tmp_path / "q", workers=1)
    assert res.rows.set_index("id")["status"]["cbr.goodput_wrong"] == "skip"
    assert res.sweeps["cbr"].ran == 1


@pytest.mark.parametrize(
    "file, old, new, message",
    [
        ("study.toml", 'citation = "', 'colour = "red"\ncitation = "', "study.toml: field `colour`: unknown key"),
        ("study.toml", 'reducer = "reduce_formula"', 'reducer = "nope"', "reduce.py has no function 'nope'"),
        ("study.toml", 'sweep = "toy.sweep.toml"', 'sweep = "missing.sweep.toml"', "part[0].sweep`: no such file"),
        ("study.toml", "seeds = 1", 'set = { "links[0].rate" = "fast" }',
         "part[0]`: the part's scenario is invalid"),
        ("expected.toml", 'tol_abs = 1\n', "", "row[1]`: needs tol_abs or tol_rel"),
        ("expected.toml", 'id = "formula.two"', 'id = "other.two"', "row[4].id`: 'other.two' must start with a part"),
        ("expected.toml", 'id = "cbr.never"', 'id = "cbr.arrivals_ab"', "'cbr.arrivals_ab' repeats"),
        ("expected.toml", 'why = "1 + 1 is not 3"', "", "row[5].why`: required"),
        ("expected.toml", 'why = "1 + 1 is not 3"', 'why = "1 + 1 is {row:formula.tow}"',
         "row[5].why`: {row:formula.tow} names no row of this study"),
        ("expected.toml", 'unit = "pkts"', 'unit = "pkts"\ntolerance = 3', "row[1].tolerance`: unknown key"),
        ("reduce.py", "return {\"formula.two\"", "raise KeyError('x')\n    return {\"formula.two\"",
         "reduce_formula()`: raised KeyError"),
        ("reduce.py", '"formula.known": 1 + 1}', '"formula.known": 1 + 1, "formula.typo": 1}',
         "reduce_formula()`: returned 'formula.typo', which is not a row"),
    ],
)
def test_invalid_study_files_exit_2(toy: Path, tmp_path: Path, file: str, old: str, new: str, message: str) -> None:
    path = toy / file
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))
    with pytest.raises(StudyError) as e:
        reproduce(toy, quick=True, out=tmp_path / "out", workers=1, parts=None)
    assert message in str(e.value)
    assert str(toy) in str(e.value)


def test_invalid_study_exits_2_from_the_cli(toy: Path, tmp_path: Path) -> None:
    (toy / "expected.toml").write_text((toy / "expected.toml").read_text().replace("value = 250", 'value = "many"'))
    r = run_cli("reproduce", str(toy), "--quick", "-o", str(tmp_path / "out"))
    assert r.returncode == 2
    assert "expected.toml: field `row[1].value`: must be a number" in r.stderr
    assert not (tmp_path / "out" / "results.csv").exists()
    r = run_cli("reproduce", str(TOY), "--part", "nope", "-o", str(tmp_path / "out"))
    assert r.returncode == 2 and "no part named 'nope'" in r.stderr


def test_missing_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(StudyError, match="study.toml: cannot read"):
        load_study(tmp_path)
    (tmp_path / "study.toml").write_text('title = "t"\ncitation = "c"\n[[part]]\nname = "a"\nreducer = "f"\n')
    with pytest.raises(StudyError, match="reduce.py: missing"):
        load_study(tmp_path)


def test_with_ns235_copies_values_to_the_twin_rows_that_exist() -> None:
    rows = [{"id": "a.x"}, {"id": "a.x_ns235"}, {"id": "a.y"}]
    frames = {"fig": None}
    out = with_ns235({"a.x": 1.5, "a.y": 2.0, "__frames__": frames}, rows)
    assert out == {"a.x": 1.5, "a.x_ns235": 1.5, "a.y": 2.0, "__frames__": frames}


def test_only_rows_drops_the_values_no_row_checks() -> None:
    rows = [{"id": "a.x"}, {"id": "a.x_ns235"}]
    frames = {"fig": None}
    out = only_rows(with_ns235({"a.x": 1.5, "a.extra": 2.0, "__frames__": frames}, rows), rows)
    assert out == {"a.x": 1.5, "a.x_ns235": 1.5, "__frames__": frames}


def test_a_long_figure_title_wraps_inside_the_figure() -> None:
    """The HTML report's figures: a title longer than TITLE_WIDTH characters is drawn on
    several lines, each at most that long, so it does not run off the figure."""
    import pandas as pd

    from nsim.reproduction_report import TITLE_WIDTH, figure
    from nsim.study import Figure

    title = "Video loss against the central link rate, 480 data sources, with the tiers of Fig 5.1 " * 2
    fig = Figure(name="f", part="p", title=title.strip(), x="x", y="y", xlabel="x", ylabel="y")
    drawn = figure(fig, pd.DataFrame({"x": [1, 2], "y": [3, 4]}), pd.DataFrame(columns=["id", "status"]), [])
    lines = drawn.axes[0].get_title().split("\n")
    assert len(lines) > 1 and max(len(line) for line in lines) <= TITLE_WIDTH
    assert " ".join(lines) == title.strip()
