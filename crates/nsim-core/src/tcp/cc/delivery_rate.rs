//! Delivery-rate sampling (draft-cheng-iccrg-delivery-rate-estimation-00, as BBR v1 uses it:
//! draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.1.1; draft-ietf-ccwg-bbr-06 §4.1 for
//! BBRv3), counted in packets. Shared by [`super::bbr`] and [`super::bbr3`].
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
//!
//! Loss marking ([`DeliveryRate::track_losses`], both BBR versions): the sampler marks
//! segments lost itself from the SACK scoreboard it already keeps, by RFC 6675 §4 `IsLost`: a
//! segment not SACKed with DupThresh (3) SACKed segments above it is lost; after a timeout
//! every outstanding segment not SACKed is (as Linux `tcp_enter_loss`). A sender that detects
//! losses by time (RACK) also reports its marks, lost retransmissions included
//! ([`DeliveryRate::mark_lost_by_sender`]), as Linux's BBR sees RACK's. Each packet
//! remembers C.lost and the flight (pipe, RFC 6675 §2) when it was sent (P.lost,
//! P.tx_in_flight: draft-ietf-ccwg-bbr-06 §2.3), so a sample says how much was lost while it
//! was in flight (RS.lost) and what was in flight with it (RS.tx_in_flight).

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
    /// Pipe right after it was sent (P.tx_in_flight) and C.lost then (P.lost).
    tx_in_flight: u64,
    lost_before: u64,
    /// Marked lost and not sent again since.
    lost: bool,
}

/// RFC 6675 §2 DupThresh: SACKed segments above a hole that make it lost.
const DUP_THRESH: u32 = 3;

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
    /// Packets delivered while the sampled packet was in flight (RS.delivered).
    pub delivered: u64,
    /// Pipe when the sampled packet was sent (RS.tx_in_flight).
    pub tx_in_flight: u64,
    /// Packets marked lost while the sampled packet was in flight (RS.lost).
    pub lost: u64,
    /// Packets this ACK newly marked lost (RS.newly_lost); 0 unless losses are tracked.
    pub newly_lost: u64,
    /// The first of those at which the loss rate since its send crossed the threshold.
    pub loss_too_high: Option<LostPacket>,
}

/// A packet just marked lost, as draft-ietf-ccwg-bbr-06 §5.5.10.2 `HandleLostPacket` sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LostPacket {
    /// Pipe when it was sent (P.tx_in_flight).
    pub tx_in_flight: u64,
    /// Packets marked lost since it was sent, itself included (C.lost − P.lost).
    pub lost: u64,
    pub app_limited: bool,
}

/// What one round of loss marking found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Losses {
    pub newly_lost: u64,
    pub too_high: Option<LostPacket>,
}

impl Losses {
    /// Adds losses marked before these; the earlier too-high packet stays first.
    fn merge(&mut self, earlier: Losses) {
        self.newly_lost += earlier.newly_lost;
        self.too_high = earlier.too_high.or(self.too_high);
    }
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
    /// Mark losses (BBRv3); `loss_thresh` is the loss rate a [`LostPacket`] is reported at.
    pub track_losses: bool,
    pub loss_thresh: f64,
    /// Packets marked lost so far (C.lost), and those not yet sent again or delivered.
    pub lost: u64,
    lost_out: u64,
    /// Highest sequence number sent and highest SACKed.
    maxseq: i64,
    highest_sacked: i64,
    /// Segments below this have been classified by the loss rule already.
    lost_scan: i64,
    /// Losses the sender's own loss detection marked since the last sample
    /// ([`DeliveryRate::mark_lost_by_sender`]), reported with the next one.
    pending: Losses,
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
            track_losses: false,
            loss_thresh: 0.0,
            lost: 0,
            lost_out: 0,
            maxseq: -1,
            highest_sacked: -1,
            lost_scan: 0,
            pending: Losses::default(),
        }
    }

    /// Segments sent and neither delivered nor marked lost (RFC 6675 §2 pipe, C.inflight).
    pub fn pipe(&self) -> u64 {
        ((self.maxseq - self.acked).max(0) as u64).saturating_sub(self.sacked_out + self.lost_out)
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
        let same = self.ring[i].seq == seq;
        let sacked = same && self.ring[i].sacked;
        if same && self.ring[i].lost {
            self.lost_out -= 1;
        }
        self.maxseq = self.maxseq.max(seq);
        self.ring[i] = Sent {
            seq,
            sent: now,
            delivered: self.delivered,
            delivered_time: self.delivered_time,
            first_sent: self.first_sent_time,
            app_limited: self.app_limited != 0,
            retransmitted: retransmit,
            sacked,
            tx_in_flight: 0,
            lost_before: self.lost,
            lost: false,
        };
        self.ring[i].tx_in_flight = self.pipe();
    }

    /// Whether the connection is marked application-limited (C.app_limited ≠ 0).
    pub fn app_limited(&self) -> bool {
        self.app_limited != 0
    }

    /// The sender ran out of data with `in_flight` outstanding (§3.4).
    pub fn mark_app_limited(&mut self, in_flight: u64) {
        self.app_limited = (self.delivered + in_flight).max(1);
    }

    /// An ACK up to `ack` with SACK blocks `sack` ([start, end)) at `now` (§3.3); None if
    /// it delivers nothing new. `min_rtt`: samples over a shorter interval are discarded.
    pub fn on_ack(
        &mut self,
        ack: i64,
        sack: &[(u64, u64)],
        now: SimTime,
        min_rtt: Option<Dur>,
    ) -> Option<RateSample> {
        let mut best: Option<Sent> = None;
        let mut newly = 0u64;
        for seq in self.acked + 1..=ack {
            let p = self.ring[self.slot(seq)];
            if p.seq == seq && p.lost {
                self.lost_out -= 1;
            }
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
                    if p.lost {
                        p.lost = false;
                        self.lost_out -= 1;
                    }
                    self.sacked_out += 1;
                    newly += 1;
                    self.highest_sacked = self.highest_sacked.max(seq);
                    latest(&mut best, *p);
                }
            }
        }
        if newly == 0 {
            return None;
        }
        let mut losses =
            if self.track_losses { self.mark_sack_losses() } else { Losses::default() };
        losses.merge(std::mem::take(&mut self.pending));
        self.delivered += newly;
        self.delivered_time = now;
        if self.app_limited != 0 && self.delivered > self.app_limited {
            self.app_limited = 0;
        }
        let Some(p) = best else {
            let prior_delivered = self.delivered - newly;
            return Some(RateSample {
                rate: None,
                newly_delivered: newly,
                prior_delivered,
                app_limited: false,
                rtt: None,
                delivered: newly,
                tx_in_flight: 0,
                lost: 0,
                newly_lost: losses.newly_lost,
                loss_too_high: losses.too_high,
            });
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
            delivered,
            tx_in_flight: p.tx_in_flight,
            lost: self.lost - p.lost_before,
            newly_lost: losses.newly_lost,
            loss_too_high: losses.too_high,
        })
    }

    /// RFC 6675 §4 `IsLost` over the segments not yet classified: those below the third
    /// highest SACKed segment (found walking down from the highest) that are not SACKed.
    fn mark_sack_losses(&mut self) -> Losses {
        let floor = self.lost_scan.max(self.acked + 1);
        let (mut seq, mut above) = (self.highest_sacked, 0);
        while seq >= floor {
            let p = self.ring[self.slot(seq)];
            if p.seq == seq && p.sacked {
                above += 1;
                if above == DUP_THRESH {
                    break;
                }
            }
            seq -= 1;
        }
        if above < DUP_THRESH {
            return Losses::default();
        }
        self.mark_lost(floor, seq)
    }

    /// A retransmission timeout: every outstanding segment not SACKed is lost.
    pub fn mark_outstanding_lost(&mut self) -> Losses {
        self.mark_lost(self.acked + 1, self.maxseq + 1)
    }

    /// Marks the segments in [from, to) neither SACKed nor already lost.
    fn mark_lost(&mut self, from: i64, to: i64) -> Losses {
        let mut out = Losses::default();
        for seq in from..to {
            self.mark_one_lost(seq, &mut out);
        }
        self.lost_scan = self.lost_scan.max(to);
        out
    }

    /// The sender's loss detection (RACK, RFC 8985 §6.2) marked `seq` lost, a retransmission
    /// included: as Linux `tcp_mark_skb_lost`, it leaves the pipe until it is sent again. The
    /// RFC 6675 rule above marks each segment once and never sees a lost retransmission, which
    /// would then count as in flight until the cumulative ACK passed it. Reported with the
    /// next sample; nothing unless losses are tracked.
    pub fn mark_lost_by_sender(&mut self, seq: i64) {
        if self.track_losses && seq > self.acked {
            let mut pending = self.pending;
            self.mark_one_lost(seq, &mut pending);
            self.pending = pending;
        }
    }

    fn mark_one_lost(&mut self, seq: i64, out: &mut Losses) {
        let i = self.slot(seq);
        let p = &mut self.ring[i];
        if p.seq != seq || p.sacked || p.lost {
            return;
        }
        p.lost = true;
        self.lost += 1;
        self.lost_out += 1;
        out.newly_lost += 1;
        let lost = self.lost - p.lost_before;
        if out.too_high.is_none() && lost as f64 > p.tx_in_flight as f64 * self.loss_thresh {
            out.too_high =
                Some(LostPacket { tx_in_flight: p.tx_in_flight, lost, app_limited: p.app_limited });
        }
    }
}

/// Keeps in `best` the most recently sent of the packets delivered (largest delivered count
/// at send, then latest send time; draft-cheng §3.3).
fn latest(best: &mut Option<Sent>, p: Sent) {
    if best.is_none_or(|b| (p.delivered, p.sent) >= (b.delivered, b.sent)) {
        *best = Some(p);
    }
}
