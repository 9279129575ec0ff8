"""nsim: a packet-level discrete-event network simulator.

Quick start::

    import nsim
    res = nsim.run("scenarios/cbr_dumbbell.toml", seed=1)
    res.flows[["name", "throughput_bps", "delay_p99_s"]]
"""

from ._core import __version__
from .errors import ScenarioError
from .results import DROP_REASONS, Results
from .scenario import Quantity, Scenario, app, error_model, load, queue, run

__all__ = [
    "DROP_REASONS",
    "Quantity",
    "Results",
    "Scenario",
    "ScenarioError",
    "__version__",
    "app",
    "error_model",
    "load",
    "queue",
    "run",
]

# Analysis: importing the accessor registers ``df.nsim`` on DataFrames; ``nsim.sweep(...)``
# runs parameter sweeps (the module stays importable as ``from nsim.sweep import ...``).
from . import accessor as _accessor  # noqa: E402,F401
from .sweep import sweep  # noqa: E402

__all__ += ["sweep"]
