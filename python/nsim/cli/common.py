"""Helpers shared by subcommands: turning invalid input into exit status 2."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import click


@contextlib.contextmanager
def invalid_input_exits_2() -> Iterator[None]:
    """Prints a ScenarioError (``error: <file>: field `<path>`: <reason>``) or a ResultsError
    as one line and exits 2."""
    from ..errors import ResultsError, ScenarioError

    try:
        yield
    except (ScenarioError, ResultsError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
