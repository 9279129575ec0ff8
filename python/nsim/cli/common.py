"""Helpers shared by subcommands: printing, and turning invalid input into exit status 2.
No click here: ``nsim run``'s plain path (:mod:`.fast_run`) uses these without it."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator


def echo(message: str, err: bool = False) -> None:
    """One line to stdout (or stderr), flushed at once, as ``click.echo`` writes it."""
    stream = sys.stderr if err else sys.stdout
    stream.write(message + "\n")
    stream.flush()


@contextlib.contextmanager
def invalid_input_exits_2() -> Iterator[None]:
    """Prints a ScenarioError (``error: <file>: field `<path>`: <reason>``) or a ResultsError
    as one line and exits 2."""
    from ..errors import ResultsError, ScenarioError

    try:
        yield
    except (ScenarioError, ResultsError) as e:
        echo(f"error: {e}", err=True)
        sys.exit(2)
