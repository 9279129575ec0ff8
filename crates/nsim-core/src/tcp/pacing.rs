//! Sender pacing: new segments leave in quanta spaced by the pacing rate instead of in
//! ACK-clocked bursts.
//!
//! Read first: Linux `tcp_internal_pacing` / `sch_fq` (each packet's departure time
//! = the previous one's + its length / rate) and draft-cardwell-iccrg-bbr-congestion-
//! control-00 §4.2.1 (pacing rate = pacing_gain × BtlBw). Rules:
//!
//! - `quantum` packets go back to back; once the quantum is full, the next may leave only
//!   after their wire bytes would have been sent at the rate (release = now + bytes × 8 / rate).
//!   Time not used is not saved up: a sender held by its window gets no burst afterwards.
//! - The rate: a fixed `pacing_rate`, else the congestion control's
//!   ([`crate::tcp::cc::CongestionControl::pacing_rate`], BBR's), else Linux's
//!   `tcp_update_pacing_rate`: cwnd × packet / srtt × 2 in slow start (cwnd < ssthresh / 2,
//!   `tcp_pacing_ss_ratio` 200 %) and × 1.2 after (`tcp_pacing_ca_ratio` 120 %); without an
//!   RTT sample yet, no pacing.
//! - Every segment counts against the pacer, retransmissions included (Linux paces them too).
//!   New data waits for it; so do the retransmissions of RFC 6675 recovery after the first
//!   (Linux `tcp_xmit_retransmit_queue`), while ns-2's Sack1 recovery and a fast retransmit
//!   are never delayed.
//! - A held sender arms one release timer; when it fires the recovery's `send_much` runs again.
//!
//! Parameters ([`crate::tcp::config::PacingParams`]): `pacing` (default false; always on for
//! BBR), `pacing_rate` (bit/s of wire bytes, default none), `pacing_quantum` (packets,
//! default 1).

use crate::tcp::config::PacingParams;
use crate::time::{Dur, SimTime};

/// Linux's `sysctl_tcp_pacing_ss_ratio` and `sysctl_tcp_pacing_ca_ratio`, as factors.
const SS_RATIO: f64 = 2.0;
const CA_RATIO: f64 = 1.2;

#[derive(Clone, Debug)]
pub struct Pacer {
    cfg: PacingParams,
    /// Packets and wire bytes sent in the current quantum.
    burst: u32,
    burst_bytes: u64,
    /// No new segment before this time.
    release: SimTime,
    /// A release timer is pending.
    pub armed: bool,
}

impl Pacer {
    pub fn new(cfg: PacingParams) -> Self {
        Pacer { cfg, burst: 0, burst_bytes: 0, release: SimTime::ZERO, armed: false }
    }

    /// The rate in bit/s: the fixed one, the congestion control's, or Linux's default from
    /// cwnd (packets), ssthresh (packets), srtt and the packet's wire size; None: unpaced.
    pub fn rate(
        &self,
        cc_rate: Option<f64>,
        cwnd: f64,
        ssthresh: f64,
        srtt: Dur,
        packet_bytes: u64,
    ) -> Option<f64> {
        self.cfg.rate.or(cc_rate).or_else(|| {
            let srtt = srtt.as_secs_f64();
            let ratio = if cwnd < ssthresh / 2.0 { SS_RATIO } else { CA_RATIO };
            (srtt > 0.0).then(|| ratio * cwnd * packet_bytes as f64 * 8.0 / srtt)
        })
    }

    /// Whether a new segment must wait; if so, the time it may leave.
    pub fn hold(&self, now: SimTime) -> Option<SimTime> {
        (now < self.release).then_some(self.release)
    }

    /// A segment of `bytes` left at `now` at `rate` bit/s (None: unpaced, nothing held).
    pub fn sent(&mut self, now: SimTime, bytes: u64, rate: Option<f64>) {
        self.burst += 1;
        self.burst_bytes += bytes;
        if self.burst >= self.cfg.quantum {
            if let Some(r) = rate.filter(|r| *r > 0.0) {
                self.release =
                    now.max(self.release) + Dur::from_secs_f64(self.burst_bytes as f64 * 8.0 / r);
            }
            self.burst = 0;
            self.burst_bytes = 0;
        }
    }
}

#[cfg(test)]
mod tests;
