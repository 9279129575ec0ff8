use super::*;
use crate::packet::{Packet, PacketPool};
use crate::rng::stream;
use crate::time::SimTime;

struct Bench {
    pool: PacketPool,
    drops: Vec<(PacketId, DropReason)>,
    marks: u64,
    rng: crate::rng::SimRng,
}

impl Bench {
    fn new() -> Self {
        Bench { pool: PacketPool::default(), drops: vec![], marks: 0, rng: stream(1, "q") }
    }
    fn offer(&mut self, q: &mut DropTail, size: u32) -> PacketId {
        let id = self.pool.alloc(Packet { size, ..Default::default() });
        let mut ctx = QueueCtx { now: SimTime::ZERO, pool: &mut self.pool, drops: &mut self.drops, marks: &mut self.marks, rng: &mut self.rng };
        q.enqueue(id, &mut ctx);
        id
    }
    fn take(&mut self, q: &mut DropTail) -> Option<PacketId> {
        let mut ctx = QueueCtx { now: SimTime::ZERO, pool: &mut self.pool, drops: &mut self.drops, marks: &mut self.marks, rng: &mut self.rng };
        q.dequeue(&mut ctx)
    }
}

#[test]
fn packet_limit_drops_the_arrival_that_overflows() {
    let mut b = Bench::new();
    let mut q = DropTail::new(Limit::Packets(2), false);
    let p0 = b.offer(&mut q, 1000);
    let p1 = b.offer(&mut q, 40);
    let p2 = b.offer(&mut q, 40);
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
    b.offer(&mut q, 1000);
    let big = b.offer(&mut q, 600);
    let small = b.offer(&mut q, 500);
    assert_eq!(b.drops, vec![(big, DropReason::Overflow)]);
    assert_eq!(q.len_bytes(), 1500);
    assert_eq!(q.len_packets(), 2);
    let _ = small;
}

#[test]
fn drop_front_discards_the_head() {
    let mut b = Bench::new();
    let mut q = DropTail::new(Limit::Packets(2), true);
    let p0 = b.offer(&mut q, 100);
    let p1 = b.offer(&mut q, 100);
    let p2 = b.offer(&mut q, 100);
    assert_eq!(b.drops, vec![(p0, DropReason::Overflow)]);
    assert_eq!(b.take(&mut q), Some(p1));
    assert_eq!(b.take(&mut q), Some(p2));
}
