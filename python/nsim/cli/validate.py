"""``nsim validate``: check scenarios without running them."""

from __future__ import annotations

import sys

import click


@click.command("validate")
@click.argument("scenarios", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--no-limits", is_flag=True, help="Skip the size and memory budget ([limits] in the scenario reference).")
def command(scenarios: tuple[str, ...], no_limits: bool) -> None:
    """Check SCENARIOS (TOML files): every file is checked and every bad one reported as
    ``error: <file>:<line>: field `<path>`: <reason>``; exit 0 if all are valid, 2 if any is not.
    A valid file that probably does not mean what it says (a bare number read in seconds, a
    byte-mode RED limit, a limit below one packet, a TCP flow held by its window) gets
    ``notice:`` lines, not an error."""
    from ..errors import ScenarioError
    from ..scenario import Scenario
    from .. import _core
    from ..notices import notices
    from ..textfile import read_text
    from .common import one_line

    bad = 0
    for path in scenarios:
        try:
            scenario = Scenario.load(path, limits=not no_limits)
        except ScenarioError as e:
            bad += 1
            click.echo(f"error: {one_line(str(e))}", err=True)
        else:
            click.echo(f"{path}: ok")
            core = _core.notices(read_text(path), path, "toml", not no_limits)
            for note in notices(scenario.to_dict()) + core:
                click.echo(f"notice: {path}: {note}")
    if bad:
        if len(scenarios) > 1:
            click.echo(f"{bad} of {len(scenarios)} files are invalid", err=True)
        sys.exit(2)
