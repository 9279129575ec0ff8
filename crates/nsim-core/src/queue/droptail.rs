//! DropTail: a FIFO that drops arrivals when full.
//!
//! Source: ns-2 `Queue/DropTail` (queue/drop-tail.cc). The limit counts packets by default
//! (ns-2 `queue-limit`, default 50 packets) or bytes (ns-2 `queue_in_bytes_`, where the
//! packet limit is multiplied by `mean_pktsize_`; nsim takes the byte limit directly).
//!
//! The limit counts the packet on the transmitter too, exactly as ns-2's `DropTail::enque`
//! does: an arrival is dropped when `length + 1 >= limit` (bytes: `bytes + size >= limit`),
//! where `length` counts the packets waiting (the one being sent has left the queue). So a
//! limit of N holds N-1 waiting packets while one is on the wire, and the port as a whole holds
//! N. Checked against ns-2.35 with a burst test (reference/ns2/README.md); a limit below
//! 2 packets would drop everything and is rejected.
//!
//! Parameters: `limit` (packets "100p" or bytes "64KB"; default 50 packets),
//! `drop_front` (drop the head instead of the arrival, ns-2 `drop_front_`; default false).

use schemars::JsonSchema;
use serde::Deserialize;

use super::fifo::Fifo;
use super::{BuildCtx, QueueChange, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::PacketId;
use crate::record::DropReason;
use crate::units::Limit;
use crate::units::LimitSpec;

/// DropTail configuration.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DropTailConfig {
    /// Capacity: packets ("50p") or bytes ("64KB"). Default 50 packets (ns-2 `queue-limit`).
    #[serde(default = "default_limit")]
    pub limit: LimitSpec,
    /// On overflow drop the packet at the head instead of the arrival (ns-2 `drop_front_`).
    #[serde(default)]
    pub drop_front: bool,
}

fn default_limit() -> LimitSpec {
    LimitSpec(Limit::Packets(50))
}

impl Default for DropTailConfig {
    fn default() -> Self {
        DropTailConfig { limit: default_limit(), drop_front: false }
    }
}

impl QueueConfig for DropTailConfig {
    fn validate(&self, _path: &str) -> Result<(), String> {
        match self.limit.0 {
            Limit::Packets(n) if n < 2 => Err(format!(
                "a DropTail limit of {n} packet(s) drops every packet: the limit counts the packet being sent (ns-2 queue-limit), use at least 2"
            )),
            Limit::Bytes(0) => Err("a DropTail limit of 0 bytes drops every packet".into()),
            _ => Ok(()),
        }
    }
    fn build(&self, _ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        Ok(Box::new(DropTail::new(self.limit.0, self.drop_front)))
    }
}

/// A FIFO bounded in packets or bytes. Aligned to a cache line so that its box, which every
/// packet through the link reads, is one line and not two (issue 15).
#[repr(align(64))]
pub struct DropTail {
    fifo: Fifo,
    limit: Limit,
    drop_front: bool,
}

impl DropTail {
    /// The capacity now.
    pub fn limit(&self) -> Limit {
        self.limit
    }

    pub fn new(limit: Limit, drop_front: bool) -> Self {
        DropTail { fifo: Fifo::default(), limit, drop_front }
    }

    /// ns-2's admission rule (drop-tail.cc): refuse when `length + 1 >= limit`.
    fn admits(&self, size: u32) -> bool {
        match self.limit {
            Limit::Packets(n) => self.fifo.packets() + 1 < n,
            Limit::Bytes(b) => self.fifo.bytes() + (size as u64) < b,
        }
    }
}

impl QueueDisc for DropTail {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let size = ctx.pool.get(id).size;
        if self.drop_front {
            while !self.admits(size) {
                match self.fifo.pop() {
                    Some(old) => ctx.drops.push((old.id, DropReason::Overflow)),
                    None => break,
                }
            }
        }
        if self.admits(size) {
            self.fifo.push(id, size, ctx.now);
        } else {
            ctx.drops.push((id, DropReason::Overflow));
        }
    }

    fn dequeue(&mut self, _ctx: &mut QueueCtx) -> Option<PacketId> {
        self.fifo.pop().map(|e| e.id)
    }

    fn len_packets(&self) -> u64 {
        self.fifo.packets()
    }

    fn len_bytes(&self) -> u64 {
        self.fifo.bytes()
    }

    /// A FIFO keeps no state about idle periods: dequeuing it empty does nothing.
    fn notices_idle(&self) -> bool {
        false
    }

    /// Empty, it admits any packet under a packet limit of at least 2 (`admits`: 0 + 1 < n)
    /// and packets below a byte limit (0 + size < b), and keeps no other state.
    fn cut_through_max(&self) -> u32 {
        match self.limit {
            Limit::Packets(n) if n >= 2 => u32::MAX,
            Limit::Packets(_) => 0,
            Limit::Bytes(b) => b.saturating_sub(1).min(u32::MAX as u64) as u32,
        }
    }

    fn change(&mut self, c: QueueChange) -> Result<(), String> {
        match c {
            QueueChange::Limit(l) => {
                self.limit = l;
                Ok(())
            }
            _ => Err(format!("a DropTail queue has no `{}` (only `limit` can change)", c.field())),
        }
    }
}

#[cfg(test)]
mod tests;
