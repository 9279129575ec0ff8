"""ns-2 scripts run unchanged: ``nsim run script.tcl`` and ``nsim.run("script.tcl")``
(docs/guide/ns2-scripts.md).

The script runs in a real Tcl interpreter (Python's standard-library Tcl 8.6) with an OTcl
object layer; the network it builds becomes an nsim scenario checked by the same core as a
TOML file, and its ``$ns at`` events drive the run (:mod:`nsim.ns2.runner`).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Callable, Sequence

from .interp import Ns2Error, Ns2ScriptError, ScriptExit

if TYPE_CHECKING:
    from ..results import Results

__all__ = ["Ns2ScriptError", "run_script"]


def run_script(path: str | os.PathLike[str], args: Sequence[str] = (), notice: Callable[[str], None] | None = None) -> "Results":
    """Runs an ns-2 OTcl script and returns the run's :class:`nsim.Results`.

    ``args`` are the script's command-line arguments (``$argv``, ``$argc``), as after
    ``ns script.tcl``. Files the script opens are relative to the working directory, as under ns-2. ``notice``
    is called with each notice (a skipped ``exec``, ``namtrace-all``);
    by default they are printed to stderr as ``notice: ...`` lines.

    Raises:
        Ns2ScriptError: a Tcl error, or a command nsim cannot model (the message names the
            script line and the command).
    """
    from .simulator import Ns2Simulator

    script = os.path.abspath(os.fspath(path))
    if not os.path.isfile(script):
        raise Ns2ScriptError(f"{path}: no such script", file=os.fspath(path), reason="no such file")
    say = notice or (lambda m: print(f"notice: {m}", file=sys.stderr))
    sim = Ns2Simulator(script, say, [str(a) for a in args])
    try:
        sim.interp.run_file()
    except ScriptExit:
        pass
    sim.runner.finish("the end of the script")
    sim.interp.tcl.eval("flush stdout")  # the script's puts before nsim's summary
    if sim.runner.results is None:
        why = "no `$ns run`" if sim.exit_code is None else f"it called `exit {sim.exit_code}` before `$ns run`"
        raise Ns2ScriptError(f"{os.path.basename(script)}: the script ran no simulation ({why})", file=script,
                             reason=why)
    return sim.runner.results
