//! Holds every matching packet for a constant time before forwarding it (a processing
//! delay, or an artificial one for experiments). Packets keep their order: all are held alike,
//! and after a `set` to a shorter delay a packet is held at least until the one before it
//! leaves (a proxy's queue drains in order), so none overtakes another.

use super::{Hook, HookChange, Verdict};
use crate::packet::Packet;
use crate::time::{Dur, SimTime};

pub struct Delay {
    pub delay: Dur,
    /// When the last packet held leaves (for the order after a shorter delay).
    last_release: SimTime,
}

impl Delay {
    pub fn new(delay: Dur) -> Self {
        Delay { delay, last_release: SimTime::ZERO }
    }
}

impl Hook for Delay {
    fn on_packet(&mut self, now: SimTime, _p: &mut Packet) -> Verdict {
        // With a constant delay `now + delay` never goes back: the max changes nothing.
        self.last_release = self.last_release.max(now + self.delay);
        Verdict::Delay(self.last_release.since(now))
    }
    fn kind(&self) -> &'static str {
        "delay"
    }
    fn parameters(&self) -> &'static [&'static str] {
        &["delay"]
    }
    fn change(&mut self, _now: SimTime, c: &HookChange) -> Result<(), String> {
        match *c {
            HookChange::Delay(d) => self.delay = d,
            _ => return Err(super::change::no_such_parameter(self, c)),
        }
        Ok(())
    }
}
