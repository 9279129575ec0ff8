//! RED: Random Early Detection (Floyd & Jacobson 1993), as ns-2.35 `Queue/RED` does it.
//!
//! Read first:
//! - S. Floyd, V. Jacobson, "Random Early Detection Gateways for Congestion Avoidance",
//!   IEEE/ACM ToN 1(4), 1993: §4 (the algorithm, Fig. 2), §7 (the count-based spacing of
//!   drops), §11 (byte mode), §6 (idle-time decay of the average).
//! - S. Floyd, "Recommendation on using the gentle_ variant of RED", 2000 (gentle).
//! - S. Floyd, R. Gummadi, S. Shenker, "Adaptive RED", 2001, Fig. 2 (Adaptive RED).
//! - ns-2.35 `queue/red.cc` (`REDQueue::enque`, `estimator`, `drop_early`, `modify_p`,
//!   `calculate_p_new`, `initialize_params`, `updateMaxP`) and `tcl/lib/ns-default.tcl`.
//!
//! Where ns-2 and the paper differ, nsim follows ns-2 and says so at the line. The parts
//! shared with other disciplines ([`RedAverage`], [`RedCurve`], [`Spacing`]) are used by the
//! assured-forwarding drop-priority queue (`af.rs`) and by RED leaves of CBQ.

use rand::RngExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::fifo::Fifo;
use super::{BuildCtx, QueueChange, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::{Ecn, PacketId};
use crate::record::DropReason;
use crate::time::{Dur, SimTime};
use crate::units::{BitsPerSec, Limit};
use crate::units::{LimitSpec, TimeSpec};

/// The EWMA of the queue length with idle-time decay (F&J 1993 §4 and §6; ns-2
/// `REDQueue::estimator` and the idle branch of `REDQueue::enque`).
#[derive(Clone, Debug)]
pub struct RedAverage {
    /// The average (ns-2 `ave_`), in packets or bytes as the owner measures its queue.
    pub avg: f64,
    /// Weight w_q of the newest sample.
    pub w: f64,
    /// Packet time constant: mean-sized packets the link sends per second (ns-2 `ptc`).
    pub ptc: f64,
    /// When the queue went idle (ns-2 `idletime_`), if it is idle. ns-2 starts idle at 0.
    idle_since: Option<SimTime>,
}

impl RedAverage {
    pub fn new(w: f64, ptc: f64) -> Self {
        RedAverage { avg: 0.0, w, ptc, idle_since: Some(SimTime::ZERO) }
    }

    /// A sample of the queue: for RED, an arrival finding `qlen` (packets or bytes, not
    /// counting the arrival). F&J 1993 §6 and
    /// ns-2: after an idle period, "we pretend that m packets arrived", m = int(ptc · idle
    /// time), so avg ← (1-w)^(m+1)·avg + w·qlen.
    pub fn update(&mut self, now: SimTime, qlen: f64) -> f64 {
        if let Some(t0) = self.idle_since.take() {
            let m = (self.ptc * now.since(t0).as_secs_f64()).floor();
            self.avg *= (1.0 - self.w).powf(m);
        }
        self.avg = (1.0 - self.w) * self.avg + self.w * qlen;
        self.avg
    }

    /// The queue was found empty by a dequeue (ns-2 `REDQueue::deque` sets `idle_` when it
    /// returns nothing: the link finished sending and had nothing more). Repeated polls of
    /// an empty queue keep the first time.
    pub fn on_idle(&mut self, now: SimTime) {
        self.idle_since.get_or_insert(now);
    }
}

/// RED's drop-probability curve p_b(avg) (F&J 1993 §4; gentle per Floyd 2000; ns-2
/// `calculate_p_new`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedCurve {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    pub gentle: bool,
}

impl RedCurve {
    /// p_b = max_p·(avg − min_th)/(max_th − min_th) between the thresholds; gentle: max_p +
    /// (1 − max_p)·(avg − max_th)/max_th between max_th and 2·max_th; otherwise 1 above
    /// max_th (ns-2 "NEW: p is set to 1.0"). Capped at 1; 0 below min_th.
    pub fn p_b(&self, avg: f64) -> f64 {
        let p = if avg < self.min_th {
            0.0
        } else if avg < self.max_th {
            self.max_p * (avg - self.min_th) / (self.max_th - self.min_th)
        } else if self.gentle {
            self.max_p + (1.0 - self.max_p) * (avg - self.max_th) / self.max_th
        } else {
            1.0
        };
        p.min(1.0)
    }

    /// Whether `avg` is past the point where every packet goes (max_th, or 2·max_th gentle).
    pub fn forced(&self, avg: f64) -> bool {
        avg >= if self.gentle { 2.0 * self.max_th } else { self.max_th }
    }
}

/// How drops are spread over arrivals (F&J 1993 §7; ns-2 `modify_p`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Spacing {
    /// ns-2 `wait_ true` (default): no drop until count·p_b ≥ 1, then p_a = p_b/(2 −
    /// count·p_b): the number of arrivals between drops is uniform on [1/p_b, 2/p_b].
    Wait,
    /// F&J 1993 §7 "method 2", ns-2 `wait_ false`: p_a = p_b/(1 − count·p_b): uniform
    /// inter-drop counts. ns-2's count includes the arrival, so the support is {1, …,
    /// 1/p_b − 1}; F&J count the packets before it and get {1, …, 1/p_b}.
    Uniform,
    /// F&J 1993 §7 "method 1": p_a = p_b, geometric inter-drop counts (not in ns-2).
    Geometric,
}

impl Spacing {
    /// The probability p_a of dropping the current arrival, `count` arrivals (itself
    /// included) after the last drop. ns-2 `modify_p`.
    pub fn p_a(self, p_b: f64, count: f64) -> f64 {
        let cp = count * p_b;
        match self {
            Spacing::Wait if cp < 1.0 => 0.0,
            Spacing::Wait if cp < 2.0 => p_b / (2.0 - cp),
            Spacing::Uniform if cp < 1.0 => p_b / (1.0 - cp),
            Spacing::Wait | Spacing::Uniform => 1.0,
            Spacing::Geometric => p_b,
        }
    }
}

/// `q_weight`: a number, or one of ns-2's automatic settings.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum QWeightSpec {
    Fixed(f64),
    Auto(QWeightAuto),
}

/// ns-2 `initialize_params` automatic queue weights (ptc = link rate / (8·mean_pktsize)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum QWeightAuto {
    /// ns-2 `q_weight_ -1` (the ns-2.35 default): RTT = max(0.1 s, 3·(link delay + 1/ptc)),
    /// w = 1 − exp(−1/(10·RTT·ptc)).
    Auto,
    /// ns-2 `q_weight_ 0`: w = 1 − exp(−1/ptc).
    Capacity,
    /// ns-2 `q_weight_ -2`: w = 1 − exp(−10/ptc).
    Fast,
}

impl QWeightSpec {
    /// The weight for a link of packet time constant `ptc` and propagation `delay`.
    pub fn resolve(self, ptc: f64, delay: Dur) -> f64 {
        match self {
            QWeightSpec::Fixed(w) => w,
            QWeightSpec::Auto(QWeightAuto::Capacity) => 1.0 - (-1.0 / ptc).exp(),
            QWeightSpec::Auto(QWeightAuto::Fast) => 1.0 - (-10.0 / ptc).exp(),
            QWeightSpec::Auto(QWeightAuto::Auto) => {
                let rtt = (3.0 * (delay.as_secs_f64() + 1.0 / ptc)).max(0.1);
                1.0 - (-1.0 / (10.0 * rtt * ptc)).exp()
            }
        }
    }
}

/// RED configuration. Defaults are ns-2.35's `ns-default.tcl` values (several changed in
/// 2004 to automatic settings; ns-2 test scripts often restore the older ones).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RedConfig {
    /// Physical queue: packets ("50p") or bytes. Default 50 packets (ns-2 `limit_`). ns-2
    /// forces a drop when the queue already holds `limit` before the arrival; in
    /// `queue_in_bytes` mode a packet limit means limit·mean_pktsize bytes (ns-2 `qlim`).
    #[serde(default = "default_limit")]
    pub limit: LimitSpec,
    /// min_th in packets (ns-2 `thresh_`). Default: automatic (ns-2.35 `thresh_ 0`):
    /// max(5, target_delay·ptc/2). Before 2004 ns-2 used 5. Range [0, max_th).
    pub min_th: Option<f64>,
    /// max_th in packets (ns-2 `maxthresh_`). Default: automatic (ns-2.35 `maxthresh_ 0`):
    /// 3·min_th. Before 2004 ns-2 used 15.
    pub max_th: Option<f64>,
    /// EWMA weight w_q in (0, 1], or "auto" (ns-2.35 default `q_weight_ -1`), "capacity"
    /// (ns-2 `0`), "fast" (ns-2 `-2`). F&J 1993 §5 used 0.002 (ns-2's pre-2004 default).
    #[serde(default = "default_q_weight")]
    pub q_weight: QWeightSpec,
    /// max_p = 1/linterm (ns-2 `linterm_`, default 10, i.e. max_p 0.1). Range >= 1.
    #[serde(default = "default_linterm")]
    pub linterm: f64,
    /// Gentle RED (Floyd 2000): p rises from max_p to 1 between max_th and 2·max_th.
    /// Default true (ns-2.35 `gentle_ true`; ns-2 before 2.1b9 and F&J 1993: false).
    #[serde(default = "yes")]
    pub gentle: bool,
    /// Inter-drop spacing: "wait" (default, ns-2 `wait_ true`), "uniform" (ns-2 `wait_
    /// false`, F&J 1993 §7 method 2), "geometric" (method 1).
    #[serde(default = "default_spacing")]
    pub spacing: Spacing,
    /// Byte mode (F&J 1993 §11, ns-2 `bytes_`): p_b·size/mean_pktsize, and the count in
    /// mean-sized packets. Default true (ns-2.35; false before 2004).
    #[serde(default = "yes")]
    pub bytes: bool,
    /// Measure the queue and the thresholds in bytes (thresholds × mean_pktsize; ns-2
    /// `queue_in_bytes_`). Default true (ns-2.35; false before 2004).
    #[serde(default = "yes")]
    pub queue_in_bytes: bool,
    /// Mean packet size in bytes (ns-2 `mean_pktsize_`, default 500): sets ptc, byte-mode
    /// scaling and byte thresholds.
    #[serde(default = "default_mean_pktsize")]
    pub mean_pktsize: u32,
    /// Mark ECN-capable packets CE instead of dropping them early (ns-2 `setbit_`, default
    /// false). Forced and overflow drops stay drops.
    #[serde(default)]
    pub setbit: bool,
    /// With `setbit`, mark only while p_b < mark_p and drop above (ns-2 `use_mark_p_`,
    /// default true in ns-2.35, false before). ns-2 then also skips the forced-drop shortcut
    /// above max_th: the packet goes through the early-drop test with p = 1.
    #[serde(default = "yes")]
    pub use_mark_p: bool,
    /// See `use_mark_p` (ns-2 `mark_p_`, default 0.1). Range [0, 1].
    #[serde(default = "default_mark_p")]
    pub mark_p: f64,
    /// Target delay for the automatic min_th (ns-2 `targetdelay_`, default 5ms).
    #[serde(default = "default_target_delay")]
    pub target_delay: TimeSpec,
    /// Adaptive RED (Floyd, Gummadi, Shenker 2001; ns-2 `adaptive_`, default false).
    #[serde(default)]
    pub adaptive: Option<AdaptiveConfig>,
}

/// Adaptive RED's max_p controller (FGS 2001 Fig. 2; ns-2 `updateMaxP`).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdaptiveConfig {
    /// Additive increase, capped at max_p/4 (ns-2 `alpha_ 0.01`).
    #[serde(default = "default_alpha")]
    pub alpha: f64,
    /// Multiplicative decrease factor (ns-2 `beta_ 0.9`).
    #[serde(default = "default_beta")]
    pub beta: f64,
    /// Update interval (ns-2 `interval_ 0.5`).
    #[serde(default = "default_interval")]
    pub interval: TimeSpec,
    /// Upper bound of max_p (ns-2 `top_ 0.5`).
    #[serde(default = "default_top")]
    pub top: f64,
    /// Lower bound of max_p (ns-2 `bottom_ 0` means 0.01, possibly lowered further by ns-2
    /// to 1/W; nsim uses 0.01).
    #[serde(default = "default_bottom")]
    pub bottom: f64,
}

fn default_limit() -> LimitSpec {
    LimitSpec(Limit::Packets(50))
}
fn default_q_weight() -> QWeightSpec {
    QWeightSpec::Auto(QWeightAuto::Auto)
}
fn default_linterm() -> f64 {
    10.0
}
fn yes() -> bool {
    true
}
fn default_spacing() -> Spacing {
    Spacing::Wait
}
fn default_mean_pktsize() -> u32 {
    500
}
fn default_mark_p() -> f64 {
    0.1
}
fn default_target_delay() -> TimeSpec {
    TimeSpec(Dur::from_millis(5))
}
fn default_alpha() -> f64 {
    0.01
}
fn default_beta() -> f64 {
    0.9
}
fn default_interval() -> TimeSpec {
    TimeSpec(Dur::from_millis(500))
}
fn default_top() -> f64 {
    0.5
}
fn default_bottom() -> f64 {
    0.01
}

impl Default for RedConfig {
    fn default() -> Self {
        toml::from_str("").expect("all RED fields have defaults")
    }
}

/// Checks that `v` is finite and within `lo..=hi`, naming `field`.
pub(crate) fn check_range(field: &str, v: f64, lo: f64, hi: f64) -> Result<(), String> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(format!("{field}: {v} is not in [{lo}, {hi}]"))
    }
}

impl RedConfig {
    /// Thresholds in packets after ns-2's automatic rules (`initialize_params`).
    pub fn thresholds_pkts(&self, ptc: f64) -> (f64, f64) {
        let min = match self.min_th {
            Some(m) if m > 0.0 => m,
            _ => (self.target_delay.0.as_secs_f64() * ptc / 2.0).max(5.0),
        };
        let max = match self.max_th {
            Some(m) if m > 0.0 => m,
            _ => 3.0 * min,
        };
        (min, max)
    }

    fn ptc(&self, rate: BitsPerSec) -> f64 {
        rate.0 as f64 / (8.0 * self.mean_pktsize as f64)
    }

    pub fn build_red(&self, ctx: &BuildCtx) -> Red {
        let ptc = self.ptc(ctx.link_rate);
        let (min, max) = self.thresholds_pkts(ptc);
        let scale = if self.queue_in_bytes { self.mean_pktsize as f64 } else { 1.0 };
        let curve = RedCurve {
            min_th: min * scale,
            max_th: max * scale,
            max_p: 1.0 / self.linterm,
            gentle: self.gentle,
        };
        let limit = match (self.limit.0, self.queue_in_bytes) {
            (Limit::Packets(n), true) => Limit::Bytes(n * self.mean_pktsize as u64),
            (l, _) => l,
        };
        Red {
            fifo: Fifo::default(),
            avg: RedAverage::new(self.q_weight.resolve(ptc, ctx.link_delay), ptc),
            curve,
            limit,
            cfg: self.clone(),
            count: 0,
            count_bytes: 0,
            old: false,
            adapt_last: SimTime::ZERO,
        }
    }
}

impl QueueConfig for RedConfig {
    fn validate(&self, _path: &str) -> Result<(), String> {
        if let QWeightSpec::Fixed(w) = self.q_weight {
            if !(w > 0.0 && w <= 1.0) {
                return Err(format!(
                    "q_weight: {w} is not in (0, 1] (or \"auto\", \"capacity\", \"fast\")"
                ));
            }
        }
        check_range("linterm", self.linterm, 1.0, f64::MAX)?;
        if let (Some(a), Some(b)) = (self.min_th, self.max_th) {
            if a < 0.0 || b <= a {
                return Err(format!("max_th: {b} must be greater than min_th {a} (both >= 0)"));
            }
        }
        if self.mean_pktsize == 0 {
            return Err("mean_pktsize: must be at least 1 byte".into());
        }
        check_range("mark_p", self.mark_p, 0.0, 1.0)?;
        if let Some(a) = &self.adaptive {
            check_range("adaptive.alpha", a.alpha, 0.0, 1.0)?;
            check_range("adaptive.beta", a.beta, 0.0, 1.0)?;
            check_range("adaptive.top", a.top, 0.0, 1.0)?;
            check_range("adaptive.bottom", a.bottom, 0.0, a.top)?;
        }
        Ok(())
    }

    fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        Ok(Box::new(self.build_red(ctx)))
    }
}

/// A RED queue (ns-2 `Queue/RED` with `drop_tail_ true`: forced drops take the arrival).
pub struct Red {
    fifo: Fifo,
    avg: RedAverage,
    curve: RedCurve,
    limit: Limit,
    cfg: RedConfig,
    /// Arrivals since the last drop (ns-2 `count`), and their bytes (`count_bytes`).
    count: u64,
    count_bytes: u64,
    /// Whether the average was already above min_th at the previous arrival (ns-2 `old`).
    old: bool,
    /// When Adaptive RED last changed max_p (ns-2 `lastset`).
    adapt_last: SimTime,
}

impl Red {
    fn qlen(&self) -> u64 {
        if self.cfg.queue_in_bytes {
            self.fifo.bytes()
        } else {
            self.fifo.packets()
        }
    }

    fn full(&self) -> bool {
        match self.limit {
            Limit::Packets(n) => self.fifo.packets() >= n,
            Limit::Bytes(b) => self.fifo.bytes() >= b,
        }
    }

    /// The current curve (max_p moves under Adaptive RED).
    pub fn curve(&self) -> RedCurve {
        self.curve
    }

    /// Adaptive RED (FGS 2001 Fig. 2, ns-2 `updateMaxP`), run after each average update.
    /// ns-2 keeps the gentle segment's slope from the initial max_p (`v_c`, `v_d` are set
    /// only in `reset`); nsim moves the whole curve with max_p, as the paper does.
    fn adapt(&mut self, now: SimTime) {
        let Some(a) = &self.cfg.adaptive else { return };
        if now <= self.adapt_last + a.interval.0 {
            return;
        }
        let c = &mut self.curve;
        let part = 0.4 * (c.max_th - c.min_th);
        let avg = self.avg.avg;
        if avg < c.min_th + part && c.max_p > a.bottom {
            c.max_p *= a.beta;
            self.adapt_last = now;
        } else if avg > c.max_th - part && a.top > c.max_p {
            c.max_p += a.alpha.min(0.25 * c.max_p);
            self.adapt_last = now;
        }
    }

    /// ns-2 `drop_early`: true to drop; may instead mark CE (then false).
    fn drop_early(&mut self, id: PacketId, size: u32, ctx: &mut QueueCtx) -> bool {
        let p1 = self.curve.p_b(self.avg.avg);
        let mps = self.cfg.mean_pktsize as f64;
        let count = if self.cfg.bytes {
            (self.count_bytes / self.cfg.mean_pktsize as u64) as f64
        } else {
            self.count as f64
        };
        let mut p = self.cfg.spacing.p_a(p1, count);
        if self.cfg.bytes && p < 1.0 {
            // F&J 1993 §11: "p_b ← p_b · PacketSize/MaximumPacketSize" (ns-2: mean size).
            p = (p * size as f64 / mps).min(1.0);
        }
        let u: f64 = ctx.rng.random();
        if u > p {
            return false;
        }
        self.count = 0;
        self.count_bytes = 0;
        let pkt = ctx.pool.get_mut(id);
        if self.cfg.setbit
            && pkt.ecn != Ecn::NotEct
            && (!self.cfg.use_mark_p || p1 < self.cfg.mark_p)
        {
            pkt.ecn = Ecn::Ce;
            *ctx.marks += 1;
            return false;
        }
        true
    }

    /// ns-2 `REDQueue::enque`'s drop logic; `None` keeps the packet.
    fn verdict(
        &mut self,
        id: PacketId,
        size: u32,
        qlen: u64,
        ctx: &mut QueueCtx,
    ) -> Option<DropReason> {
        let avg = self.avg.avg;
        let forced = self.curve.forced(avg);
        let mut why = None;
        if avg >= self.curve.min_th && qlen > 1 {
            if !self.cfg.use_mark_p && forced {
                why = Some(DropReason::RedForced);
            } else if !self.old {
                // "The average queue size has just crossed the threshold from below."
                self.count = 1;
                self.count_bytes = size as u64;
                self.old = true;
            } else if self.drop_early(id, size, ctx) {
                why = Some(if forced { DropReason::RedForced } else { DropReason::RedEarly });
            }
        } else {
            self.old = false;
        }
        if self.full() {
            why = Some(DropReason::Overflow);
        }
        why
    }
}

impl QueueDisc for Red {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let size = ctx.pool.get(id).size;
        let qlen = self.qlen();
        self.avg.update(ctx.now, qlen as f64);
        self.adapt(ctx.now);
        self.count += 1;
        self.count_bytes += size as u64;
        match self.verdict(id, size, qlen, ctx) {
            None => self.fifo.push(id, size, ctx.now),
            Some(why) => {
                if why != DropReason::RedEarly {
                    // ns-2: forced drops reset the count too (Philip Liu's fix).
                    self.count = 0;
                    self.count_bytes = 0;
                }
                ctx.drops.push((id, why));
            }
        }
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        let e = self.fifo.pop();
        if e.is_none() {
            self.avg.on_idle(ctx.now);
        }
        e.map(|e| e.id)
    }

    fn len_packets(&self) -> u64 {
        self.fifo.packets()
    }

    fn len_bytes(&self) -> u64 {
        self.fifo.bytes()
    }

    fn avg_queue(&self) -> Option<f64> {
        Some(self.avg.avg)
    }

    /// Thresholds are given in packets and scaled as at build (`queue_in_bytes`); the average
    /// and the count carry on, as after `$red set thresh_ ...` in ns-2.
    fn change(&mut self, c: QueueChange) -> Result<(), String> {
        let scale = if self.cfg.queue_in_bytes { self.cfg.mean_pktsize as f64 } else { 1.0 };
        let c_ = &mut self.curve;
        match c {
            QueueChange::Limit(l) => {
                self.limit = match (l, self.cfg.queue_in_bytes) {
                    (Limit::Packets(n), true) => Limit::Bytes(n * self.cfg.mean_pktsize as u64),
                    (l, _) => l,
                }
            }
            QueueChange::MinTh(v) if v * scale < c_.max_th => c_.min_th = v * scale,
            QueueChange::MaxTh(v) if v * scale > c_.min_th => c_.max_th = v * scale,
            QueueChange::MinTh(v) | QueueChange::MaxTh(v) => {
                return Err(format!(
                    "{} = {v} packets would leave min_th >= max_th (now {} and {})",
                    c.field(),
                    c_.min_th / scale,
                    c_.max_th / scale
                ))
            }
            QueueChange::K(_)
            | QueueChange::Weights(_)
            | QueueChange::Allots(_)
            | QueueChange::BucketRate(_)
            | QueueChange::Depth(_)
            | QueueChange::Meter(_) => {
                return Err(format!(
                    "a RED queue has no `{}` (it takes limit, min_th, max_th, w_q, max_p)",
                    c.field()
                ))
            }
            QueueChange::WQ(v) => self.avg.w = v,
            QueueChange::MaxP(v) => c_.max_p = v,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
