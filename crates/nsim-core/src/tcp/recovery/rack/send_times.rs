//! RACK's per-segment state (RFC 8985 §6.1): when each outstanding segment was last sent and
//! whether it was ever retransmitted, in a ring of `window + 1` slots indexed by sequence number
//! (the one-way sender never has more than `window` packets outstanding), allocated once when
//! the sender is built: no allocation or hashing per packet. The sender core records every
//! transmission ([`crate::tcp::sender::Conn::output`]); RACK reads them back.

use crate::time::SimTime;

/// One segment's last transmission (RFC 8985 Segment.xmit_ts, Segment.retransmitted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sent {
    pub at: SimTime,
    pub retransmitted: bool,
}

#[derive(Clone, Debug)]
pub struct SendTimes {
    slots: Box<[Sent]>,
}

impl SendTimes {
    pub fn new(window: u32) -> Self {
        SendTimes { slots: vec![Sent::default(); window as usize + 1].into_boxed_slice() }
    }

    fn slot(&self, seq: i64) -> usize {
        seq.rem_euclid(self.slots.len() as i64) as usize
    }

    /// Segment `seq` leaves now; `again` when it was sent before (a retransmission).
    pub fn record(&mut self, seq: i64, now: SimTime, again: bool) {
        let k = self.slot(seq);
        self.slots[k] = Sent { at: now, retransmitted: again };
    }

    /// The last transmission of outstanding segment `seq`.
    pub fn get(&self, seq: i64) -> Sent {
        self.slots[self.slot(seq)]
    }
}
