//! The pacer's release times against the rule it implements (Linux fq: each quantum's
//! departure = the previous one's + its bytes × 8 / rate).

use super::Pacer;
use crate::tcp::config::PacingParams;
use crate::time::{Dur, SimTime};

fn at(ms: u64) -> SimTime {
    SimTime::ZERO + Dur::from_millis(ms)
}

#[test]
fn one_packet_quanta_leave_one_serialization_time_apart() {
    // 1000 B at 8 Mb/s: 1 ms each.
    let mut p = Pacer::new(PacingParams { rate: Some(8e6), quantum: 1 });
    assert_eq!(p.hold(at(0)), None);
    p.sent(at(0), 1000, Some(8e6));
    assert_eq!(p.hold(at(0)), Some(at(1)));
    assert_eq!(p.hold(at(1)), None);
    p.sent(at(1), 1000, Some(8e6));
    assert_eq!(p.hold(at(1)), Some(at(2)));
}

#[test]
fn a_quantum_goes_back_to_back_then_waits_for_all_its_bytes() {
    let mut p = Pacer::new(PacingParams { rate: Some(8e6), quantum: 3 });
    for _ in 0..2 {
        p.sent(at(10), 1000, Some(8e6));
        assert_eq!(p.hold(at(10)), None);
    }
    p.sent(at(10), 1000, Some(8e6));
    assert_eq!(p.hold(at(10)), Some(at(13)));
}

#[test]
fn idle_time_is_not_saved_up() {
    let mut p = Pacer::new(PacingParams { rate: Some(8e6), quantum: 1 });
    p.sent(at(0), 1000, Some(8e6));
    // The sender was window-limited for 50 ms: the next packet leaves now, the one after
    // 1 ms later, not a burst.
    p.sent(at(50), 1000, Some(8e6));
    assert_eq!(p.hold(at(50)), Some(at(51)));
}

#[test]
fn default_rate_is_linux_ratio_of_cwnd_over_srtt() {
    let p = Pacer::new(PacingParams { rate: None, quantum: 1 });
    let srtt = Dur::from_millis(100);
    // tcp_update_pacing_rate: 10 packets of 1000 B per 100 ms = 0.8 Mb/s, × 2 in slow start
    // (cwnd < ssthresh / 2), × 1.2 after.
    assert!((p.rate(None, 10.0, 100.0, srtt, 1000).unwrap() - 1.6e6).abs() < 1e-6);
    assert!((p.rate(None, 10.0, 15.0, srtt, 1000).unwrap() - 0.96e6).abs() < 1e-6);
    assert_eq!(p.rate(None, 10.0, 100.0, Dur::ZERO, 1000), None);
    // The congestion control's rate wins over the default, a fixed rate over both.
    assert_eq!(p.rate(Some(5e6), 10.0, 100.0, srtt, 1000), Some(5e6));
    let fixed = Pacer::new(PacingParams { rate: Some(2e6), quantum: 1 });
    assert_eq!(fixed.rate(Some(5e6), 10.0, 100.0, srtt, 1000), Some(2e6));
}
