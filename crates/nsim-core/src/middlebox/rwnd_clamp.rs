//! Constant receive-window clamp: every passing TCP ACK advertises at most `rwnd` bytes.
//!
//! Holl 2003 §7.2.2 verified its proxy first with this "simpler precursor" (an ACK window
//! clamp to a configured constant) before adding IP-ABR's per-flow window.

use super::{clamp_rwnd, is_tcp_ack, Hook, HookChange, Verdict};
use crate::packet::Packet;
use crate::time::SimTime;

pub struct RwndClamp {
    /// The largest window (bytes) an ACK may advertise after passing.
    pub rwnd: u64,
}

impl Hook for RwndClamp {
    fn on_packet(&mut self, _now: SimTime, p: &mut Packet) -> Verdict {
        if is_tcp_ack(p) {
            clamp_rwnd(p, self.rwnd);
        }
        Verdict::Pass
    }
    fn kind(&self) -> &'static str {
        "rwnd_clamp"
    }
    fn parameters(&self) -> &'static [&'static str] {
        &["rwnd"]
    }
    fn change(&mut self, _now: SimTime, c: &HookChange) -> Result<(), String> {
        match *c {
            HookChange::Rwnd(b) => self.rwnd = b,
            _ => return Err(super::change::no_such_parameter(self, c)),
        }
        Ok(())
    }
}
