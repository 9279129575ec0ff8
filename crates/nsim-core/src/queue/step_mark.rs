//! Step marking: a DropTail FIFO that sets ECN CE on every ECN-capable arrival that finds the
//! queue above a threshold K, the AQM DCTCP is designed for.
//!
//! Source: RFC 8257 §3.1 ("the switch marks the CE codepoint if the queue occupancy is greater
//! than K upon arrival"); Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010 §3.1 and
//! §3.4 (K = 20 packets at 1 Gb/s, 65 at 10 Gb/s). The occupancy is the instantaneous queue
//! (no averaging), counted as the packets or bytes waiting, in the unit K is given in; a
//! packet that is not ECN-capable is never marked. Overflow drops are DropTail's
//! ([`super::droptail`]).
//!
//! Parameters: `limit` (packets "100p" or bytes; default 100 packets), `k` (packets "20p" or
//! bytes "30KB"; default 20 packets).

use schemars::JsonSchema;
use serde::Deserialize;

use super::droptail::DropTail;
use super::{pass_to_child, BuildCtx, QueueChange, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::{Ecn, PacketId};
use crate::units::Limit;
use crate::units::LimitSpec;

/// Step-marking configuration.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepMarkConfig {
    /// Capacity, as DropTail's. Default 100 packets.
    #[serde(default = "default_limit")]
    pub limit: LimitSpec,
    /// Marking threshold K: packets ("20p") or bytes ("30KB"). Default 20 packets (DCTCP
    /// paper §3.4 at 1 Gb/s).
    #[serde(default = "default_k")]
    pub k: LimitSpec,
}

fn default_limit() -> LimitSpec {
    LimitSpec(Limit::Packets(100))
}

fn default_k() -> LimitSpec {
    LimitSpec(Limit::Packets(20))
}

impl QueueConfig for StepMarkConfig {
    fn validate(&self, path: &str) -> Result<(), String> {
        let tail = super::droptail::DropTailConfig { limit: self.limit, drop_front: false };
        tail.validate(path)?;
        if below(self.k.0, self.limit.0) {
            Ok(())
        } else {
            Err("k: the marking threshold must be below the limit, or nothing is ever marked before it overflows".into())
        }
    }
    fn build(&self, _ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        Ok(Box::new(StepMark { k: self.k.0, child: DropTail::new(self.limit.0, false) }))
    }
}

/// Whether K is below the limit (always, when they count different units).
fn below(k: Limit, limit: Limit) -> bool {
    match (k, limit) {
        (Limit::Packets(k), Limit::Packets(l)) => k < l,
        (Limit::Bytes(k), Limit::Bytes(l)) => k < l,
        _ => true,
    }
}

/// A limit as the scenario writes it ("20p", "30000B").
fn show(l: Limit) -> String {
    match l {
        Limit::Packets(n) => format!("{n}p"),
        Limit::Bytes(b) => format!("{b}B"),
    }
}

/// DropTail with step marking at K.
pub struct StepMark {
    k: Limit,
    child: DropTail,
}

impl QueueDisc for StepMark {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let above = match self.k {
            Limit::Packets(k) => self.child.len_packets() > k,
            Limit::Bytes(k) => self.child.len_bytes() > k,
        };
        if above {
            let p = ctx.pool.get_mut(id);
            if p.ecn == Ecn::Ect {
                p.ecn = Ecn::Ce;
                *ctx.marks += 1;
            }
        }
        self.child.enqueue(id, ctx);
    }

    pass_to_child!();

    /// `k` from the next arrival (the packets queued keep their marks); `limit` is the
    /// DropTail's. K stays below the limit, as checked at build.
    fn change(&mut self, c: QueueChange) -> Result<(), String> {
        let (k, limit) = match c {
            QueueChange::K(k) => (k, self.child.limit()),
            QueueChange::Limit(l) => (self.k, l),
            _ => {
                return Err(format!("a step_mark queue has no `{}` (it takes k, limit)", c.field()))
            }
        };
        if !below(k, limit) {
            return Err(format!("k = {} would not be below the limit {} (nothing would be marked before it overflows)", show(k), show(limit)));
        }
        self.k = k;
        self.child.change(QueueChange::Limit(limit))
    }

    fn notices_idle(&self) -> bool {
        self.child.notices_idle()
    }

    /// An arrival at the empty queue finds occupancy 0, never above K: DropTail's rule holds.
    fn cut_through_max(&self) -> u32 {
        self.child.cut_through_max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Packet;
    use crate::queue::testbench::*;

    fn queue(k: Limit) -> StepMark {
        StepMark { k, child: DropTail::new(Limit::Packets(100), false) }
    }

    /// RFC 8257 §3.1: marked when the occupancy on arrival is greater than K.
    #[test]
    fn arrivals_that_find_more_than_k_waiting_are_marked() {
        let (mut b, mut q) = (Bench::new(), queue(Limit::Packets(2)));
        // Five ECT arrivals, nothing leaving: occupancies 0, 1, 2, 3, 4 on arrival.
        let ids: Vec<PacketId> =
            (0..5).map(|_| b.offer(&mut q, Packet { ecn: Ecn::Ect, ..PKT })).collect();
        let ce: Vec<bool> = ids.iter().map(|&id| b.pool.get(id).ecn == Ecn::Ce).collect();
        assert_eq!(ce, [false, false, false, true, true]);
        assert_eq!(b.marks, 2);
        // Not ECN-capable: queued unmarked.
        let id = b.offer(&mut q, PKT);
        assert_eq!(b.pool.get(id).ecn, Ecn::NotEct);
        // Leaving lowers the occupancy below K again.
        for _ in 0..5 {
            b.take(&mut q);
        }
        let id = b.offer(&mut q, Packet { ecn: Ecn::Ect, ..PKT });
        assert_eq!(b.pool.get(id).ecn, Ecn::Ect);
    }

    #[test]
    fn a_byte_threshold_counts_bytes() {
        let (mut b, mut q) = (Bench::new(), queue(Limit::Bytes(2500)));
        let ids: Vec<PacketId> =
            (0..4).map(|_| b.offer(&mut q, Packet { ecn: Ecn::Ect, ..PKT })).collect();
        let ce: Vec<bool> = ids.iter().map(|&id| b.pool.get(id).ecn == Ecn::Ce).collect();
        assert_eq!(ce, [false, false, false, true], "3000 B waiting > 2500 B only for the fourth");
    }
}
