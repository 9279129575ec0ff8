"""Helpers shared by subcommands: printing, and turning invalid input into exit status 2.
No click here, nor ``contextlib`` or ``typing``: ``nsim run``'s plain path (:mod:`.fast_run`)
uses these, and its start-up counts (issue 14)."""

from __future__ import annotations

import sys


def echo(message: str, err: bool = False) -> None:
    """One line to stdout (or stderr), flushed at once, as ``click.echo`` writes it."""
    stream = sys.stderr if err else sys.stdout
    stream.write(message + "\n")
    stream.flush()


class invalid_input_exits_2:  # noqa: N801 (used as a function: `with invalid_input_exits_2():`)
    """Context manager: prints a ScenarioError (``error: <file>: field `<path>`: <reason>``)
    or a ResultsError raised inside as one line and exits 2."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        from ..errors import ResultsError, ScenarioError

        if isinstance(exc, (ScenarioError, ResultsError)):
            echo(f"error: {one_line(str(exc))}", err=True)
            sys.exit(2)


def one_line(message: str) -> str:
    """A message as one line: control characters a user's value brought in (a newline in a
    node name) are shown escaped (``\\n``), so every error stays one line of the output."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in message)


#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130


def interrupted(out: str) -> None:
    """After Ctrl-C in a sweep or reproduction: say that finished runs are cached and how to
    resume, and exit 130 (as ``nsim run`` does)."""
    echo(f"interrupted: the runs that finished are cached in {out}/; run the same command again to resume",
         err=True)
    sys.exit(EXIT_INTERRUPTED)
