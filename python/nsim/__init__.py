"""nsim: a packet-level discrete-event network simulator.

Quick start::

    import nsim
    res = nsim.run("scenarios/cbr_dumbbell.toml", seed=1)
    res.flows[["name", "throughput_bps", "delay_p99_s"]]

Every public name is loaded on first use from the module named in ``_EXPORTS``, so
``import nsim`` (and with it the ``nsim`` command's start-up) loads neither the extension nor
pandas until something needs them (issue 14). To export a name, add one line to the table.
"""

from __future__ import annotations

import sys

#: Public name -> module (relative to this package) that defines it.
_EXPORTS = {
    "__version__": "._core",
    "DROP_REASONS": ".results",
    "Results": ".results",
    "ResultsError": ".errors",
    "ScenarioError": ".errors",
    "Quantity": ".scenario",
    "Scenario": ".scenario",
    "Simulation": ".simulation",
    "app": ".scenario",
    "error_model": ".scenario",
    "load": ".scenario",
    "queue": ".scenario",
    "run": ".launch",
    "sweep": ".sweeps",
    "reproduce": ".reproduction",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    """Loads an exported name from its module on first use, and keeps it."""
    try:
        module = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'nsim' has no attribute {name!r}") from None
    import importlib  # here, not above: `nsim run` never needs it

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


# ``df.nsim`` is registered whenever nsim builds a DataFrame; registering it here too when
# pandas is already loaded keeps `import nsim` (and so the CLI's start-up) free of pandas.
if "pandas" in sys.modules:
    from . import accessor as _accessor  # noqa: E402,F401
