//! TFRC unit tests against hand-evaluated RFC 5348 §5.4-5.5 formulas.

use super::loss_intervals::{LossIntervals, WEIGHTS};

fn history(intervals: &[f64], discounting: bool) -> LossIntervals {
    let mut h = LossIntervals::new(discounting);
    // close() takes the newest last: feed oldest first.
    for &i in intervals.iter().rev() {
        h.close(i);
    }
    h
}

#[test]
fn weights_are_rfc5348s() {
    // RFC 5348 §5.4: w_i = 1 for i < n/2, else 1 - (i - (n/2 - 1)) / (n/2 + 1), n = 8.
    for (i, &w) in WEIGHTS.iter().enumerate() {
        let want = if i < 4 { 1.0 } else { 1.0 - (i as f64 - 3.0) / 5.0 };
        assert!((w - want).abs() < 1e-12, "w_{i}");
    }
}

#[test]
fn a_short_open_interval_does_not_lower_the_mean() {
    let h = history(&[100.0; 8], false);
    assert_eq!(h.mean(50.0), Some(100.0));
    assert!((h.loss_event_rate(50.0) - 0.01).abs() < 1e-15);
}

#[test]
fn a_long_open_interval_raises_the_mean() {
    // I_tot0 = 150·1 + 100·(1+1+1+0.8+0.6+0.4+0.2) = 650, W_tot0 = 6.
    let h = history(&[100.0; 8], false);
    assert!((h.mean(150.0).unwrap() - 650.0 / 6.0).abs() < 1e-9);
}

#[test]
fn the_weighted_mean_of_mixed_intervals() {
    // I_1..I_8 = 10, 20, ..., 80 and I_0 = 0: I_tot1 = 10 + 20 + 30 + 40 + 0.8·50 + 0.6·60
    // + 0.4·70 + 0.2·80 = 220 over W_tot1 = 6 (I_tot0 = 160 is smaller).
    let h = history(&[10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0], false);
    assert!((h.mean(0.0).unwrap() - 220.0 / 6.0).abs() < 1e-9);
}

#[test]
fn history_discounting_weighs_down_old_intervals() {
    // I_0 = 400 > 2·100: DF = max(0.5, 200/400) = 0.5; I_tot0 = 400 + 0.5·100·5 = 650 over
    // W_tot0 = 1 + 0.5·5 = 3.5.
    let h = history(&[100.0; 8], true);
    assert_eq!(h.discount(400.0), 0.5);
    assert!((h.mean(400.0).unwrap() - 650.0 / 3.5).abs() < 1e-9);
    // DF never goes below 0.5 (ns-2 minDiscountRatio_).
    assert_eq!(h.discount(10_000.0), 0.5);
    let plain = history(&[100.0; 8], false);
    assert!(h.mean(400.0).unwrap() > plain.mean(400.0).unwrap());
}

#[test]
fn a_closed_interval_keeps_the_discount_it_closed_with() {
    let mut h = history(&[100.0; 8], true);
    h.close(400.0);
    // I_1 = 400 (DF 1), I_2..I_8 = 100 with DF 0.5 (weights w_1..w_7); I_0 = 0, so the
    // closed mean decides.
    let w_old: f64 = WEIGHTS[1..].iter().sum();
    let want = (400.0 + 0.5 * 100.0 * w_old) / (1.0 + 0.5 * w_old);
    assert!((h.mean(0.0).unwrap() - want).abs() < 1e-9);
}

#[test]
fn no_loss_means_no_loss_event_rate() {
    let h = LossIntervals::new(true);
    assert!(h.is_empty());
    assert_eq!(h.loss_event_rate(1000.0), 0.0);
}
