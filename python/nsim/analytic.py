"""Analytic TCP throughput models, as references to compare simulated flows against.

Read first:

- Mathis, Semke, Mahdavi & Ott, "The Macroscopic Behavior of the TCP Congestion Avoidance
  Algorithm", CCR 27(3), 1997: ``BW = (MSS / RTT) * C / sqrt(p)``. For periodic loss with an
  ACK every ``b`` packets, ``C = sqrt(3 / (2 b))``: 1.22 with an ACK per packet, 0.87 with
  delayed ACKs (b = 2).
- Padhye, Firoiu, Towsley & Kurose (PFTK), "Modeling TCP Throughput: A Simple Model and its
  Empirical Validation", SIGCOMM 1998, approximate model; McGill lab 2003 Eq. 4-1 prints it as
  ``B(p) = min(W_max / RTT, 1 / (RTT sqrt(2bp/3) + T0 min(1, 3 sqrt(3bp/8)) p (1 + 32 p^2)))``
  in packets per second.
- RFC 5348 §3.1, the TFRC throughput equation:
  ``X_Bps = s / (R sqrt(2bp/3) + t_RTO (3 sqrt(3bp/8)) p (1 + 32 p^2))`` in bytes per second;
  the RFC recommends ``t_RTO = 4 R`` and ``b = 1``.

All functions return bit/s and accept scalars or numpy arrays (broadcast together), so they
apply directly to columns of a sweep table. ``p`` is the loss (event) probability per packet.
"""

from __future__ import annotations

from typing import Union

import numpy as np

__all__ = ["mathis_constant", "mathis_bps", "pftk_bps", "tfrc_bps"]

Number = Union[float, np.ndarray]


def _out(x: np.ndarray) -> float | np.ndarray:
    """Return a Python float for 0-d results, the array otherwise."""
    return float(x) if np.ndim(x) == 0 else x


def mathis_constant(b: float = 1) -> float:
    """Mathis et al.'s constant ``C = sqrt(3 / (2 b))`` for an ACK every ``b`` packets."""
    if b <= 0:
        raise ValueError(f"b must be positive, got {b}")
    return float(np.sqrt(3.0 / (2.0 * b)))


def mathis_bps(mss_bytes: Number, rtt_s: Number, p: Number, b: float = 1) -> float | np.ndarray:
    """Mathis et al. (1997) steady-state TCP throughput ``8 MSS / RTT * C / sqrt(p)``, bit/s.

    ``b`` is the number of packets each ACK acknowledges (1: ACK every packet, C = 1.22;
    2: delayed ACKs, C = 0.87). Infinite for ``p = 0``: the model has no window limit.
    """
    with np.errstate(divide="ignore"):
        return _out(
            8.0 * np.asarray(mss_bytes, float) / np.asarray(rtt_s, float)
            * mathis_constant(b) / np.sqrt(np.asarray(p, float))
        )


def _loss_term(
    rtt_s: np.ndarray, p: np.ndarray, t_rto_s: np.ndarray, b: float, cap: bool
) -> np.ndarray:
    """Shared PFTK/TFRC denominator ``R sqrt(2bp/3) + T0 F p (1 + 32p^2)``.

    ``F = 3 sqrt(3bp/8)``; PFTK caps it at 1 (``cap``), RFC 5348 does not. The two agree for
    ``p <= 8 / (27 b)`` (0.30 for b = 1, 0.15 for b = 2).
    """
    timeouts = 3.0 * np.sqrt(3.0 * b * p / 8.0)
    if cap:
        timeouts = np.minimum(1.0, timeouts)
    return rtt_s * np.sqrt(2.0 * b * p / 3.0) + t_rto_s * timeouts * p * (1.0 + 32.0 * p**2)


def pftk_bps(
    packet_bytes: Number,
    rtt_s: Number,
    p: Number,
    t0_s: Number,
    w_max_pkts: Number = np.inf,
    b: float = 2,
) -> float | np.ndarray:
    """PFTK steady-state TCP throughput (Padhye et al. 1998; McGill lab 2003 Eq. 4-1), in bit/s.

    ``B(p) = min(W_max / RTT, 1 / (RTT sqrt(2bp/3) + T0 min(1, 3 sqrt(3bp/8)) p (1+32p^2)))``
    packets/s, times ``8 * packet_bytes``. ``t0_s`` is the retransmission timeout, ``w_max_pkts``
    the receiver's window in packets (default: unlimited) and ``b`` the packets per ACK
    (default 2, delayed ACKs, as in the paper's and McGill lab 2003's validation).
    """
    rtt = np.asarray(rtt_s, float)
    p_ = np.asarray(p, float)
    with np.errstate(divide="ignore"):
        loss_limited = 1.0 / _loss_term(rtt, p_, np.asarray(t0_s, float), b, cap=True)
    pkts_per_s = np.minimum(np.asarray(w_max_pkts, float) / rtt, loss_limited)
    return _out(8.0 * np.asarray(packet_bytes, float) * pkts_per_s)


def tfrc_bps(
    s_bytes: Number, rtt_s: Number, p: Number, t_rto_s: Number | None = None, b: float = 1
) -> float | np.ndarray:
    """TFRC throughput equation (RFC 5348 §3.1), in bit/s.

    ``X_Bps = s / (R sqrt(2bp/3) + t_RTO (3 sqrt(3bp/8)) p (1 + 32 p^2))`` with ``s`` the
    segment size in bytes, ``R`` the round-trip time, ``p`` the loss event rate,
    ``t_RTO = 4 R`` unless given, and ``b = 1`` as RFC 5348 recommends. Returned as
    ``8 * X_Bps``.
    """
    rtt = np.asarray(rtt_s, float)
    rto = 4.0 * rtt if t_rto_s is None else np.asarray(t_rto_s, float)
    with np.errstate(divide="ignore"):
        return _out(
            8.0 * np.asarray(s_bytes, float) / _loss_term(rtt, np.asarray(p, float), rto, b, cap=False)
        )
