//! Delayed ACK (RFC 1122 §4.2.3.2, RFC 5681 §4.2): an in-order segment is acknowledged at
//! once only if it is the second full-sized segment since the last ACK; otherwise the ACK
//! waits for the delayed-ACK clock, or rides on outgoing data. Out-of-order segments and
//! segments that fill a gap are acknowledged at once (the caller checks those).
//!
//! ns-2.35 FullTcp counts bytes instead (`by_bytes`, tcp-full.cc `need_send`): ACK at once
//! when the bytes since the last ACK reach `segsperack_` (1, or 2 when delayed) times the MSS.
//!
//! Two clocks: a periodic tick at which every pending ACK leaves (BSD's 200 ms fast timer,
//! Stevens, TCP/IP Illustrated Vol. 2, §25.2, mean delay 100 ms; ns-2 FullTcp's `interval_`
//! timer, 100 ms, rescheduled every period from time 0, behaves the same, as the reference
//! run `reference/ns2/fulltcp/fulltcp_delack_1drop` shows), and a per-connection timer armed
//! when the first unacknowledged segment arrives.

use super::config::DelackClock;
use crate::time::{Dur, SimTime};

/// What to do with the ACK for a segment just received.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckNow {
    Yes,
    /// Wait until this time (already pending: the earlier deadline stands).
    At(SimTime),
    /// An ACK is already waiting for the clock.
    Pending,
}

#[derive(Clone, Debug)]
pub struct DelayedAck {
    enabled: bool,
    interval: Dur,
    clock: DelackClock,
    /// Phase of the BSD tick clock.
    phase: Dur,
    /// Full-sized segments received since the last ACK sent.
    full_unacked: u32,
    /// ns-2 FullTcp's rule: the bytes since the last ACK decide (`unacked_bytes`).
    by_bytes: bool,
    unacked_bytes: u64,
    pending: bool,
}

impl DelayedAck {
    pub fn new(enabled: bool, interval: Dur, clock: DelackClock, phase: Dur) -> Self {
        DelayedAck {
            enabled,
            interval,
            clock,
            phase,
            full_unacked: 0,
            by_bytes: false,
            unacked_bytes: 0,
            pending: false,
        }
    }

    /// With `on`, ns-2.35 FullTcp's byte-counting rule.
    pub fn by_bytes(self, on: bool) -> Self {
        DelayedAck { by_bytes: on, ..self }
    }

    /// An in-order data segment of `len` bytes arrived (`mss` = full size).
    pub fn on_segment(&mut self, len: u64, mss: u64, now: SimTime) -> AckNow {
        if self.by_bytes {
            self.unacked_bytes += len;
            if self.unacked_bytes >= if self.enabled { 2 * mss } else { mss } {
                return AckNow::Yes;
            }
        } else {
            if !self.enabled {
                return AckNow::Yes;
            }
            if len >= mss {
                self.full_unacked += 1;
            }
            if self.full_unacked >= 2 {
                return AckNow::Yes;
            }
        }
        if self.pending {
            return AckNow::Pending;
        }
        self.pending = true;
        AckNow::At(match self.clock {
            DelackClock::Timer => now + self.interval,
            DelackClock::Tick => {
                let i = self.interval.0;
                let t = now.0 + self.phase.0;
                SimTime((t / i + 1) * i - self.phase.0)
            }
        })
    }

    /// Any segment carrying an ACK left: nothing is pending any more.
    pub fn ack_sent(&mut self) {
        self.full_unacked = 0;
        self.unacked_bytes = 0;
        self.pending = false;
    }

    pub fn pending(&self) -> bool {
        self.pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;

    /// RFC 1122 §4.2.3.2: "an ACK SHOULD be generated for at least every second full-sized
    /// segment"; a lone segment waits for the timer.
    #[test]
    fn every_second_full_segment() {
        let mut d = DelayedAck::new(true, Dur::from_millis(100), DelackClock::Timer, Dur::ZERO);
        let t = SimTime::ZERO + Dur::from_millis(5);
        assert_eq!(d.on_segment(MSS, MSS, t), AckNow::At(t + Dur::from_millis(100)));
        assert_eq!(d.on_segment(MSS, MSS, t), AckNow::Yes);
        d.ack_sent();
        assert_eq!(d.on_segment(10, MSS, t), AckNow::At(t + Dur::from_millis(100)));
        assert_eq!(d.on_segment(10, MSS, t), AckNow::Pending, "short segments do not count");
    }

    /// BSD's 200 ms tick: the ACK leaves at the next tick, so the delay is uniform in
    /// (0, 200 ms] and averages 100 ms (Stevens Vol. 2 §25.2).
    #[test]
    fn bsd_tick_averages_half_the_interval() {
        let mut total = 0u64;
        let n = 2000u64;
        for k in 0..n {
            let mut d = DelayedAck::new(true, Dur::from_millis(200), DelackClock::Tick, Dur::ZERO);
            let now = SimTime(k * 100_000_000_000 / 1000 + 1);
            let AckNow::At(at) = d.on_segment(MSS, MSS, now) else { panic!() };
            assert!(at > now && at.since(now) <= Dur::from_millis(200));
            total += at.since(now).0;
        }
        let mean = Dur(total / n).as_secs_f64();
        assert!((mean - 0.1).abs() < 0.001, "mean delay {mean}");
    }

    /// ns-2.35 FullTcp (tcp-full.cc `need_send`): with `segsperack_ 1` a full segment is
    /// ACKed at once but a short one waits for the clock, and short ones add up; with 2, two
    /// MSS of bytes are needed (nam-simplexlink.tcl's last ACK: tests/test_ns2_scripts.py).
    #[test]
    fn ns2_counts_bytes_since_the_last_ack() {
        let t = SimTime::ZERO + Dur::from_millis(5);
        let mut d = DelayedAck::new(false, Dur::from_millis(100), DelackClock::Tick, Dur::ZERO)
            .by_bytes(true);
        assert_eq!(d.on_segment(MSS, MSS, t), AckNow::Yes);
        d.ack_sent();
        assert_eq!(d.on_segment(440, MSS, t), AckNow::At(SimTime::ZERO + Dur::from_millis(100)));
        assert_eq!(d.on_segment(560, MSS, t), AckNow::Yes, "short segments add up to an MSS");
        d.ack_sent();
        let mut two = DelayedAck::new(true, Dur::from_millis(100), DelackClock::Tick, Dur::ZERO)
            .by_bytes(true);
        assert_eq!(two.on_segment(MSS, MSS, t), AckNow::At(SimTime::ZERO + Dur::from_millis(100)));
        assert_eq!(two.on_segment(MSS - 1, MSS, t), AckNow::Pending);
        assert_eq!(two.on_segment(1, MSS, t), AckNow::Yes);
    }

    #[test]
    fn disabled_acks_every_segment() {
        let mut d = DelayedAck::new(false, Dur::from_millis(100), DelackClock::Timer, Dur::ZERO);
        assert_eq!(d.on_segment(1, MSS, SimTime::ZERO), AckNow::Yes);
    }
}
