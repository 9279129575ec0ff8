"""``nsim validate``: check a scenario without running it."""

from __future__ import annotations

import click

from .common import invalid_input_exits_2


@click.command("validate")
@click.argument("scenarios", nargs=-1, required=True, type=click.Path(dir_okay=False))
def command(scenarios: tuple[str, ...]) -> None:
    """Check SCENARIOS (TOML files): exit 0 if all are valid, 2 with the first error if not."""
    from ..scenario import Scenario

    with invalid_input_exits_2():
        for path in scenarios:
            Scenario.load(path)
            click.echo(f"{path}: ok")
