//! The output buffer of an Ethernet port: one FIFO per class-of-service queue, each with its
//! own byte limit, served by strict priority (seed 002 §3.5: "a separate queue per class,
//! served highest-priority-first"; IEEE 802.1D-2004 §7.7.4 strict priority).
//!
//! A paused transmitter skips the frames its PAUSE timers stop and sends the first one they
//! do not ("a FIFO with skip-over of blocked frames", seed 002 §3.4): frames to one
//! destination and class stay in order, because they are all stopped or none is.

use std::collections::VecDeque;

use super::pause::{cos_of, PauseTimers};
use super::watermark::QueueLevel;
use crate::packet::{PacketId, PacketPool};
use crate::record::DropCounts;
use crate::time::SimTime;

/// One class queue: its packets (with their sizes) and bytes held.
#[derive(Default)]
pub struct ClassQueue {
    pub fifo: VecDeque<(PacketId, u32)>,
    pub bytes: u64,
    pub arrivals: u64,
    pub arrival_bytes: u64,
    pub departures: u64,
    pub departure_bytes: u64,
    pub drops: DropCounts,
}

/// Per-class byte FIFOs of one port.
pub struct EthBuffer {
    /// Queue 0 is the lowest priority; the highest index is served first.
    pub queues: Vec<ClassQueue>,
    /// Byte limit of each queue.
    pub limit: u64,
}

impl EthBuffer {
    pub fn new(queues: usize, limit: u64) -> Self {
        EthBuffer { queues: (0..queues).map(|_| ClassQueue::default()).collect(), limit }
    }

    /// The queue of an 802.1p class: class p in queue min(p, queues − 1).
    #[inline]
    pub fn queue_of(&self, prio: u8) -> usize {
        cos_of(prio).min(self.queues.len() - 1)
    }

    /// The priority mask of the classes queue `q` holds (the last queue holds the rest).
    pub fn cos_mask(&self, q: usize) -> u8 {
        if q + 1 == self.queues.len() {
            (0xFFu16 << q) as u8
        } else {
            1 << q
        }
    }

    /// Queue `q` as the watermark detector sees it.
    pub fn level(&self, q: usize) -> QueueLevel {
        QueueLevel { q, cos: self.cos_mask(q), bytes: self.queues[q].bytes }
    }

    /// Whether `size` more bytes fit in queue `q`.
    #[inline]
    pub fn fits(&self, q: usize, size: u32) -> bool {
        self.queues[q].bytes + size as u64 <= self.limit
    }

    pub fn push(&mut self, q: usize, id: PacketId, size: u32) {
        let cq = &mut self.queues[q];
        cq.fifo.push_back((id, size));
        cq.bytes += size as u64;
        cq.arrivals += 1;
        cq.arrival_bytes += size as u64;
    }

    /// Takes the next frame the timers let start at `now`: highest queue first, and in a
    /// queue the first frame not stopped. Returns the packet and its queue.
    pub fn pop(&mut self, timers: &PauseTimers, now: SimTime, pool: &PacketPool) -> Option<(PacketId, usize)> {
        let paused = timers.any(now);
        for q in (0..self.queues.len()).rev() {
            let cq = &mut self.queues[q];
            let pos = if paused {
                cq.fifo.iter().position(|&(id, _)| {
                    let p = pool.get(id);
                    !timers.blocks(cos_of(p.prio), p.dst, now)
                })
            } else if cq.fifo.is_empty() {
                None
            } else {
                Some(0)
            };
            if let Some(i) = pos {
                let (id, size) = cq.fifo.remove(i).expect("position is in the queue");
                cq.bytes -= size as u64;
                cq.departures += 1;
                cq.departure_bytes += size as u64;
                return Some((id, q));
            }
        }
        None
    }

    /// Bytes of queue `q` that the timers stop at `now` (for the cap on blocked traffic).
    pub fn blocked_bytes(&self, q: usize, timers: &PauseTimers, now: SimTime, pool: &PacketPool) -> u64 {
        self.queues[q]
            .fifo
            .iter()
            .filter(|&&(id, _)| {
                let p = pool.get(id);
                timers.blocks(cos_of(p.prio), p.dst, now)
            })
            .map(|&(_, s)| s as u64)
            .sum()
    }

    pub fn len_packets(&self) -> u64 {
        self.queues.iter().map(|q| q.fifo.len() as u64).sum()
    }

    pub fn len_bytes(&self) -> u64 {
        self.queues.iter().map(|q| q.bytes).sum()
    }
}
