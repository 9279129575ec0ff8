"""ns-2 queue types of ``duplex-link`` / ``simplex-link`` as nsim queue tables:
``DropTail`` is ``droptail`` (docs/models/droptail.md), ``RED`` is ``red`` with every
``Queue/RED`` bound variable nsim models (docs/models/queues.md#red), ``DRR`` is ns-2's hashed
``drr_ns2`` (docs/models/queues.md#drr_ns2); a ``TBF`` between an agent and its node is the
``tbf`` middlebox at that node for the agent's flows (docs/models/middlebox.md#tbf)."""

from __future__ import annotations

from typing import Any

from .bound import check_unmapped
from .interp import Ns2Error
from .units import flag, number, rate_bps, seconds

#: ns-2 queue type (the link command's last word) -> its class.
QUEUE_CLASSES = {"DropTail": "Queue/DropTail", "RED": "Queue/RED", "DRR": "Queue/DRR"}

#: Queue/DRR's commands, which set its bound variables (ns-2's queue/drr.cc `command`).
QUEUE_PRELUDE = "\n".join(f"Queue/DRR instproc {cmd} {{v}} {{ $self set {cmd}_ $v }}"
                           for cmd in ("blimit", "buckets", "quantum", "mask")) + """
Simulator instproc attach-tbf-agent {node agent tbf} {
    $self attach-agent $node $agent
    $agent attach-tbf $tbf
}"""

#: Queue/RED variable -> (nsim key, reader); thresholds of 0 keep nsim's automatic setting.
_RED_KEYS = {
    "linterm_": ("linterm", lambda v: number(v, "linterm_")),
    "gentle_": ("gentle", lambda v: flag(v, "gentle_")),
    "bytes_": ("bytes", lambda v: flag(v, "bytes_")),
    "queue_in_bytes_": ("queue_in_bytes", lambda v: flag(v, "queue_in_bytes_")),
    "mean_pktsize_": ("mean_pktsize", lambda v: int(number(v, "mean_pktsize_"))),
    "setbit_": ("setbit", lambda v: flag(v, "setbit_")),
    "use_mark_p_": ("use_mark_p", lambda v: flag(v, "use_mark_p_")),
    "mark_p_": ("mark_p", lambda v: number(v, "mark_p_")),
    "targetdelay_": ("target_delay", lambda v: seconds(v, "targetdelay_")),
}
#: Queue/RED variables that are state, statistics or ns-2 bookkeeping.
#: Queue variables of ns-2's utilization estimate (statistics only).
_UTILIZATION = ("util_weight_", "util_check_intv_", "util_records_")
_RED_STATE = ("ave_", "prob1_", "curq_", "cur_max_p_", "summarystats_", "debug_", "thresh_queue_",
              "maxthresh_queue_") + _UTILIZATION


def queue_table(heritage: list[str], values: dict[str, str]) -> dict[str, Any]:
    """The nsim queue of an ns-2 queue object (class precedence ``heritage``, bound variables
    ``values``); ``limit_`` is its packet limit."""
    cls = next((c for c in heritage if c in QUEUE_CLASSES.values()), heritage[0])
    limit = int(number(values["limit_"], "limit_"))
    if cls == "Queue/DropTail":
        check_unmapped("the DropTail queue", heritage, values, ("limit_", "drop_front_"),
                       ("summarystats_", "debug_", "mean_pktsize_") + _UTILIZATION)
        if flag(values["queue_in_bytes_"], "queue_in_bytes_"):
            raise Ns2Error("Queue/DropTail: queue_in_bytes_ true is not modelled (give the limit in packets)")
        out: dict[str, Any] = {"kind": "droptail", "limit": limit}
        if flag(values["drop_front_"], "drop_front_"):
            out["drop_front"] = True
        return out
    if cls == "Queue/RED":
        out = {"kind": "red", "limit": limit}
        for var, (key, read) in _RED_KEYS.items():
            out[key] = read(values[var])
        if number(values["thresh_"], "thresh_") != 0:
            out["min_th"] = number(values["thresh_"], "thresh_")
        if number(values["maxthresh_"], "maxthresh_") != 0:
            out["max_th"] = number(values["maxthresh_"], "maxthresh_")
        w = number(values["q_weight_"], "q_weight_")
        out["q_weight"] = {-1.0: "auto", 0.0: "capacity", -2.0: "fast"}.get(w, w)
        out["spacing"] = "wait" if flag(values["wait_"], "wait_") else "uniform"
        if number(values["adaptive_"], "adaptive_") != 0:
            out["adaptive"] = {"alpha": number(values["alpha_"], "alpha_"), "beta": number(values["beta_"], "beta_"),
                               "interval": seconds(values["interval_"], "interval_"),
                               "top": number(values["top_"], "top_"), "bottom": number(values["bottom_"], "bottom_")}
        mapped = set(_RED_KEYS) | {"limit_", "thresh_", "maxthresh_", "q_weight_", "wait_", "adaptive_", "alpha_",
                                   "beta_", "interval_", "top_", "bottom_"}
        check_unmapped("the RED queue", heritage, values, mapped, _RED_STATE)
        return out
    if cls == "Queue/DRR":  # ns-2's DRR ignores limit_: its buffer is blimit_ bytes
        check_unmapped("the DRR queue", heritage, values, ("limit_", "buckets_", "blimit_", "quantum_", "mask_"),
                       ("debug_",) + _UTILIZATION)
        return {"kind": "drr_ns2", "buckets": int(number(values["buckets_"], "buckets_")),
                "blimit": int(number(values["blimit_"], "blimit_")),
                "quantum": int(number(values["quantum_"], "quantum_")),
                "mask": number(values["mask_"], "mask_") != 0}
    raise Ns2Error(f"{cls}: no nsim model of this queue type (supported: {', '.join(QUEUE_CLASSES)})")


def tbf_hook(values: dict[str, str]) -> dict[str, Any]:
    """The nsim ``tbf`` hook of an ns-2 ``TBF`` object's bound variables (``bucket_`` is in
    bits, nsim's ``bucket`` in bytes)."""
    bits = number(values["bucket_"], "bucket_")
    if bits <= 0 or bits % 8:
        raise Ns2Error(f"TBF: bucket_ {values['bucket_']} bits: nsim models buckets of whole bytes (a multiple of 8 bits)")
    qlen = number(values["qlen_"], "qlen_")
    if qlen < 0 or qlen != int(qlen):
        raise Ns2Error(f"TBF: qlen_ {values['qlen_']}: a number of packets, 0 or more")
    rate = rate_bps(values["rate_"], "rate_")
    if rate <= 0:
        raise Ns2Error(f"TBF: rate_ {values['rate_']}: must be greater than zero")
    return {"kind": "tbf", "rate": rate, "bucket": int(bits) // 8, "qlen": int(qlen)}
