//! The FIFO every single-queue discipline stores its packets in: ids with their sizes and
//! enqueue times (CoDel's sojourn time), and a running byte count.

use std::collections::VecDeque;

use crate::packet::PacketId;
use crate::time::SimTime;
use crate::units::Limit;

/// A queued packet: id, size on the wire, and when it was enqueued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: PacketId,
    pub size: u32,
    pub since: SimTime,
}

/// A FIFO of packets with a byte count. `VecDeque` growth amortizes, so steady state
/// allocates nothing.
#[derive(Default)]
pub struct Fifo {
    q: VecDeque<Entry>,
    bytes: u64,
}

impl Fifo {
    pub fn push(&mut self, id: PacketId, size: u32, now: SimTime) {
        self.q.push_back(Entry { id, size, since: now });
        self.bytes += size as u64;
    }

    pub fn pop(&mut self) -> Option<Entry> {
        let e = self.q.pop_front()?;
        self.bytes -= e.size as u64;
        Some(e)
    }

    /// Removes the most recently added packet (a forced drop of the arrival after queueing).
    pub fn pop_back(&mut self) -> Option<Entry> {
        let e = self.q.pop_back()?;
        self.bytes -= e.size as u64;
        Some(e)
    }

    /// The packet at the head, left in place.
    pub fn front(&self) -> Option<&Entry> {
        self.q.front()
    }

    pub fn packets(&self) -> u64 {
        self.q.len() as u64
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Whether a packet of `size` bytes fits under `limit` (a byte limit refuses a packet
    /// that would exceed it, even if a smaller one would fit).
    pub fn fits(&self, limit: Limit, size: u32) -> bool {
        match limit {
            Limit::Packets(n) => self.packets() < n,
            Limit::Bytes(b) => self.bytes + size as u64 <= b,
        }
    }
}
