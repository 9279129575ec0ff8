//! A test bench for the rate-based congestion controls (BBR v1 and BBRv3): a paced,
//! cwnd-limited sender over a lossless FIFO bottleneck of `rate` packets/s with a base round
//! trip of `rtt` ms, so that every ACK arrives `rtt` after its packet left the bottleneck (an
//! analytic path the rules' expected values are computed on). Time advances in 50 µs steps; a
//! packet leaves once in flight < cwnd and the pacing interval (1000 B at the congestion
//! control's pacing rate) since the previous one has passed.

use super::CongestionControl;
use crate::time::{Dur, SimTime};
use std::collections::VecDeque;

pub fn ms(x: f64) -> SimTime {
    SimTime::ZERO + Dur::from_secs_f64(x / 1000.0)
}

pub struct PacedPath<C> {
    pub cc: C,
    rate: f64,
    rtt: f64,
    now: f64,
    /// The next sequence number to send.
    pub next_seq: i64,
    next_send: f64,
    last_departure: f64,
    /// (ACK arrival time ms, sequence number) of the packets in flight.
    acks: VecDeque<(f64, i64)>,
}

impl<C: CongestionControl> PacedPath<C> {
    pub fn new(cc: C, rate: f64, rtt_ms: f64) -> Self {
        PacedPath {
            cc,
            rate,
            rtt: rtt_ms,
            now: 0.0,
            next_seq: 0,
            next_send: 0.0,
            last_departure: 0.0,
            acks: VecDeque::new(),
        }
    }

    pub fn in_flight(&self) -> u64 {
        self.acks.len() as u64
    }

    fn send(&mut self) {
        while (self.in_flight() as f64) < self.cc.cwnd() && self.now >= self.next_send {
            self.cc.on_sent(self.next_seq, ms(self.now), self.in_flight(), false);
            self.last_departure = self.last_departure.max(self.now) + 1000.0 / self.rate;
            self.acks.push_back((self.last_departure + self.rtt, self.next_seq));
            self.next_seq += 1;
            let pacing_rate = self.cc.pacing_rate().expect("a paced congestion control");
            self.next_send = self.next_send.max(self.now - 0.05) + 8000.0 / pacing_rate * 1000.0;
        }
    }

    /// Runs until `until_ms`, calling `after_ack(cc, ACK time in ms)` after every ACK.
    pub fn run(&mut self, until_ms: f64, mut after_ack: impl FnMut(&C, f64)) {
        while self.now < until_ms {
            while let Some(&(t, seq)) = self.acks.front().filter(|a| a.0 <= self.now) {
                self.acks.pop_front();
                self.cc.on_ack_arrived(seq, &[], self.next_seq - 1, ms(t));
                after_ack(&self.cc, t);
            }
            self.send();
            self.now += 0.05;
        }
    }
}
