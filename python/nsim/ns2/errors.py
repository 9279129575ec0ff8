"""ns-2 error models of ``$ns lossmodel $em a b`` as nsim error models of that link direction,
applied on arrival before the queue (``error_at = "enqueue"``, ns-2's ``$link errormodule``):
``ErrorModel`` with ``unit pkt`` is ``uniform`` (``rate_``), with ``unit bit`` ``ber``;
``ErrorModel/List`` with ``droplist {k ...}`` (ns-2 counts packets from 0) is ``drop_list``
(nsim counts from 1). docs/scenario-reference.md#error-models."""

from __future__ import annotations

from typing import Any

from .bound import check_unmapped
from .interp import Ns2Error
from .units import flag, number


def error_table(heritage: list[str], values: dict[str, str], unit: str, droplist: list[int] | None,
                ranvar: tuple[list[str], dict[str, str]] | None) -> dict[str, Any] | None:
    """The nsim error model of an ns-2 error model object (None when ``enable_`` is 0)."""
    check_unmapped("the error model", heritage, values, ("rate_", "enable_"), ("debug_", "bandwidth_"))
    if not flag(values["enable_"], "enable_"):
        return None
    if "ErrorModel/List" in heritage:
        if droplist is None:
            raise Ns2Error("ErrorModel/List without a `droplist`")
        return {"kind": "drop_list", "packets": [k + 1 for k in droplist]}
    if heritage[0] != "ErrorModel":
        raise Ns2Error(f"{heritage[0]}: no nsim model of this error model (supported: ErrorModel, ErrorModel/List)")
    if ranvar is not None:
        rh, rv = ranvar
        # An unset min_ / max_ is the class default (0, 1), not an instance variable yet.
        lo, hi = number(rv.get("min_", "0"), "min_"), number(rv.get("max_", "1"), "max_")
        if rh[0] != "RandomVariable/Uniform" or lo != 0 or hi != 1:
            raise Ns2Error("an error model's ranvar other than RandomVariable/Uniform on [0, 1] is not modelled")
    rate = number(values["rate_"], "rate_")
    if unit == "pkt":
        return {"kind": "uniform", "rate": rate}
    if unit == "bit":
        return {"kind": "ber", "ber": rate}
    raise Ns2Error(f"error model unit {unit}: nsim models pkt (uniform) and bit (ber)")
