use super::*;
use crate::packet::Packet;
use crate::queue::droptail::DropTail;
use crate::queue::testbench::{Bench, PKT};
use crate::units::Limit;

fn fifo() -> Box<dyn QueueDisc> {
    Box::new(DropTail::new(Limit::Packets(100_000), false))
}

#[test]
fn a_full_bucket_passes_a_burst_of_exactly_its_depth() {
    // 10 KB depth, 1000 B packets, all at t = 0: exactly 10 conform.
    let mut b = Bench::new();
    let mut p = Policer {
        bucket: TokenBucket::new(BitsPerSec(1_000_000), 10_000),
        action: PolicerAction::Drop,
        demote_to: 2,
        child: fifo(),
    };
    for _ in 0..25 {
        b.offer(&mut p, PKT);
    }
    assert_eq!(p.len_packets(), 10);
    assert_eq!(b.drops_of(DropReason::Policer), 15);
}

#[test]
fn policer_long_run_conformant_rate_is_the_token_rate() {
    // Offer 2 Mb/s of 500 B packets for 100 s into a 1 Mb/s, 3000 B bucket: what conforms
    // is rate·T + depth bytes, to within one packet.
    let mut b = Bench::new();
    let mut p = Policer {
        bucket: TokenBucket::new(BitsPerSec(1_000_000), 3000),
        action: PolicerAction::Drop,
        demote_to: 2,
        child: fifo(),
    };
    let gap = Dur::from_millis(2);
    for i in 0..50_000u64 {
        b.at(Dur(gap.0 * i));
        b.offer(&mut p, Packet { size: 500, ..PKT });
    }
    let passed = p.len_bytes() as f64;
    let want = 1e6 / 8.0 * (gap.0 as f64 * 49_999.0 / 1e12) + 3000.0;
    assert!((passed - want).abs() <= 500.0, "{passed} vs {want}");
}

#[test]
fn demoting_policer_rewrites_prio_and_keeps_the_packet() {
    let mut b = Bench::new();
    let mut p = Policer {
        bucket: TokenBucket::new(BitsPerSec(8_000), 1000),
        action: PolicerAction::Demote,
        demote_to: 2,
        child: fifo(),
    };
    let a = b.offer(&mut p, PKT);
    let c = b.offer(&mut p, PKT);
    assert!(b.drops.is_empty());
    assert_eq!((b.pool.get(a).prio, b.pool.get(c).prio), (0, 2));
}

#[test]
fn shaper_sends_the_depth_at_once_then_the_token_rate() {
    // 8 kb/s = 1000 B/s; depth 3000 B; 1000 B packets: 3 leave at t = 0, then one per second.
    let mut b = Bench::new();
    let mut s =
        Shaper { bucket: TokenBucket::new(BitsPerSec(8_000), 3000), child: fifo(), staged: None };
    for _ in 0..10 {
        b.offer(&mut s, PKT);
    }
    let mut times = vec![];
    while s.len_packets() > 0 {
        match b.take(&mut s) {
            Some(_) => times.push(b.now),
            None => {
                let t = b.wake_at.expect("holds packets, so it must ask to be woken");
                assert!(t > b.now);
                b.now = t;
            }
        }
    }
    let secs: Vec<f64> = times.iter().map(|t| t.as_secs_f64()).collect();
    assert_eq!(secs, vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
}

#[test]
fn a_packet_larger_than_the_depth_is_dropped_by_the_shaper() {
    let mut b = Bench::new();
    let mut s =
        Shaper { bucket: TokenBucket::new(BitsPerSec(8_000), 500), child: fifo(), staged: None };
    let big = b.offer(&mut s, PKT);
    assert_eq!(b.take(&mut s), None);
    assert_eq!(b.drops, vec![(big, DropReason::Overflow)]);
    assert_eq!(b.wake_at, None);
}
