//! Vegas' per-segment send record (ns-2.35 `VegasTcpAgent::v_sendtime_` / `v_transmits_`,
//! Brakmo, O'Malley & Peterson 1994 §3.1): when each outstanding segment was last sent and how
//! many times, in a ring of `window` slots indexed by sequence number modulo `window`, as ns-2
//! sizes it (`v_maxwnd_ = wnd_`). Allocated once when the sender is built.

use crate::time::{Dur, SimTime};

#[derive(Clone, Debug)]
pub struct SendLog {
    /// When segment 0 was last sent while it was the next to send (ns-2 `firstsent_`, set by
    /// `send_much` while `t_seqno_ == 0`): ns-2's Vegas clock (`vegastime()`) starts there.
    first_sent: SimTime,
    /// Last transmission of the segment in each slot; None once acknowledged or never sent
    /// (ns-2's -1).
    sent: Box<[Option<SimTime>]>,
    /// Transmissions of the segment in each slot (0 once acknowledged).
    transmits: Box<[u32]>,
}

impl SendLog {
    pub fn new(window: u32) -> Self {
        let n = window.max(1) as usize;
        SendLog {
            first_sent: SimTime::ZERO,
            sent: vec![None; n].into_boxed_slice(),
            transmits: vec![0; n].into_boxed_slice(),
        }
    }

    fn slot(&self, seq: i64) -> usize {
        seq.rem_euclid(self.sent.len() as i64) as usize
    }

    /// ns-2's Vegas clock: seconds since the first segment was sent (`vegastime()`).
    pub fn clock(&self, now: SimTime) -> f64 {
        now.since(self.first_sent).as_secs_f64()
    }

    /// Segment `seq` leaves now; `first` when it is segment 0 sent as the next new segment.
    pub fn record(&mut self, seq: i64, now: SimTime, first: bool) {
        if first {
            self.first_sent = now;
        }
        let k = self.slot(seq);
        self.sent[k] = Some(now);
        self.transmits[k] += 1;
    }

    /// Transmissions of `seq` so far.
    pub fn transmits(&self, seq: i64) -> u32 {
        self.transmits[self.slot(seq)]
    }

    /// Seconds since `seq` was last sent. A slot without a send time counts as sent one second
    /// before the Vegas clock started (ns-2 stores -1), so it has always expired.
    pub fn elapsed(&self, seq: i64, now: SimTime) -> f64 {
        match self.sent[self.slot(seq)] {
            Some(t) => self.clock(now) - self.clock(t),
            None => self.clock(now) + 1.0,
        }
    }

    /// Whether `seq` was last sent after `t` seconds on the Vegas clock (ns-2
    /// `t_cwnd_changed_ < sendTime`; a slot without a send time is at -1, before any `t`).
    pub fn sent_after(&self, seq: i64, t: f64) -> bool {
        self.sent[self.slot(seq)].is_some_and(|s| self.clock(s) > t)
    }

    /// The RTT sample an ACK of `ack` gives: the time since `ack` was sent, if it was sent
    /// once (Karn), and not at the clock's start (ns-2 skips `sendTime == 0`, the first
    /// segment) unless `first_ok`.
    pub fn rtt(&self, ack: i64, now: SimTime, first_ok: bool) -> Option<Dur> {
        let k = self.slot(ack);
        let sent = self.sent[k]?;
        (self.transmits[k] == 1 && (first_ok || sent != self.first_sent)).then(|| now.since(sent))
    }

    /// Forgets segments `oldack + 1 ..= ack`, now acknowledged. As ns-2.35 walks the slots
    /// upward without wrapping, a range that wraps past the ring's end is not cleared: the
    /// next segments in those slots then count an extra transmission (no RTT sample, and a
    /// halving rather than 3/4 if they are retransmitted), as in ns-2.
    pub fn clear_acked(&mut self, oldack: i64, ack: i64) {
        if ack <= oldack {
            return;
        }
        let (from, to) = (self.slot(oldack + 1), self.slot(ack));
        if from <= to {
            let n = ((ack - oldack) as usize).min(to - from + 1);
            for k in from..from + n {
                self.sent[k] = None;
                self.transmits[k] = 0;
            }
        }
    }
}
