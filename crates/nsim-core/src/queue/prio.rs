//! Strict priority over child disciplines: always send from the first non-empty class.
//!
//! Source: the priority queueing of Holl 2003's CBQ use ("CBR given higher priority to cause
//! its packets to always be sent before any BE traffic", Holl 2003 Table 4.6) and ns-2
//! `Queue/DropTail/PriQueue`-style strict priority; Linux `prio`. Classes are listed from
//! the highest priority down. Work-conserving unless a child is not (a shaper child that
//! holds packets is skipped until it may send; the link is woken then).

use schemars::JsonSchema;
use serde::Deserialize;

use super::class::{build_classes, class_spec_common, poll_idle, totals, validate_classes, Class};
use super::classify::{Classifier, MatchSpec};
use super::{BuildCtx, ClassStats, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::PacketId;
use crate::queue::spec::QueueSpec;

/// Strict-priority scheduler configuration.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrioConfig {
    /// Classes, highest priority first.
    pub classes: Vec<PrioClass>,
}

/// One priority class.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrioClass {
    /// Name in results. Default `class<i>` (its position).
    pub name: Option<String>,
    /// What the class takes; omit on the default class.
    #[serde(rename = "match")]
    pub matches: Option<MatchSpec>,
    /// The class's queue. Default droptail, 50 packets.
    #[serde(default)]
    pub queue: QueueSpec,
}

class_spec_common!(PrioClass);

impl QueueConfig for PrioConfig {
    fn validate(&self, path: &str) -> Result<(), String> {
        validate_classes(&self.classes, path)
    }
    fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        let (classifier, classes) = build_classes(&self.classes, ctx)?;
        Ok(Box::new(Prio { classifier, classes }))
    }
}

pub struct Prio {
    classifier: Classifier,
    classes: Vec<Class>,
}

impl QueueDisc for Prio {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let k = self.classifier.classify(ctx.pool.get(id));
        self.classes[k].enqueue(id, ctx);
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        for c in self.classes.iter_mut().filter(|c| !c.is_empty()) {
            if let Some(id) = c.dequeue(ctx) {
                return Some(id);
            }
        }
        poll_idle(&mut self.classes, ctx);
        None
    }

    fn len_packets(&self) -> u64 {
        totals(&self.classes).0
    }

    fn len_bytes(&self) -> u64 {
        totals(&self.classes).1
    }

    fn class_stats(&self) -> Vec<ClassStats> {
        self.classes.iter().map(Class::snapshot).collect()
    }
}

/// Holl 2003's CBR class buffer Holl 2003 (Eq. 4.2; verified against its Table 4.7): room
/// for the CBR packets that arrive while one best-effort packet of `be_size` bytes is being
/// sent, and for those arriving while that backlog drains, for `n_cbr` calls each sending a
/// `cbr_size`-byte packet every `cbr_interval` on a link of `rate`:
/// A = n·⌈8·be_size/(rate·interval)⌉, qlen = A + n·⌈8·cbr_size·A/(rate·interval)⌉.
pub fn holl_cbr_queue_len(
    n_cbr: u64,
    be_size: u64,
    cbr_size: u64,
    rate: crate::units::BitsPerSec,
    cbr_interval: crate::time::Dur,
) -> u64 {
    // Bits the link sends per CBR interval, exactly: rate·interval (ps) / 1e12.
    let per_interval = rate.0 as u128 * cbr_interval.0 as u128;
    let ceil_div =
        |bits: u128| (bits * crate::time::PS_PER_SEC as u128).div_ceil(per_interval) as u64;
    let a = n_cbr * ceil_div(8 * be_size as u128);
    a + n_cbr * ceil_div(8 * cbr_size as u128 * a as u128)
}

#[cfg(test)]
mod tests;
