//! Single rate three colour marker (RFC 2697): a committed bucket C (CBS bytes) and an excess
//! bucket E (EBS bytes) both fed by one rate, CIR; colours each packet green, yellow or red as
//! its drop precedence, then queues it in the child (usually `af`).
//!
//! Read first: RFC 2697 §2 (parameters: CIR in bytes of IP packets per second, CBS and EBS in
//! bytes, at least one above 0), §4 (metering: both buckets start full; CIR times per second
//! Tc is incremented by one if below CBS, else Te if below EBS; colour-blind: green if
//! Tc ≥ B (Tc −= B), else yellow if Te ≥ B (Te −= B), else red; colour-aware: the same but
//! only a green packet may take C and a red one takes nothing), §5 (marking).
//! ns-2: DiffServ `srTCMPolicy` (`dsPolicy.cc`). Colours, modes and the tick clock:
//! `queue/meter.rs`.

use schemars::JsonSchema;
use serde::Deserialize;

use super::meter::{Colour, ColourMode, Marker, Meter, TickClock};
use super::{BuildCtx, MeterChange, QueueConfig, QueueDisc};
use crate::queue::spec::QueueSpec;
use crate::time::SimTime;
use crate::units::{RateSpec, SizeSpec};

/// RFC 2697 srTCM parameters.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SrtcmConfig {
    /// Committed Information Rate (IP bytes; give it as a bit rate, "1Mb").
    pub cir: RateSpec,
    /// Committed Burst Size in bytes.
    pub cbs: SizeSpec,
    /// Excess Burst Size in bytes.
    pub ebs: SizeSpec,
    /// "blind" (default) or "aware" (the packet's `prio` is its pre-colour).
    #[serde(default)]
    pub mode: ColourMode,
    /// The queue behind the marker. Default droptail, 50 packets.
    #[serde(default)]
    pub queue: Box<QueueSpec>,
}

impl QueueConfig for SrtcmConfig {
    fn validate(&self, path: &str) -> Result<(), String> {
        if self.cbs.0 .0 == 0 && self.ebs.0 .0 == 0 {
            return Err("cbs: cbs and ebs cannot both be 0 (RFC 2697 §2)".into());
        }
        self.queue.validate(&format!("{path}.queue")).map_err(|r| format!("queue.{r}"))
    }
    fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        Ok(Box::new(Marker {
            meter: Srtcm::new(self.cir.0, self.cbs.0 .0, self.ebs.0 .0),
            mode: self.mode,
            child: self.queue.build(ctx).map_err(|r| format!("queue.{r}"))?,
        }))
    }
}

/// The srTCM token state (RFC 2697 §4), token counts in bytes.
#[derive(Clone, Debug)]
pub struct Srtcm {
    clock: TickClock,
    cbs: u64,
    ebs: u64,
    tc: u64,
    te: u64,
}

impl Srtcm {
    /// Both buckets full at time 0.
    pub fn new(cir: crate::units::BitsPerSec, cbs: u64, ebs: u64) -> Self {
        Srtcm { clock: TickClock::new(cir), cbs, ebs, tc: cbs, te: ebs }
    }
}

impl Srtcm {
    /// Adds the increments due by `now`: to C below CBS, else to E below EBS (RFC 2697 §4).
    fn refill(&mut self, now: SimTime) {
        let ticks = self.clock.ticks(now);
        let to_c = ticks.min(self.cbs - self.tc);
        self.tc += to_c;
        self.te = self.ebs.min(self.te + (ticks - to_c));
    }
}

impl Meter for Srtcm {
    fn change(&mut self, now: SimTime, c: &MeterChange) -> Result<(), String> {
        if c.pir.is_some() || c.pbs.is_some() {
            return Err("an srtcm marker has no PIR or PBS (it takes cir, cbs, ebs)".into());
        }
        let (cbs, ebs) = (c.cbs.unwrap_or(self.cbs), c.ebs.unwrap_or(self.ebs));
        if cbs == 0 && ebs == 0 {
            return Err("cbs and ebs cannot both be 0 (RFC 2697 §2)".into());
        }
        self.refill(now);
        if let Some(cir) = c.cir {
            self.clock.restart(now, cir);
        }
        (self.cbs, self.ebs) = (cbs, ebs);
        (self.tc, self.te) = (self.tc.min(cbs), self.te.min(ebs));
        Ok(())
    }

    fn colour(&mut self, now: SimTime, bytes: u32, pre: Colour) -> Colour {
        self.refill(now);
        let b = bytes as u64;
        if pre == Colour::Green && self.tc >= b {
            self.tc -= b;
            Colour::Green
        } else if pre != Colour::Red && self.te >= b {
            self.te -= b;
            Colour::Yellow
        } else {
            Colour::Red
        }
    }
}

#[cfg(test)]
mod tests;
