//! RACK, time-based loss detection, RFC 8985 §6 (in packets: a segment's end_seq is its
//! sequence number + 1). A packet is lost when a packet sent sufficiently later has been
//! delivered: "sufficiently" is the reordering window, RACK.reo_wnd.
//!
//! - §6.2 step 1: RACK.min_RTT, the minimum RTT sample (nsim keeps the minimum over the
//!   connection, where the RFC allows a windowed minimum).
//! - §6.2 step 2 (RACK_update): for each newly delivered packet, RACK.rtt = now - xmit_ts, and
//!   RACK.xmit_ts / RACK.end_seq follow the most recently sent delivered packet
//!   (RACK_sent_after). A retransmitted packet whose RTT is below min_RTT is ignored: its ACK is
//!   probably for the original transmission.
//! - §6.2 step 3 (RACK_detect_reordering): a delivered, never retransmitted packet below
//!   RACK.fack (the highest end_seq delivered) means reordering was seen.
//! - §6.2 step 4 (RACK_update_reo_wnd): 0 before any reordering is seen when in recovery or
//!   when at least DupThresh packets are SACKed, else min(reo_wnd_mult · min_RTT / 4, SRTT).
//!   nsim's receivers send no DSACK (RFC 2883), so reo_wnd_mult stays 1: the RFC's adaptive
//!   growth of the window per DSACK round is not modelled (static window).
//! - §6.2 step 5 (RACK_detect_loss): each packet not delivered and sent before RACK.xmit_ts is
//!   lost once xmit_ts + RACK.rtt + reo_wnd ≤ now; else the RACK reorder timer must fire at the
//!   latest such deadline (returned as `remaining`).

use crate::time::{Dur, SimTime};

pub mod send_times;

/// RACK's per-connection state (RFC 8985 §5.2, §6.1).
#[derive(Clone, Copy, Debug, Default)]
pub struct Rack {
    /// Send time of the most recently sent packet delivered so far (RACK.xmit_ts).
    pub xmit_ts: SimTime,
    /// Its end sequence number, packets (RACK.end_seq; 0 = nothing delivered yet).
    pub end_seq: i64,
    /// RTT of that packet (RACK.rtt).
    pub rtt: Dur,
    /// Minimum RTT sample (RACK.min_RTT); None before the first.
    pub min_rtt: Option<Dur>,
    /// Highest end_seq delivered (RACK.fack).
    pub fack: i64,
    /// Delivered packets were seen out of order (RACK.reordering_seen).
    pub reordering_seen: bool,
}

/// One packet delivered by an ACK, as RACK sees it.
#[derive(Clone, Copy, Debug)]
pub struct Delivered {
    pub seq: i64,
    /// Its last transmission time.
    pub xmit_ts: SimTime,
    pub retransmitted: bool,
}

/// RACK_sent_after(t1, seq1, t2, seq2) (§6.2 step 2): packet 1 was sent after packet 2.
pub fn sent_after(t1: SimTime, seq1: i64, t2: SimTime, seq2: i64) -> bool {
    t1 > t2 || (t1 == t2 && seq1 > seq2)
}

impl Rack {
    /// Steps 1-3 for the packets one ACK newly delivered (cumulatively or by SACK), in
    /// ascending sequence order.
    pub fn on_delivered(&mut self, now: SimTime, delivered: &[Delivered]) {
        // Step 3, in ascending end_seq order.
        for d in delivered {
            if d.seq + 1 < self.fack && !d.retransmitted {
                self.reordering_seen = true;
            }
            self.fack = self.fack.max(d.seq + 1);
        }
        // Steps 1-2: RACK.rtt ends as the RTT of the latest-sent packet processed, which is
        // the one RACK.xmit_ts moves to when it moves.
        let mut latest: Option<(SimTime, i64, Dur)> = None;
        for d in delivered {
            let rtt = now.since(d.xmit_ts);
            if d.retransmitted && self.min_rtt.is_some_and(|m| rtt < m) {
                continue;
            }
            self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
            if latest.is_none_or(|(t, s, _)| sent_after(d.xmit_ts, d.seq + 1, t, s)) {
                latest = Some((d.xmit_ts, d.seq + 1, rtt));
            }
        }
        if let Some((t, end_seq, rtt)) = latest {
            self.rtt = rtt;
            if sent_after(t, end_seq, self.xmit_ts, self.end_seq) {
                (self.xmit_ts, self.end_seq) = (t, end_seq);
            }
        }
    }

    /// Step 4: the reordering window, given whether the sender is in (fast or RTO) recovery,
    /// how many packets are SACKed, DupThresh and SRTT.
    pub fn reo_wnd(&self, in_recovery: bool, sacked: u32, dupthresh: u32, srtt: Dur) -> Dur {
        if !self.reordering_seen && (in_recovery || sacked >= dupthresh) {
            return Dur::ZERO;
        }
        let quarter = Dur(self.min_rtt.unwrap_or(Dur::ZERO).0 / 4);
        quarter.min(srtt)
    }

    /// Step 5 for one packet not delivered, sent at `xmit_ts`: lost now (None), or the time
    /// still to wait before it is (Some; Dur::ZERO when it was sent after RACK.xmit_ts and
    /// cannot be judged yet).
    pub fn remaining(&self, now: SimTime, seq: i64, xmit_ts: SimTime, reo_wnd: Dur) -> Option<Dur> {
        if self.end_seq == 0 || !sent_after(self.xmit_ts, self.end_seq, xmit_ts, seq + 1) {
            return Some(Dur::ZERO);
        }
        let deadline = xmit_ts + self.rtt + reo_wnd;
        (deadline > now).then(|| deadline.since(now))
    }
}

#[cfg(test)]
mod tests;
