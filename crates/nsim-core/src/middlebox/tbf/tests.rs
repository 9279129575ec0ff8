use super::*;
use crate::queue::testbench::PKT;

fn at(ms: u64) -> SimTime {
    SimTime::ZERO + Dur::from_millis(ms)
}

/// ns-2's TBF rule worked by hand: 8 kb/s (one 125-byte packet per 125 ms), a bucket of one
/// such packet (1000 bits), two may wait. A burst of four at 0: the first leaves at once,
/// the next two 125 and 250 ms later, the fourth finds two waiting and is dropped. At 300 ms
/// the bucket holds 50 ms of tokens (400 bits): the next leaves 75 ms later.
#[test]
fn shapes_a_burst_as_ns2s_timer_does() {
    let mut tbf = Tbf::new(8_000, 1_000, 2);
    let mut p = Packet { size: 125, ..PKT };
    let burst: Vec<Verdict> = (0..4).map(|_| tbf.on_packet(at(0), &mut p)).collect();
    assert_eq!(
        burst,
        [
            Verdict::Pass,
            Verdict::Delay(Dur::from_millis(125)),
            Verdict::Delay(Dur::from_millis(250)),
            Verdict::Drop
        ]
    );
    assert_eq!(tbf.on_packet(at(300), &mut p), Verdict::Delay(Dur::from_millis(75)));
    // After a long idle period the bucket is full again, not fuller: one passes, one waits.
    assert_eq!(tbf.on_packet(at(10_000), &mut p), Verdict::Pass);
    assert_eq!(tbf.on_packet(at(10_000), &mut p), Verdict::Delay(Dur::from_millis(125)));
}

/// With `qlen_ 0` ns-2's TBF polices: what the bucket does not hold is dropped.
#[test]
fn without_a_queue_it_polices() {
    let mut tbf = Tbf::new(8_000, 1_000, 0);
    let mut p = Packet { size: 125, ..PKT };
    assert_eq!(tbf.on_packet(at(0), &mut p), Verdict::Pass);
    assert_eq!(tbf.on_packet(at(100), &mut p), Verdict::Drop);
    assert_eq!(tbf.on_packet(at(125), &mut p), Verdict::Pass);
}

/// A packet larger than the bucket still leaves when ns-2's timer fires, (size - tokens) /
/// rate after it arrived: 250 bytes with a full 125-byte bucket wait 125 ms.
#[test]
fn a_packet_larger_than_the_bucket_waits_and_leaves() {
    let mut tbf = Tbf::new(8_000, 1_000, 5);
    let mut big = Packet { size: 250, ..PKT };
    assert_eq!(tbf.on_packet(at(0), &mut big), Verdict::Delay(Dur::from_millis(125)));
    // Its departure left the bucket 1000 bits in debt: the next 125 bytes wait 250 ms more.
    let mut p = Packet { size: 125, ..PKT };
    assert_eq!(tbf.on_packet(at(200), &mut p), Verdict::Delay(Dur::from_millis(175)));
}

/// nsim models no change of a TBF during a run (ns-2 would take a new `rate_`): refused, saying so.
#[test]
fn a_change_during_the_run_is_refused_with_a_reason() {
    let mut tbf = Tbf::new(8_000, 1_000, 2);
    let err = tbf.change(at(0), &HookChange::Delay(Dur::from_millis(1))).unwrap_err();
    assert_eq!(err, "a 'tbf' middlebox has no `delay` (nothing of it can change during a run)");
}
