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

pub struct Link {
    pub from: NodeId,
    pub to: NodeId,
    pub rate: BitsPerSec,
    pub delay: Dur,
    pub queue: Box<dyn QueueDisc>,
    pub error: Option<ErrorModel>,
    /// The error model acts on arrival at the link instead of after transmission.
    pub error_at_enqueue: bool,
    /// When the transmitter finishes its current (or last) packet.
    pub busy_until: SimTime,
    /// A `TxDone` event is pending at `busy_until` (packets wait behind the transmitter).
    pub tx_pending: bool,
    /// The discipline has been shown the idle period that began at `busy_until`.
    pub idle_polled: bool,
    /// Packets being serialized or propagating, with their arrival times (non-decreasing).
    pub pipe: VecDeque<(SimTime, PacketId)>,
    pub stats: LinkStats,
    /// The pending `QueueWake` event's time, if one is scheduled (older ones are stale).
    pub wake: Option<SimTime>,
    /// Serialization time of the last packet size sent: a link mostly carries one size, and
    /// this turns the exact 128-bit division into a compare (STYLE.md item 5).
    tx_cache: (u32, Dur),
    /// The queue's [`QueueDisc::notices_idle`], read once: without it `Net::show_idle` has
    /// nothing to do.
    pub(super) queue_notices_idle: bool,
    /// Random stream of the queue discipline.
    pub queue_rng: SimRng,
    /// Random stream of the error model.
    pub error_rng: SimRng,
    /// An ATM cell link's output port (then `queue` and `pipe` stay unused).
    pub atm: Option<Box<CellPort>>,
    /// An Ethernet port (then `queue` stays unused: packets wait in the port's buffer).
    pub eth: Option<Box<EthPort>>,
}

impl Link {
    /// An idle link direction with no error model; `seed` names its random streams
    /// (`link/<id>/queue`, `link/<id>/error`).
    pub fn new(from: NodeId, to: NodeId, rate: BitsPerSec, delay: Dur, queue: Box<dyn QueueDisc>, seed: u64, id: usize) -> Self {
        let queue_notices_idle = queue.notices_idle();
        Link {
            from,
            to,
            rate,
            delay,
            queue,
            error: None,
            error_at_enqueue: false,
            busy_until: SimTime::ZERO,
            tx_pending: false,
            idle_polled: false,
            pipe: VecDeque::new(),
            stats: LinkStats::default(),
            wake: None,
            tx_cache: (0, Dur::ZERO),
            queue_notices_idle,
            queue_rng: crate::rng::stream(seed, &format!("link/{id}/queue")),
            error_rng: crate::rng::stream(seed, &format!("link/{id}/error")),
            atm: None,
            eth: None,
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
