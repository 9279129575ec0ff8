//! One Ethernet port (a link direction's transmitter and output buffer): the buffer, the
//! watermark detector that pauses upstream, the pause timers set by PAUSE frames from
//! downstream, and the PAUSE frames travelling on this direction's wire.

use std::collections::VecDeque;

use super::buffer::EthBuffer;
use super::framing::{self, pause_duration};
use super::pause::{cos_of, PauseFrame, PauseTime, PauseTimers, Scope};
use super::spec::PortConfig;
use super::watermark::Detector;
use crate::ids::LinkId;
use crate::packet::{PacketId, PacketPool};
use crate::queue::ClassStats;
use crate::record::DropReason;
use crate::time::{Dur, SimTime};
use crate::units::BitsPerSec;

/// PAUSE frame counters of a port (results' queue rows).
#[derive(Clone, Copy, Debug, Default)]
pub struct PauseStats {
    /// Stops sent by this transmitter (XOFF or a non-zero pause_time).
    pub pause_sent: u64,
    /// Resumes sent by this transmitter (XON, pause_time = 0).
    pub resume_sent: u64,
    /// PAUSE frames (stops and resumes) received for this transmitter.
    pub pause_received: u64,
}

pub struct EthPort {
    pub cfg: PortConfig,
    pub buf: EthBuffer,
    pub detector: Detector,
    pub timers: PauseTimers,
    /// 512 bit times at this link's rate.
    pub quantum: Dur,
    /// The ports whose traffic arrives at this port's node (upstream transmitters), each with
    /// the opposite link direction that carries PAUSE frames to it. A port's own reverse
    /// direction is left out: a switch never sends a frame back out of the port it came in
    /// on (IEEE 802.1D §7.7.1), so that traffic cannot congest this buffer.
    pub upstream: Vec<(LinkId, LinkId)>,
    /// PAUSE frames on this direction's wire, with their arrival times (non-decreasing).
    pub wire: VecDeque<(SimTime, PauseFrame)>,
    pub stats: PauseStats,
}

impl EthPort {
    pub fn new(cfg: PortConfig, rate: BitsPerSec) -> Self {
        let buf = EthBuffer::new(cfg.classes, cfg.buffer);
        let detector = Detector::new(cfg.pause, cfg.style, cfg.high, cfg.low, cfg.classes);
        EthPort {
            cfg,
            buf,
            detector,
            timers: PauseTimers::default(),
            quantum: pause_duration(1, rate),
            upstream: Vec::new(),
            wire: VecDeque::new(),
            stats: PauseStats::default(),
        }
    }

    /// Bytes the transmitter is busy for with a packet of `size` bytes.
    #[inline]
    pub fn wire_bytes(&self, size: u32) -> u32 {
        framing::wire_bytes(size, self.cfg.framing)
    }

    /// Offers packet `id`: queues it, or says why it is dropped. Pushes to `out` the PAUSE
    /// frames the arrival triggers.
    pub fn admit(
        &mut self,
        id: PacketId,
        now: SimTime,
        pool: &PacketPool,
        out: &mut Vec<(Scope, PauseTime)>,
    ) -> Result<(), DropReason> {
        let p = pool.get(id);
        let (size, dst, cos, q) = (p.size, p.dst, cos_of(p.prio), self.buf.queue_of(p.prio));
        let over_cap = |cap: u64| {
            self.timers.blocks(cos, dst, now)
                && self.buf.blocked_bytes(q, &self.timers, now) + size as u64 > cap
        };
        let why = if self.cfg.blocked_cap.is_some_and(over_cap) {
            Some(DropReason::BlockedCap)
        } else if !self.buf.fits(q, size) {
            Some(DropReason::Overflow)
        } else {
            None
        };
        let cq = &mut self.buf.queues[q];
        cq.arrivals += 1;
        cq.arrival_bytes += size as u64;
        if let Some(why) = why {
            cq.drops[why.idx()] += 1;
            return Err(why);
        }
        self.buf.push(q, id, size, cos, dst);
        let level = self.buf.level(q);
        self.detector.on_enqueue(level, dst, || self.buf.dsts_in_order(q), now, out);
        Ok(())
    }

    /// The next packet the pause timers let start at `now`, if any; pushes the resumes its
    /// departure triggers.
    pub fn next(&mut self, now: SimTime, out: &mut Vec<(Scope, PauseTime)>) -> Option<PacketId> {
        let (id, q) = self.buf.pop(&self.timers, now)?;
        self.detector.on_dequeue(self.buf.level(q), out);
        Some(id)
    }

    /// A PAUSE frame for this transmitter arrived at `now`.
    pub fn receive(&mut self, scope: Scope, time: PauseTime, now: SimTime, n_nodes: usize) {
        self.stats.pause_received += 1;
        if !self.cfg.ignore_pause {
            self.timers.apply(scope, time, now, self.quantum, n_nodes);
        }
    }

    /// Per-queue rows of the results' `classes` table (`cos<q>`).
    pub fn class_stats(&self) -> Vec<ClassStats> {
        self.buf
            .queues
            .iter()
            .enumerate()
            .map(|(q, c)| ClassStats {
                name: format!("cos{q}"),
                arrivals: c.arrivals,
                arrival_bytes: c.arrival_bytes,
                departures: c.departures,
                departure_bytes: c.departure_bytes,
                drops: c.drops,
                queued_pkts: c.len,
                avg_len: None,
            })
            .collect()
    }
}
