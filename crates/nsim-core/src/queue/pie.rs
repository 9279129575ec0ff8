//! PIE: Proportional Integral controller Enhanced (RFC 8033), dropping at enqueue.
//!
//! Read first: RFC 8033 §4.1 (random drop at enqueue, with the safeguards that keep PIE
//! work-conserving), §4.2 (drop probability update every T_UPDATE from the queue delay and
//! its trend, with the auto-tuning of alpha and beta by the current probability), §4.3
//! (queue delay estimate), §4.4 (burst tolerance), §5 (pseudocode; defaults: QDELAY_REF
//! 15 ms, T_UPDATE 15 ms, alpha 0.125 Hz, beta 1.25 Hz, MAX_BURST 150 ms).
//!
//! Queue delay: the timestamp method (RFC 8033 §4.3 allows it; Linux's default): the sojourn
//! time of the last packet dequeued, 0 when the queue is found empty. The periodic update
//! runs lazily at the next enqueue or dequeue for every T_UPDATE boundary passed, so an
//! idle queue costs no events. Not implemented: the departure-rate estimator, the optional
//! de-randomization (`accu_prob`), ECN marking.

use rand::RngExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::fifo::Fifo;
use super::red::check_range;
use super::{BuildCtx, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::{Ecn, PacketId};
use crate::record::DropReason;
use crate::time::{Dur, SimTime};
use crate::units::Limit;
use crate::units::{LimitSpec, TimeSpec};

/// PIE configuration (defaults: RFC 8033 §5).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieConfig {
    /// Target queue delay QDELAY_REF. Default 15ms.
    #[serde(default = "ms15")]
    pub target: TimeSpec,
    /// Update period T_UPDATE. Default 15ms.
    #[serde(default = "ms15")]
    pub tupdate: TimeSpec,
    /// Gain on the delay error, per second. Default 0.125.
    #[serde(default = "default_alpha")]
    pub alpha: f64,
    /// Gain on the delay trend, per second. Default 1.25.
    #[serde(default = "default_beta")]
    pub beta: f64,
    /// Burst allowance MAX_BURST. Default 150ms.
    #[serde(default = "ms150")]
    pub max_burst: TimeSpec,
    /// No early drop while the queue holds at most 2 × this many bytes (MEAN_PKTSIZE).
    /// Default 1500 B.
    #[serde(default = "default_mean_pktsize")]
    pub mean_pktsize: u32,
    /// Physical buffer (tail drop, `Overflow`). Default 1000 packets (Linux `limit`).
    #[serde(default = "default_limit")]
    pub limit: LimitSpec,
    /// RFC 8033 §5.1: mark ECN-capable packets CE instead of dropping them while drop_prob
    /// ≤ 10 % (above, drop). Default false (Linux `pie` default `noecn`).
    #[serde(default)]
    pub ecn: bool,
}

fn ms15() -> TimeSpec {
    TimeSpec(Dur::from_millis(15))
}
fn ms150() -> TimeSpec {
    TimeSpec(Dur::from_millis(150))
}
fn default_alpha() -> f64 {
    0.125
}
fn default_beta() -> f64 {
    1.25
}
fn default_mean_pktsize() -> u32 {
    1500
}
fn default_limit() -> LimitSpec {
    LimitSpec(Limit::Packets(1000))
}

impl QueueConfig for PieConfig {
    fn validate(&self, _path: &str) -> Result<(), String> {
        if self.tupdate.0 == Dur::ZERO {
            return Err("tupdate: must be greater than zero".into());
        }
        check_range("alpha", self.alpha, 0.0, f64::MAX)?;
        check_range("beta", self.beta, 0.0, f64::MAX)
    }
    fn build(&self, _ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        Ok(Box::new(Pie {
            fifo: Fifo::default(),
            state: PieState::new(self.clone()),
            limit: self.limit.0,
        }))
    }
}

/// RFC 8033's controller state.
#[derive(Clone, Debug)]
pub struct PieState {
    cfg: PieConfig,
    pub drop_prob: f64,
    /// Queue delay now (RFC `current_qdelay`) and at the last update (`qdelay_old`).
    pub qdelay: Dur,
    pub qdelay_old: Dur,
    pub burst_allowance: Dur,
    next_update: SimTime,
}

impl PieState {
    pub fn new(cfg: PieConfig) -> Self {
        let (burst, first) = (cfg.max_burst.0, SimTime::ZERO + cfg.tupdate.0);
        PieState {
            cfg,
            drop_prob: 0.0,
            qdelay: Dur::ZERO,
            qdelay_old: Dur::ZERO,
            burst_allowance: burst,
            next_update: first,
        }
    }

    /// RFC 8033 §5 `calculate_drop_prob`, run every T_UPDATE.
    pub fn update(&mut self) {
        let (cur, old) = (self.qdelay.as_secs_f64(), self.qdelay_old.as_secs_f64());
        let target = self.cfg.target.0.as_secs_f64();
        let mut p = self.cfg.alpha * (cur - target) + self.cfg.beta * (cur - old);
        // §4.2 auto-tuning: scale the gains down while the probability is small.
        let dp = self.drop_prob;
        p /= match dp {
            _ if dp < 0.000001 => 2048.0,
            _ if dp < 0.00001 => 512.0,
            _ if dp < 0.0001 => 128.0,
            _ if dp < 0.001 => 32.0,
            _ if dp < 0.01 => 8.0,
            _ if dp < 0.1 => 2.0,
            _ => 1.0,
        };
        // "Cap Drop Adjustment"
        if dp >= 0.1 && p > 0.02 {
            p = 0.02;
        }
        self.drop_prob += p;
        // "Exponentially decay drop prob when congestion goes away"
        if cur < target / 2.0 && old < target / 2.0 {
            self.drop_prob *= 0.98;
        }
        self.drop_prob = self.drop_prob.clamp(0.0, 1.0);
        self.burst_allowance = Dur(self.burst_allowance.0.saturating_sub(self.cfg.tupdate.0 .0));
        self.qdelay_old = self.qdelay;
    }

    /// Runs the updates due by `now`. Once idle at zero (nothing left to decay), the
    /// remaining ones only drain the burst allowance and are skipped in one step.
    fn catch_up(&mut self, now: SimTime) {
        let period = self.cfg.tupdate.0 .0;
        while now >= self.next_update {
            if self.drop_prob == 0.0 && self.qdelay == Dur::ZERO && self.qdelay_old == Dur::ZERO {
                let k = (now.0 - self.next_update.0) / period + 1;
                self.burst_allowance =
                    Dur(self.burst_allowance.0.saturating_sub(k.saturating_mul(period)));
                self.next_update += Dur(k * period);
                return;
            }
            self.update();
            self.next_update += self.cfg.tupdate.0;
        }
    }

    /// RFC 8033 §5 `drop_early` (without de-randomization).
    fn drop_early(&self, queue_bytes: u64, u: f64) -> bool {
        let half = self.cfg.target.0 .0 / 2;
        if (self.qdelay_old.0 < half && self.drop_prob < 0.2)
            || queue_bytes <= 2 * self.cfg.mean_pktsize as u64
        {
            return false;
        }
        u < self.drop_prob
    }
}

pub struct Pie {
    fifo: Fifo,
    state: PieState,
    limit: Limit,
}

impl QueueDisc for Pie {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let size = ctx.pool.get(id).size;
        let s = &mut self.state;
        s.catch_up(ctx.now);
        if !self.fifo.fits(self.limit, size) {
            return ctx.drops.push((id, DropReason::Overflow));
        }
        let u: f64 = ctx.rng.random();
        if s.burst_allowance == Dur::ZERO && s.drop_early(self.fifo.bytes(), u) {
            let p = ctx.pool.get_mut(id);
            if s.cfg.ecn && p.ecn != Ecn::NotEct && s.drop_prob <= 0.1 {
                p.ecn = Ecn::Ce;
                *ctx.marks += 1;
            } else {
                return ctx.drops.push((id, DropReason::Pie));
            }
        }
        let half = Dur(s.cfg.target.0 .0 / 2);
        if s.drop_prob == 0.0 && s.qdelay < half && s.qdelay_old < half {
            s.burst_allowance = s.cfg.max_burst.0;
        }
        self.fifo.push(id, size, ctx.now);
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        self.state.catch_up(ctx.now);
        let e = self.fifo.pop();
        self.state.qdelay = e.map_or(Dur::ZERO, |e| ctx.now.since(e.since));
        e.map(|e| e.id)
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
