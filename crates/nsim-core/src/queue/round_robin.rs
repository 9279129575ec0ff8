//! Weighted round robin (packets or bytes) and Deficit Round Robin over child disciplines.
//!
//! Read first: M. Shreedhar, G. Varghese, "Efficient Fair Queuing using Deficit Round
//! Robin", SIGCOMM 1995, Fig. 2; RFC 8290 §4.2 (the same round without a peek: a class
//! sends while its deficit is positive and may overdraw it by one packet, repaid next round).
//!
//! One engine serves both: each visit adds the class's quantum to its deficit, each packet
//! costs 1 (WRR in packets: exactly `weight` packets per round while backlogged) or its size
//! in bytes (WRR in bytes, and DRR: long-run byte shares proportional to the quanta). Only
//! backlogged classes are in the round (an active list), so a dequeue is O(1) when quanta
//! are at least one maximum packet (S&V 1995 Lemma 1), and work-conserving. ns-2 has
//! `Queue/DRR` (flows hashed into buckets sharing one buffer, `quantum_ 250`); nsim's DRR
//! schedules configured classes with their own queues (use `fq_codel` for per-flow queues).

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::Deserialize;

use super::class::{build_classes, class_spec_common, poll_idle, totals, validate_classes, Class};
use super::classify::{Classifier, MatchSpec};
use super::{BuildCtx, ClassStats, QueueChange, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::PacketId;
use crate::queue::spec::QueueSpec;

/// What a WRR weight counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WeightUnit {
    Packets,
    Bytes,
}

/// WRR configuration.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WrrConfig {
    /// Whether weights count packets (default; each class sends `weight` packets per round)
    /// or bytes per round.
    #[serde(default = "packets")]
    pub unit: WeightUnit,
    /// Classes, in round order.
    pub classes: Vec<WrrClass>,
}

fn packets() -> WeightUnit {
    WeightUnit::Packets
}

/// One WRR class.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WrrClass {
    /// Name in results. Default `class<i>` (its position).
    pub name: Option<String>,
    /// What the class takes; omit on the default class.
    #[serde(rename = "match")]
    pub matches: Option<MatchSpec>,
    /// The class's queue. Default droptail, 50 packets.
    #[serde(default)]
    pub queue: QueueSpec,
    /// Packets (or bytes) per round, a whole number >= 1. Default 1.
    #[serde(default = "one")]
    pub weight: u64,
}

fn one() -> u64 {
    1
}

/// DRR configuration (S&V 1995).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DrrConfig {
    /// Classes, in round order.
    pub classes: Vec<DrrClass>,
}

/// One DRR class.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DrrClass {
    /// Name in results. Default `class<i>` (its position).
    pub name: Option<String>,
    /// What the class takes; omit on the default class.
    #[serde(rename = "match")]
    pub matches: Option<MatchSpec>,
    /// The class's queue. Default droptail, 50 packets.
    #[serde(default)]
    pub queue: QueueSpec,
    /// Bytes added to the deficit per round. Default 1514 (RFC 8290 §4.2 / Linux: one
    /// Ethernet MTU). Range >= 1; O(1) dequeues need it at least one maximum packet.
    #[serde(default = "mtu")]
    pub quantum: u64,
}

fn mtu() -> u64 {
    1514
}

class_spec_common!(WrrClass, DrrClass);

fn check_quanta(q: impl Iterator<Item = u64>, field: &str) -> Result<(), String> {
    for (i, w) in q.enumerate() {
        if w == 0 {
            return Err(format!("classes[{i}].{field}: must be at least 1"));
        }
    }
    Ok(())
}

impl QueueConfig for WrrConfig {
    fn validate(&self, path: &str) -> Result<(), String> {
        validate_classes(&self.classes, path)?;
        check_quanta(self.classes.iter().map(|c| c.weight), "weight")
    }
    fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        let (classifier, classes) = build_classes(&self.classes, ctx)?;
        let quanta = self.classes.iter().map(|c| c.weight).collect();
        Ok(Box::new(RoundRobin::new(classifier, classes, quanta, self.unit == WeightUnit::Bytes)))
    }
}

impl QueueConfig for DrrConfig {
    fn validate(&self, path: &str) -> Result<(), String> {
        validate_classes(&self.classes, path)?;
        check_quanta(self.classes.iter().map(|c| c.quantum), "quantum")
    }
    fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        let (classifier, classes) = build_classes(&self.classes, ctx)?;
        let quanta = self.classes.iter().map(|c| c.quantum).collect();
        Ok(Box::new(RoundRobin::new(classifier, classes, quanta, true)))
    }
}

/// The deficit round-robin engine behind `wrr` and `drr`.
pub struct RoundRobin {
    classifier: Classifier,
    classes: Vec<Class>,
    quantum: Vec<i64>,
    deficit: Vec<i64>,
    /// Backlogged classes in round order; `listed[i]` says whether i is in it.
    active: VecDeque<usize>,
    listed: Vec<bool>,
    /// Packets cost their size (bytes) or 1.
    in_bytes: bool,
}

impl RoundRobin {
    pub fn new(
        classifier: Classifier,
        classes: Vec<Class>,
        quanta: Vec<u64>,
        in_bytes: bool,
    ) -> Self {
        let n = classes.len();
        RoundRobin {
            classifier,
            classes,
            quantum: quanta.into_iter().map(|q| q.min(i64::MAX as u64) as i64).collect(),
            deficit: vec![0; n],
            active: VecDeque::with_capacity(n),
            listed: vec![false; n],
            in_bytes,
        }
    }
}

impl QueueDisc for RoundRobin {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let k = self.classifier.classify(ctx.pool.get(id));
        self.classes[k].enqueue(id, ctx);
        if !self.listed[k] && !self.classes[k].is_empty() {
            // S&V 1995: a class joining the round starts with an empty deficit and gets its
            // quantum when first visited.
            self.listed[k] = true;
            self.deficit[k] = 0;
            self.active.push_back(k);
        }
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        // Classes that hold packets but may not send now (non-work-conserving children).
        let mut held = 0;
        while let Some(&k) = self.active.front() {
            if held >= self.active.len() {
                break;
            }
            if self.deficit[k] <= 0 {
                self.deficit[k] += self.quantum[k];
                self.active.rotate_left(1);
                continue;
            }
            match self.classes[k].dequeue(ctx) {
                Some(id) => {
                    self.deficit[k] -= if self.in_bytes { ctx.pool.get(id).size as i64 } else { 1 };
                    if self.classes[k].is_empty() {
                        // S&V 1995: a class whose queue empties leaves the round at once and
                        // forfeits its deficit (it must not bank credit while idle).
                        self.active.pop_front();
                        self.listed[k] = false;
                        self.deficit[k] = 0;
                    }
                    return Some(id);
                }
                None if self.classes[k].is_empty() => {
                    self.active.pop_front();
                    self.listed[k] = false;
                    self.deficit[k] = 0;
                }
                None => {
                    held += 1;
                    self.active.rotate_left(1);
                }
            }
        }
        if self.active.is_empty() {
            poll_idle(&mut self.classes, ctx);
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

    /// New weights (WRR) or quanta (DRR) for every class, from each class's next visit:
    /// the deficits carry on (ns-2 `Queue/DRR` reads `quantum_` at each visit too).
    fn change(&mut self, c: QueueChange) -> Result<(), String> {
        match c {
            QueueChange::Weights(w) if w.len() == self.quantum.len() => {
                self.quantum = w.into_iter().map(|q| q.min(i64::MAX as u64) as i64).collect();
                Ok(())
            }
            QueueChange::Weights(w) => Err(format!(
                "{} weights for {} classes (give one per class, in class order)",
                w.len(),
                self.quantum.len()
            )),
            _ => Err(format!(
                "a wrr/drr scheduler has no `{}` that can change (it takes weights)",
                c.field()
            )),
        }
    }
}

#[cfg(test)]
mod tests;
