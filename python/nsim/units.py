"""Reading quantities given as readable strings or SI numbers on the Python side."""

from __future__ import annotations

import re

from .errors import ScenarioError

_TIME = {"ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "sec": 1.0, "": 1.0, "min": 60.0}


def seconds(value: str | int | float, field: str) -> float:
    """A time as seconds: ``"20ms"`` -> 0.02; numbers are seconds. Raises ScenarioError."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        v = float(value)
    else:
        m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([a-z]*)\s*", str(value))
        if not m or m.group(2) not in _TIME:
            raise ScenarioError(f"<option>: field `{field}`: '{value}' is not a time (use e.g. 20ms, 1.5s)", path=field)
        try:
            v = float(m.group(1)) * _TIME[m.group(2)]
        except ValueError:
            raise ScenarioError(f"<option>: field `{field}`: '{value}' is not a time", path=field) from None
    if not v > 0:
        raise ScenarioError(f"<option>: field `{field}`: {value} must be a positive time", path=field)
    return v
