use super::*;
use crate::queue::testbench::Bench;

#[test]
fn packet_limit_drops_the_arrival_that_overflows() {
    let mut b = Bench::new();
    let mut q = DropTail::new(Limit::Packets(2), false);
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
fn byte_limit_drops_a_packet_that_does_not_fit_but_keeps_one_that_does() {
    let mut b = Bench::new();
    let mut q = DropTail::new(Limit::Bytes(1500), false);
    b.offer_size(&mut q, 1000);
    let big = b.offer_size(&mut q, 600);
    let small = b.offer_size(&mut q, 500);
    assert_eq!(b.drops, vec![(big, DropReason::Overflow)]);
    assert_eq!(q.len_bytes(), 1500);
    assert_eq!(q.len_packets(), 2);
    assert!(!b.dropped(small));
}

#[test]
fn drop_front_discards_the_head() {
    let mut b = Bench::new();
    let mut q = DropTail::new(Limit::Packets(2), true);
    let p0 = b.offer_size(&mut q, 100);
    let p1 = b.offer_size(&mut q, 100);
    let p2 = b.offer_size(&mut q, 100);
    assert_eq!(b.drops, vec![(p0, DropReason::Overflow)]);
    assert_eq!(b.take(&mut q), Some(p1));
    assert_eq!(b.take(&mut q), Some(p2));
}
