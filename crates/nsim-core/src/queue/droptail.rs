//! DropTail: a FIFO that drops arrivals when full.
//!
//! Source: ns-2 `Queue/DropTail` (queue/drop-tail.cc). The limit counts packets by default
//! (ns-2 `queue-limit`, default 50 packets) or bytes (ns-2 `queue_in_bytes_`, where the
//! packet limit is multiplied by `mean_pktsize_`; nsim takes the byte limit directly). An
//! arriving packet is dropped if queueing it would exceed the limit: with a byte limit a
//! packet that does not fit is dropped even if smaller ones would.
//!
//! Parameters: `limit` (packets "100p" or bytes "64KB"; default 50 packets),
//! `drop_front` (drop the head instead of the arrival, ns-2 `drop_front_`; default false).

use schemars::JsonSchema;
use serde::Deserialize;

use super::fifo::Fifo;
use super::{BuildCtx, QueueConfig, QueueCtx, QueueDisc};
use crate::config::units::LimitSpec;
use crate::packet::PacketId;
use crate::record::DropReason;
use crate::units::Limit;

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
        Ok(())
    }
    fn build(&self, _ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        Ok(Box::new(DropTail::new(self.limit.0, self.drop_front)))
    }
}

/// A FIFO bounded in packets or bytes.
pub struct DropTail {
    fifo: Fifo,
    limit: Limit,
    drop_front: bool,
}

impl DropTail {
    pub fn new(limit: Limit, drop_front: bool) -> Self {
        DropTail { fifo: Fifo::default(), limit, drop_front }
    }
}

impl QueueDisc for DropTail {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let size = ctx.pool.get(id).size;
        if self.drop_front {
            while !self.fifo.fits(self.limit, size) {
                match self.fifo.pop() {
                    Some(old) => ctx.drops.push((old.id, DropReason::Overflow)),
                    None => break,
                }
            }
        }
        if self.fifo.fits(self.limit, size) {
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
}

#[cfg(test)]
mod tests;
