"""``nsim reproduce``: rebuild a published study's numbers and compare them with the paper."""

from __future__ import annotations

import sys

import click

from .common import invalid_input_exits_2


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
def command(study_dir: str, quick: bool, out: str | None, workers: int | None, scheduler: str | None,
            parts: tuple[str, ...], chapters: tuple[int, ...], quiet: bool) -> None:
    """Run the study in STUDY_DIR (study.toml, expected.toml, reduce.py and its sweeps), print
    paper | nsim | diff | tolerance | pass for every published number, and write results.csv
    and report.html (the table and the paper's figures with its points overlaid) to OUT.

    Finished runs are cached in OUT: running again only runs what is missing. Exits 1 if a
    row fails (a row nsim does not measure fails as "not measured"), 2 if a study file is
    invalid.
    """
    from ..reproduction import reproduce
    from ..reproduction_report import rich_table, text_table

    tty = sys.stdout.isatty()
    log = None if quiet else (lambda line: click.echo(line, err=True))
    with invalid_input_exits_2():
        if chapters:
            from ..reproduction import load_study

            prefixes = tuple(f"ch{n}_" for n in chapters)
            parts += tuple(p.name for p in load_study(study_dir).parts if p.name.startswith(prefixes))
        res = reproduce(study_dir, quick=quick, out=out, workers=workers, scheduler=scheduler,
                        parts=list(parts) or None, progress=not quiet and sys.stderr.isatty(), log=log)
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
