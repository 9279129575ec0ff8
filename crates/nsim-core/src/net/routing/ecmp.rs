//! ECMP: a flow's pick among a core hop's equal-cost links (RFC 2991 §4.1, modulo-N hash).
//!
//! The key is the flow (nsim's stand-in for the 5-tuple: each flow has its own addresses and
//! ports), the node, and a salt drawn from the run's seed, so each seed spreads the flows
//! differently and each router hashes independently. The mix is [`crate::rng::splitmix`]: a
//! fixed function, so runs are bit-identical on any machine.

use super::core::EqualCost;
use crate::ids::{LinkId, NodeId};
use crate::rng::splitmix;

#[derive(Clone, Debug)]
pub(super) struct Ecmp {
    /// Each core table cell's equal-cost links, as the Dijkstra pass found them.
    pub sets: EqualCost,
    pub salt: u64,
}

impl Ecmp {
    /// The link `flow` takes at `at` from core cell `cell`, if the cell has more than one.
    #[inline]
    pub fn pick(&self, cell: usize, at: NodeId, flow: u32) -> Option<LinkId> {
        let (off, count) = self.sets.spans[cell];
        (count > 1).then(|| {
            self.sets.links[off as usize
                + (splitmix(self.salt ^ ((flow as u64) << 32) ^ at.0 as u64) % count as u64)
                    as usize]
        })
    }
}
