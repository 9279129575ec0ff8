use super::*;
use crate::queue::testbench::Bench;

// ns-2 drop-tail.cc refuses an arrival when `length + 1 >= queue-limit`: a limit of N keeps
// N-1 packets waiting (the N-th place is the packet on the transmitter).

#[test]
fn packet_limit_keeps_limit_minus_one_waiting_like_ns2() {
    let mut b = Bench::new();
    let mut q = DropTail::new(Limit::Packets(3), false);
    let p0 = b.offer_size(&mut q, 1000);
    let p1 = b.offer_size(&mut q, 40);
    let p2 = b.offer_size(&mut q, 40);
    assert_eq!(b.drops, vec![(p2, DropReason::Overflow)]);
    assert_eq!((q.len_packets(), q.len_bytes()), (2, 1040));
    assert_eq!(b.take(&mut q), Some(p0));
    assert_eq!(b.take(&mut q), Some(p1));
    assert_eq!(b.take(&mut q), None);
}

#[test]
fn byte_limit_refuses_a_packet_that_would_reach_it_but_keeps_one_that_stays_below() {
    let mut b = Bench::new();
    let mut q = DropTail::new(Limit::Bytes(1501), false);
    b.offer_size(&mut q, 1000);
    let big = b.offer_size(&mut q, 501);
    let small = b.offer_size(&mut q, 500);
    assert_eq!(b.drops, vec![(big, DropReason::Overflow)]);
    assert_eq!(q.len_bytes(), 1500);
    assert_eq!(q.len_packets(), 2);
    assert!(!b.dropped(small));
}

#[test]
fn drop_front_discards_the_head() {
    let mut b = Bench::new();
    let mut q = DropTail::new(Limit::Packets(3), true);
    let p0 = b.offer_size(&mut q, 100);
    let p1 = b.offer_size(&mut q, 100);
    let p2 = b.offer_size(&mut q, 100);
    assert_eq!(b.drops, vec![(p0, DropReason::Overflow)]);
    assert_eq!(b.take(&mut q), Some(p1));
    assert_eq!(b.take(&mut q), Some(p2));
}

#[test]
fn limits_that_would_drop_everything_are_rejected() {
    let cfg = |l| DropTailConfig { limit: LimitSpec(l), drop_front: false };
    assert!(cfg(Limit::Packets(1)).validate("q").unwrap_err().contains("at least 2"));
    assert!(cfg(Limit::Bytes(0)).validate("q").is_err());
    assert!(cfg(Limit::Packets(2)).validate("q").is_ok());
}
