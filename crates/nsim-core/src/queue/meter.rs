//! Colour markers: a meter in front of a child queue that rewrites each packet's drop
//! precedence (`prio`) to the colour it measures, for a drop-priority queue (`af`) behind it.
//!
//! Read first: RFC 2697 §1–§4 (srTCM) and RFC 2698 §1–§4 (trTCM). Colours map onto the `af`
//! discipline's precedences, the packet's `prio` field: green = 0 (HIGH, dropped last),
//! yellow = 1 (MED), red = 2 (LOW). In colour-aware mode the incoming `prio` is the
//! pre-colour (0 green, 1 yellow, 2 or more red).
//!
//! Token counts follow the RFCs literally: whole bytes, each bucket incremented by one at the
//! instants k / rate (rate in bytes per second), k = 1, 2, ..., from time 0 when the buckets
//! are full. Counting ticks as floor(t · rate) in integer picosecond arithmetic keeps this
//! exact (no drift, no rounding) however irregular the packet arrivals. A rate changed during
//! the run (`set` event) counts the increments due at the old rate until the change, then
//! restarts the count at the change at the new rate (the fraction of a byte earned at the old
//! rate since its last increment is lost).

use schemars::JsonSchema;
use serde::Deserialize;

use super::{MeterChange, QueueChange, QueueCtx, QueueDisc};
use crate::packet::PacketId;
use crate::time::{SimTime, PS_PER_SEC};
use crate::units::BitsPerSec;

/// A packet's colour (RFC 2697 §1), stored as its drop precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    Green,
    Yellow,
    Red,
}

impl Colour {
    /// The colour a precedence encodes (2 or more is red).
    pub fn of_prio(prio: u8) -> Self {
        match prio {
            0 => Colour::Green,
            1 => Colour::Yellow,
            _ => Colour::Red,
        }
    }

    /// The `af` drop precedence of the colour.
    pub fn prio(self) -> u8 {
        match self {
            Colour::Green => 0,
            Colour::Yellow => 1,
            Colour::Red => 2,
        }
    }
}

/// Whether the meter reads a packet's pre-colour (RFC 2697 §3, RFC 2698 §3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ColourMode {
    /// Every packet is metered as if green (uncoloured).
    #[default]
    Blind,
    /// The packet's `prio` is its pre-colour; a meter never improves it.
    Aware,
}

/// The token increments of one RFC bucket: `rate` bytes per second, one at a time.
#[derive(Clone, Copy, Debug)]
pub struct TickClock {
    bits_per_sec: i128,
    /// When counting started at this rate (time 0, or the last rate change).
    origin: SimTime,
    /// Increments counted so far (floor((last − origin) · rate)).
    counted: i128,
}

impl TickClock {
    pub fn new(rate: BitsPerSec) -> Self {
        TickClock { bits_per_sec: rate.0 as i128, origin: SimTime::ZERO, counted: 0 }
    }

    pub fn rate(&self) -> BitsPerSec {
        BitsPerSec(self.bits_per_sec as u64)
    }

    /// Counts from `now` at `rate`; the increments due until `now` must have been taken.
    pub fn restart(&mut self, now: SimTime, rate: BitsPerSec) {
        *self = TickClock { bits_per_sec: rate.0 as i128, origin: now, counted: 0 };
    }

    /// Increments since the previous call: floor((now − origin) · rate) minus those already
    /// counted.
    pub fn ticks(&mut self, now: SimTime) -> u64 {
        let total = now.since(self.origin).0 as i128 * self.bits_per_sec / (8 * PS_PER_SEC as i128);
        let new = total - self.counted;
        self.counted = total;
        new as u64
    }
}

/// A meter: colours a packet of `bytes` arriving at `now` with pre-colour `pre` (green when
/// colour-blind).
pub trait Meter {
    fn colour(&mut self, now: SimTime, bytes: u32, pre: Colour) -> Colour;
    /// Takes new rates or bursts at `now` (the tokens due until `now` first, at the old
    /// rates; a bucket above its new burst is cut to it). Checked as a whole before anything
    /// changes; an error says why.
    fn change(&mut self, now: SimTime, c: &MeterChange) -> Result<(), String>;
}

/// A meter in front of a child queue: every packet gets its colour as `prio`, then queues.
pub struct Marker<M> {
    pub meter: M,
    pub mode: ColourMode,
    pub child: Box<dyn QueueDisc>,
}

impl<M: Meter> QueueDisc for Marker<M> {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let p = ctx.pool.get_mut(id);
        let pre = match self.mode {
            ColourMode::Blind => Colour::Green,
            ColourMode::Aware => Colour::of_prio(p.prio),
        };
        p.prio = self.meter.colour(ctx.now, p.size, pre).prio();
        self.child.enqueue(id, ctx);
    }
    fn change_at(&mut self, now: SimTime, c: QueueChange) -> Result<(), String> {
        match c {
            QueueChange::Meter(m) => self.meter.change(now, &m),
            other => self.child.change_at(now, other),
        }
    }
    super::pass_to_child!();
}

/// Colours (as `prio`) of a train of (time in µs, bytes, incoming prio) through `meter`.
#[cfg(test)]
pub(crate) fn colours<M: Meter>(meter: M, mode: ColourMode, train: &[(u64, u32, u8)]) -> Vec<u8> {
    use crate::packet::Packet;
    use crate::queue::droptail::DropTail;
    use crate::queue::testbench::{Bench, PKT};
    let mut q = Marker {
        meter,
        mode,
        child: Box::new(DropTail::new(crate::units::Limit::Packets(1000), false)),
    };
    let mut b = Bench::new();
    train
        .iter()
        .map(|&(us, size, prio)| {
            b.at(crate::time::Dur::from_micros(us));
            let id = b.offer(&mut q, Packet { size, prio, ..PKT });
            b.pool.get(id).prio
        })
        .collect()
}
