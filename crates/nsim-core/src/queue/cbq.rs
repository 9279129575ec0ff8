//! CBQ: class-based queueing with link sharing (Floyd & Jacobson 1995), one level of classes
//! under the link.
//!
//! Read first: S. Floyd, V. Jacobson, "Link-sharing and Resource Management Models for
//! Packet Networks", IEEE/ACM ToN 3(4), 1995: §2 (link-sharing goals), §3–4 (the
//! "ancestors-only" link-sharing guideline: a class may send if it is underlimit or has an
//! underlimit ancestor), §5 (general scheduler: priority first, weighted round robin by
//! allotment within a priority). ns-2 `CBQueue`/`CBQClass` (queue/cbq.cc): `priority_`,
//! `allot_`, `okborrow_`, `maxidle_`, `minidle_`, `offtime_`. Holl 2003 uses it as two
//! classes with no bandwidth constraints, CBR at higher priority (Holl 2003 Table 4.6).
//!
//! Simplifications, stated plainly:
//! - One level: classes hang directly off the link (the root). The root is never overlimit
//!   (it is the link), so with the ancestors-only guideline a class may send when it is
//!   underlimit, or when it may borrow (`borrow = true`). Deeper trees are not implemented.
//! - Estimator: a token bucket per class at allot × link rate, `depth` bytes deep, whose
//!   tokens may go down to −depth (a class that borrows keeps paying for what it sends,
//!   as ns-2's avgidle keeps falling). Underlimit means tokens ≥ 0. This replaces ns-2's
//!   EWMA of inter-departure idle time (`avgidle` with `maxidle_`, `minidle_`, `offtime_`):
//!   long-run shares are the same, short-term burst behaviour differs.
//! - Within a priority, classes share by deficit round robin with quanta proportional to
//!   their allotments (ns-2: WRR with per-round allocations from `allot_`).
//! - A class held to its share (may not borrow, overlimit) makes the link wait: the
//!   scheduler asks to be woken when the first such class becomes underlimit again.

use schemars::JsonSchema;
use serde::Deserialize;

use super::class::{build_classes, class_spec_common, poll_idle, totals, validate_classes, Class};
use super::classify::{Classifier, MatchSpec};
use super::red::check_range;
use super::token_bucket::TokenBucket;
use super::{BuildCtx, ClassStats, QueueChange, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::PacketId;
use crate::queue::spec::QueueSpec;
use crate::units::SizeSpec;
use crate::units::{BitsPerSec, Bytes};

/// CBQ configuration.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CbqConfig {
    /// Leaf classes under the link.
    pub classes: Vec<CbqClass>,
}

/// One CBQ class (a leaf under the link).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CbqClass {
    /// Name in results. Default `class<i>` (its position).
    pub name: Option<String>,
    /// What the class takes; omit on the default class.
    #[serde(rename = "match")]
    pub matches: Option<MatchSpec>,
    /// The leaf queue (droptail or red, or any discipline). Default droptail, 50 packets.
    #[serde(default)]
    pub queue: QueueSpec,
    /// Priority, 0 highest (ns-2 `priority_`, 0..7). Default 0.
    #[serde(default)]
    pub priority: u8,
    /// Share of the link rate (ns-2 `allot_`), in (0, 1]. Default 1.0.
    #[serde(default = "full")]
    pub allot: f64,
    /// May borrow unused bandwidth from the link when over its share (ns-2 `okborrow_`).
    /// Default true.
    #[serde(default = "yes")]
    pub borrow: bool,
    /// Estimator bucket depth: the burst a class may send above its share after idling.
    /// Default 20KB (about ns-2's default `maxburst_` of 20 packets of 1000 B).
    #[serde(default = "default_depth")]
    pub depth: SizeSpec,
}

fn full() -> f64 {
    1.0
}
fn yes() -> bool {
    true
}
fn default_depth() -> SizeSpec {
    SizeSpec(Bytes(20_000))
}

class_spec_common!(CbqClass);

/// DRR quantum of the class with the smallest allotment at its priority.
const BASE_QUANTUM: f64 = 1500.0;

impl QueueConfig for CbqConfig {
    fn validate(&self, path: &str) -> Result<(), String> {
        validate_classes(&self.classes, path)?;
        for (i, c) in self.classes.iter().enumerate() {
            if !(c.allot > 0.0 && c.allot <= 1.0) {
                return Err(format!("classes[{i}].allot: {} is not in (0, 1]", c.allot));
            }
            check_range(&format!("classes[{i}].priority"), c.priority as f64, 0.0, 7.0)?;
            if c.depth.0 .0 == 0 {
                return Err(format!("classes[{i}].depth: must be at least 1 byte"));
            }
        }
        Ok(())
    }

    fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        let (classifier, classes) = build_classes(&self.classes, ctx)?;
        let link = ctx.link_rate.0 as f64;
        let allots: Vec<f64> = self.classes.iter().map(|c| c.allot).collect();
        let state = self
            .classes
            .iter()
            .enumerate()
            .map(|(k, c)| Estimator {
                bucket: TokenBucket::new(share_rate(allots[k], link), c.depth.0 .0),
                borrow: c.borrow,
                priority: c.priority,
                quantum: 0,
                deficit: 0,
                refused: false,
            })
            .collect();
        let mut cbq = Cbq { classifier, classes, state, rr: [0; 8], link };
        cbq.set_quanta(&allots);
        Ok(Box::new(cbq))
    }
}

/// A class's estimator rate: its allotment of the link rate.
fn share_rate(allot: f64, link: f64) -> BitsPerSec {
    BitsPerSec((allot * link).round() as u64)
}

/// Per-class link-sharing state.
struct Estimator {
    /// At allot × link rate, `depth` deep; spent on every packet the class sends.
    bucket: TokenBucket,
    borrow: bool,
    priority: u8,
    quantum: i64,
    deficit: i64,
    /// Returned nothing in the current dequeue although backlogged.
    refused: bool,
}

impl Estimator {
    fn underlimit(&self) -> bool {
        self.bucket.nonnegative()
    }
}

pub struct Cbq {
    classifier: Classifier,
    classes: Vec<Class>,
    state: Vec<Estimator>,
    /// Round-robin position per priority (a class index).
    rr: [usize; 8],
    /// The link rate the allotments are shares of (bits per second).
    link: f64,
}

impl Cbq {
    /// DRR quanta in proportion to the allotments within each priority, the smallest
    /// [`BASE_QUANTUM`].
    fn set_quanta(&mut self, allots: &[f64]) {
        for k in 0..self.state.len() {
            let prio = self.state[k].priority;
            let min_allot = (0..allots.len())
                .filter(|&o| self.state[o].priority == prio)
                .map(|o| allots[o])
                .fold(f64::MAX, f64::min);
            self.state[k].quantum = (BASE_QUANTUM * allots[k] / min_allot).round() as i64;
        }
    }

    /// F&J 1995 ancestors-only guideline with the link as the only ancestor.
    fn allowed(&self, k: usize) -> bool {
        !self.classes[k].is_empty() && (self.state[k].borrow || self.state[k].underlimit())
    }

    /// Allowed, and not found holding its packets earlier in this dequeue.
    fn eligible(&self, k: usize) -> bool {
        !self.state[k].refused && self.allowed(k)
    }

    /// The class to serve: highest priority among allowed classes, DRR within it.
    fn pick(&mut self) -> Option<usize> {
        let n = self.classes.len();
        let prio = (0..n).filter(|&k| self.eligible(k)).map(|k| self.state[k].priority).min()?;
        let start = self.rr[prio as usize];
        loop {
            for step in 0..n {
                let k = (start + step) % n;
                if self.state[k].priority == prio && self.eligible(k) && self.state[k].deficit > 0 {
                    self.rr[prio as usize] = k;
                    return Some(k);
                }
            }
            // A new round: every allowed class at this priority gets its quantum.
            for k in 0..n {
                if self.state[k].priority == prio && self.eligible(k) {
                    self.state[k].deficit += self.state[k].quantum;
                }
            }
        }
    }

    /// Nothing may be sent: wake when the first class held to its share (backlogged,
    /// overlimit, may not borrow) is underlimit again. (Leaves that hold packets for their
    /// own reasons, such as shapers, set their own wake time.)
    fn ask_wake(&mut self, ctx: &mut QueueCtx) {
        for k in 0..self.classes.len() {
            if !self.classes[k].is_empty() && !self.allowed(k) {
                if let Some(t) = self.state[k].bucket.ready_at(ctx.now, 0) {
                    ctx.wake(t);
                }
            }
        }
    }
}

impl QueueDisc for Cbq {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let k = self.classifier.classify(ctx.pool.get(id));
        self.classes[k].enqueue(id, ctx);
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        for s in &mut self.state {
            s.bucket.fill(ctx.now);
            s.refused = false;
        }
        while let Some(k) = self.pick() {
            match self.classes[k].dequeue(ctx) {
                Some(id) => {
                    let size = ctx.pool.get(id).size;
                    self.state[k].bucket.spend(size);
                    self.state[k].deficit -= size as i64;
                    if self.state[k].deficit <= 0 {
                        self.rr[self.state[k].priority as usize] = k + 1;
                    }
                    return Some(id);
                }
                // A leaf that holds its packets (a shaper leaf) or dropped them all at
                // dequeue (CoDel): passed over for the rest of this dequeue.
                None => self.state[k].refused = true,
            }
        }
        if totals(&self.classes).0 == 0 {
            poll_idle(&mut self.classes, ctx);
        } else {
            self.ask_wake(ctx);
        }
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

    /// New allotments for every class, from `now`: each estimator counts what its class
    /// earned at the old share until `now`, then earns at the new one; the DRR quanta follow
    /// (deficits carry on). As setting ns-2 `allot_` on a running `CBQClass`.
    fn change_at(&mut self, now: crate::time::SimTime, c: QueueChange) -> Result<(), String> {
        match c {
            QueueChange::Allots(a) if a.len() == self.state.len() => {
                for (s, &x) in self.state.iter_mut().zip(&a) {
                    s.bucket.set_rate(now, share_rate(x, self.link));
                }
                self.set_quanta(&a);
                Ok(())
            }
            QueueChange::Allots(a) => Err(format!(
                "{} allots for {} classes (give one per class, in class order)",
                a.len(),
                self.state.len()
            )),
            _ => Err(format!(
                "a cbq scheduler has no `{}` that can change (it takes allots)",
                c.field()
            )),
        }
    }
}

#[cfg(test)]
mod tests;
