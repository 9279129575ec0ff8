"""``nsim schema``: print the JSON Schema of scenario files (for editors)."""

from __future__ import annotations

import click


@click.command("schema")
def command() -> None:
    """Print the JSON Schema of scenario files (e.g. for taplo or VS Code)."""
    from .. import _core

    click.echo(_core.json_schema())
