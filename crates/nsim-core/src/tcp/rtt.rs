//! Retransmission timer: the Jacobson/Karels estimator of RFC 6298 computed in clock ticks,
//! exactly as ns-2's `TcpAgent::rtt_update`/`rtt_timeout`/`rtt_backoff` (tcp/tcp.cc) do.
//!
//! Read first: RFC 6298 §2-5; Jacobson & Karels, "Congestion Avoidance and Control" (1988),
//! Appendix A (the scaled-integer form used here).
//!
//! - srtt is kept as 8·srtt and rttvar as 4·rttvar, in ticks (ns-2 `T_SRTT_BITS 3`,
//!   `T_RTTVAR_BITS 2`), so alpha = 1/8 and beta = 1/4 (RFC 6298 (2.3)).
//! - RTO = srtt + 4·rttvar (RFC 6298 (2.3), K = 4 = 2^`rttvar_exp_`), then
//!   max(RTO, min_rto)·backoff, capped at max_rto, and at least 2 ticks (ns-2).
//! - The first sample sets srtt = R, rttvar = R/2 (RFC 6298 (2.2)).
//! - Karn's rule (RFC 6298 §3) lives in the sender: a retransmission cancels the timed segment.
//!
//! ns-2 offsets each agent's clock by a random `boot_time_` in [0, tcpTick); so does nsim,
//! from each flow's own random stream, unless `clock_offset` fixes it. A measured RTT may
//! therefore differ by one tick from a given ns-2 run's unless the phase is set to match.

use crate::time::{Dur, SimTime};

const SRTT_BITS: u32 = 3;
const RTTVAR_BITS: u32 = 2;
/// ns-2 `rttvar_exp_`: RTO = srtt + 2^2·rttvar.
const RTTVAR_EXP: u32 = 2;
/// ns-2 backs off at most to 64·RTO (unless the RTO is still below the cap).
const MAX_BACKOFF: u32 = 64;

#[derive(Clone, Debug)]
pub struct RttEstimator {
    tick: Dur,
    /// Phase of the tick clock (ns-2 `boot_time_`).
    offset: Dur,
    min_rto: Dur,
    max_rto: Dur,
    /// 8·srtt in ticks; 0 = no sample yet (or clobbered after a long backoff).
    srtt8: i64,
    /// 4·rttvar in ticks.
    rttvar4: i64,
    /// RTO before backoff and clamping (ns-2 `t_rtxcur_`).
    rtxcur: Dur,
    /// Exponential backoff multiplier (ns-2 `t_backoff_`).
    backoff: u32,
}

impl RttEstimator {
    pub fn new(tick: Dur, offset: Dur, min_rto: Dur, initial_rto: Dur, max_rto: Dur) -> Self {
        RttEstimator {
            tick,
            offset,
            min_rto,
            max_rto,
            srtt8: 0,
            rttvar4: 0,
            rtxcur: initial_rto,
            backoff: 1,
        }
    }

    /// Adds an RTT sample for a segment sent at `sent` and acknowledged at `now`.
    pub fn sample(&mut self, sent: SimTime, now: SimTime) {
        let tick = self.tick.0;
        let tao = now.since(sent).0;
        // ns-2: t_rtt_ = int((tao + fmod(sendtime, tick)) / tick): the number of clock ticks
        // that elapsed between send and ack on a ticking clock.
        let ticks = (((tao + (sent.0 + self.offset.0) % tick) / tick) as i64).max(1);
        if self.srtt8 != 0 {
            let mut delta = ticks - (self.srtt8 >> SRTT_BITS);
            self.srtt8 += delta;
            if self.srtt8 <= 0 {
                self.srtt8 = 1;
            }
            delta = delta.abs() - (self.rttvar4 >> RTTVAR_BITS);
            self.rttvar4 += delta;
            if self.rttvar4 <= 0 {
                self.rttvar4 = 1;
            }
        } else {
            self.srtt8 = ticks << SRTT_BITS;
            self.rttvar4 = ticks << (RTTVAR_BITS - 1);
        }
        let rto_ticks =
            ((self.rttvar4 << (RTTVAR_EXP + SRTT_BITS - RTTVAR_BITS)) + self.srtt8) >> SRTT_BITS;
        self.rtxcur = Dur(rto_ticks as u64 * tick);
    }

    /// When a timer of `rto` armed at `now` fires on the slow clock (4.4BSD `tcp_slowtimo`,
    /// TCP/IP Illustrated vol. 2 ch. 25): it holds ⌈rto / tick⌉ ticks, each clock tick after
    /// `now` takes one off, and it fires on the tick that takes the last, between
    /// `rto - tick` and `rto` after `now` when `rto` is a whole number of ticks.
    pub fn slow_clock_deadline(&self, now: SimTime, rto: Dur) -> SimTime {
        let tick = self.tick.0;
        let ticks = rto.0.div_ceil(tick).max(1);
        let to_next = tick - (now.0 + self.offset.0) % tick;
        SimTime(now.0 + to_next + (ticks - 1) * tick)
    }

    /// The timeout to arm now (ns-2 `rtt_timeout` with `rfc2988_ true`: the minimum is applied
    /// before the backoff, RFC 6298 (2.4)/(5.5)).
    pub fn rto(&self) -> Dur {
        let base = self.rtxcur.max(self.min_rto);
        let t = Dur(base.0.saturating_mul(self.backoff as u64)).min(self.max_rto);
        t.max(Dur(2 * self.tick.0))
    }

    /// Doubles the timeout after an expiry (RFC 6298 (5.5)); past 8x the srtt is folded into
    /// rttvar, as BSD and ns-2 do, so the next sample restarts the estimate.
    pub fn back_off(&mut self) {
        if self.backoff < MAX_BACKOFF || self.rto() < self.max_rto {
            self.backoff <<= 1;
        }
        if self.backoff > 8 {
            self.rttvar4 += self.srtt8 >> SRTT_BITS;
            self.srtt8 = 0;
        }
    }

    /// A valid RTT sample or new ACK ends the backoff (ns-2 `t_backoff_ = 1`).
    pub fn reset_backoff(&mut self) {
        self.backoff = 1;
    }

    pub fn backoff(&self) -> u32 {
        self.backoff
    }

    /// Smoothed RTT (zero before the first sample).
    pub fn srtt(&self) -> Dur {
        Dur((self.srtt8 >> SRTT_BITS) as u64 * self.tick.0)
    }
}

#[cfg(test)]
mod tests;
