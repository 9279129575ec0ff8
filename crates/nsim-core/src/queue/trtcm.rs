//! Two rate three colour marker (RFC 2698): a peak bucket P (PBS bytes, fed at PIR) and a
//! committed bucket C (CBS bytes, fed at CIR); colours each packet green, yellow or red as its
//! drop precedence, then queues it in the child (usually `af`).
//!
//! Read first: RFC 2698 §2 (parameters: PIR ≥ CIR in bytes of IP packets per second, PBS and
//! CBS in bytes, both above 0), §3 (metering: both buckets start full; Tp is incremented by
//! one PIR times per second up to PBS, Tc CIR times per second up to CBS; colour-blind: red if
//! Tp < B, else yellow if Tc < B (Tp −= B), else green (Tp −= B, Tc −= B); colour-aware: a
//! red pre-colour stays red, a yellow one is at best yellow), §4 (marking).
//! ns-2: DiffServ `trTCMPolicy` (`dsPolicy.cc`). Colours, modes and the tick clock:
//! `queue/meter.rs`.

use schemars::JsonSchema;
use serde::Deserialize;

use super::meter::{Colour, ColourMode, Marker, Meter, TickClock};
use super::{BuildCtx, MeterChange, QueueConfig, QueueDisc};
use crate::queue::spec::QueueSpec;
use crate::time::SimTime;
use crate::units::BitsPerSec;
use crate::units::{RateSpec, SizeSpec};

/// RFC 2698 trTCM parameters.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrtcmConfig {
    /// Peak Information Rate (IP bytes; give it as a bit rate, "2Mb"), at least `cir`.
    pub pir: RateSpec,
    /// Peak Burst Size in bytes, above 0.
    pub pbs: SizeSpec,
    /// Committed Information Rate.
    pub cir: RateSpec,
    /// Committed Burst Size in bytes, above 0.
    pub cbs: SizeSpec,
    /// "blind" (default) or "aware" (the packet's `prio` is its pre-colour).
    #[serde(default)]
    pub mode: ColourMode,
    /// The queue behind the marker. Default droptail, 50 packets.
    #[serde(default)]
    pub queue: Box<QueueSpec>,
}

impl QueueConfig for TrtcmConfig {
    fn validate(&self, path: &str) -> Result<(), String> {
        if self.pir.0 .0 < self.cir.0 .0 {
            return Err("pir: must be at least cir (RFC 2698 §2)".into());
        }
        if self.pbs.0 .0 == 0 {
            return Err("pbs: must be above 0 (RFC 2698 §2)".into());
        }
        if self.cbs.0 .0 == 0 {
            return Err("cbs: must be above 0 (RFC 2698 §2)".into());
        }
        self.queue.validate(&format!("{path}.queue")).map_err(|r| format!("queue.{r}"))
    }
    fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        Ok(Box::new(Marker {
            meter: Trtcm::new(self.pir.0, self.pbs.0 .0, self.cir.0, self.cbs.0 .0),
            mode: self.mode,
            child: self.queue.build(ctx).map_err(|r| format!("queue.{r}"))?,
        }))
    }
}

/// The trTCM token state (RFC 2698 §3), token counts in bytes.
#[derive(Clone, Debug)]
pub struct Trtcm {
    peak: TickClock,
    committed: TickClock,
    pbs: u64,
    cbs: u64,
    tp: u64,
    tc: u64,
}

impl Trtcm {
    /// Both buckets full at time 0.
    pub fn new(pir: BitsPerSec, pbs: u64, cir: BitsPerSec, cbs: u64) -> Self {
        Trtcm {
            peak: TickClock::new(pir),
            committed: TickClock::new(cir),
            pbs,
            cbs,
            tp: pbs,
            tc: cbs,
        }
    }
}

impl Trtcm {
    /// Adds the increments of both buckets due by `now` (RFC 2698 §3).
    fn refill(&mut self, now: SimTime) {
        self.tp = self.pbs.min(self.tp + self.peak.ticks(now));
        self.tc = self.cbs.min(self.tc + self.committed.ticks(now));
    }
}

impl Meter for Trtcm {
    fn change(&mut self, now: SimTime, c: &MeterChange) -> Result<(), String> {
        if c.ebs.is_some() {
            return Err("a trtcm marker has no EBS (it takes pir, pbs, cir, cbs)".into());
        }
        let (pir, cir) =
            (c.pir.unwrap_or(self.peak.rate()), c.cir.unwrap_or(self.committed.rate()));
        if pir.0 < cir.0 {
            return Err(format!(
                "PIR {} b/s would be below CIR {} b/s (RFC 2698 §2: PIR ≥ CIR)",
                pir.0, cir.0
            ));
        }
        if c.pbs == Some(0) || c.cbs == Some(0) {
            return Err("PBS and CBS must be above 0 (RFC 2698 §2)".into());
        }
        self.refill(now);
        if c.pir.is_some() {
            self.peak.restart(now, pir);
        }
        if c.cir.is_some() {
            self.committed.restart(now, cir);
        }
        (self.pbs, self.cbs) = (c.pbs.unwrap_or(self.pbs), c.cbs.unwrap_or(self.cbs));
        (self.tp, self.tc) = (self.tp.min(self.pbs), self.tc.min(self.cbs));
        Ok(())
    }

    fn colour(&mut self, now: SimTime, bytes: u32, pre: Colour) -> Colour {
        self.refill(now);
        let b = bytes as u64;
        if pre == Colour::Red || self.tp < b {
            Colour::Red
        } else if pre == Colour::Yellow || self.tc < b {
            self.tp -= b;
            Colour::Yellow
        } else {
            self.tp -= b;
            self.tc -= b;
            Colour::Green
        }
    }
}

#[cfg(test)]
mod tests;
