"""``nsim.run``: one entry point for a scenario, a TOML file or an ns-2 script. Above both
:mod:`nsim.scenario` and :mod:`nsim.ns2` (which builds its scenario through the former), so
that neither imports the other.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from .scenario import Scenario, _check_path, _option_error

if TYPE_CHECKING:
    from .results import Results

__all__ = ["run"]


def run(scenario: str | os.PathLike[str] | Scenario, **kwargs: Any) -> "Results":
    """Runs a scenario object or TOML file; keyword arguments as :meth:`Scenario.run`. A path
    ending in ``.tcl`` is an ns-2 script, run by :func:`nsim.ns2.run_script`: its only keyword
    is ``args``, the script's command-line arguments (the script sets its run itself)."""
    limits = kwargs.get("limits")
    if not isinstance(scenario, Scenario):
        _check_path(scenario)
        if os.fspath(scenario).endswith(".tcl"):
            args = kwargs.pop("args", ())
            if kwargs:
                raise _option_error(next(iter(kwargs)), "not for ns-2 scripts (the script sets its run itself)")
            from .ns2 import run_script

            return run_script(scenario, args)
    sc = scenario if isinstance(scenario, Scenario) else Scenario.load(scenario, limits=limits is not False)
    return sc.run(**kwargs)
