//! Per-ACK RTT samples for congestion controls that read one on every new ACK: CUBIC's
//! smoothed RTT (RFC 9438 §4.4) and HyStart++'s round minima, which need N_RTT_SAMPLE = 8
//! samples a round (RFC 9406 §4.2). ns-2 FullTcp times one segment per round trip
//! (`rtt_active_`), which the RTO estimator keeps; this keeps the send time of every segment
//! in flight instead, and a new cumulative ACK samples the time since the most recently sent
//! segment it newly acknowledges (Linux `tcp_clean_rtx_queue`: `ca_rtt_us` from `last_ackt`).
//! Karn's rule (RFC 6298 §3): an ACK that covers a retransmitted segment gives no sample
//! (Linux without timestamps: `FLAG_RETRANS_DATA_ACKED`). Only `cc = "cubic"` and
//! `loss_detection = "rack"` keep it.
//!
//! It is also RACK's per-segment state (RFC 8985 §6.1, [`super::rack_tlp`]): each segment's
//! last transmission time (Segment.xmit_ts), whether it was retransmitted, SACKed, or marked
//! lost; the scans RACK needs walk the segments in flight (at most one per MSS of the window).

use std::collections::VecDeque;

use crate::tcp::recovery::rack::Delivered;
use crate::time::{Dur, SimTime};

/// One segment in flight: the end of its sequence range (its start is the previous one's end)
/// and when it was last sent.
#[derive(Clone, Copy, Debug)]
struct Sent {
    end: u64,
    at: SimTime,
    retransmitted: bool,
    /// Covered by a SACK block (RACK only).
    sacked: bool,
    /// Marked lost by RACK and not sent again since.
    lost: bool,
}

/// The send times of the segments in flight, in sequence order.
#[derive(Clone, Debug, Default)]
pub struct SendTimes {
    sent: VecDeque<Sent>,
    /// Segments in `sent` SACKed.
    sacked: u32,
}

impl SendTimes {
    /// Segment `[seq, end)` left at `at`, with `snd_max` the highest sequence number sent before
    /// it: what lies below `snd_max` is a retransmission, which makes its segments ambiguous.
    pub fn sent(&mut self, seq: u64, end: u64, snd_max: u64, at: SimTime) {
        let retransmitted = seq < snd_max;
        if retransmitted {
            let first = self.sent.partition_point(|s| s.end <= seq);
            for s in self.sent.range_mut(first..) {
                (s.retransmitted, s.at, s.lost) = (true, at, false);
                if s.end >= end {
                    break;
                }
            }
        }
        if end > snd_max {
            self.sent.push_back(Sent { end, at, retransmitted, sacked: false, lost: false });
        }
    }

    /// A cumulative ACK of everything below `ack` at `now`: the RTT of the last segment it
    /// newly acknowledges, None if it covers no whole segment or a retransmitted one.
    pub fn acked(&mut self, ack: u64, now: SimTime) -> Option<Dur> {
        let (mut last, mut ambiguous) = (None, false);
        while let Some(s) = self.sent.front().filter(|s| s.end <= ack) {
            ambiguous |= s.retransmitted;
            last = Some(s.at);
            self.sacked -= u32::from(s.sacked);
            self.sent.pop_front();
        }
        last.filter(|_| !ambiguous).map(|at| now.since(at))
    }

    /// The segments that a cumulative ACK `ack` and SACK `blocks` newly deliver, into `out` in
    /// sequence order, as RACK sees them (`seq` = the segment's last sequence number, so that
    /// RFC 8985's end_seq is its end); the SACKed ones are marked. A block covers a segment
    /// that carries data and the FIN at `fin` once it covers the data (a receiver's SACK blocks
    /// hold data only) until the cumulative ACK reaches the FIN. Scans the segments below `ack` and those inside the blocks only.
    pub fn deliver(
        &mut self,
        ack: u64,
        blocks: &[(u64, u64)],
        fin: Option<u64>,
        out: &mut Vec<Delivered>,
    ) {
        out.clear();
        let seen = |s: &Sent| Delivered {
            seq: s.end as i64 - 1,
            xmit_ts: s.at,
            retransmitted: s.retransmitted,
        };
        let mut k = 0;
        while let Some(s) = self.sent.get(k).filter(|s| s.end <= ack) {
            if !s.sacked {
                out.push(seen(s));
            }
            k += 1;
        }
        // Its data acknowledged, a SACKed segment with the FIN stands for the FIN alone, which the
        // receiver may not hold (an out-of-order FIN is not kept): RACK judges it again.
        if let Some(s) =
            self.sent.get_mut(k).filter(|s| s.sacked && fin == Some(ack) && s.end == ack + 1)
        {
            s.sacked = false;
            self.sacked -= 1;
        }
        for &(l, r) in blocks {
            let first = self.sent.partition_point(|s| s.end <= l);
            let mut start = if first == 0 { 0 } else { self.sent[first - 1].end };
            for s in self.sent.range_mut(first..) {
                let data_end = if fin.is_some_and(|f| s.end == f + 1 && f > start) {
                    s.end - 1
                } else {
                    s.end
                };
                if data_end > r {
                    break;
                }
                if start >= l && s.end > ack && !s.sacked {
                    s.sacked = true;
                    self.sacked += 1;
                    out.push(seen(s));
                }
                start = s.end;
            }
        }
        out.sort_unstable_by_key(|d| d.seq);
    }

    /// Segments SACKed and still above the cumulative ACK.
    pub fn sacked(&self) -> u32 {
        self.sacked
    }

    /// RFC 8985 §6.2 step 5 over the segments not SACKed nor already marked: `remaining`
    /// (RACK's rule for a segment's last sequence number and send time) says lost (None: the
    /// segment is marked) or how long to wait. Returns whether any was marked and the longest
    /// wait.
    pub fn mark_lost(
        &mut self,
        mut remaining: impl FnMut(i64, SimTime) -> Option<Dur>,
    ) -> (bool, Dur) {
        let (mut marked, mut wait) = (false, Dur::ZERO);
        for s in self.sent.iter_mut().filter(|s| !s.sacked && !s.lost) {
            match remaining(s.end as i64 - 1, s.at) {
                None => (s.lost, marked) = (true, true),
                Some(w) => wait = wait.max(w),
            }
        }
        (marked, wait)
    }

    /// The first segment marked lost, `[start, end)`, its start no lower than `una`.
    pub fn first_lost(&self, una: u64) -> Option<(u64, u64)> {
        let k = self.sent.iter().position(|s| s.lost)?;
        let start = if k == 0 { una } else { self.sent[k - 1].end.max(una) };
        Some((start, self.sent[k].end))
    }

    /// Bytes in the network by RACK's marks (RFC 6675 SetPipe() with RACK deciding IsLost(),
    /// Linux `tcp_packets_in_flight`): the segments neither SACKed nor marked lost; a
    /// retransmitted segment counts once.
    pub fn in_flight(&self, una: u64) -> u64 {
        let mut start = una;
        let mut bytes = 0;
        for s in &self.sent {
            if !s.sacked && !s.lost {
                bytes += s.end.saturating_sub(start.max(una));
            }
            start = s.end;
        }
        bytes
    }

    /// The last segment sent, `[start, end)` (TLP's probe when no new data may go).
    pub fn last(&self, una: u64) -> Option<(u64, u64)> {
        let n = self.sent.len();
        let end = self.sent.back()?.end;
        let start = if n >= 2 { self.sent[n - 2].end } else { una };
        Some((start.max(una), end))
    }

    /// A retransmission timeout: the SACK information is forgotten (as the scoreboard's) and
    /// RACK's marks too (go-back-N resends everything).
    pub fn forget_marks(&mut self) {
        for s in &mut self.sent {
            (s.sacked, s.lost) = (false, false);
        }
        self.sacked = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(t: u64) -> SimTime {
        SimTime::ZERO + Dur::from_millis(t)
    }

    /// A delayed ACK of two segments samples the later one (Linux's `ca_rtt_us`); an ACK
    /// inside a segment samples nothing and keeps it.
    #[test]
    fn an_ack_samples_the_last_segment_it_covers() {
        let mut t = SendTimes::default();
        t.sent(1, 1001, 1, ms(0));
        t.sent(1001, 2001, 1001, ms(5));
        t.sent(2001, 3001, 2001, ms(10));
        assert_eq!(t.acked(2001, ms(105)), Some(Dur::from_millis(100)));
        assert_eq!(t.acked(2500, ms(108)), None);
        assert_eq!(t.acked(3001, ms(112)), Some(Dur::from_millis(102)));
    }

    /// RACK's view (RFC 8985 §6.1-6.2): a SACK block delivers the segments wholly inside it, once;
    /// the cumulative ACK those below it not SACKed before (the connection then drops them,
    /// `acked`); pipe counts what is neither SACKed
    /// nor marked lost; a segment marked lost counts again once resent.
    #[test]
    fn rack_sees_each_segment_delivered_once_and_pipe_by_its_marks() {
        let mut t = SendTimes::default();
        for k in 0..5 {
            t.sent(1 + 1000 * k, 1001 + 1000 * k, 1 + 1000 * k, ms(k));
        }
        let mut out = Vec::new();
        // Segment 2 (bytes 1001-2001) lost; 3 and 4 SACKed, one block reaching into 5.
        t.deliver(1001, &[(2001, 4001), (4001, 4500)], None, &mut out);
        let seqs: Vec<i64> = out.iter().map(|d| d.seq).collect();
        assert_eq!(
            seqs,
            [1000, 3000, 4000],
            "segment 1 by the ACK, 3 and 4 by the block; 5 is not wholly SACKed"
        );
        assert_eq!(t.sacked(), 2);
        t.acked(1001, ms(45));
        t.deliver(1001, &[(2001, 4001)], None, &mut out);
        assert!(out.is_empty(), "delivered once");
        assert_eq!(t.in_flight(1001), 2000, "segments 2 and 5");
        let (marked, _) = t.mark_lost(|seq, _| if seq == 2000 { None } else { Some(Dur::ZERO) });
        assert!(marked);
        assert_eq!((t.first_lost(1001), t.in_flight(1001)), (Some((1001, 2001)), 1000));
        t.sent(1001, 2001, 5001, ms(50));
        assert_eq!((t.first_lost(1001), t.in_flight(1001)), (None, 2000));
        t.acked(4001, ms(90));
        assert_eq!(t.sacked(), 0);
    }

    /// A segment with data and the FIN (bytes 1001-2001, FIN at 2001) is SACKed once its data is
    /// (the receiver's blocks hold data only), and stands for the FIN alone, not SACKed, once
    /// the cumulative ACK reaches the FIN: an out-of-order FIN is not kept by the receiver.
    #[test]
    fn a_segment_with_the_fin_is_sacked_by_its_data() {
        let mut t = SendTimes::default();
        t.sent(1, 1001, 1, ms(0));
        t.sent(1001, 2002, 1001, ms(1));
        let mut out = Vec::new();
        t.deliver(1, &[(1001, 2001)], Some(2001), &mut out);
        assert_eq!((out.len(), t.sacked()), (1, 1));
        t.acked(2001, ms(50));
        t.deliver(2001, &[], Some(2001), &mut out);
        assert_eq!((t.sacked(), t.in_flight(2001)), (0, 1), "the FIN is in flight again");
        assert_eq!(t.last(2001), Some((2001, 2002)));
    }

    /// Karn's rule (RFC 6298 §3): after a retransmission of the first segment, the ACK that
    /// covers it gives no sample, the next one (new data only) does.
    #[test]
    fn an_ack_covering_a_retransmission_gives_no_sample() {
        let mut t = SendTimes::default();
        for k in 0..4 {
            t.sent(1 + 1000 * k, 1001 + 1000 * k, 1 + 1000 * k, ms(k));
        }
        t.sent(1001, 2001, 4001, ms(200));
        t.sent(4001, 5001, 4001, ms(201));
        assert_eq!(t.acked(4001, ms(300)), None);
        assert_eq!(t.acked(5001, ms(302)), Some(Dur::from_millis(101)));
    }
}
