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
//! A packet counts as delivered once, when first SACKed or cumulatively acknowledged (as
//! Linux `tcp_rate_skb_delivered` on SACK); counting SACKed packets only when a cumulative
//! ACK passes them would credit a whole recovered window to one round trip. Per-packet state
//! is kept in a ring indexed by sequence number, allocated once; a slot overwritten by a later
//! sequence number gives no sample.

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
    sacked: bool,
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
    /// Packets above `acked` already SACKed (counted as delivered).
    pub sacked_out: u64,
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
            sacked_out: 0,
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
        // A go-back-N resend (after a timeout) of a packet already SACKed stays delivered.
        let sacked = self.ring[i].seq == seq && self.ring[i].sacked;
        self.ring[i] = Sent {
            seq,
            sent: now,
            delivered: self.delivered,
            delivered_time: self.delivered_time,
            first_sent: self.first_sent_time,
            app_limited: self.app_limited != 0,
            retransmitted: retransmit,
            sacked,
        };
    }

    /// The sender ran out of data with `in_flight` outstanding (§3.4).
    pub fn mark_app_limited(&mut self, in_flight: u64) {
        self.app_limited = (self.delivered + in_flight).max(1);
    }

    /// An ACK up to `ack` with SACK blocks `sack` ([start, end)) at `now` (§3.3); None if
    /// it delivers nothing new. `min_rtt`: samples over a shorter interval are discarded.
    pub fn on_ack(&mut self, ack: i64, sack: &[(u64, u64)], now: SimTime, min_rtt: Option<Dur>) -> Option<RateSample> {
        let mut best: Option<Sent> = None;
        let mut newly = 0u64;
        for seq in self.acked + 1..=ack {
            let p = self.ring[self.slot(seq)];
            match (p.seq == seq, p.sacked) {
                (true, true) => self.sacked_out -= 1,
                (true, false) => {
                    newly += 1;
                    latest(&mut best, p);
                }
                (false, _) => newly += 1,
            }
        }
        self.acked = self.acked.max(ack);
        for &(l, r) in sack {
            for seq in (l as i64).max(self.acked + 1)..r as i64 {
                let i = self.slot(seq);
                let p = &mut self.ring[i];
                if p.seq == seq && !p.sacked {
                    p.sacked = true;
                    self.sacked_out += 1;
                    newly += 1;
                    latest(&mut best, *p);
                }
            }
        }
        if newly == 0 {
            return None;
        }
        self.delivered += newly;
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

/// Keeps in `best` the most recently sent of the packets delivered (largest delivered count
/// at send, then latest send time; draft-cheng §3.3).
fn latest(best: &mut Option<Sent>, p: Sent) {
    if best.is_none_or(|b| (p.delivered, p.sent) >= (b.delivered, b.sent)) {
        *best = Some(p);
    }
}
