//! Queue disciplines: the enqueue / dequeue / drop decisions of one link direction.
//!
//! A discipline owns only those decisions (DESIGN.md "Model decisions"); the link does the
//! accounting, tracing and freeing of the packets a discipline drops. Composite schedulers
//! (priority, CBQ, WRR) are disciplines made of child disciplines.
//!
//! To add a discipline: write one file with a config type implementing [`QueueConfig`] and a
//! type implementing [`QueueDisc`], then add one line to `registry!` in `config/queue_spec.rs`.

pub mod droptail;

use crate::packet::{PacketId, PacketPool};
use crate::record::DropReason;
use crate::rng::SimRng;
use crate::time::SimTime;

/// What a discipline may touch while deciding.
pub struct QueueCtx<'a> {
    pub now: SimTime,
    /// Packets, readable (size, flow, prio) and writable (ECN CE marking).
    pub pool: &'a mut PacketPool,
    /// Packets the discipline dropped during this call, with the reason. The link accounts for
    /// and frees them; a discipline must not keep a dropped id.
    pub drops: &'a mut Vec<(PacketId, DropReason)>,
    /// ECN marks made during this call.
    pub marks: &'a mut u64,
    /// The discipline's own random stream (for RED and friends).
    pub rng: &'a mut SimRng,
}

/// One discipline instance, owned by one link direction.
pub trait QueueDisc {
    /// Offers a packet: keep it, or push it (or another queued packet) to `ctx.drops`.
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx);
    /// The next packet to transmit, if any (may also drop, e.g. CoDel).
    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId>;
    /// Packets held now.
    fn len_packets(&self) -> u64;
    /// Bytes held now.
    fn len_bytes(&self) -> u64;
}

/// A validated discipline configuration that can build instances.
pub trait QueueConfig {
    /// Checks parameters; `path` names the config field for error messages.
    fn validate(&self, path: &str) -> Result<(), String>;
    fn build(&self) -> Box<dyn QueueDisc>;
}
