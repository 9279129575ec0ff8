use super::*;

fn est() -> RttEstimator {
    RttEstimator::new(Dur::from_millis(10), Dur::ZERO, Dur::from_millis(200), Dur::from_secs(3), Dur::from_secs(60))
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
    let mut e = RttEstimator::new(Dur::from_millis(10), Dur::ZERO, Dur::ZERO, Dur::from_secs(3), Dur::from_secs(60));
    e.sample(at(0), at(1));
    assert!(e.rto() >= Dur::from_millis(20));
}
