//! Telnet (Noureddine 2002 §4.2, notes/seed-002b.md §2.5): the client sends one keystroke
//! packet of `size` bytes, waits for its echo, then after a random gap sends the next. One
//! keystroke is outstanding at a time (as Nagle's algorithm gives on a real connection).
//!
//! The echo is the TCP acknowledgment (the thesis models no server data packet), so the echo
//! delay recorded per keystroke (`kind = "echo"` rows of the `transfers` table) is from the
//! keystroke's hand-over to TCP to its ACK: one round trip plus serialisation on an idle
//! path, and at least one retransmission timeout when the keystroke or its ACK is lost.
//!
//! [GAP] The thesis gives only the mean spacing (about 5 characters per second, 200 ms) and
//! not the distribution nor where the gap is measured from. Here the gap starts at the echo
//! (the client "waits for the acknowledgment" before its next keystroke) and is exponential
//! with mean 200 ms by default; Pareto (heavy-tailed inter-arrivals, Paxson-Floyd) or uniform
//! can be chosen.
//!
//! Parameters: `size` (default 100 B, the thesis' packet including headers: set the
//! transport's `packet_size` to it, since the one-way agents send whole segments), `gap`
//! (default exponential, mean 200 ms), `count` (default: until the flow stops).

use super::onoff::Period;
use super::stream::{StreamApp, StreamIo};
use crate::record::flow_stats::{Transfer, TransferKind};
use crate::rng::SimRng;
use crate::time::{Dur, SimTime};

pub struct Telnet {
    /// Bytes per keystroke.
    pub size: u64,
    /// Gap from an echo to the next keystroke, in seconds.
    pub gap: Period,
    /// Keystrokes to send (None: until the flow stops).
    pub count: Option<u32>,
    rng: SimRng,
    sent: u32,
    /// When the outstanding keystroke was handed to TCP.
    outstanding: Option<SimTime>,
}

impl Telnet {
    pub fn new(size: u64, gap: Period, count: Option<u32>, rng: SimRng) -> Self {
        Telnet { size, gap, count, rng, sent: 0, outstanding: None }
    }

    fn keystroke(&mut self, io: &mut StreamIo) {
        if self.count.is_some_and(|c| self.sent >= c) {
            return;
        }
        self.sent += 1;
        self.outstanding = Some(io.now());
        io.write(self.size);
    }
}

impl StreamApp for Telnet {
    fn on_open(&mut self, io: &mut StreamIo) {
        self.keystroke(io);
    }

    /// The echo: record its delay, then wait a gap before the next keystroke.
    fn on_completed(&mut self, io: &mut StreamIo) {
        let Some(sent) = self.outstanding.take() else { return };
        io.record(Transfer {
            start: sent,
            end: io.now(),
            bytes: self.size,
            kind: TransferKind::Echo,
        });
        let gap = Dur::from_secs_f64(self.gap.draw(&mut self.rng));
        io.wake_at(io.now() + gap);
    }

    fn on_wake(&mut self, io: &mut StreamIo) {
        self.keystroke(io);
    }
}
