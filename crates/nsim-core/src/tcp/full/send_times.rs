//! Per-ACK RTT samples for congestion controls that read one on every new ACK: CUBIC's
//! smoothed RTT (RFC 9438 §4.4) and HyStart++'s round minima, which need N_RTT_SAMPLE = 8
//! samples a round (RFC 9406 §4.2). ns-2 FullTcp times one segment per round trip
//! (`rtt_active_`), which the RTO estimator keeps; this keeps the send time of every segment
//! in flight instead, and a new cumulative ACK samples the time since the most recently sent
//! segment it newly acknowledges (Linux `tcp_clean_rtx_queue`: `ca_rtt_us` from `last_ackt`).
//! Karn's rule (RFC 6298 §3): an ACK that covers a retransmitted segment gives no sample
//! (Linux without timestamps: `FLAG_RETRANS_DATA_ACKED`). Only `cc = "cubic"` keeps it.

use std::collections::VecDeque;

use crate::time::{Dur, SimTime};

/// One segment in flight: the end of its sequence range (its start is the previous one's end)
/// and when it was last sent.
#[derive(Clone, Copy, Debug)]
struct Sent {
    end: u64,
    at: SimTime,
    retransmitted: bool,
}

/// The send times of the segments in flight, in sequence order.
#[derive(Clone, Debug, Default)]
pub struct SendTimes {
    sent: VecDeque<Sent>,
}

impl SendTimes {
    /// Segment `[seq, end)` left at `at`, with `snd_max` the highest sequence number sent before
    /// it: what lies below `snd_max` is a retransmission, which makes its segments ambiguous.
    pub fn sent(&mut self, seq: u64, end: u64, snd_max: u64, at: SimTime) {
        let retransmitted = seq < snd_max;
        if retransmitted {
            let first = self.sent.partition_point(|s| s.end <= seq);
            for s in self.sent.range_mut(first..) {
                s.retransmitted = true;
                if s.end >= end {
                    break;
                }
            }
        }
        if end > snd_max {
            self.sent.push_back(Sent { end, at, retransmitted });
        }
    }

    /// A cumulative ACK of everything below `ack` at `now`: the RTT of the last segment it
    /// newly acknowledges, None if it covers no whole segment or a retransmitted one.
    pub fn acked(&mut self, ack: u64, now: SimTime) -> Option<Dur> {
        let (mut last, mut ambiguous) = (None, false);
        while let Some(s) = self.sent.front().filter(|s| s.end <= ack) {
            ambiguous |= s.retransmitted;
            last = Some(s.at);
            self.sent.pop_front();
        }
        last.filter(|_| !ambiguous).map(|at| now.since(at))
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
