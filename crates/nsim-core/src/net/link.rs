//! One direction of a point-to-point link: queue, transmitter, error model, propagation.
//!
//! Store-and-forward (ns-2 `SimpleLink`): a packet is serialized in size*8/rate (rounded up to
//! the picosecond), then propagates for `delay`. A packet enters the wire ([`Wire`]) when its
//! transmission starts, with its arrival time (start + serialization + delay); arrivals leave
//! the wire in order, so the link keeps one pending arrival event. The transmitter needs an
//! event of its own ("transmission done") only while packets wait behind it: an idle or
//! lightly loaded link costs one event per packet, not two (STYLE.md item 10).

use super::atm::port::CellPort;
use super::error_model::ErrorModel;
use super::ethernet::port::EthPort;
use super::wire::Wire;
use crate::ids::NodeId;
use crate::queue::{ClassStats, QueueDisc};
use crate::record::LinkStats;
use crate::rng::SimRng;
use crate::time::{Dur, SimTime};
use crate::units::BitsPerSec;

/// Fields are laid out by hand (`repr(C)`, 64-byte aligned) so that a packet crossing a link
/// whose queue it passes straight through (the common case on an uncongested access link)
/// touches two cache lines of the record: line 0 holds the transmitter, the wire and the
/// flags every hop tests, line 1 the per-packet counters ([`LinkStats`]' leading fields). A
/// packet that waits in the queue also reads the queue pointer and the occupancy integral just
/// behind them; configuration read at a drop, a wake or the end comes last. With 40,000 link
/// directions each record is cold, so every line counts (issue 15, docs/performance.md; the
/// test below keeps the first two lines this way). Keep new per-packet fields in line 0.
#[repr(C, align(64))]
pub struct Link {
    /// When the transmitter finishes its current (or last) packet.
    pub busy_until: SimTime,
    pub delay: Dur,
    /// Serialization time of `tx_size` bytes: a link mostly carries one size, and this turns
    /// the exact 128-bit division into a compare (STYLE.md item 5).
    tx_dur: Dur,
    pub rate: BitsPerSec,
    tx_size: u32,
    /// The queue's [`QueueDisc::cut_through_max`] (0 if it notices idle periods), read once.
    pub(super) queue_cut_through: u32,
    pub to: NodeId,
    /// Packets being serialized or propagating, in order of arrival.
    pub(super) wire: Wire,
    /// Which of `atm`, `eth`, `error` are set ([`Link::is_atm`] ...), and whether the link is
    /// down or has stale arrival events ([`Link::is_down`]), so that a plain link's hop tests
    /// one byte here instead of three pointers further down.
    special: u8,
    /// A `TxDone` event is pending at `busy_until` (packets wait behind the transmitter).
    pub tx_pending: bool,
    /// The discipline has been shown the idle period that began at `busy_until`.
    pub idle_polled: bool,
    /// The queue's [`QueueDisc::notices_idle`], read once: without it `Net::show_idle` has
    /// nothing to do.
    pub(super) queue_notices_idle: bool,
    /// The error model acts on arrival at the link instead of after transmission.
    pub error_at_enqueue: bool,
    /// Counters, per-packet ones first ([`LinkStats`] is laid out for this record).
    pub stats: LinkStats,
    pub queue: Box<dyn QueueDisc>,
    pub from: NodeId,
    /// An ATM cell link's output port (then `queue` and `wire` stay unused). `atm`, `eth` and
    /// `error` are set through [`Link::set_atm`] and its siblings, which keep `special` in step.
    pub(super) atm: Option<Box<CellPort>>,
    /// An Ethernet port (then `queue` stays unused: packets wait in the port's buffer).
    pub(super) eth: Option<Box<EthPort>>,
    error: Option<Box<ErrorModel>>,
    /// The pending `QueueWake` event's time, if one is scheduled (older ones are stale).
    pub wake: Option<SimTime>,
    /// Random stream of the queue discipline.
    pub queue_rng: SimRng,
    /// Random stream of the error model.
    pub error_rng: SimRng,
    /// `Arrive` events still scheduled for packets a failure took off the wire (one per
    /// failure that found the wire busy): such an event finds the head of the wire not due.
    pub(super) stale_arrivals: u32,
}

const ATM: u8 = 1;
const ETH: u8 = 2;
const ERROR: u8 = 4;
/// The link is down: arrivals are dropped (`link_down`).
const DOWN: u8 = 8;
/// `Arrive` events of packets a failure cut off are still pending ([`Outage::stale_arrivals`]).
const STALE: u8 = 16;
/// Either of these sends an arrival at (from) the link down the special path.
pub(super) const SPECIAL_ENQUEUE: u8 = ATM | DOWN;
pub(super) const SPECIAL_ARRIVE: u8 = ATM | STALE;

/// What a link caches of its queue: [`QueueDisc::notices_idle`] and the cut-through size
/// (0 for a queue that notices idle periods).
fn queue_flags(queue: &dyn QueueDisc) -> (bool, u32) {
    let notices = queue.notices_idle();
    (notices, if notices { 0 } else { queue.cut_through_max() })
}

impl Link {
    /// An idle link direction with no error model; `seed` names its random streams
    /// (`link/<id>/queue`, `link/<id>/error`).
    pub fn new(
        from: NodeId,
        to: NodeId,
        rate: BitsPerSec,
        delay: Dur,
        queue: Box<dyn QueueDisc>,
        seed: u64,
        id: usize,
    ) -> Self {
        let (queue_notices_idle, queue_cut_through) = queue_flags(queue.as_ref());
        Link {
            busy_until: SimTime::ZERO,
            delay,
            tx_dur: Dur::ZERO,
            rate,
            tx_size: 0,
            queue_cut_through,
            to,
            wire: Wire::default(),
            special: 0,
            tx_pending: false,
            idle_polled: false,
            queue_notices_idle,
            error_at_enqueue: false,
            stats: LinkStats::default(),
            queue,
            from,
            atm: None,
            eth: None,
            error: None,
            wake: None,
            queue_rng: crate::rng::stream(seed, &format!("link/{id}/queue")),
            error_rng: crate::rng::stream(seed, &format!("link/{id}/error")),
            stale_arrivals: 0,
        }
    }

    /// Re-reads what the link caches of its queue, after a parameter change.
    pub fn refresh_queue_flags(&mut self) {
        (self.queue_notices_idle, self.queue_cut_through) = queue_flags(self.queue.as_ref());
    }

    /// Makes this an ATM cell link with output port `port`.
    pub fn set_atm(&mut self, port: CellPort) {
        self.atm = Some(Box::new(port));
        self.special |= ATM;
    }

    /// Makes this an Ethernet link with port `port`.
    pub fn set_eth(&mut self, port: EthPort) {
        self.eth = Some(Box::new(port));
        self.special |= ETH;
    }

    /// Gives this link an error model.
    pub fn set_error(&mut self, model: ErrorModel) {
        self.error = Some(Box::new(model));
        self.special |= ERROR;
    }

    /// Removes the error model, if any.
    pub fn clear_error(&mut self) {
        self.error = None;
        self.special &= !ERROR;
    }

    /// Changes the bit rate; the packet being serialized keeps its transmission time.
    pub fn set_rate(&mut self, rate: BitsPerSec) {
        self.rate = rate;
        self.tx_size = 0;
    }

    /// Whether the link is down (failed).
    #[inline]
    pub fn is_down(&self) -> bool {
        self.special & DOWN != 0
    }

    pub(super) fn set_down(&mut self, down: bool) {
        if down {
            self.special |= DOWN;
        } else {
            self.special &= !DOWN;
        }
    }

    /// Whether an arrival at (`SPECIAL_ENQUEUE`) or from (`SPECIAL_ARRIVE`) this link takes
    /// the special path: one test of the flags byte every hop reads anyway.
    #[inline]
    pub(super) fn special_for(&self, mask: u8) -> bool {
        self.special & mask != 0
    }

    /// Records (or clears) stale `Arrive` events in the flags byte.
    pub(super) fn sync_stale(&mut self) {
        if self.stale_arrivals > 0 {
            self.special |= STALE;
        } else {
            self.special &= !STALE;
        }
    }

    #[inline]
    pub fn is_atm(&self) -> bool {
        self.special & ATM != 0
    }

    #[inline]
    pub fn is_eth(&self) -> bool {
        self.special & ETH != 0
    }

    #[inline]
    pub fn has_error(&self) -> bool {
        self.special & ERROR != 0
    }

    pub fn atm(&self) -> Option<&CellPort> {
        self.atm.as_deref()
    }

    pub fn eth(&self) -> Option<&EthPort> {
        self.eth.as_deref()
    }

    pub fn eth_mut(&mut self) -> Option<&mut EthPort> {
        self.eth.as_deref_mut()
    }

    /// The error model and its random stream, if the link has one.
    pub fn error_mut(&mut self) -> Option<(&mut ErrorModel, &mut SimRng)> {
        if !self.has_error() {
            return None;
        }
        self.error.as_deref_mut().map(|em| (em, &mut self.error_rng))
    }

    /// Time to serialize a packet of `size` bytes on this link.
    #[inline]
    pub fn tx_time(&mut self, size: u32) -> Dur {
        let size = self.wire_bytes(size);
        if self.tx_size != size {
            self.tx_size = size;
            self.tx_dur = self.rate.tx_time(size as u64);
        }
        self.tx_dur
    }

    /// Per-class rows of the results' `classes` table: the discipline's classes, or an ATM
    /// port's VCs (counted in cells) as of `end`.
    pub fn class_stats(&self, end: SimTime) -> Vec<ClassStats> {
        match self.atm() {
            Some(port) => port
                .vc_stats(end)
                .into_iter()
                .map(|(vc, c)| ClassStats { name: super::atm::vc_name(vc), ..c })
                .collect(),
            None => match self.eth() {
                Some(port) => port.class_stats(),
                None => self.queue.class_stats(),
            },
        }
    }

    /// Packets waiting to be sent (in the discipline, or in the Ethernet port's buffer).
    pub fn waiting(&self) -> u64 {
        match self.eth() {
            Some(port) => port.buf.len_packets(),
            None => self.queue.len_packets(),
        }
    }

    /// Bytes waiting to be sent.
    pub fn waiting_bytes(&self) -> u64 {
        match self.eth() {
            Some(port) => port.buf.len_bytes(),
            None => self.queue.len_bytes(),
        }
    }

    /// Bytes the transmitter is busy for with a packet of `size` bytes (Ethernet framing).
    #[inline]
    pub(super) fn wire_bytes(&self, size: u32) -> u32 {
        if !self.is_eth() {
            return size;
        }
        self.eth().map_or(size, |port| port.wire_bytes(size))
    }

    /// Packets being serialized or propagating.
    pub fn in_flight(&self) -> u64 {
        self.wire.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use std::mem::offset_of;

    use super::Link;

    /// A packet passing an empty queue touches only the record's first two cache lines (the
    /// layout above; a field added in the wrong place would spread them again).
    #[test]
    fn a_cut_through_hop_touches_the_first_two_cache_lines() {
        let stats = offset_of!(Link, stats);
        let line0_end = [
            offset_of!(Link, busy_until) + 8,
            offset_of!(Link, delay) + 8,
            offset_of!(Link, tx_dur) + 8,
            offset_of!(Link, rate) + 8,
            offset_of!(Link, tx_size) + 4,
            offset_of!(Link, queue_cut_through) + 4,
            offset_of!(Link, to) + 4,
            offset_of!(Link, wire) + std::mem::size_of::<super::Wire>(),
            offset_of!(Link, special) + 1,
            offset_of!(Link, tx_pending) + 1,
            offset_of!(Link, idle_polled) + 1,
            offset_of!(Link, queue_notices_idle) + 1,
            offset_of!(Link, error_at_enqueue) + 1,
        ];
        assert!(line0_end.iter().all(|&e| e <= 64), "{line0_end:?}");
        assert_eq!(stats, 64);
        // LinkStats' own test keeps its per-packet counters in its first 64 bytes.
        assert_eq!(std::mem::align_of::<Link>(), 64);
    }
}
