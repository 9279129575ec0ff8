//! One direction of a point-to-point link: queue, transmitter, error model, propagation.
//!
//! Store-and-forward (ns-2 `SimpleLink`): a packet is serialized in size*8/rate (rounded up to
//! the picosecond), then propagates for `delay`. A packet enters the wire ring when its
//! transmission starts, with its arrival time (start + serialization + delay); arrivals leave
//! the ring in order, so the link keeps one pending arrival event. The transmitter needs an
//! event of its own ("transmission done") only while packets wait behind it: an idle or
//! lightly loaded link costs one event per packet, not two (STYLE.md item 10).

use std::collections::VecDeque;

use super::atm::port::CellPort;
use super::error_model::ErrorModel;
use super::ethernet::port::EthPort;
use crate::ids::NodeId;
use crate::packet::PacketId;
use crate::queue::{ClassStats, QueueDisc};
use crate::record::LinkStats;
use crate::rng::SimRng;
use crate::time::{Dur, SimTime};
use crate::units::BitsPerSec;

/// Fields are laid out by hand (`repr(C)`) so that those every packet touches at every hop
/// come first and fill the first four cache lines of a 64-byte-aligned record, with the
/// configuration and counters read only at a drop, a wake or the end behind them: a network of
/// 40,000 link directions touches 4 lines of a link per hop instead of the 7 of the
/// compiler's order (issue 15, docs/performance.md). Keep new per-packet fields in front.
#[repr(C, align(64))]
pub struct Link {
    pub queue: Box<dyn QueueDisc>,
    /// Packets being serialized or propagating, with their arrival times (non-decreasing).
    pub pipe: VecDeque<(SimTime, PacketId)>,
    /// When the transmitter finishes its current (or last) packet.
    pub busy_until: SimTime,
    pub delay: Dur,
    /// Serialization time of the last packet size sent: a link mostly carries one size, and
    /// this turns the exact 128-bit division into a compare (STYLE.md item 5).
    tx_cache: (u32, Dur),
    /// An ATM cell link's output port (then `queue` and `pipe` stay unused).
    pub atm: Option<Box<CellPort>>,
    /// An Ethernet port (then `queue` stays unused: packets wait in the port's buffer).
    pub eth: Option<Box<EthPort>>,
    /// Boxed so that a link without one carries a null pointer, not the model, in its hot lines.
    pub error: Option<Box<ErrorModel>>,
    pub from: NodeId,
    pub to: NodeId,
    /// The error model acts on arrival at the link instead of after transmission.
    pub error_at_enqueue: bool,
    /// A `TxDone` event is pending at `busy_until` (packets wait behind the transmitter).
    pub tx_pending: bool,
    /// The discipline has been shown the idle period that began at `busy_until`.
    pub idle_polled: bool,
    /// The queue's [`QueueDisc::notices_idle`], read once: without it `Net::show_idle` has
    /// nothing to do.
    pub(super) queue_notices_idle: bool,
    /// The queue's [`QueueDisc::cut_through_max`] (0 if it notices idle periods), read once.
    pub(super) queue_cut_through: u32,
    pub rate: BitsPerSec,
    /// Counters, per-packet ones first ([`LinkStats`] is laid out for this record).
    pub stats: LinkStats,
    /// The pending `QueueWake` event's time, if one is scheduled (older ones are stale).
    pub wake: Option<SimTime>,
    /// Random stream of the queue discipline.
    pub queue_rng: SimRng,
    /// Random stream of the error model.
    pub error_rng: SimRng,
}

impl Link {
    /// An idle link direction with no error model; `seed` names its random streams
    /// (`link/<id>/queue`, `link/<id>/error`).
    pub fn new(from: NodeId, to: NodeId, rate: BitsPerSec, delay: Dur, queue: Box<dyn QueueDisc>, seed: u64, id: usize) -> Self {
        let queue_notices_idle = queue.notices_idle();
        let queue_cut_through = if queue_notices_idle { 0 } else { queue.cut_through_max() };
        Link {
            queue,
            pipe: VecDeque::new(),
            busy_until: SimTime::ZERO,
            delay,
            tx_cache: (0, Dur::ZERO),
            atm: None,
            eth: None,
            error: None,
            from,
            to,
            error_at_enqueue: false,
            tx_pending: false,
            idle_polled: false,
            queue_notices_idle,
            queue_cut_through,
            rate,
            stats: LinkStats::default(),
            wake: None,
            queue_rng: crate::rng::stream(seed, &format!("link/{id}/queue")),
            error_rng: crate::rng::stream(seed, &format!("link/{id}/error")),
        }
    }

    /// Time to serialize a packet of `size` bytes on this link.
    #[inline]
    pub fn tx_time(&mut self, size: u32) -> Dur {
        let size = self.wire_bytes(size);
        if self.tx_cache.0 != size {
            self.tx_cache = (size, self.rate.tx_time(size as u64));
        }
        self.tx_cache.1
    }

    /// Per-class rows of the results' `classes` table: the discipline's classes, or an ATM
    /// port's VCs (counted in cells) as of `end`.
    pub fn class_stats(&self, end: SimTime) -> Vec<ClassStats> {
        match &self.atm {
            Some(port) => port.vc_stats(end).into_iter().map(|(vc, c)| ClassStats { name: super::atm::vc_name(vc), ..c }).collect(),
            None => match &self.eth {
                Some(port) => port.class_stats(),
                None => self.queue.class_stats(),
            },
        }
    }

    /// Packets waiting to be sent (in the discipline, or in the Ethernet port's buffer).
    pub fn waiting(&self) -> u64 {
        match &self.eth {
            Some(port) => port.buf.len_packets(),
            None => self.queue.len_packets(),
        }
    }

    /// Bytes waiting to be sent.
    pub fn waiting_bytes(&self) -> u64 {
        match &self.eth {
            Some(port) => port.buf.len_bytes(),
            None => self.queue.len_bytes(),
        }
    }

    /// Bytes the transmitter is busy for with a packet of `size` bytes (Ethernet framing).
    #[inline]
    fn wire_bytes(&self, size: u32) -> u32 {
        self.eth.as_ref().map_or(size, |port| port.wire_bytes(size))
    }

    /// Packets being serialized or propagating.
    pub fn in_flight(&self) -> u64 {
        self.pipe.len() as u64
    }
}


#[cfg(test)]
mod tests {
    use std::mem::offset_of;

    use super::Link;
    use crate::record::LinkStats;

    /// The fields a packet touches at every hop stay within the record's first four cache
    /// lines (the layout above; a field added in the wrong place would spread them again).
    #[test]
    fn per_packet_fields_fill_the_first_four_cache_lines() {
        let stats = offset_of!(Link, stats);
        let hot_end = [
            offset_of!(Link, queue_notices_idle) + 1,
            offset_of!(Link, queue_cut_through) + 4,
            offset_of!(Link, rate) + 8,
            stats + offset_of!(LinkStats, busy_ps) + 8,
            stats + offset_of!(LinkStats, departure_bytes) + 8,
            stats + offset_of!(LinkStats, max_bytes) + 8,
        ];
        assert!(hot_end.iter().all(|&e| e <= 256), "{hot_end:?}");
        assert_eq!(std::mem::align_of::<Link>(), 64);
    }
}
