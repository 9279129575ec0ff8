"""The ``nsim`` command.

The console script is :func:`entry`. A plain ``nsim run SCENARIO [options]`` goes straight to
:mod:`nsim.cli.fast_run` without importing click (issue 14: start-up and imports were most of a
small run); every other command line (``--help``, other subcommands, any argument the plain
form does not cover) goes to the click app :data:`main` (:mod:`nsim.cli.app`), unchanged.
``from nsim.cli import main`` still gives that click group.
"""

from __future__ import annotations

import errno
import os
import sys


def entry() -> None:
    """The ``nsim`` console script and ``python -m nsim``."""
    from .fast_run import execute, parse_plain_run

    kwargs = parse_plain_run(sys.argv[1:])
    if kwargs is None:
        from .app import main

        main()
        return
    from .common import echo

    # What click's standalone mode does around a command, so both paths end alike.
    try:
        execute(**kwargs)
    except (EOFError, KeyboardInterrupt):
        echo("", err=True)
        echo("Aborted!", err=True)
        sys.exit(1)
    except OSError as e:
        if e.errno != errno.EPIPE:
            raise
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second EPIPE at exit
        sys.exit(1)
    sys.exit(0)


def __getattr__(name: str) -> object:
    """``main``, the click group, is loaded on first use (it imports click)."""
    if name == "main":
        from .app import main

        return main
    raise AttributeError(f"module 'nsim.cli' has no attribute {name!r}")
