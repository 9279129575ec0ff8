//! The TCP throughput equation TFRC steers by (RFC 5348 §3.1), and its inverse, which the
//! receiver uses to synthesize the first loss interval (RFC 5348 §6.3.1).
//!
//! ```text
//! X_Bps = s / (R·sqrt(2·b·p/3) + t_RTO·(3·sqrt(3·b·p/8))·p·(1 + 32·p²))
//! ```
//!
//! `s` is the segment size in bytes, `R` the round-trip time in seconds, `p` the loss event
//! rate, `t_RTO` the TCP retransmission timeout (RFC 5348 §4.3: 4·R) and `b` the packets
//! acknowledged per TCP ACK (RFC 5348 §3.1: "b ... SHOULD be 1"; ns-2 `bval_ 1`). The same
//! formula is `nsim.analytic.tfrc_bps` on the Python side.

/// Allowed sending rate in bytes per second for loss event rate `p` (> 0).
pub fn rate_bps(s: f64, r: f64, p: f64, t_rto: f64, b: f64) -> f64 {
    let denom = r * (2.0 * b * p / 3.0).sqrt()
        + t_rto * (3.0 * (3.0 * b * p / 8.0).sqrt()) * p * (1.0 + 32.0 * p * p);
    s / denom
}

/// The loss event rate at which the equation gives `x` bytes per second (the equation is
/// strictly decreasing in `p`): bisection on log(p) over [1e-10, 1]. Returns 1e-10 when even
/// that allows less than `x`, and 1 when even p = 1 allows more.
pub fn loss_for_rate(x: f64, s: f64, r: f64, t_rto: f64, b: f64) -> f64 {
    let (mut lo, mut hi) = (1e-10f64.ln(), 0.0f64);
    if rate_bps(s, r, lo.exp(), t_rto, b) <= x {
        return lo.exp();
    }
    if rate_bps(s, r, 1.0, t_rto, b) >= x {
        return 1.0;
    }
    // 60 halvings of a 23-wide log interval: far below f64 resolution of p.
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if rate_bps(s, r, mid.exp(), t_rto, b) > x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (0.5 * (lo + hi)).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (s bytes, R s, p, X bytes/s) with t_RTO = 4R, b = 1: the RFC 5348 §3.1 formula
    /// evaluated independently (plain Python `math`, the same as `nsim.analytic.tfrc_bps / 8`).
    const TABLE: [(f64, f64, f64, f64); 9] = [
        (1000.0, 0.1, 0.0001, 1223643.591807),
        (1000.0, 0.1, 0.001, 383843.631391),
        (1000.0, 0.1, 0.01, 112332.234363),
        (1000.0, 0.1, 0.05, 36858.853130),
        (1000.0, 0.1, 0.1, 17701.020778),
        (1000.0, 0.1, 0.3, 1948.473316),
        (1460.0, 0.2, 0.02, 53471.742019),
        (576.0, 0.908, 0.005, 10513.952502),
        (1000.0, 0.048, 0.02, 152602.003479),
    ];

    #[test]
    fn equation_matches_rfc5348_values() {
        for (s, r, p, x) in TABLE {
            let got = rate_bps(s, r, p, 4.0 * r, 1.0);
            assert!((got - x).abs() / x < 1e-9, "s={s} R={r} p={p}: {got} != {x}");
        }
    }

    #[test]
    fn inverse_recovers_the_loss_rate() {
        for (s, r, p, x) in TABLE {
            let got = loss_for_rate(x, s, r, 4.0 * r, 1.0);
            assert!((got - p).abs() / p < 1e-9, "s={s} R={r}: p {got} != {p}");
        }
    }

    #[test]
    fn inverse_clamps_outside_the_range() {
        assert_eq!(loss_for_rate(1e30, 1000.0, 0.1, 0.4, 1.0), 1e-10f64.ln().exp());
        assert_eq!(loss_for_rate(1e-3, 1000.0, 0.1, 0.4, 1.0), 1.0);
    }
}
