"""Reading quantities given as readable strings or SI numbers on the Python side.

There is one parser: the Rust core's (``nsim._core.parse_quantity``), the same that reads
scenario files. Strings need a unit and no space inside (``"20ms"``, ``"10Mb"``, ``"25p"``);
numbers are SI (seconds, bit/s, bytes, packets).
"""

from __future__ import annotations

import math

from . import _core
from .errors import ScenarioError


def _number(value: object) -> float | None:
    """``value`` as a float if it is a real number (not a bool), else None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def _parse(kind: str, value: object, field: str) -> float:
    """A quantity string through the core parser, or an SI number; errors name ``field``."""
    v = _number(value)
    if v is None:
        if not isinstance(value, str):
            raise ScenarioError(f"<option>: field `{field}`: expected a {kind} string or a number, got {type(value).__name__}",
                                path=field, reason=f"expected a {kind}")
        try:
            parsed = _core.parse_quantity(kind, value)
        except ValueError as e:
            raise ScenarioError(f"<option>: field `{field}`: {e}", path=field, reason=str(e)) from None
        return float(parsed[0] if isinstance(parsed, tuple) else parsed)
    if not math.isfinite(v) or v < 0:
        raise ScenarioError(f"<option>: field `{field}`: {value} is not a finite non-negative {kind}", path=field)
    return v


def seconds(value: str | int | float, field: str) -> float:
    """A time as seconds: ``"20ms"`` -> 0.02; numbers are seconds. Must be positive.

    Raises :class:`ScenarioError` naming ``field`` (e.g. ``"20"``: a string needs a unit).
    """
    v = _parse("time", value, field)
    if not v > 0:
        raise ScenarioError(f"<option>: field `{field}`: {value} must be a positive time", path=field)
    return v


def bits_per_second(value: str | int | float, field: str) -> float:
    """A rate as bit/s: ``"10Mb"`` -> 1e7; numbers are bit/s."""
    return _parse("rate", value, field)


def size_bytes(value: str | int | float, field: str) -> float:
    """A size as bytes: ``"64KB"`` -> 64000; numbers are bytes."""
    return _parse("size", value, field)
