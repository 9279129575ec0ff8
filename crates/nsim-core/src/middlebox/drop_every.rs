//! Drops every n-th matching packet (the n-th, 2n-th, ...): a deterministic loss pattern at a
//! node, e.g. to test recovery without a random error model. A `set` of `n` starts the
//! count again: the n-th packet after the change is the first dropped.

use super::{Hook, HookChange, Verdict};
use crate::packet::Packet;
use crate::time::SimTime;

pub struct DropEvery {
    pub n: u64,
    seen: u64,
}

impl DropEvery {
    pub fn new(n: u64) -> Self {
        DropEvery { n, seen: 0 }
    }
}

impl Hook for DropEvery {
    fn on_packet(&mut self, _now: SimTime, _p: &mut Packet) -> Verdict {
        self.seen += 1;
        if self.seen.is_multiple_of(self.n) {
            Verdict::Drop
        } else {
            Verdict::Pass
        }
    }
    fn kind(&self) -> &'static str {
        "drop_every"
    }
    fn parameters(&self) -> &'static [&'static str] {
        &["n"]
    }
    fn change(&mut self, _now: SimTime, c: &HookChange) -> Result<(), String> {
        match *c {
            HookChange::N(n) => (self.n, self.seen) = (n, 0),
            _ => return Err(super::change::no_such_parameter(self, c)),
        }
        Ok(())
    }
}
