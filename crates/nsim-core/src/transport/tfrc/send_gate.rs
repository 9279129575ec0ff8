//! What the application allows a TFRC sender, shared by both senders ([`super::sender`],
//! [`super::ns2_sender`]): the flow's stop time, a pause (flow `pause` / `resume`), and the
//! generation of the one pending send timer, bumped to cancel it.

use crate::agent::{AgentCtx, FlowControl};
use crate::time::SimTime;

/// Timer kind of the next data packet.
pub const TIMER_SEND: u16 = 1;

pub struct SendGate {
    stop: Option<SimTime>,
    paused: bool,
    gen: u32,
}

impl SendGate {
    /// Sending ends after `stop`, if given.
    pub fn new(stop: Option<SimTime>) -> Self {
        SendGate { stop, paused: false, gen: 0 }
    }

    /// Past the stop time: no packet leaves and the no-feedback timer changes nothing.
    pub fn stopped(&self, now: SimTime) -> bool {
        self.stop.is_some_and(|s| now > s)
    }

    /// Whether a packet may leave now: neither stopped nor paused.
    pub fn open(&self, now: SimTime) -> bool {
        !self.stopped(now) && !self.paused
    }

    /// Arms the send timer for `at`, cancelling the pending one.
    pub fn arm(&mut self, at: SimTime, ctx: &mut AgentCtx) {
        self.gen = self.gen.wrapping_add(1);
        ctx.timer_at(at, TIMER_SEND, self.gen);
    }

    /// Whether a send timer of generation `gen` is the pending one.
    pub fn is_current(&self, gen: u32) -> bool {
        gen == self.gen
    }

    /// A flow command at `now`: a pause cancels the next packet (the no-feedback timer goes
    /// on), a stop also ends sending from now. True on resume: a packet leaves at once.
    pub fn control(&mut self, c: FlowControl, now: SimTime) -> bool {
        self.paused = c != FlowControl::Resume;
        self.gen = self.gen.wrapping_add(1);
        match c {
            FlowControl::Resume => true,
            FlowControl::Stop => {
                self.stop = Some(now);
                false
            }
            FlowControl::Pause => false,
        }
    }
}
