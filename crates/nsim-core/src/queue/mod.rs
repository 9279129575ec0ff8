//! Queue disciplines: the enqueue / dequeue / drop decisions of one link direction.
//!
//! A discipline owns only those decisions (DESIGN.md "Model decisions"); the link does the
//! accounting, tracing and freeing of the packets a discipline drops. Composite schedulers
//! (priority, CBQ, WRR, DRR) are disciplines made of child disciplines.
//!
//! To add a discipline: write one file with a config type implementing [`QueueConfig`] and a
//! type implementing [`QueueDisc`], then add one line to `registry!` in `queue/spec.rs`.
//! The model reference with sources and defaults is `docs/models/queues.md`.

pub mod af;
pub mod cbq;
pub mod class;
pub mod classify;
pub mod codel;
pub mod droptail;
pub mod drr_ns2;
pub mod fifo;
pub mod fq_codel;
pub mod host_sched;
pub mod meter;
pub mod pie;
pub mod prio;
pub mod red;
pub mod round_robin;
pub mod spec;
pub mod srtcm;
pub mod step_mark;
pub mod token_bucket;
pub mod trtcm;

#[cfg(test)]
pub(crate) mod testbench;

use std::collections::HashMap;

use crate::ids::FlowId;
use crate::packet::{PacketId, PacketPool};
use crate::record::{DropCounts, DropReason};
use crate::rng::SimRng;
use crate::time::{Dur, SimTime};
use crate::units::BitsPerSec;

/// What a discipline may touch while deciding.
pub struct QueueCtx<'a> {
    pub now: SimTime,
    /// Packets, readable (size, flow, prio) and writable (ECN CE marking, prio rewriting).
    pub pool: &'a mut PacketPool,
    /// Packets the discipline dropped during this call, with the reason. The link accounts for
    /// and frees them; a discipline must not keep a dropped id.
    pub drops: &'a mut Vec<(PacketId, DropReason)>,
    /// ECN marks made during this call.
    pub marks: &'a mut u64,
    /// The discipline's own random stream (for RED and friends).
    pub rng: &'a mut SimRng,
    /// Set by a non-work-conserving `dequeue` (shaper, CBQ class held to its share) that holds
    /// packets but may send none yet: the earliest time it may. The link then retries at that
    /// time if it is still idle (`Event::QueueWake`). Keep the earliest when several children
    /// set it.
    pub wake_at: &'a mut Option<SimTime>,
}

impl QueueCtx<'_> {
    /// Records that the discipline may send again at `t` (keeps the earliest request).
    pub fn wake(&mut self, t: SimTime) {
        if !matches!(*self.wake_at, Some(w) if w <= t) {
            *self.wake_at = Some(t);
        }
    }
}

/// What a discipline may know about where it is built (never used on the packet path).
pub struct BuildCtx<'a> {
    /// The link direction's bit rate (RED's packet time constant, CBQ and PIE rates).
    pub link_rate: BitsPerSec,
    /// The link direction's propagation delay (RED's automatic `q_weight`).
    pub link_delay: Dur,
    /// Flow names of the scenario, for classifiers.
    pub flows: &'a HashMap<String, FlowId>,
}

/// Per-class counters of a composite scheduler (results' `classes` table).
#[derive(Clone, Debug, Default)]
pub struct ClassStats {
    pub name: String,
    pub arrivals: u64,
    pub arrival_bytes: u64,
    pub departures: u64,
    pub departure_bytes: u64,
    pub drops: DropCounts,
    pub queued_pkts: u64,
    /// The class queue's averaged length (a RED leaf's `ave_`), if it keeps one.
    pub avg_len: Option<f64>,
}

/// The [`QueueDisc`] methods of a stage in front of a child queue (a policer, a colour
/// marker) that only acts on arrival: everything but `enqueue` passes to `self.child`.
macro_rules! pass_to_child {
    () => {
        fn dequeue(
            &mut self,
            ctx: &mut $crate::queue::QueueCtx,
        ) -> Option<$crate::packet::PacketId> {
            self.child.dequeue(ctx)
        }
        fn len_packets(&self) -> u64 {
            self.child.len_packets()
        }
        fn len_bytes(&self) -> u64 {
            self.child.len_bytes()
        }
        fn class_stats(&self) -> Vec<$crate::queue::ClassStats> {
            self.child.class_stats()
        }
        fn avg_queue(&self) -> Option<f64> {
            self.child.avg_queue()
        }
    };
}
pub(crate) use pass_to_child;

/// One discipline instance, owned by one link direction.
pub trait QueueDisc {
    /// Offers a packet: keep it, or push it (or another queued packet) to `ctx.drops`.
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx);
    /// The next packet to transmit, if any (may also drop, e.g. CoDel; may set
    /// `ctx.wake_at` when it holds packets that may not leave yet).
    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId>;
    /// Packets held now.
    fn len_packets(&self) -> u64;
    /// Bytes held now.
    fn len_bytes(&self) -> u64;
    /// Per-class counters (composite schedulers; empty for single queues).
    fn class_stats(&self) -> Vec<ClassStats> {
        Vec::new()
    }
    /// The averaged queue estimate, for disciplines that keep one (RED's `ave_`, in packets or
    /// in bytes as the discipline measures its queue).
    fn avg_queue(&self) -> Option<f64> {
        None
    }
    /// Whether the dequeue of the empty queue by which a link shows that it went idle (ns-2
    /// calls `deque()` when a transmission ends) can change the discipline's state (RED's
    /// idle-time decay, PIE, CoDel). Those that answer false are spared the call, one per
    /// packet reaching an idle link.
    fn notices_idle(&self) -> bool {
        true
    }
    /// The largest packet (bytes) that this discipline, while empty, would admit and hand back
    /// at once to a free transmitter with no other effect on its state: a FIFO under its
    /// limit. The link then sends such a packet without the enqueue/dequeue pair (most
    /// arrivals at lightly loaded links). 0, the default, for disciplines that keep state per
    /// packet or per call; only asked of those that do not notice idle periods.
    fn cut_through_max(&self) -> u32 {
        0
    }
    /// Changes one parameter while the queue runs (scenario `[[event]]`s, steering): packets
    /// already queued stay; the new value applies from the next arrival, as setting the ns-2
    /// variable (`limit_`, `thresh_`, ...) does. Values are range-checked by the caller
    /// ([`QueueChange::check`]); an error says why this discipline cannot take the change.
    fn change(&mut self, c: QueueChange) -> Result<(), String> {
        Err(format!("this queue discipline has no `{}` that can change during a run (DropTail: limit; RED: limit, min_th, max_th, w_q, max_p; step_mark: limit, k; wrr, drr: weights; cbq: allots; policer, shaper: bucket_rate, depth; srtcm: cir, cbs, ebs; trtcm: pir, pbs, cir, cbs)", c.field()))
    }
    /// [`QueueDisc::change`] at `now`: token buckets first count the tokens earned at the old
    /// rate until `now` (policers, shapers, markers, CBQ override this; stages in front of a
    /// child pass the other changes on to it).
    fn change_at(&mut self, _now: SimTime, c: QueueChange) -> Result<(), String> {
        self.change(c)
    }
}

/// A queue parameter change, in the units of the scenario's queue tables.
#[derive(Clone, Debug, PartialEq)]
pub enum QueueChange {
    /// Capacity (ns-2 `limit_`).
    Limit(crate::units::Limit),
    /// RED min_th in packets (ns-2 `thresh_`).
    MinTh(f64),
    /// RED max_th in packets (ns-2 `maxthresh_`).
    MaxTh(f64),
    /// RED EWMA weight (ns-2 `q_weight_`).
    WQ(f64),
    /// RED max_p (ns-2 `1/linterm_`).
    MaxP(f64),
    /// Step marking threshold K (`step_mark`'s `k`).
    K(crate::units::Limit),
    /// Every class's WRR `weight` or DRR `quantum`, in class order.
    Weights(Vec<u64>),
    /// Every CBQ class's `allot` (share of the link rate), in class order.
    Allots(Vec<f64>),
    /// A policer's or shaper's token `rate` (ns-2 TBF `rate_`).
    BucketRate(BitsPerSec),
    /// A policer's or shaper's bucket `depth` in bytes (ns-2 TBF `bucket_`).
    Depth(u64),
    /// A colour marker's rates and bursts (RFC 2697 CIR, CBS, EBS; RFC 2698 PIR, PBS, CIR,
    /// CBS), those given; one change so that RFC 2698's PIR ≥ CIR holds after it as a whole.
    Meter(MeterChange),
}

/// New marker parameters (bytes for the bursts); `None` keeps the current value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeterChange {
    pub cir: Option<BitsPerSec>,
    pub cbs: Option<u64>,
    pub ebs: Option<u64>,
    pub pir: Option<BitsPerSec>,
    pub pbs: Option<u64>,
}

impl QueueChange {
    /// The field name in an `[[event]]` table.
    pub fn field(&self) -> &'static str {
        match self {
            QueueChange::Limit(_) => "limit",
            QueueChange::MinTh(_) => "min_th",
            QueueChange::MaxTh(_) => "max_th",
            QueueChange::WQ(_) => "w_q",
            QueueChange::MaxP(_) => "max_p",
            QueueChange::K(_) => "k",
            QueueChange::Weights(_) => "weights",
            QueueChange::Allots(_) => "allots",
            QueueChange::BucketRate(_) => "bucket_rate",
            QueueChange::Depth(_) => "depth",
            QueueChange::Meter(m) => match m {
                MeterChange { cir: Some(_), .. } => "cir",
                MeterChange { cbs: Some(_), .. } => "cbs",
                MeterChange { ebs: Some(_), .. } => "ebs",
                MeterChange { pir: Some(_), .. } => "pir",
                _ => "pbs",
            },
        }
    }

    /// Whether the value is possible at all (whatever the discipline).
    pub fn check(&self) -> Result<(), String> {
        use crate::units::Limit;
        match *self {
            QueueChange::Limit(Limit::Packets(n)) if n < 2 => Err("a limit must be at least 2 packets or 1 byte (the limit counts the packet being sent)".into()),
            QueueChange::Limit(Limit::Bytes(0)) => Err("a limit must be at least 2 packets or 1 byte (the limit counts the packet being sent)".into()),
            QueueChange::MinTh(v) | QueueChange::MaxTh(v) if !(v.is_finite() && v >= 0.0) => Err(format!("{v} must be a threshold >= 0 packets")),
            QueueChange::WQ(v) | QueueChange::MaxP(v) if !(v.is_finite() && v > 0.0 && v <= 1.0) => Err(format!("{v} is not in (0, 1]")),
            QueueChange::Weights(ref w) if w.is_empty() || w.contains(&0) => Err("one weight per class, each at least 1".into()),
            QueueChange::Allots(ref a) if a.is_empty() || a.iter().any(|&x| !(x > 0.0 && x <= 1.0)) => Err("one allot per class, each in (0, 1]".into()),
            QueueChange::Depth(0) => Err("must be at least 1 byte".into()),
            _ => Ok(()),
        }
    }
}

/// A validated discipline configuration that can build instances.
pub trait QueueConfig {
    /// Checks parameters. Errors are reasons naming the sub-field (`"min_th: ..."`); the
    /// caller prefixes the path of the queue (`links[0].queue`), also given as `path`.
    fn validate(&self, path: &str) -> Result<(), String>;
    /// Builds an instance; fails only on what needs the scenario (unknown flow names).
    fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String>;
}
