use std::collections::HashMap;

use super::*;
use crate::packet::Packet;
use crate::queue::testbench::{Bench, PKT};

fn ctx_for(rate: u64, flows: &HashMap<String, crate::ids::FlowId>) -> BuildCtx<'_> {
    BuildCtx { link_rate: BitsPerSec(rate), link_delay: Dur::from_millis(20), flows }
}

/// The pre-2004 ns-2 parameters most papers use (packet mode, 5/15, w 0.002).
fn classic(extra: &str) -> RedConfig {
    let mut t: toml::Table = toml::from_str(
        "min_th = 5\nmax_th = 15\nq_weight = 0.002\nbytes = false\nqueue_in_bytes = false",
    )
    .unwrap();
    t.extend(toml::from_str::<toml::Table>(extra).unwrap());
    t.try_into().unwrap()
}

fn build(cfg: &RedConfig) -> Red {
    cfg.build_red(&ctx_for(1_500_000, &HashMap::new()))
}

/// F&J 1993 §4 / Floyd 2000, written out independently of `RedCurve`.
fn reference_p_b(avg: f64, min: f64, max: f64, max_p: f64, gentle: bool) -> f64 {
    if avg < min {
        0.0
    } else if avg < max {
        max_p * (avg - min) / (max - min)
    } else if gentle && avg < 2.0 * max {
        max_p + (1.0 - max_p) * (avg - max) / max
    } else {
        1.0
    }
}

#[test]
fn drop_probability_follows_floyd_jacobson_table() {
    // (avg, gentle, expected p_b) for min 5, max 15, max_p 0.1; the expected column is
    // computed by hand from F&J 1993 §4 and Floyd 2000.
    let rows = [
        (0.0, false, 0.0),
        (4.99, false, 0.0),
        (5.0, false, 0.0),
        (7.5, false, 0.025),
        (10.0, false, 0.05),
        (14.0, false, 0.09),
        (15.0, false, 1.0),
        (20.0, false, 1.0),
        (10.0, true, 0.05),
        (15.0, true, 0.1),
        (22.5, true, 0.55),
        (27.0, true, 0.82),
        (30.0, true, 1.0),
        (45.0, true, 1.0),
    ];
    for (avg, gentle, want) in rows {
        let c = RedCurve { min_th: 5.0, max_th: 15.0, max_p: 0.1, gentle };
        let got = c.p_b(avg);
        assert!((got - want).abs() < 1e-12, "avg {avg} gentle {gentle}: {got} != {want}");
        assert!((got - reference_p_b(avg, 5.0, 15.0, 0.1, gentle)).abs() < 1e-12);
    }
    // Holl 2003's curve (thresh 5, maxthresh 32, p 0.1, gentle): 0.1 at 32, 1 at 64.
    let seed = RedCurve { min_th: 5.0, max_th: 32.0, max_p: 0.1, gentle: true };
    assert!((seed.p_b(32.0) - 0.1).abs() < 1e-12);
    assert!((seed.p_b(48.0) - 0.55).abs() < 1e-12);
    assert!((seed.p_b(64.0) - 1.0).abs() < 1e-12);
}

#[test]
fn count_spacing_matches_the_formulas() {
    // (spacing, p_b, count, expected p_a) from F&J 1993 §7 and ns-2 modify_p.
    let rows = [
        (Spacing::Uniform, 0.02, 1.0, 0.02 / 0.98),
        (Spacing::Uniform, 0.02, 25.0, 0.04),
        (Spacing::Uniform, 0.02, 50.0, 1.0),
        (Spacing::Wait, 0.02, 49.0, 0.0),
        (Spacing::Wait, 0.02, 50.0, 0.02),
        (Spacing::Wait, 0.02, 75.0, 0.04),
        (Spacing::Wait, 0.02, 100.0, 1.0),
        (Spacing::Geometric, 0.02, 77.0, 0.02),
    ];
    for (s, p, n, want) in rows {
        assert!((s.p_a(p, n) - want).abs() < 1e-12, "{s:?} p {p} count {n}");
    }
}

/// Inter-drop counts (arrivals from one drop to the next, inclusive) for a fixed p_b.
fn inter_drop_counts(s: Spacing, p_b: f64, n: usize) -> (f64, f64, u64, u64) {
    let mut rng = crate::rng::stream(3, "spacing");
    let (mut sum, mut sq, mut lo, mut hi) = (0.0, 0.0, u64::MAX, 0);
    for _ in 0..n {
        let mut count = 0u64;
        loop {
            count += 1;
            let u: f64 = rng.random();
            if u <= s.p_a(p_b, count as f64) {
                break;
            }
        }
        sum += count as f64;
        sq += (count * count) as f64;
        lo = lo.min(count);
        hi = hi.max(count);
    }
    let mean = sum / n as f64;
    (mean, sq / n as f64 - mean * mean, lo, hi)
}

#[test]
fn uniform_spacing_gives_uniform_counts_below_1_over_p() {
    // p_a = p_b/(1 - count p_b) makes the inter-drop count uniform (F&J 1993 §7). ns-2's
    // count includes the arrival itself, so the support is {1, ..., 1/p_b - 1}:
    // P(X = n) = p_b/(1 - p_b) for each n. For p_b = 0.05: mean 10, variance (19^2-1)/12.
    let (mean, var, lo, hi) = inter_drop_counts(Spacing::Uniform, 0.05, 200_000);
    assert_eq!((lo, hi), (1, 19));
    assert!((mean - 10.0).abs() < 0.05, "{mean}");
    assert!((var - 30.0).abs() / 30.0 < 0.02, "{var}");
}

#[test]
fn wait_spacing_gives_uniform_counts_on_1_over_p_to_2_over_p() {
    // ns-2 wait_ true: uniform on {1/p, ..., 2/p - 1}: mean 29.5, variance (20^2 - 1)/12.
    let (mean, var, lo, hi) = inter_drop_counts(Spacing::Wait, 0.05, 200_000);
    assert_eq!((lo, hi), (20, 39));
    assert!((mean - 29.5).abs() < 0.05, "{mean}");
    assert!((var - 399.0 / 12.0).abs() / (399.0 / 12.0) < 0.02, "{var}");
}

#[test]
fn geometric_spacing_gives_geometric_counts() {
    // Method 1: geometric with mean 1/p and variance (1-p)/p^2.
    let p = 0.05;
    let (mean, var, lo, _) = inter_drop_counts(Spacing::Geometric, p, 200_000);
    assert_eq!(lo, 1);
    assert!((mean - 1.0 / p).abs() < 0.15, "{mean}");
    assert!((var - (1.0 - p) / (p * p)).abs() / ((1.0 - p) / (p * p)) < 0.03, "{var}");
}

#[test]
fn average_is_the_ewma_of_the_queue_seen_by_arrivals() {
    let mut a = RedAverage::new(0.002, 375.0);
    let t = SimTime(1);
    a.update(t, 0.0);
    let mut want = 0.0;
    for q in [1.0, 2.0, 2.0, 3.0, 3.0] {
        want = 0.998 * want + 0.002 * q;
        assert!((a.update(t, q) - want).abs() < 1e-15);
    }
}

#[test]
fn idle_time_decays_the_average_as_if_m_empty_arrivals_came() {
    // F&J 1993 §6, ns-2: m = int(ptc * idle); avg <- (1-w)^(m+1) avg + w q.
    // Numbers from ns-2.35's red_two_source trace: ave 0.002 at 0.121253; idle for
    // 13/375 s; ns-2 printed 0.00194472 at the next arrival.
    let mut a = RedAverage::new(0.002, 375.0);
    a.update(SimTime::ZERO + Dur::from_secs_f64(0.12), 1.0);
    assert!((a.avg - 0.002).abs() < 1e-15);
    let t0 = SimTime::ZERO + Dur::from_secs_f64(0.1397);
    a.on_idle(t0);
    a.update(t0 + Dur::from_secs_f64(13.5 / 375.0), 0.0);
    assert!((a.avg - 0.002 * 0.998f64.powi(14)).abs() < 1e-15);
    assert!((a.avg - 0.00194472).abs() < 5e-9);
}

#[test]
fn automatic_parameters_follow_ns2_initialize_params() {
    let cfg = RedConfig::default();
    // 1.5 Mb/s, 500 B: ptc 375/s, target queue 0.005*375/2 < 5 -> min 5, max 15.
    assert_eq!(cfg.thresholds_pkts(375.0), (5.0, 15.0));
    // 100 Mb/s: ptc 25000, min = 0.005*25000/2 = 62.5, max 187.5.
    assert_eq!(cfg.thresholds_pkts(25_000.0), (62.5, 187.5));
    let w = QWeightSpec::Auto(QWeightAuto::Auto).resolve(375.0, Dur::from_millis(20));
    // RTT = 3 (0.02 + 1/375) = 0.068 < 0.1 -> 0.1; w = 1 - exp(-1/(10*0.1*375)).
    assert!((w - (1.0 - (-1.0f64 / 375.0).exp())).abs() < 1e-15);
    let w = QWeightSpec::Auto(QWeightAuto::Auto).resolve(375.0, Dur::from_millis(450));
    let rtt: f64 = 3.0 * (0.45 + 1.0 / 375.0);
    assert!((w - (1.0 - (-1.0 / (10.0 * rtt * 375.0)).exp())).abs() < 1e-15);
    let w = QWeightSpec::Auto(QWeightAuto::Fast).resolve(375.0, Dur::ZERO);
    assert!((w - (1.0 - (-10.0f64 / 375.0).exp())).abs() < 1e-15);
    // ns-2.35 defaults: byte thresholds (5 and 15 times 500 B), gentle, wait, mark_p 0.1.
    let red = build(&cfg);
    assert_eq!(red.curve(), RedCurve { min_th: 2500.0, max_th: 7500.0, max_p: 0.1, gentle: true });
}

/// Fills the queue with `n` packets without a dequeue, with the average pinned at `avg`.
fn pinned(cfg: &RedConfig, b: &mut Bench, n: usize, avg: f64) -> Red {
    let mut red = build(cfg);
    for _ in 0..n {
        let id = b.pool.alloc(PKT);
        red.fifo.push(id, 1000, b.now);
    }
    red.avg.avg = avg;
    red.avg.w = 0.0;
    red.avg.idle_since = None;
    red.old = true;
    red
}

#[test]
fn above_max_th_drops_every_arrival_as_forced() {
    let mut b = Bench::new();
    let mut red = pinned(&classic("gentle = false\nuse_mark_p = false"), &mut b, 10, 16.0);
    for _ in 0..20 {
        b.offer(&mut red, PKT);
    }
    assert_eq!(b.drops_of(DropReason::RedForced), 20);
}

#[test]
fn gentle_region_drops_some_not_all() {
    let mut b = Bench::new();
    let mut red = pinned(&classic("gentle = true\nspacing = \"geometric\""), &mut b, 10, 22.5);
    let n = 20_000;
    for _ in 0..n {
        let id = b.offer(&mut red, PKT);
        if !b.dropped(id) {
            red.fifo.pop_back();
        }
    }
    let frac = b.drops_of(DropReason::RedEarly) as f64 / n as f64;
    // p_b = 0.55 with geometric spacing: 0.55 +- 4 sd.
    assert!((frac - 0.55).abs() < 4.0 * (0.55f64 * 0.45 / n as f64).sqrt(), "{frac}");
}

#[test]
fn byte_mode_scales_the_probability_by_size() {
    // F&J 1993 §11: p_b * size / mean_pktsize. 250 B packets at mean 500: half of p_b.
    let mut b = Bench::new();
    let cfg = classic("bytes = true\nmean_pktsize = 500\nspacing = \"geometric\"");
    let mut red = pinned(&cfg, &mut b, 10, 10.0);
    let n = 40_000;
    for _ in 0..n {
        let id = b.offer(&mut red, Packet { size: 250, ..PKT });
        if !b.dropped(id) {
            red.fifo.pop_back();
        }
    }
    let frac = b.drops.len() as f64 / n as f64;
    assert!((frac - 0.025).abs() < 4.0 * (0.025f64 * 0.975 / n as f64).sqrt(), "{frac}");
}

#[test]
fn setbit_marks_ect_packets_instead_of_dropping_below_mark_p() {
    let mut b = Bench::new();
    let mut red = pinned(&classic("setbit = true\nspacing = \"geometric\""), &mut b, 10, 10.0);
    let n = 10_000;
    for _ in 0..n {
        b.offer(&mut red, Packet { ecn: Ecn::Ect, ..PKT });
        red.fifo.pop_back();
    }
    assert!(b.drops.is_empty());
    assert!(b.marks > 0);
    let frac = b.marks as f64 / n as f64;
    assert!((frac - 0.05).abs() < 4.0 * (0.05f64 * 0.95 / n as f64).sqrt(), "{frac}");
    // A non-ECT packet is dropped instead; above mark_p (gentle region) ECT is dropped too.
    let mut red = pinned(&classic("setbit = true\nspacing = \"geometric\""), &mut b, 10, 25.0);
    let marks = b.marks;
    for _ in 0..200 {
        let id = b.offer(&mut red, Packet { ecn: Ecn::Ect, ..PKT });
        if !b.dropped(id) {
            red.fifo.pop_back();
        }
    }
    assert_eq!(b.marks, marks);
    assert!(b.drops_of(DropReason::RedEarly) > 0);
}

#[test]
fn physical_limit_is_an_overflow_drop() {
    let mut b = Bench::new();
    let mut red = build(&classic("limit = 3\nmin_th = 50\nmax_th = 100"));
    let ids: Vec<_> = (0..4).map(|_| b.offer(&mut red, PKT)).collect();
    assert_eq!(b.drops, vec![(ids[3], DropReason::Overflow)]);
}

#[test]
fn no_early_drop_when_the_average_first_crosses_min_th() {
    // ns-2 `old`: the first arrival above min_th only starts the count.
    let mut b = Bench::new();
    let mut red = pinned(&classic("spacing = \"geometric\""), &mut b, 10, 14.9);
    red.old = false;
    b.offer(&mut red, PKT);
    assert!(b.drops.is_empty());
    assert_eq!(red.count, 1);
}

#[test]
fn adaptive_red_moves_max_p_by_aimd() {
    let mut b = Bench::new();
    let cfg = classic("adaptive = {}");
    let mut red = pinned(&cfg, &mut b, 14, 14.0);
    b.at(Dur::from_millis(600));
    b.offer(&mut red, PKT);
    // avg 14 > max_th - 0.4 (max-min) = 11: max_p += min(0.01, max_p/4).
    assert!((red.curve().max_p - 0.11).abs() < 1e-12);
    red.avg.avg = 6.0;
    b.at(Dur::from_millis(800));
    b.offer(&mut red, PKT);
    assert!((red.curve().max_p - 0.11).abs() < 1e-12, "within the interval: unchanged");
    b.at(Dur::from_millis(1200));
    b.offer(&mut red, PKT);
    assert!((red.curve().max_p - 0.099).abs() < 1e-12);
}

#[test]
fn validation_names_the_field() {
    let bad: RedConfig = toml::from_str("min_th = 10\nmax_th = 5").unwrap();
    assert!(bad.validate("q").unwrap_err().starts_with("max_th"));
    let bad: RedConfig = toml::from_str("q_weight = 1.5").unwrap();
    assert!(bad.validate("q").unwrap_err().starts_with("q_weight"));
    let bad: RedConfig = toml::from_str("linterm = 0.5").unwrap();
    assert!(bad.validate("q").unwrap_err().starts_with("linterm"));
}
