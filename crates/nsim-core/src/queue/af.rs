//! One queue with three drop priorities (assured-forwarding style), as Noureddine 2002 uses it.
//!
//! Read first: Noureddine 2002 notes §3.2–3.3 (the thesis' §4.4.2 and Table 5.1); RFC 2597 §2
//! (AF: drop precedences within a class); Clark & Fang 1998 (RIO: RED with In/Out, where the
//! average for "in" packets counts only "in" packets).
//!
//! A packet's drop precedence is its `prio`: 0 = HIGH (dropped last), 1 = MED, 2 = LOW
//! (values above 2 count as LOW). Counting is RIO-style, as the seed's example settles it:
//! the occupancy for precedence k counts the queued packets of precedence ≤ k ("when
//! computing LOW_queue, all packets are counted"). Two variants:
//! - `hard` (thesis ch. 5, Table 5.1): drop an arrival of precedence k if, with it, the
//!   instantaneous count for k would exceed threshold_k × limit. Deterministic.
//! - `red` (thesis §4.4.2, Fig. 4.11): per-precedence EWMA averages (weight 0.5) updated at
//!   every enqueue and every dequeue, no idle decay; drop with p rising linearly from 0 at
//!   min_k to max_p_k at max_k, and every packet above max_k (not gentle). The thesis' six
//!   threshold percentages are lost with its figure: the defaults (HIGH 60→100 %, MED
//!   30→60 %, LOW 10→30 %) are the notes' fallback guess, not the thesis' values.
//!
//! Packets leave in FIFO order. Buffer full: `Overflow`; precedence drops: `DropPriority`.

use rand::RngExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::fifo::Fifo;
use super::red::{check_range, RedAverage, RedCurve, Spacing};
use super::{BuildCtx, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::PacketId;
use crate::record::DropReason;

/// Number of drop precedences (HIGH, MED, LOW).
pub const LEVELS: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AfMode {
    /// Instantaneous counts against hard thresholds (thesis ch. 5, Table 5.1).
    Hard,
    /// Averaged counts with RED-like early drop (thesis §4.4.2).
    Red,
}

/// Drop-priority queue configuration. Fractions are of `limit`; arrays are [HIGH, MED, LOW].
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AfConfig {
    /// Buffer in packets. Default 50.
    #[serde(default = "default_limit")]
    pub limit: u64,
    /// "hard" (default) or "red".
    #[serde(default = "hard")]
    pub mode: AfMode,
    /// Hard thresholds (fractions of the buffer). Default [1.0, 0.6, 0.3] (Table 5.1).
    #[serde(default = "table_5_1")]
    pub thresholds: [f64; LEVELS],
    /// `red` mode: where early drop starts. Default [0.6, 0.3, 0.1] (fallback guess).
    #[serde(default = "default_min")]
    pub min: [f64; LEVELS],
    /// `red` mode: where every packet is dropped. Default [1.0, 0.6, 0.3] (Table 5.1).
    #[serde(default = "table_5_1")]
    pub max: [f64; LEVELS],
    /// `red` mode: drop probability at `max`. Default 0.1 for all (thesis §4.4.2).
    #[serde(default = "default_max_p")]
    pub max_p: [f64; LEVELS],
    /// `red` mode: EWMA weight. Default 0.5 (thesis §4.4.2: "generally gave better
    /// performance" than RED's usual 0.002–0.02).
    #[serde(default = "half")]
    pub q_weight: f64,
    /// `red` mode: drop spacing. Default "geometric" (each packet with probability p, as the
    /// thesis describes; RED's count-based spreading is not mentioned there).
    #[serde(default = "geometric")]
    pub spacing: Spacing,
}

fn default_limit() -> u64 {
    50
}
fn hard() -> AfMode {
    AfMode::Hard
}
fn table_5_1() -> [f64; LEVELS] {
    [1.0, 0.6, 0.3]
}
fn default_min() -> [f64; LEVELS] {
    [0.6, 0.3, 0.1]
}
fn default_max_p() -> [f64; LEVELS] {
    [0.1; LEVELS]
}
fn half() -> f64 {
    0.5
}
fn geometric() -> Spacing {
    Spacing::Geometric
}

impl QueueConfig for AfConfig {
    fn validate(&self, _path: &str) -> Result<(), String> {
        if self.limit == 0 {
            return Err("limit: must be at least 1 packet".into());
        }
        for k in 0..LEVELS {
            check_range(&format!("thresholds[{k}]"), self.thresholds[k], 0.0, 1.0)?;
            check_range(&format!("max[{k}]"), self.max[k], 0.0, 1.0)?;
            check_range(&format!("min[{k}]"), self.min[k], 0.0, self.max[k])?;
            check_range(&format!("max_p[{k}]"), self.max_p[k], 0.0, 1.0)?;
        }
        check_range("q_weight", self.q_weight, f64::MIN_POSITIVE, 1.0)
    }

    fn build(&self, _ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        let lim = self.limit as f64;
        let curve = |k: usize| RedCurve {
            min_th: self.min[k] * lim,
            max_th: self.max[k] * lim,
            max_p: self.max_p[k],
            gentle: false,
        };
        Ok(Box::new(Af {
            fifo: Fifo::default(),
            counts: [0; LEVELS],
            // ptc 0: no idle-time decay (none in the thesis).
            avg: std::array::from_fn(|_| RedAverage::new(self.q_weight, 0.0)),
            curves: std::array::from_fn(curve),
            count_since_drop: [0; LEVELS],
            cfg: self.clone(),
        }))
    }
}

pub struct Af {
    fifo: Fifo,
    /// Queued packets per precedence.
    counts: [u64; LEVELS],
    avg: [RedAverage; LEVELS],
    curves: [RedCurve; LEVELS],
    count_since_drop: [u64; LEVELS],
    cfg: AfConfig,
}

fn level(prio: u8) -> usize {
    (prio as usize).min(LEVELS - 1)
}

impl Af {
    /// RIO-style occupancy for precedence k: packets of precedence ≤ k.
    fn occupancy(&self, k: usize) -> u64 {
        self.counts[..=k].iter().sum()
    }

    /// Every precedence's average takes a sample (thesis: "at every enqueue and dequeue").
    fn sample(&mut self, ctx: &QueueCtx) {
        for k in 0..LEVELS {
            let occ = self.occupancy(k) as f64;
            self.avg[k].update(ctx.now, occ);
        }
    }

    fn drops_early(&mut self, k: usize, ctx: &mut QueueCtx) -> bool {
        match self.cfg.mode {
            AfMode::Hard => {
                (self.occupancy(k) + 1) as f64 > self.cfg.thresholds[k] * self.cfg.limit as f64
            }
            AfMode::Red => {
                let p_b = self.curves[k].p_b(self.avg[k].avg);
                self.count_since_drop[k] += 1;
                let p = self.cfg.spacing.p_a(p_b, self.count_since_drop[k] as f64);
                let u: f64 = ctx.rng.random();
                let drop = p > 0.0 && u <= p;
                if drop {
                    self.count_since_drop[k] = 0;
                }
                drop
            }
        }
    }
}

impl QueueDisc for Af {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let p = ctx.pool.get(id);
        let (k, size) = (level(p.prio), p.size);
        if self.cfg.mode == AfMode::Red {
            self.sample(ctx);
        }
        if self.fifo.packets() >= self.cfg.limit {
            ctx.drops.push((id, DropReason::Overflow));
        } else if self.drops_early(k, ctx) {
            ctx.drops.push((id, DropReason::DropPriority));
        } else {
            self.fifo.push(id, size, ctx.now);
            self.counts[k] += 1;
        }
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        let e = self.fifo.pop()?;
        self.counts[level(ctx.pool.get(e.id).prio)] -= 1;
        if self.cfg.mode == AfMode::Red {
            self.sample(ctx);
        }
        Some(e.id)
    }

    fn len_packets(&self) -> u64 {
        self.fifo.packets()
    }

    fn len_bytes(&self) -> u64 {
        self.fifo.bytes()
    }

    /// The LOW average (all packets), in `red` mode.
    fn avg_queue(&self) -> Option<f64> {
        (self.cfg.mode == AfMode::Red).then(|| self.avg[LEVELS - 1].avg)
    }
}

#[cfg(test)]
mod tests;
