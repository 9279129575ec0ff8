use super::*;

fn est() -> RttEstimator {
    RttEstimator::new(
        Dur::from_millis(10),
        Dur::ZERO,
        Dur::from_millis(200),
        Dur::from_secs(3),
        Dur::from_secs(60),
    )
}

fn at(ms: u64) -> SimTime {
    SimTime(Dur::from_millis(ms).0)
}

#[test]
fn initial_rto_until_first_sample() {
    assert_eq!(est().rto(), Dur::from_secs(3));
}

#[test]
fn first_sample_sets_srtt_and_half_rttvar() {
    let mut e = est();
    e.sample(at(0), at(300));
    // srtt = 30 ticks, rttvar = 15 ticks, RTO = 30 + 4*15 = 90 ticks = 900 ms (RFC 6298 (2.2)).
    assert_eq!(e.srtt(), Dur::from_millis(300));
    assert_eq!(e.rto(), Dur::from_millis(900));
}

#[test]
fn steady_samples_converge_to_srtt_plus_small_var() {
    let mut e = est();
    for i in 0..200 {
        e.sample(at(i * 1000), at(i * 1000 + 100));
    }
    assert_eq!(e.srtt(), Dur::from_millis(100));
    // rttvar decays to its floor of 1/4 tick: RTO = 10 + 1 ticks, raised to min_rto.
    assert_eq!(e.rto(), Dur::from_millis(200));
}

#[test]
fn rto_backoff_doubles_up_to_the_max() {
    let mut e = est();
    e.sample(at(0), at(1000)); // RTO = 3 s
    let mut seen = vec![e.rto()];
    for _ in 0..8 {
        e.back_off();
        seen.push(e.rto());
    }
    let s: Vec<u64> = seen.iter().map(|d| d.0 / Dur::from_secs(1).0).collect();
    assert_eq!(s, [3, 6, 12, 24, 48, 60, 60, 60, 60]);
    e.reset_backoff();
    assert_eq!(e.backoff(), 1);
}

#[test]
fn never_below_two_ticks() {
    let mut e = RttEstimator::new(
        Dur::from_millis(10),
        Dur::ZERO,
        Dur::ZERO,
        Dur::from_secs(3),
        Dur::from_secs(60),
    );
    e.sample(at(0), at(1));
    assert!(e.rto() >= Dur::from_millis(20));
}

/// BSD's slow timer (TCP/IP Illustrated vol. 2 ch. 25): a timer of n ticks fires on the n-th
/// clock tick after it is armed, between (n-1) and n ticks later, however far into a tick it
/// was armed; the clock's phase shifts the ticks.
#[test]
fn slow_clock_fires_on_the_nth_tick_after_arming() {
    let e = RttEstimator::new(
        Dur::from_millis(500),
        Dur::ZERO,
        Dur::from_millis(200),
        Dur::from_millis(3000),
        Dur::from_millis(60_000),
    );
    let rto = Dur::from_millis(1000);
    assert_eq!(e.slow_clock_deadline(at(1200), rto), at(2000));
    assert_eq!(e.slow_clock_deadline(at(1499), rto), at(2000));
    assert_eq!(e.slow_clock_deadline(at(1000), rto), at(2000));
    assert_eq!(e.slow_clock_deadline(at(1501), rto), at(2500));
    // 1.2 s is 2.4 ticks: the timer holds 3.
    assert_eq!(e.slow_clock_deadline(at(1200), Dur::from_millis(1200)), at(2500));
    let shifted = RttEstimator::new(
        Dur::from_millis(500),
        Dur::from_millis(100),
        Dur::from_millis(200),
        Dur::from_millis(3000),
        Dur::from_millis(60_000),
    );
    // Ticks at 0.4, 0.9, 1.4, ... s: the phase counts as in `sample` ((t + offset) mod tick).
    assert_eq!(shifted.slow_clock_deadline(at(1200), rto), at(1900));
}
