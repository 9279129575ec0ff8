"""Which bound variables of a script's objects nsim maps, and the check that every other
one still holds its ns-2.35 default (a changed variable nsim has no model for stops the run)."""

from __future__ import annotations

from typing import Iterable

from .defaults import CLASSES
from .interp import Ns2Error
from .units import number


def ns2_default(heritage: Iterable[str], var: str) -> str | None:
    """ns-2.35's default of ``var`` for an object of the class whose precedence list is
    ``heritage`` (None: not a bound variable of these classes)."""
    for cls in heritage:
        entry = CLASSES.get(cls)
        if entry and var in entry[1]:
            return entry[1][var]
    return None


def same_value(a: str, b: str) -> bool:
    """Equal as ns-2 reads them (``1`` = ``1.0`` = ``true``; ``100ms`` = ``0.1``)."""
    if a == b:
        return True
    from .units import seconds

    for read in (number, lambda t, w: seconds(t, w)):
        try:
            return read(a, "") == read(b, "")
        except Ns2Error:
            continue
    return False


def check_unmapped(what: str, heritage: list[str], values: dict[str, str], mapped: Iterable[str],
                   ignored: Iterable[str] = ()) -> None:
    """Raises if a bound variable nsim does not map (not in ``mapped`` or ``ignored``)
    differs from its ns-2.35 default. Variables that are not bound (a script's own instance
    variables) are plain Tcl state, in ns-2 as here."""
    skip = set(mapped) | set(ignored)
    for var, val in sorted(values.items()):
        if var in skip:
            continue
        default = ns2_default(heritage, var)
        if default is None:
            continue  # not a bound variable: plain Tcl state of the object, as in ns-2
        if not same_value(val, default):
            raise Ns2Error(f"{what} ({heritage[0]}): `{var} {val}` has no nsim model (ns-2 default {default});"
                           " remove it or leave the default")
