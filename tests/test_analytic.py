"""Analytic throughput models against values computed by hand from the published formulas."""

import math

import numpy as np
import pytest

from nsim import analytic


def test_mathis_constant_per_ack_strategy():
    assert analytic.mathis_constant(1) == pytest.approx(math.sqrt(1.5))  # 1.2247
    assert analytic.mathis_constant(2) == pytest.approx(math.sqrt(0.75))  # 0.8660


def test_mathis_by_hand():
    # MSS 1460 B, RTT 100 ms, p = 1 %: 8*1460/0.1 = 116800 bit/s; * 1.224745 / 0.1
    assert analytic.mathis_bps(1460, 0.1, 0.01) == pytest.approx(1_430_502.0, rel=1e-6)
    assert analytic.mathis_bps(1460, 0.1, 0.01, b=2) == pytest.approx(1_011_517.7, rel=1e-6)


def test_pftk_seed003_hong_kong_window_limited():
    # Huang & Khazzam 2003 Fig. 5-12: W_max 12 pkts, RTT 292.71 ms, T0 314.767 ms, p = 10/17432, b = 2,
    # 1412-byte packets. Window term: 12 / 0.29271 = 40.9962 pkt/s. Loss term:
    #   RTT*sqrt(2bp/3) = 0.29271 * sqrt(4 * 5.73658e-4 / 3) = 0.29271 * 0.0276567 = 0.0080954
    #   T0*min(1, 3 sqrt(3bp/8)) = 0.314767 * 3 * sqrt(4.30244e-4) = 0.314767 * 0.0622272
    #     = 0.0195871; times p (1 + 32 p^2) = 5.73658e-4 * 1.0000105 -> 1.12363e-5
    #   1 / (0.0080954 + 0.0000112) = 123.357 pkt/s
    # min -> 40.9962 pkt/s = 57,886.6 B/s, the seed's "57.9 kbytes/sec".
    p = 10 / 17432
    assert analytic.pftk_bps(1412, 0.29271, p, 0.314767) / 8 / 1412 == pytest.approx(123.357, rel=1e-5)
    assert analytic.pftk_bps(1412, 0.29271, p, 0.314767, w_max_pkts=12) / 8 == pytest.approx(
        57_886.6, rel=1e-5
    )


def test_pftk_seed003_trinidad_loss_limited():
    # Huang & Khazzam 2003: W_max 12, RTT 161.326 ms, T0 257.394 ms, p = 70/12684 = 5.51876e-3, b = 2.
    #   RTT*sqrt(2bp/3) = 0.161326 * sqrt(7.35835e-3) = 0.161326 * 0.0857808 = 0.0138387
    #   3*sqrt(3bp/8) = 3 * sqrt(4.13907e-3) = 0.193007 (< 1, so the min keeps it)
    #   p (1 + 32 p^2) = 5.51876e-3 * 1.000975 = 5.52414e-3
    #   T0 * 0.193007 * 5.52414e-3 = 2.74433e-4
    #   1 / (0.0138387 + 0.0002744) = 70.856 pkt/s  (< 12 / 0.161326 = 74.38, so it binds)
    B = analytic.pftk_bps(1412, 0.161326, 70 / 12684, 0.257394, w_max_pkts=12) / 8 / 1412
    assert B == pytest.approx(70.856, rel=1e-4)


def test_pftk_caps_timeout_factor_at_one():
    # p = 0.5, b = 2: 3 sqrt(3*2*0.5/8) = 1.837 -> capped at 1. RTT 0.1 s, T0 1 s:
    #   0.1 * sqrt(2*2*0.5/3) = 0.0816497; 1 * 1 * 0.5 * (1 + 32*0.25) = 4.5
    #   B = 1 / 4.5816497 = 0.218262 pkt/s
    assert analytic.pftk_bps(1000, 0.1, 0.5, 1.0) / 8000 == pytest.approx(1 / 4.5816497, rel=1e-6)


def test_tfrc_rfc5348_by_hand():
    # s = 1000 B, R = 100 ms, p = 1 %, b = 1, t_RTO = 4R = 0.4 s:
    #   R sqrt(2bp/3) = 0.1 * 0.0816497 = 0.00816497
    #   t_RTO (3 sqrt(3bp/8)) p (1 + 32 p^2) = 0.4 * 0.183712 * 0.010032 = 0.00073720
    #   X = 1000 / 0.00890217 = 112,332.2 B/s
    assert analytic.tfrc_bps(1000, 0.1, 0.01) / 8 == pytest.approx(112_332.2, rel=1e-6)
    # An explicit t_RTO of 0.4 s is the same thing.
    assert analytic.tfrc_bps(1000, 0.1, 0.01, t_rto_s=0.4) == analytic.tfrc_bps(1000, 0.1, 0.01)


def test_tfrc_equals_pftk_without_window_when_timeout_factor_below_one():
    # Same equation for b = 1 and p < 8/27 with T0 = t_RTO.
    p = np.array([1e-4, 1e-3, 1e-2, 0.1])
    assert np.allclose(analytic.tfrc_bps(1000, 0.05, p), analytic.pftk_bps(1000, 0.05, p, 0.2, b=1))


def test_vectorised_over_columns():
    out = analytic.tfrc_bps(1000, np.array([0.1, 0.2]), 0.01)
    assert out.shape == (2,) and out[0] == pytest.approx(2 * out[1])
