use super::*;
use crate::packet::Packet;
use crate::queue::testbench::{Bench, PKT};

fn codel() -> Codel {
    codel_with("")
}

fn codel_with(text: &str) -> Codel {
    let cfg: CodelConfig = toml::from_str(text).unwrap();
    let p =
        CodelParams { target: cfg.target.0, interval: cfg.interval.0, mtu: cfg.mtu, ecn: cfg.ecn };
    Codel { fifo: Fifo::default(), state: CodelState::new(p), limit: Limit::Packets(10_000) }
}

/// A link sending one packet per ms from a standing backlog of `backlog` 1000 B packets,
/// refilled by one arrival per ms. Returns the times in ms of CoDel's signals (drops, or
/// marks when `ecn` is on and the packets are ECN-capable).
fn signal_times(q: &mut Codel, ect: bool, backlog: usize, ms: u64) -> Vec<f64> {
    let mut b = Bench::new();
    let pkt = Packet { ecn: if ect { Ecn::Ect } else { Ecn::NotEct }, ..PKT };
    for _ in 0..backlog {
        b.offer(q, pkt);
    }
    let mut times = vec![];
    for i in 0..ms {
        b.at(Dur::from_millis(i));
        b.offer(q, pkt);
        let before = b.drops.len() as u64 + b.marks;
        b.take(q);
        for _ in before..b.drops.len() as u64 + b.marks {
            times.push(i as f64);
        }
    }
    times
}

fn drop_times(backlog: usize, ms: u64) -> Vec<f64> {
    signal_times(&mut codel(), false, backlog, ms)
}

#[test]
fn drops_follow_the_control_law_while_sojourn_stays_above_target() {
    // RFC 8289: the first drop comes an interval after the sojourn first reaches target
    // (the backlog enqueued at 0 is 5 ms old at the 5 ms dequeue: first drop at 105 ms); then drop k+1 is due interval/sqrt(k+1) after drop k's
    // due time. Dequeues happen every whole ms, so a drop happens at the first ms at or
    // after its due time.
    let got = drop_times(60, 1000);
    let mut want = vec![105.0];
    let mut due: f64 = 105.0 + 100.0;
    let mut count = 1.0f64;
    while due < 1000.0 {
        want.push(due.ceil());
        count += 1.0;
        due += 100.0 / count.sqrt();
    }
    assert_eq!(got, want);
}

#[test]
fn no_drop_when_sojourn_is_below_target() {
    // A backlog of 3 packets at 1 per ms is a 3 ms sojourn, under the 5 ms target.
    assert!(drop_times(3, 2000).is_empty());
}

#[test]
fn never_drops_the_last_mtu_of_the_queue() {
    // One 1000 B packet waiting for a second is above target but within one MTU.
    let mut b = Bench::new();
    let mut q = codel();
    for i in 0..5u64 {
        let id = b.offer_size(&mut q, 1000);
        b.at(Dur::from_secs(i + 1));
        assert_eq!(b.take(&mut q), Some(id));
    }
    assert!(b.drops.is_empty());
}

#[test]
fn control_law_spacing_is_interval_over_sqrt_count() {
    let s = CodelState::new(CodelParams {
        target: Dur::from_millis(5),
        interval: Dur::from_millis(100),
        mtu: 1500,
        ecn: false,
    });
    for (count, ms) in [(1u32, 100.0), (4, 50.0), (16, 25.0), (100, 10.0)] {
        let t = s.control_law(SimTime::ZERO, count);
        assert!((t.as_secs_f64() * 1e3 - ms).abs() < 1e-9, "count {count}");
    }
}

#[test]
fn reentering_soon_after_leaving_resumes_the_previous_drop_rate() {
    // RFC 8289 §5.7: on re-entry within 16 intervals, count starts at count - lastcount.
    let mut s = CodelState::new(CodelParams {
        target: Dur::from_millis(5),
        interval: Dur::from_millis(100),
        mtu: 1500,
        ecn: false,
    });
    s.count = 10;
    s.lastcount = 2;
    s.drop_next = SimTime::ZERO + Dur::from_millis(500);
    s.first_above_time = Some(SimTime::ZERO);
    let mut b = Bench::new();
    let mut fifo = Fifo::default();
    for _ in 0..5 {
        let id = b.pool.alloc(PKT);
        fifo.push(id, 1000, SimTime::ZERO);
    }
    b.at(Dur::from_millis(600));
    let now = b.now;
    s.dequeue(&mut fifo, &mut b.ctx());
    assert_eq!(b.drops.len(), 1);
    assert_eq!(s.count, 8);
    assert_eq!(s.drop_next, s.control_law(now, 8));
}

#[test]
fn with_ecn_ect_packets_are_marked_at_the_control_law_times_and_kept() {
    // Linux codel_dequeue with ecn: the signal times are those of the drop test above (the
    // backlog stays larger, since nothing is removed), and no packet is dropped.
    let mut q = codel_with("ecn = true");
    let marks = signal_times(&mut q, true, 60, 1000);
    assert_eq!(marks, drop_times(60, 1000));
    assert_eq!(q.len_packets(), 60);
    // Non-ECT packets are still dropped.
    let mut q = codel_with("ecn = true");
    assert_eq!(signal_times(&mut q, false, 60, 1000), drop_times(60, 1000));
}
