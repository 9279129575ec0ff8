//! A tiny harness for discipline unit tests: a packet pool, a clock and a drop list.

use super::{QueueCtx, QueueDisc};
use crate::ids::FlowId;
use crate::packet::{Ecn, PType, Packet, PacketId, PacketPool};
use crate::record::DropReason;
use crate::rng::{stream, SimRng};
use crate::time::{Dur, SimTime};

pub struct Bench {
    pub pool: PacketPool,
    pub drops: Vec<(PacketId, DropReason)>,
    pub marks: u64,
    pub rng: SimRng,
    pub now: SimTime,
    pub wake_at: Option<SimTime>,
}

/// A packet template: set the fields a test cares about with struct update syntax.
pub const PKT: Packet = Packet {
    uid: 0,
    flow: FlowId(0),
    src: crate::ids::NodeId(0),
    dst: crate::ids::NodeId(1),
    src_agent: crate::ids::AgentId(0),
    dst_agent: crate::ids::AgentId(1),
    size: 1000,
    ptype: PType::Udp,
    prio: 0,
    tag: 0,
    wire_at: SimTime::ZERO,
    wire_next: crate::packet::PacketId(0),
    ecn: Ecn::NotEct,
    created: SimTime::ZERO,
    seq: 0,
    tcp: crate::packet::TcpHdr::EMPTY,
};

impl Bench {
    pub fn new() -> Self {
        Bench {
            pool: PacketPool::default(),
            drops: vec![],
            marks: 0,
            rng: stream(1, "q"),
            now: SimTime::ZERO,
            wake_at: None,
        }
    }

    pub fn at(&mut self, t: Dur) -> &mut Self {
        self.now = SimTime::ZERO + t;
        self
    }

    pub fn ctx(&mut self) -> QueueCtx<'_> {
        QueueCtx {
            now: self.now,
            pool: &mut self.pool,
            drops: &mut self.drops,
            marks: &mut self.marks,
            rng: &mut self.rng,
            wake_at: &mut self.wake_at,
        }
    }

    /// Offers `p` to `q`; returns its id.
    #[track_caller]
    pub fn offer(&mut self, q: &mut dyn QueueDisc, p: Packet) -> PacketId {
        let id = self.pool.alloc(p);
        q.enqueue(id, &mut self.ctx());
        id
    }

    /// Offers a packet of `size` bytes.
    pub fn offer_size(&mut self, q: &mut dyn QueueDisc, size: u32) -> PacketId {
        self.offer(q, Packet { size, ..PKT })
    }

    pub fn take(&mut self, q: &mut dyn QueueDisc) -> Option<PacketId> {
        self.wake_at = None;
        q.dequeue(&mut self.ctx())
    }

    /// Whether `id` was dropped (any reason).
    pub fn dropped(&self, id: PacketId) -> bool {
        self.drops.iter().any(|&(d, _)| d == id)
    }

    pub fn drops_of(&self, why: DropReason) -> usize {
        self.drops.iter().filter(|&&(_, r)| r == why).count()
    }
}
