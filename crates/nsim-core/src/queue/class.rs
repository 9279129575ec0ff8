//! A class of a composite scheduler: a child discipline, its classifier entry and its
//! counters (results' `classes` table). Shared by prio, WRR/DRR and CBQ.

use super::classify::{validate_defaults, Classifier, MatchSpec};
use super::{BuildCtx, ClassStats, QueueCtx, QueueDisc};
use crate::packet::PacketId;
use crate::queue::spec::QueueSpec;

/// What every scheduler class has in its config: a name, what it takes, and its queue.
pub trait ClassSpecCommon {
    fn name(&self) -> Option<&str>;
    fn matches(&self) -> Option<&MatchSpec>;
    fn queue(&self) -> &QueueSpec;
}

/// Implements [`ClassSpecCommon`] for a class config with `name`, `matches`, `queue` fields.
macro_rules! class_spec_common {
    ($($t:ty),*) => {$(
        impl $crate::queue::class::ClassSpecCommon for $t {
            fn name(&self) -> Option<&str> {
                self.name.as_deref()
            }
            fn matches(&self) -> Option<&$crate::queue::classify::MatchSpec> {
                self.matches.as_ref()
            }
            fn queue(&self) -> &$crate::queue::spec::QueueSpec {
                &self.queue
            }
        }
    )*};
}
pub(crate) use class_spec_common;

/// A child discipline with counters.
pub struct Class {
    pub disc: Box<dyn QueueDisc>,
    pub stats: ClassStats,
}

impl Class {
    /// Offers `id` to the child, counting the arrival and any drops it makes.
    pub fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        self.stats.arrivals += 1;
        self.stats.arrival_bytes += ctx.pool.get(id).size as u64;
        let before = ctx.drops.len();
        self.disc.enqueue(id, ctx);
        self.count_drops(before, ctx);
    }

    /// The child's next packet, counting the departure and any drops it makes.
    pub fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        let before = ctx.drops.len();
        let out = self.disc.dequeue(ctx);
        self.count_drops(before, ctx);
        if let Some(id) = out {
            self.stats.departures += 1;
            self.stats.departure_bytes += ctx.pool.get(id).size as u64;
        }
        out
    }

    fn count_drops(&mut self, before: usize, ctx: &QueueCtx) {
        for &(_, why) in &ctx.drops[before..] {
            self.stats.drops[why.idx()] += 1;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.disc.len_packets() == 0
    }

    /// Counters for results, with the queue length now.
    pub fn snapshot(&self) -> ClassStats {
        ClassStats {
            queued_pkts: self.disc.len_packets(),
            avg_len: self.disc.avg_queue(),
            ..self.stats.clone()
        }
    }
}

/// Validates the common part of each class (`classes[i].queue`, defaults of `match`).
pub fn validate_classes<C: ClassSpecCommon>(classes: &[C], path: &str) -> Result<(), String> {
    if classes.is_empty() {
        return Err("classes: give at least one class".into());
    }
    let specs: Vec<_> = classes.iter().map(|c| c.matches()).collect();
    validate_defaults(&specs)?;
    for (i, c) in classes.iter().enumerate() {
        c.queue()
            .validate(&format!("{path}.classes[{i}].queue"))
            .map_err(|r| format!("classes[{i}].queue.{r}"))?;
    }
    Ok(())
}

/// Builds the classifier and the child disciplines, in config order.
pub fn build_classes<C: ClassSpecCommon>(
    classes: &[C],
    ctx: &BuildCtx,
) -> Result<(Classifier, Vec<Class>), String> {
    let specs: Vec<_> = classes.iter().map(|c| c.matches()).collect();
    let classifier = Classifier::new(&specs, ctx)?;
    let mut out = Vec::with_capacity(classes.len());
    for (i, c) in classes.iter().enumerate() {
        let disc = c.queue().build(ctx).map_err(|r| format!("classes[{i}].queue.{r}"))?;
        let name = c.name().map_or_else(|| format!("class{i}"), str::to_string);
        out.push(Class { disc, stats: ClassStats { name, ..Default::default() } });
    }
    Ok((classifier, out))
}

/// Total packets and bytes held by `classes`.
pub fn totals(classes: &[Class]) -> (u64, u64) {
    classes.iter().fold((0, 0), |(p, b), c| (p + c.disc.len_packets(), b + c.disc.len_bytes()))
}

/// The scheduler found nothing to send: poll every class once, so that leaves with an idle
/// clock (RED's average decay) start it when the link goes idle. O(classes) per idle period.
pub fn poll_idle(classes: &mut [Class], ctx: &mut QueueCtx) {
    for c in classes.iter_mut().filter(|c| c.is_empty()) {
        let _ = c.disc.dequeue(ctx);
    }
}
