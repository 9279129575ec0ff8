//! Holds every matching packet for a constant time before forwarding it (a processing
//! delay, or an artificial one for experiments). Packets keep their order: all are held alike.

use super::{Hook, Verdict};
use crate::packet::Packet;
use crate::time::{Dur, SimTime};

pub struct Delay {
    pub delay: Dur,
}

impl Hook for Delay {
    fn on_packet(&mut self, _now: SimTime, _p: &mut Packet) -> Verdict {
        Verdict::Delay(self.delay)
    }
}
