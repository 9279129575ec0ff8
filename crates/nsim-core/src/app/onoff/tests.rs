use super::*;
use crate::app::cbr::Cbr;
use crate::app::poisson::Poisson;
use crate::rng::stream;

#[test]
fn cbr_without_jitter_is_exactly_periodic() {
    let mut g = Cbr { interval: Dur::from_millis(8), size: SizeDist::Fixed(92), jitter: 0.0 };
    let mut rng = stream(1, "cbr");
    for _ in 0..10 {
        assert_eq!(g.next(&mut rng), Emission { size: 92, gap: Dur::from_millis(8) });
    }
}

#[test]
fn cbr_jitter_stays_within_half_an_interval_and_keeps_the_mean() {
    let mut g = Cbr { interval: Dur::from_millis(10), size: SizeDist::Fixed(100), jitter: 1.0 };
    let mut rng = stream(2, "cbr");
    let n = 100_000;
    let mut sum = 0.0;
    for _ in 0..n {
        let e = g.next(&mut rng);
        let s = e.gap.as_secs_f64();
        assert!((0.005..=0.015).contains(&s));
        sum += s;
    }
    // Uniform gap: sd of the mean = 0.01/sqrt(12)/sqrt(n); allow 5 sd.
    let tol = 5.0 * 0.01 / 12f64.sqrt() / (n as f64).sqrt();
    assert!((sum / n as f64 - 0.01).abs() < tol);
}

#[test]
fn poisson_gaps_have_exponential_mean_and_variance() {
    let mut g = Poisson::new(Dur::from_millis(2), SizeDist::Fixed(500));
    let mut rng = stream(3, "poisson");
    let n = 200_000;
    let gaps: Vec<f64> = (0..n).map(|_| g.next(&mut rng).gap.as_secs_f64()).collect();
    let mean = gaps.iter().sum::<f64>() / n as f64;
    let var = gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / n as f64;
    // Exponential(mean m): sd of the sample mean = m/sqrt(n).
    assert!((mean - 0.002).abs() < 5.0 * 0.002 / (n as f64).sqrt());
    assert!((var.sqrt() / mean - 1.0).abs() < 0.02, "CV of exponential gaps is 1");
}

#[test]
fn onoff_mean_rate_matches_duty_cycle() {
    // Peak 1 packet/ms, on 100 ms, off 400 ms (means): long-run rate = 1000 * 0.2 pkts/s.
    for (on, off) in [
        (Period::exponential(0.1), Period::exponential(0.4)),
        (Period::pareto(0.1, 1.9), Period::pareto(0.4, 1.9)),
    ] {
        let mut g = OnOff::new(Dur::from_millis(1), SizeDist::Fixed(125), on, off);
        let mut rng = stream(4, "onoff");
        let mut t = 0.0;
        let n = 400_000;
        for _ in 0..n {
            t += g.next(&mut rng).gap.as_secs_f64();
        }
        let rate = n as f64 / t;
        // Pareto with shape 1.9 converges slowly; 10 % is a loose but meaningful bound.
        assert!((rate / 200.0 - 1.0).abs() < 0.10, "rate {rate}");
    }
}

#[test]
fn size_distributions_respect_their_bounds_and_means() {
    let mut rng = stream(5, "size");
    let u = SizeDist::Uniform { min: 40, max: 1500 };
    let e = SizeDist::Exponential { mean: 500.0, min: 40, max: 1500 };
    let n = 100_000;
    let mut su = 0u64;
    for _ in 0..n {
        let a = u.draw(&mut rng);
        let b = e.draw(&mut rng);
        assert!((40..=1500).contains(&a) && (40..=1500).contains(&b));
        su += a as u64;
    }
    assert!((su as f64 / n as f64 - 770.0).abs() < 5.0);
}
