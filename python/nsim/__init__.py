"""nsim: a packet-level discrete-event network simulator.

Quick start::

    import nsim
    res = nsim.run("scenarios/cbr_dumbbell.toml", seed=1)
    res.flows[["name", "throughput_bps", "delay_p99_s"]]
"""

from ._core import __version__
from .errors import ResultsError, ScenarioError
from .results import DROP_REASONS, Results
from .scenario import Quantity, Scenario, app, error_model, load, queue, run

__all__ = [
    "DROP_REASONS",
    "Quantity",
    "Results",
    "ResultsError",
    "Scenario",
    "ScenarioError",
    "__version__",
    "app",
    "error_model",
    "load",
    "queue",
    "reproduce",
    "run",
    "sweep",
]


def __getattr__(name: str) -> object:
    """``nsim.sweep`` (from :mod:`nsim.sweeps`) and ``nsim.reproduce`` (from
    :mod:`nsim.reproduction`) are loaded on first use: they need pandas."""
    if name == "sweep":
        from .sweeps import sweep

        return sweep
    if name == "reproduce":
        from .reproduction import reproduce

        return reproduce
    raise AttributeError(f"module 'nsim' has no attribute {name!r}")


# ``df.nsim`` is registered whenever nsim builds a DataFrame; registering it here too when
# pandas is already loaded keeps `import nsim` (and so the CLI's start-up) free of pandas.
if "pandas" in __import__("sys").modules:
    from . import accessor as _accessor  # noqa: E402,F401
