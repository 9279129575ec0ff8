"""``nsim reproduce``: rebuild a published study's numbers and compare them with the paper."""

from __future__ import annotations

import sys

import click

from .common import interrupted, invalid_input_exits_2


@click.command("reproduce")
@click.argument("study_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--quick", is_flag=True, help="Apply the study's quick overrides (fewer seeds, shorter runs): what CI runs.")
@click.option("-o", "--out", "out", type=click.Path(file_okay=False),
              help="Output directory (also the run cache) [default: out/reproduce/<study>[-quick]].")
@click.option("--workers", "-j", type=click.IntRange(min=1), help="Local worker processes [default: all cores].")
@click.option("--scheduler", metavar="ADDRESS",
              help="Run on a Dask cluster, e.g. tcp://10.0.0.1:8786, instead of local processes.")
@click.option("--part", "parts", multiple=True, metavar="NAME", help="Only this part (repeatable).")
@click.option("--chapter", "chapters", type=click.IntRange(min=1), multiple=True, metavar="N",
              help="Only the parts of chapter N of a multi-chapter study (part names starting ch<N>_; repeatable).")
@click.option("--quiet", "-q", is_flag=True, help="No progress; print only failing (and known-fail) rows and the verdict.")
@click.option("--null", "null", is_flag=True,
              help="Run nothing: score the published rows against trivial predictors (a constant per metric, "
                   "perfectly fair, no effect) and list the rows the best one passes.")
@click.option("--force", is_flag=True,
              help="Write OUT even if it holds files nsim did not write (default: refuse such a folder).")
def command(study_dir: str, quick: bool, out: str | None, workers: int | None, scheduler: str | None,
            parts: tuple[str, ...], chapters: tuple[int, ...], quiet: bool, null: bool, force: bool) -> None:
    """Run the study in STUDY_DIR (study.toml, expected.toml, reduce.py and its sweeps), print
    paper | nsim | diff | tolerance | pass for every published number, and write results.csv
    and report.html (the table and the paper's figures with its points overlaid) to OUT.

    The output opens with the key results (reproduced / partly / not / not measured, one line
    each), the rows by evidence kind and what trivial predictors score on the same rows.

    Finished runs are cached in OUT: running again only runs what is missing. Exits 1 if a
    row fails (a row nsim does not measure fails as "not measured"), 2 if a study file is
    invalid.
    """
    from ..reproduction import reproduce
    from ..reproduction_report import headline_text, null_text, rich_table, text_table

    if null:
        with invalid_input_exits_2():
            _print_null(study_dir, quick)
        return

    tty = sys.stdout.isatty()
    log = None if quiet else (lambda line: click.echo(line, err=True))
    with invalid_input_exits_2():
        if chapters:
            from ..reproduction import load_study

            prefixes = tuple(f"ch{n}_" for n in chapters)
            parts += tuple(p.name for p in load_study(study_dir).parts if p.name.startswith(prefixes))
        try:
            res = reproduce(study_dir, quick=quick, out=out, workers=workers, scheduler=scheduler,
                            parts=list(parts) or None, progress=not quiet and sys.stderr.isatty(), log=log,
                            force=force)
        except KeyboardInterrupt:
            interrupted(out or "out/reproduce/<study>")
    click.echo(f"Key results: {headline_text(res)}")
    for k in res.keys:
        click.echo(f"  {k['verdict']:<12}  {k['id']}: {k['claim']} [{k['rows_text']} published rows]")
    click.echo(null_text(res.null))
    rows = res.rows[~res.rows["status"].isin(["pass", "skip"])] if quiet else res.rows
    if len(rows):
        if tty:
            from rich.console import Console

            Console().print(rich_table(rows, title=res.study.title))
        else:
            click.echo(text_table(rows))
    counts = ", ".join(f"{n} {s}" for s, n in res.counts.items())
    verdict = "PASSED" if res.passed else "FAILED"
    click.echo(f"{res.study.name}{' (quick)' if quick else ''}: {counts}: {verdict}")
    if not quiet:
        click.echo(f"results in {res.out}/ (results.csv, report.html)")
    if not res.passed:
        raise SystemExit(1)


def _print_null(study_dir: str, quick: bool) -> None:
    """``--null``: the null predictors' scores and the published rows the best one passes."""
    from ..reproduction import load_study
    from ..reproduction_report import null_text
    from ..scoring import null_predictions, null_scores, predictor_passes

    study = load_study(study_dir)
    checked = {r.id for r in study.rows if r.quick} if quick else None
    scores = null_scores(study.rows, checked)
    click.echo(null_text(scores))
    values = null_predictions(study.rows)[scores["best"]]
    by_id = {r.id: r for r in study.rows}
    for r in study.rows:
        if r.evidence == "published" and (checked is None or r.id in checked) and predictor_passes(r, values, by_id):
            click.echo(f"  passes under {scores['best']}: {r.id} (paper {r.value:g}, predicted {values[r.id]:g}, "
                       f"{r.tolerance_text()})")
