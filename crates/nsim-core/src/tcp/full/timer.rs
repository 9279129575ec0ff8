//! One restartable timer as a deadline plus at most one useful heap entry: re-arming to a
//! later time costs nothing and stale entries are recognized by their generation (O(1)
//! cancel, STYLE.md item 10), as the one-way sender's retransmission timer does.

use crate::agent::AgentCtx;
use crate::time::SimTime;

#[derive(Clone, Copy, Debug, Default)]
pub struct Timer {
    deadline: Option<SimTime>,
    armed: Option<SimTime>,
    gen: u32,
}

impl Timer {
    /// Arms (or re-arms) the timer of `kind` to fire at `at`.
    pub fn set(&mut self, at: SimTime, kind: u16, ctx: &mut AgentCtx) {
        self.deadline = Some(at);
        if self.armed.is_none_or(|a| a > at) {
            self.gen = self.gen.wrapping_add(1);
            self.armed = Some(at);
            ctx.timer_at(at, kind, self.gen);
        }
    }

    pub fn cancel(&mut self) {
        self.deadline = None;
    }

    pub fn is_set(&self) -> bool {
        self.deadline.is_some()
    }

    /// When the timer is due, if it is armed.
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    /// A heap entry of generation `gen` fired: true if the timer is due now (and disarms it);
    /// re-queues the entry if the deadline moved later.
    pub fn fire(&mut self, gen: u32, kind: u16, ctx: &mut AgentCtx) -> bool {
        if gen != self.gen {
            return false;
        }
        self.armed = None;
        match self.deadline {
            Some(d) if d <= ctx.now() => {
                self.deadline = None;
                true
            }
            Some(d) => {
                self.armed = Some(d);
                ctx.timer_at(d, kind, gen);
                false
            }
            None => false,
        }
    }
}
