//! The packets on one link direction's wire (serializing or propagating), oldest first.
//!
//! An intrusive FIFO threaded through the packets themselves (`Packet::wire_next`, with each
//! packet's arrival time in `Packet::wire_at`), as ns-2 threads its queues through
//! `Packet::next_`: the link keeps two ids and a count in its first cache line instead of a
//! separately allocated ring. A hop then touches no buffer line besides the packet's own slot,
//! which it reads anyway, and a link never allocates or grows a ring as traffic rises
//! (issue 15: with 40,000 link directions those buffer lines and reallocations were a share of
//! the cache misses, docs/performance.md).

use crate::packet::{PacketId, PacketPool};
use crate::time::SimTime;

/// End of the list.
const NIL: PacketId = PacketId(u32::MAX);

/// Packets on the wire in order of arrival time (non-decreasing: a link delivers in order).
#[derive(Clone, Copy, Debug)]
pub struct Wire {
    head: PacketId,
    tail: PacketId,
    len: u32,
}

impl Default for Wire {
    fn default() -> Self {
        Wire { head: NIL, tail: NIL, len: 0 }
    }
}

impl Wire {
    /// Puts packet `id` on the wire, arriving at `at` (no earlier than the last one).
    #[inline]
    pub fn push(&mut self, pool: &mut PacketPool, id: PacketId, at: SimTime) {
        let p = pool.get_mut(id);
        p.wire_at = at;
        p.wire_next = NIL;
        if self.len == 0 {
            self.head = id;
        } else {
            debug_assert!(pool.get(self.tail).wire_at <= at, "a link delivers in order");
            pool.get_mut(self.tail).wire_next = id;
        }
        self.tail = id;
        self.len += 1;
    }

    /// Takes the oldest packet off the wire.
    #[inline]
    pub fn pop(&mut self, pool: &PacketPool) -> Option<PacketId> {
        if self.len == 0 {
            return None;
        }
        let id = self.head;
        self.head = pool.get(id).wire_next;
        self.len -= 1;
        Some(id)
    }

    /// The oldest packet, if any.
    #[inline]
    pub fn oldest(&self) -> Option<PacketId> {
        (self.len > 0).then_some(self.head)
    }

    /// Arrival time of the oldest packet, if any.
    #[inline]
    pub fn next_arrival(&self, pool: &PacketPool) -> Option<SimTime> {
        (self.len > 0).then(|| pool.get(self.head).wire_at)
    }

    /// Arrival time of the newest packet, if any.
    pub fn last_arrival(&self, pool: &PacketPool) -> Option<SimTime> {
        (self.len > 0).then(|| pool.get(self.tail).wire_at)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn len(&self) -> u32 {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Packet;

    #[test]
    fn packets_leave_in_the_order_they_were_put_on() {
        let mut pool = PacketPool::default();
        let ids: Vec<_> = (0..4).map(|_| pool.alloc(Packet::default())).collect();
        let mut w = Wire::default();
        assert_eq!(w.pop(&pool), None);
        for (k, &id) in ids.iter().enumerate() {
            w.push(&mut pool, id, SimTime(10 * k as u64));
        }
        assert_eq!((w.len(), w.next_arrival(&pool)), (4, Some(SimTime(0))));
        assert_eq!(w.pop(&pool), Some(ids[0]));
        assert_eq!(w.next_arrival(&pool), Some(SimTime(10)));
        w.push(&mut pool, ids[0], SimTime(40));
        let rest: Vec<_> = std::iter::from_fn(|| w.pop(&pool)).collect();
        assert_eq!(rest, vec![ids[1], ids[2], ids[3], ids[0]]);
        assert!(w.is_empty() && w.next_arrival(&pool).is_none());
    }
}
