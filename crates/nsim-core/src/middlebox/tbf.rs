//! ns-2's token bucket filter between an agent and its node: a shaper (or, with no queue, a
//! policer) that holds a flow's packets before they reach the node's links.
//!
//! Source: ns-2.35 `TBF` (adc/tbf.cc; `$ns attach-tbf-agent $node $agent $tbf` puts it
//! between the agent and its node, tcl/lib/ns-lib.tcl and ns-agent.tcl). The bucket starts
//! full and fills at `rate`, capped at `bucket`. A packet that finds no packet waiting
//! leaves at once if the bucket holds its size (the tokens are taken); otherwise it waits,
//! and leaves when the bucket has filled to its size (ns-2's timer: (size - tokens) / rate
//! later). A packet that finds packets waiting joins them if fewer than `qlen` wait (dropped
//! otherwise, reason `middlebox`), and leaves (size - tokens) / rate after the one before
//! it, whose size was taken when it left. With `qlen` 0 a packet that does not conform is
//! dropped. As in ns-2 a packet larger than the bucket still leaves when its wait is over
//! (the tokens go below zero). Departure times are computed on arrival (the queue is FIFO),
//! so the hook holds each packet with a `Delay` verdict; nothing of it shows on a link
//! until the packet leaves.
//!
//! Parameters (ns-2 name, ns-2.35 default): `rate` (`rate_`, 64 kb/s), `bucket` (`bucket_`,
//! 1024 bits = 128 bytes), `qlen` (`qlen_`, 0 packets). Times are exact to the picosecond
//! (ns-2 computes them in floating point; a departure is rounded up to the next ps).

use std::collections::VecDeque;

use super::{Hook, HookChange, Verdict};
use crate::packet::Packet;
use crate::time::{Dur, SimTime};

/// ns-2's TBF (see the module doc). Tokens are counted in bit·picoseconds per second, so
/// that filling is exact: `dt` ps at `rate` bit/s add `dt × rate`.
pub struct Tbf {
    rate: i128,
    depth: i128,
    qlen: u64,
    /// Tokens after the last departure (or after the last fill), and its time.
    tokens: i128,
    last: SimTime,
    /// Departure times of the packets waiting, in order.
    waiting: VecDeque<SimTime>,
}

/// Token units per bit: tokens are bit × picoseconds per second.
const UNITS_PER_BIT: i128 = crate::time::PS_PER_SEC as i128;

impl Tbf {
    /// A full bucket of `bucket_bits` filled at `rate_bps`; `qlen` packets may wait.
    pub fn new(rate_bps: u64, bucket_bits: u64, qlen: u64) -> Self {
        let depth = bucket_bits as i128 * UNITS_PER_BIT;
        Tbf {
            rate: rate_bps.max(1) as i128,
            depth,
            qlen,
            tokens: depth,
            last: SimTime::ZERO,
            waiting: VecDeque::new(),
        }
    }

    /// The bucket at `t` (not before the last departure), capped at its depth.
    fn tokens_at(&self, t: SimTime) -> i128 {
        (self.tokens + t.since(self.last).0 as i128 * self.rate).min(self.depth)
    }

    /// When the bucket, as it is after the last departure, holds `need` units (at `from` at
    /// the earliest).
    fn ready_at(&self, from: SimTime, need: i128) -> SimTime {
        let missing = need - self.tokens_at(from);
        if missing <= 0 {
            return from;
        }
        from + Dur((missing as u128).div_ceil(self.rate as u128) as u64)
    }
}

impl Hook for Tbf {
    fn on_packet(&mut self, now: SimTime, p: &mut Packet) -> Verdict {
        while self.waiting.front().is_some_and(|&d| d <= now) {
            self.waiting.pop_front();
        }
        let need = p.size as i128 * 8 * UNITS_PER_BIT;
        let leave = if self.waiting.is_empty() {
            let ready = self.ready_at(now, need);
            if ready > now && self.qlen == 0 {
                return Verdict::Drop;
            }
            ready
        } else if (self.waiting.len() as u64) < self.qlen {
            self.ready_at(self.last, need)
        } else {
            return Verdict::Drop;
        };
        self.tokens = self.tokens_at(leave) - need;
        self.last = leave;
        if leave == now {
            return Verdict::Pass;
        }
        self.waiting.push_back(leave);
        Verdict::Delay(leave.since(now))
    }
    fn kind(&self) -> &'static str {
        "tbf"
    }
    fn parameters(&self) -> &'static [&'static str] {
        &[]
    }
    fn change(&mut self, _now: SimTime, c: &HookChange) -> Result<(), String> {
        Err(super::change::no_such_parameter(self, c))
    }
}

#[cfg(test)]
mod tests;
