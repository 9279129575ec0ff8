//! CoDel: Controlled Delay AQM (RFC 8289), dropping at dequeue by sojourn time.
//!
//! Read first: RFC 8289 §3 (the algorithm: target, interval, the control law
//! t + interval/√count), §4 (defaults: target 5 ms, interval 100 ms), §5 (pseudocode:
//! `dodequeue`, `dequeue`, `control_law`); ns-2 `Queue/CoDel` (queue/codel.cc, K. Nichols).
//! [`CodelState`] is one CoDel instance over a [`Fifo`]; FQ-CoDel runs one per flow.

use schemars::JsonSchema;
use serde::Deserialize;

use super::fifo::{Entry, Fifo};
use super::{BuildCtx, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::{Ecn, PacketId};
use crate::record::DropReason;
use crate::time::{Dur, SimTime};
use crate::units::Limit;
use crate::units::{LimitSpec, TimeSpec};

/// CoDel configuration.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodelConfig {
    /// Acceptable standing queue delay. Default 5ms (RFC 8289 §4.4; ns-2 `target_`).
    #[serde(default = "default_target")]
    pub target: TimeSpec,
    /// Sliding window over which the minimum sojourn must exceed target before dropping;
    /// also the control law's base. Default 100ms (RFC 8289 §4.3; ns-2 `interval_`).
    #[serde(default = "default_interval")]
    pub interval: TimeSpec,
    /// A queue holding at most this many bytes is never dropped from (RFC 8289 §5.5
    /// `MAXPACKET`, "the MTU"). Default 1500 B (ns-2 `maxpacket_` 1500).
    #[serde(default = "default_mtu")]
    pub mtu: u32,
    /// Physical buffer (tail drop, `Overflow`). Default 1000 packets (Linux `limit`).
    #[serde(default = "default_limit")]
    pub limit: LimitSpec,
    /// Mark ECN-capable packets CE instead of dropping them (RFC 8289 §5 does not specify
    /// ECN; Linux `codel ecn`). Default false (Linux `codel` default `noecn`).
    #[serde(default)]
    pub ecn: bool,
}

fn default_target() -> TimeSpec {
    TimeSpec(Dur::from_millis(5))
}
fn default_interval() -> TimeSpec {
    TimeSpec(Dur::from_millis(100))
}
fn default_mtu() -> u32 {
    1500
}
fn default_limit() -> LimitSpec {
    LimitSpec(Limit::Packets(1000))
}

/// Checks target < interval, both > 0.
pub(crate) fn check_codel(target: Dur, interval: Dur) -> Result<(), String> {
    if target == Dur::ZERO || interval == Dur::ZERO {
        return Err("target, interval: must be greater than zero".into());
    }
    if target >= interval {
        return Err("target: must be smaller than interval".into());
    }
    Ok(())
}

impl QueueConfig for CodelConfig {
    fn validate(&self, _path: &str) -> Result<(), String> {
        check_codel(self.target.0, self.interval.0)
    }
    fn build(&self, _ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        Ok(Box::new(Codel {
            fifo: Fifo::default(),
            state: CodelState::new(CodelParams {
                target: self.target.0,
                interval: self.interval.0,
                mtu: self.mtu,
                ecn: self.ecn,
            }),
            limit: self.limit.0,
        }))
    }
}

/// The parameters one CoDel instance runs with.
#[derive(Clone, Copy, Debug)]
pub struct CodelParams {
    pub target: Dur,
    pub interval: Dur,
    pub mtu: u32,
    /// Mark ECN-capable packets CE instead of dropping them.
    pub ecn: bool,
}

/// RFC 8289 §5 per-queue state.
#[derive(Clone, Debug)]
pub struct CodelState {
    p: CodelParams,
    /// When the sojourn time will have been above target for an interval (0 in the RFC
    /// means "not above").
    first_above_time: Option<SimTime>,
    /// When the next drop is due while dropping.
    drop_next: SimTime,
    /// Drops since entering the dropping state, and its value when the state was last left.
    count: u32,
    lastcount: u32,
    dropping: bool,
}

impl CodelState {
    pub fn new(p: CodelParams) -> Self {
        CodelState {
            p,
            first_above_time: None,
            drop_next: SimTime::ZERO,
            count: 0,
            lastcount: 0,
            dropping: false,
        }
    }

    /// RFC 8289 §5.6 `control_law`: t + interval/√count.
    pub fn control_law(&self, t: SimTime, count: u32) -> SimTime {
        t + Dur::from_secs_f64(self.p.interval.as_secs_f64() / (count as f64).sqrt())
    }

    /// RFC 8289 §5.5 `dodequeue`: the head packet, and whether CoDel may drop it.
    fn dodequeue(&mut self, fifo: &mut Fifo, now: SimTime) -> (Option<Entry>, bool) {
        let Some(e) = fifo.pop() else {
            self.first_above_time = None;
            return (None, false);
        };
        let sojourn = now.since(e.since);
        if sojourn < self.p.target || fifo.bytes() <= self.p.mtu as u64 {
            // "went below - stay below for at least interval"
            self.first_above_time = None;
            return (Some(e), false);
        }
        match self.first_above_time {
            None => {
                self.first_above_time = Some(now + self.p.interval);
                (Some(e), false)
            }
            Some(t) => (Some(e), now >= t),
        }
    }

    /// Signals congestion on `e`: marks it CE if ECN is on and it is ECN-capable (true: it
    /// is still sent), else drops it.
    fn signal(&self, e: Entry, ctx: &mut QueueCtx) -> bool {
        let p = ctx.pool.get_mut(e.id);
        if self.p.ecn && p.ecn != Ecn::NotEct {
            p.ecn = Ecn::Ce;
            *ctx.marks += 1;
            return true;
        }
        ctx.drops.push((e.id, DropReason::Codel));
        false
    }

    /// RFC 8289 §5.7 `dequeue`: the next packet to send; dropped ones go to `ctx.drops`. With
    /// ECN, a packet that would be dropped is marked and sent instead, and the next signal
    /// follows the control law (as Linux `codel_dequeue`; RFC 8289 §5 has no ECN).
    pub fn dequeue(&mut self, fifo: &mut Fifo, ctx: &mut QueueCtx) -> Option<Entry> {
        let now = ctx.now;
        let (mut e, mut ok_to_drop) = self.dodequeue(fifo, now);
        let Some(head) = e else {
            self.dropping = false;
            return None;
        };
        if self.dropping {
            if !ok_to_drop {
                // "sojourn time below target - leave dropping state"
                self.dropping = false;
            }
            while self.dropping && now >= self.drop_next {
                let cur = e.expect("a packet while dropping");
                self.count += 1;
                if self.signal(cur, ctx) {
                    self.drop_next = self.control_law(self.drop_next, self.count);
                    return Some(cur);
                }
                (e, ok_to_drop) = self.dodequeue(fifo, now);
                if !ok_to_drop {
                    self.dropping = false;
                } else {
                    self.drop_next = self.control_law(self.drop_next, self.count);
                }
            }
        } else if ok_to_drop {
            if !self.signal(head, ctx) {
                (e, _) = self.dodequeue(fifo, now);
            }
            self.dropping = true;
            // "If min went above target close to when it last went below, assume that the
            // drop rate that controlled the queue on the last cycle is a good starting point."
            let delta = self.count.wrapping_sub(self.lastcount);
            self.count = if delta > 1 && now < self.drop_next + self.p.interval.mul_f64(16.0) {
                delta
            } else {
                1
            };
            self.drop_next = self.control_law(now, self.count);
            self.lastcount = self.count;
        }
        e
    }
}

/// A CoDel queue: tail drop at the limit, CoDel at dequeue.
pub struct Codel {
    fifo: Fifo,
    state: CodelState,
    limit: Limit,
}

impl QueueDisc for Codel {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let size = ctx.pool.get(id).size;
        if self.fifo.fits(self.limit, size) {
            self.fifo.push(id, size, ctx.now);
        } else {
            ctx.drops.push((id, DropReason::Overflow));
        }
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        self.state.dequeue(&mut self.fifo, ctx).map(|e| e.id)
    }

    fn len_packets(&self) -> u64 {
        self.fifo.packets()
    }

    fn len_bytes(&self) -> u64 {
        self.fifo.bytes()
    }
}

#[cfg(test)]
mod tests;
