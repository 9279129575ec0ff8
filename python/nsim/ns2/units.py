"""ns-2's quantity syntax (``1.5Mb``, ``10ms``, ``64Kb``) read as SI numbers, as ns-2's
``bw_parse`` and ``time_parse`` read them (decimal prefixes; ``B`` after a rate is bytes)."""

from __future__ import annotations

import re

from .interp import Ns2Error

_NUMBER = r"([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
_RATE = re.compile(_NUMBER + r"\s*([kKmMgG]?)([bB]?)(?:ps)?$")
_TIME = re.compile(_NUMBER + r"\s*(s|ms|us|ns|ps|m|u|n|p)?$")
_RATE_PREFIX = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9}
_TIME_UNIT = {None: 1.0, "s": 1.0, "ms": 1e-3, "m": 1e-3, "us": 1e-6, "u": 1e-6,
              "ns": 1e-9, "n": 1e-9, "ps": 1e-12, "p": 1e-12}


def rate_bps(text: str, what: str) -> float:
    """A bandwidth in bit/s: ``"1.5Mb"`` -> 1.5e6, ``"64Kb"`` -> 64e3, ``"1MB"`` -> 8e6."""
    m = _RATE.match(str(text).strip())
    if not m:
        raise Ns2Error(f"{what}: {text!r} is not a bandwidth (e.g. 1.5Mb, 64Kb, 10000000)")
    value = float(m.group(1)) * _RATE_PREFIX[m.group(2).lower()]
    return value * 8 if m.group(3) == "B" else value


def seconds(text: str, what: str) -> float:
    """A time in seconds: ``"10ms"`` -> 0.01, ``"2"`` -> 2.0."""
    m = _TIME.match(str(text).strip())
    if not m:
        raise Ns2Error(f"{what}: {text!r} is not a time (e.g. 10ms, 0.5)")
    return float(m.group(1)) * _TIME_UNIT[m.group(2)]


def number(text: str, what: str) -> float:
    """A plain number (Tcl's ``true``/``false`` read as 1/0, as ns-2's bound booleans)."""
    t = str(text).strip().lower()
    if t in ("true", "yes", "on"):
        return 1.0
    if t in ("false", "no", "off"):
        return 0.0
    try:
        return float(t)
    except ValueError:
        raise Ns2Error(f"{what}: {text!r} is not a number") from None


def flag(text: str, what: str) -> bool:
    """A boolean bound variable (``true``, ``1``, ``false``, ``0``)."""
    return number(text, what) != 0
