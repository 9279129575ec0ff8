//! Token buckets: a policer (drop or demote non-conforming packets) and a shaper (delay
//! them), each in front of a child discipline.
//!
//! Read first: RFC 2697 §2 / RFC 2698 (token-bucket metering: a bucket of depth `depth`
//! filled at `rate`; a packet of B bytes conforms if the bucket holds B bytes, which it then
//! takes). Noureddine 2002 §3.4 (Sisalem-style SLAs: per-user (σ, ρ) buckets policed at the edge,
//! dropping or demoting non-conforming packets; sources shape to conform). ns-2: DiffServ
//! `TokenBucket` policer (`dsPolicy.cc`) and `TBF` (`queue/tbf.cc`, `rate_`, `bucket_`).
//!
//! Tokens are kept exactly, as bits × 10¹² (bit-picoseconds at 1 bit/s), so a bucket
//! neither drifts nor rounds: filling for d picoseconds at r bit/s adds d·r units.
//! The bucket starts full (ns-2 TBF and RFC 2697 both start full).

use schemars::JsonSchema;
use serde::Deserialize;

use super::{BuildCtx, QueueChange, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::PacketId;
use crate::queue::spec::QueueSpec;
use crate::record::DropReason;
use crate::time::{Dur, SimTime, PS_PER_SEC};
use crate::units::BitsPerSec;
use crate::units::{RateSpec, SizeSpec};

/// A token bucket of `depth` bytes filled at `rate`. Tokens may also be spent below zero, down
/// to −depth (CBQ's estimator: a class that borrows keeps paying for what it sends).
#[derive(Clone, Debug)]
pub struct TokenBucket {
    rate: i128,
    depth: i128,
    tokens: i128,
    last: SimTime,
}

/// Token units per byte: 8 bits × 10¹².
const UNITS_PER_BYTE: i128 = 8 * PS_PER_SEC as i128;

impl TokenBucket {
    /// A full bucket.
    pub fn new(rate: BitsPerSec, depth_bytes: u64) -> Self {
        let depth = depth_bytes as i128 * UNITS_PER_BYTE;
        TokenBucket { rate: (rate.0 as i128).max(1), depth, tokens: depth, last: SimTime::ZERO }
    }

    /// Adds the tokens earned since the last fill (capped at the depth).
    pub fn fill(&mut self, now: SimTime) {
        let dt = now.since(self.last).0 as i128;
        self.tokens = (self.tokens + dt * self.rate).min(self.depth);
        self.last = now;
    }

    /// From `now` on, fills at `rate` (the tokens earned until `now` at the old rate).
    pub fn set_rate(&mut self, now: SimTime, rate: BitsPerSec) {
        self.fill(now);
        self.rate = (rate.0 as i128).max(1);
    }

    /// From `now` on, `depth_bytes` deep; tokens above the new depth are lost.
    pub fn set_depth(&mut self, now: SimTime, depth_bytes: u64) {
        self.fill(now);
        self.depth = depth_bytes as i128 * UNITS_PER_BYTE;
        self.tokens = self.tokens.min(self.depth);
    }

    /// Takes `bytes` worth of tokens if the bucket holds them (the packet conforms).
    pub fn take(&mut self, now: SimTime, bytes: u32) -> bool {
        self.fill(now);
        let need = bytes as i128 * UNITS_PER_BYTE;
        if self.tokens >= need {
            self.tokens -= need;
            true
        } else {
            false
        }
    }

    /// Takes `bytes` worth of tokens whatever the bucket holds, down to −depth.
    pub fn spend(&mut self, bytes: u32) {
        self.tokens = (self.tokens - bytes as i128 * UNITS_PER_BYTE).max(-self.depth);
    }

    /// Whether the bucket is not in debt (as of the last fill).
    pub fn nonnegative(&self) -> bool {
        self.tokens >= 0
    }

    /// When the bucket will hold `bytes` (now if it does; never if they exceed the depth).
    pub fn ready_at(&mut self, now: SimTime, bytes: u32) -> Option<SimTime> {
        self.fill(now);
        let need = bytes as i128 * UNITS_PER_BYTE;
        if need > self.depth {
            return None;
        }
        let missing = (need - self.tokens).max(0) as u128;
        Some(now + Dur(missing.div_ceil(self.rate as u128) as u64))
    }
}

/// What a policer does with a non-conforming packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PolicerAction {
    /// Drop it (`DropReason::Policer`).
    Drop,
    /// Rewrite its `prio` to `demote_to` (a higher drop precedence) and queue it.
    Demote,
}

/// Token-bucket policer in front of a child queue.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PolicerConfig {
    /// Token rate (the committed rate).
    pub rate: RateSpec,
    /// Bucket depth in bytes (the committed burst), at least one packet.
    pub depth: SizeSpec,
    /// "drop" (default) or "demote".
    #[serde(default = "drop_action")]
    pub action: PolicerAction,
    /// The `prio` a demoted packet gets (e.g. 2 = LOW drop priority for `af`). Default 2.
    #[serde(default = "low")]
    pub demote_to: u8,
    /// The queue behind the policer. Default droptail, 50 packets.
    #[serde(default)]
    pub queue: Box<QueueSpec>,
}

fn drop_action() -> PolicerAction {
    PolicerAction::Drop
}
fn low() -> u8 {
    2
}

/// Token-bucket shaper: packets leave only when the bucket holds their size.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShaperConfig {
    /// Token rate: the long-run rate out.
    pub rate: RateSpec,
    /// Bucket depth in bytes: the largest burst sent at link speed. At least the largest
    /// packet (a bigger packet could never leave and is dropped as overflow).
    pub depth: SizeSpec,
    /// The queue holding packets until they conform. Default droptail, 50 packets.
    #[serde(default)]
    pub queue: Box<QueueSpec>,
}

fn check_depth(depth: SizeSpec) -> Result<(), String> {
    if depth.0 .0 == 0 {
        return Err("depth: must be at least 1 byte".into());
    }
    Ok(())
}

fn child(q: &QueueSpec, path: &str) -> Result<(), String> {
    q.validate(&format!("{path}.queue")).map_err(|r| format!("queue.{r}"))
}

impl QueueConfig for PolicerConfig {
    fn validate(&self, path: &str) -> Result<(), String> {
        check_depth(self.depth)?;
        child(&self.queue, path)
    }
    fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        Ok(Box::new(Policer {
            bucket: TokenBucket::new(self.rate.0, self.depth.0 .0),
            action: self.action,
            demote_to: self.demote_to,
            child: self.queue.build(ctx).map_err(|r| format!("queue.{r}"))?,
        }))
    }
}

impl QueueConfig for ShaperConfig {
    fn validate(&self, path: &str) -> Result<(), String> {
        check_depth(self.depth)?;
        child(&self.queue, path)
    }
    fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        Ok(Box::new(Shaper {
            bucket: TokenBucket::new(self.rate.0, self.depth.0 .0),
            child: self.queue.build(ctx).map_err(|r| format!("queue.{r}"))?,
            staged: None,
        }))
    }
}

pub struct Policer {
    bucket: TokenBucket,
    action: PolicerAction,
    demote_to: u8,
    child: Box<dyn QueueDisc>,
}

impl QueueDisc for Policer {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let size = ctx.pool.get(id).size;
        if !self.bucket.take(ctx.now, size) {
            match self.action {
                PolicerAction::Drop => return ctx.drops.push((id, DropReason::Policer)),
                PolicerAction::Demote => ctx.pool.get_mut(id).prio = self.demote_to,
            }
        }
        self.child.enqueue(id, ctx);
    }
    fn change_at(&mut self, now: SimTime, c: QueueChange) -> Result<(), String> {
        change_bucket(&mut self.bucket, &mut *self.child, now, c)
    }
    super::pass_to_child!();
}

/// A `bucket_rate` or `depth` change to `bucket`; any other to the queue behind it. A shaper
/// whose bucket becomes shallower than a packet drops that packet when it reaches the head
/// (as it would at the start).
fn change_bucket(
    bucket: &mut TokenBucket,
    child: &mut dyn QueueDisc,
    now: SimTime,
    c: QueueChange,
) -> Result<(), String> {
    match c {
        QueueChange::BucketRate(r) => bucket.set_rate(now, r),
        QueueChange::Depth(d) => bucket.set_depth(now, d),
        other => return child.change_at(now, other),
    }
    Ok(())
}

/// The child's head packet is pulled into `staged` (with its size) until it conforms: the
/// child queue sees it as gone, as the packet at the head of ns-2's TBF does.
pub struct Shaper {
    bucket: TokenBucket,
    child: Box<dyn QueueDisc>,
    staged: Option<(PacketId, u32)>,
}

impl QueueDisc for Shaper {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        self.child.enqueue(id, ctx);
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        loop {
            let (id, size) = match self.staged.take() {
                Some(s) => s,
                None => {
                    let id = self.child.dequeue(ctx)?;
                    (id, ctx.pool.get(id).size)
                }
            };
            match self.bucket.ready_at(ctx.now, size) {
                None => ctx.drops.push((id, DropReason::Overflow)),
                Some(t) if t <= ctx.now => {
                    self.bucket.take(ctx.now, size);
                    return Some(id);
                }
                Some(t) => {
                    self.staged = Some((id, size));
                    ctx.wake(t);
                    return None;
                }
            }
        }
    }

    fn len_packets(&self) -> u64 {
        self.child.len_packets() + self.staged.is_some() as u64
    }
    fn len_bytes(&self) -> u64 {
        self.child.len_bytes() + self.staged.map_or(0, |s| s.1 as u64)
    }
    fn class_stats(&self) -> Vec<super::ClassStats> {
        self.child.class_stats()
    }
    fn avg_queue(&self) -> Option<f64> {
        self.child.avg_queue()
    }
    fn change_at(&mut self, now: SimTime, c: QueueChange) -> Result<(), String> {
        change_bucket(&mut self.bucket, &mut *self.child, now, c)
    }
}

#[cfg(test)]
mod tests;
