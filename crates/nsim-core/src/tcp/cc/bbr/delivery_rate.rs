//! Delivery-rate sampling (draft-cheng-iccrg-delivery-rate-estimation-00, as BBR v1 uses it:
//! draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.1.1), counted in packets.
//!
//! - §3.2 (transmit): when nothing is in flight, `first_sent_time` and `delivered_time` restart
//!   at now; each packet remembers the connection's `delivered`, `delivered_time`,
//!   `first_sent_time` and whether it was sent while application-limited.
//! - §3.3 (ACK): every newly delivered packet adds one to `delivered` and sets
//!   `delivered_time` = now; the sample is taken from the most recently sent of them
//!   (largest `delivered`, then latest send time): delivered = C.delivered − P.delivered over
//!   interval = max(send_elapsed, ack_elapsed), and `first_sent_time` moves to its send time.
//!   A sample whose interval is shorter than the minimum RTT is discarded (§3.3, ACK
//!   compression).
//! - §3.4 (application-limited): the sender marks `app_limited` = delivered + in flight; the
//!   mark clears once that much is delivered, and samples of packets sent under it say so.
//!
//! nsim's one-way sender counts delivery on cumulative ACKs only (SACKed packets count when
//! the cumulative ACK passes them). Per-packet state is kept in a ring indexed by sequence
//! number, allocated once; a slot overwritten by a later sequence number gives no sample.

use crate::time::{Dur, SimTime};

/// Ring slots: enough for any flight the sender's window allows, at most this many.
const MAX_SLOTS: usize = 1 << 14;

#[derive(Clone, Copy, Debug, Default)]
struct Sent {
    seq: i64,
    sent: SimTime,
    delivered: u64,
    delivered_time: SimTime,
    first_sent: SimTime,
    app_limited: bool,
    retransmitted: bool,
}

/// One ACK's rate sample (draft-cheng §3.3 "rs").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateSample {
    /// Packets delivered over the interval / interval, packets per second; None: no valid
    /// interval (too short, or no packet state).
    pub rate: Option<f64>,
    /// Packets newly delivered by this ACK.
    pub newly_delivered: u64,
    /// C.delivered when the sampled packet was sent (rs.prior_delivered).
    pub prior_delivered: u64,
    /// The sampled packet was sent while application-limited.
    pub app_limited: bool,
    /// RTT of the sampled packet, if it was sent once (Karn).
    pub rtt: Option<Dur>,
}

#[derive(Clone, Debug)]
pub struct DeliveryRate {
    ring: Vec<Sent>,
    /// Packets delivered so far (C.delivered) and when the last was (C.delivered_time).
    pub delivered: u64,
    delivered_time: SimTime,
    first_sent_time: SimTime,
    /// C.app_limited: 0, or the `delivered` count at which the mark clears.
    app_limited: u64,
    /// Highest cumulative ACK seen.
    acked: i64,
}

impl DeliveryRate {
    /// For a sender whose flight never exceeds `window` packets.
    pub fn new(window: u32) -> Self {
        let slots = (window as usize + 1).next_power_of_two().min(MAX_SLOTS);
        DeliveryRate {
            ring: vec![Sent { seq: -1, ..Sent::default() }; slots],
            delivered: 0,
            delivered_time: SimTime::ZERO,
            first_sent_time: SimTime::ZERO,
            app_limited: 0,
            acked: -1,
        }
    }

    fn slot(&self, seq: i64) -> usize {
        seq as usize & (self.ring.len() - 1)
    }

    /// Segment `seq` left at `now` with `in_flight` packets outstanding before it (§3.2).
    pub fn on_sent(&mut self, seq: i64, now: SimTime, in_flight: u64, retransmit: bool) {
        if in_flight == 0 {
            self.first_sent_time = now;
            self.delivered_time = now;
        }
        let i = self.slot(seq);
        self.ring[i] = Sent {
            seq,
            sent: now,
            delivered: self.delivered,
            delivered_time: self.delivered_time,
            first_sent: self.first_sent_time,
            app_limited: self.app_limited != 0,
            retransmitted: retransmit,
        };
    }

    /// The sender ran out of data with `in_flight` outstanding (§3.4).
    pub fn mark_app_limited(&mut self, in_flight: u64) {
        self.app_limited = (self.delivered + in_flight).max(1);
    }

    /// A cumulative ACK up to `ack` at `now` (§3.3); None if it delivers nothing new.
    /// `min_rtt`: samples over a shorter interval are discarded.
    pub fn on_ack(&mut self, ack: i64, now: SimTime, min_rtt: Option<Dur>) -> Option<RateSample> {
        if ack <= self.acked {
            return None;
        }
        let mut best: Option<Sent> = None;
        for seq in self.acked + 1..=ack {
            self.delivered += 1;
            let p = self.ring[self.slot(seq)];
            if p.seq == seq && best.is_none_or(|b| (p.delivered, p.sent) >= (b.delivered, b.sent)) {
                best = Some(p);
            }
        }
        let newly = (ack - self.acked) as u64;
        self.acked = ack;
        self.delivered_time = now;
        if self.app_limited != 0 && self.delivered > self.app_limited {
            self.app_limited = 0;
        }
        let Some(p) = best else {
            return Some(RateSample { rate: None, newly_delivered: newly, prior_delivered: self.delivered - newly, app_limited: false, rtt: None });
        };
        self.first_sent_time = p.sent;
        let send_elapsed = p.sent.since(p.first_sent);
        let ack_elapsed = now.since(p.delivered_time);
        let interval = send_elapsed.max(ack_elapsed);
        let delivered = self.delivered - p.delivered;
        let valid = interval > Dur::ZERO && min_rtt.is_none_or(|m| interval >= m);
        Some(RateSample {
            rate: valid.then(|| delivered as f64 / interval.as_secs_f64()),
            newly_delivered: newly,
            prior_delivered: p.delivered,
            app_limited: p.app_limited,
            rtt: (!p.retransmitted).then(|| now.since(p.sent)),
        })
    }
}
