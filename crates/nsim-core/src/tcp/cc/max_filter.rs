//! A windowed maximum over round trips (BBR's BtlBw filter, draft-cardwell-iccrg-bbr-
//! congestion-control-00 §4.1.1.4: the max of the delivery-rate samples of the last
//! BtlBwFilterLen = 10 rounds). BBRv3 uses it over ProbeBW cycles for BBR.max_bw and over
//! rounds for BBR.extra_acked (draft-ietf-ccwg-bbr-06 §5.5.5, §5.5.9).
//!
//! Exact, not Linux's three-sample approximation (`lib/win_minmax.c`): a monotonic queue of
//! (round, best value of that round), newest last, values decreasing; entries older than the
//! window leave from the front. At most `window + 1` entries, allocated once.

use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct MaxFilter {
    window: u64,
    q: VecDeque<(u64, f64)>,
}

impl MaxFilter {
    /// The max over the last `window` rounds.
    pub fn new(window: u32) -> Self {
        MaxFilter { window: window as u64, q: VecDeque::with_capacity(window as usize + 2) }
    }

    /// From now on, the max over the last `window` rounds.
    pub fn set_window(&mut self, window: u32) {
        self.window = window as u64;
    }

    /// A sample taken in round `round` (rounds never decrease).
    pub fn update(&mut self, round: u64, v: f64) {
        while self.q.back().is_some_and(|&(_, b)| b <= v) {
            self.q.pop_back();
        }
        if self.q.back().is_none_or(|&(r, _)| r != round) {
            self.q.push_back((round, v));
        }
        self.expire(round);
    }

    /// Drops samples from before the last `window` rounds, as seen in round `round`.
    pub fn expire(&mut self, round: u64) {
        while self.q.front().is_some_and(|&(r, _)| r + self.window <= round) {
            self.q.pop_front();
        }
    }

    /// The current maximum (0 before any sample).
    pub fn get(&self) -> f64 {
        self.q.front().map_or(0.0, |&(_, v)| v)
    }
}
