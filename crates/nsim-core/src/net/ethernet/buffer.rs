//! The output buffer of an Ethernet port: one FIFO per class-of-service queue, each with its
//! own byte limit, served by strict priority Noureddine 2002 (§3.5: "a separate queue per class,
//! served highest-priority-first"; IEEE 802.1D-2004 §7.7.4 strict priority).
//!
//! A paused transmitter skips the frames its PAUSE timers stop and sends the first one they
//! do not ("a FIFO with skip-over of blocked frames", Noureddine 2002 §3.4): frames to one
//! destination and class stay in order, because they are all stopped or none is.
//!
//! So each queue is kept twice over the same frames: one list in arrival order, and one
//! list per (destination, class) pair — a *lane* — whose frames the timers stop together.
//! Serving a paused queue compares the heads of its unstopped lanes instead of scanning the
//! frames, and the bytes stopped are the sum of the stopped lanes' bytes: the cost per frame
//! is bounded by the number of lanes (destinations × classes present), not by the queue
//! length (issue 29: a paused NIC holding 10^5 small frames). Frames live in a slab of
//! reused slots, so a steady state allocates nothing.

use super::pause::{cos_of, PauseTimers};
use super::watermark::QueueLevel;
use crate::ids::NodeId;
use crate::packet::PacketId;
use crate::record::DropCounts;
use crate::time::SimTime;

/// "No slot": the end of a list.
const NIL: u32 = u32::MAX;

/// One class queue: the ends of its arrival-order list, its lanes that hold frames, its
/// counters. Arrivals count every frame offered, dropped ones too: arrivals = departures +
/// drops + queued, as on the link's row.
pub struct ClassQueue {
    head: u32,
    tail: u32,
    /// Lanes with at least one frame in this queue (any order: serving picks by arrival).
    lanes: Vec<u32>,
    pub len: u64,
    pub bytes: u64,
    pub arrivals: u64,
    pub arrival_bytes: u64,
    pub departures: u64,
    pub departure_bytes: u64,
    pub drops: DropCounts,
}

impl Default for ClassQueue {
    fn default() -> Self {
        ClassQueue {
            head: NIL,
            tail: NIL,
            lanes: Vec::new(),
            len: 0,
            bytes: 0,
            arrivals: 0,
            arrival_bytes: 0,
            departures: 0,
            departure_bytes: 0,
            drops: DropCounts::default(),
        }
    }
}

/// A queued frame: linked in its queue's arrival order (both ways, so a frame from the middle
/// leaves in O(1)) and in its lane's order.
struct Slot {
    id: PacketId,
    size: u32,
    /// Arrival number in the port (orders the heads of different lanes).
    seq: u64,
    lane: u32,
    prev: u32,
    next: u32,
    next_in_lane: u32,
}

/// The frames of one (destination, class) pair in one port: the PAUSE timers stop all of them
/// or none.
struct Lane {
    dst: NodeId,
    cos: usize,
    head: u32,
    tail: u32,
    bytes: u64,
    /// Position in its queue's `lanes` while it holds frames.
    at: u32,
    /// The next lane to the same destination (another class), or NIL.
    next_class: u32,
}

/// Per-class byte FIFOs of one port.
pub struct EthBuffer {
    /// Queue 0 is the lowest priority; the highest index is served first.
    pub queues: Vec<ClassQueue>,
    /// Byte limit of each queue.
    pub limit: u64,
    slots: Vec<Slot>,
    /// First free slot, the free ones chained by `next`.
    free: u32,
    lanes: Vec<Lane>,
    /// By destination node: its first lane (the others chained by `next_class`), NIL until
    /// its first frame. One word per node, not per (node, class): a port of a large network
    /// keeps 4 bytes per destination.
    lane_of: Vec<u32>,
    seq: u64,
    /// Reused list of (arrival number, destination) for `dsts_in_order`.
    heads: Vec<(u64, NodeId)>,
}

impl EthBuffer {
    pub fn new(queues: usize, limit: u64) -> Self {
        EthBuffer {
            queues: (0..queues).map(|_| ClassQueue::default()).collect(),
            limit,
            slots: Vec::new(),
            free: NIL,
            lanes: Vec::new(),
            lane_of: Vec::new(),
            seq: 0,
            heads: Vec::new(),
        }
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

    /// The lane of frames of class `cos` to `dst`, made on first use (at most `COS` lanes
    /// per destination to look through).
    fn lane(&mut self, dst: NodeId, cos: usize) -> u32 {
        let d = dst.idx();
        if d >= self.lane_of.len() {
            self.lane_of.resize(d + 1, NIL);
        }
        let mut l = self.lane_of[d];
        while l != NIL {
            if self.lanes[l as usize].cos == cos {
                return l;
            }
            l = self.lanes[l as usize].next_class;
        }
        let new = self.lanes.len() as u32;
        self.lanes.push(Lane {
            dst,
            cos,
            head: NIL,
            tail: NIL,
            bytes: 0,
            at: NIL,
            next_class: self.lane_of[d],
        });
        self.lane_of[d] = new;
        new
    }

    /// Appends packet `id` (`size` bytes, class `cos`, to `dst`) to queue `q`.
    pub fn push(&mut self, q: usize, id: PacketId, size: u32, cos: usize, dst: NodeId) {
        let lane = self.lane(dst, cos);
        let cq = &mut self.queues[q];
        let slot =
            Slot { id, size, seq: self.seq, lane, prev: cq.tail, next: NIL, next_in_lane: NIL };
        self.seq += 1;
        let s = if self.free == NIL {
            self.slots.push(slot);
            (self.slots.len() - 1) as u32
        } else {
            let s = self.free;
            self.free = self.slots[s as usize].next;
            self.slots[s as usize] = slot;
            s
        };
        match cq.tail {
            NIL => cq.head = s,
            t => self.slots[t as usize].next = s,
        }
        cq.tail = s;
        let ln = &mut self.lanes[lane as usize];
        match ln.tail {
            NIL => {
                ln.head = s;
                ln.at = cq.lanes.len() as u32;
                cq.lanes.push(lane);
            }
            t => self.slots[t as usize].next_in_lane = s,
        }
        ln.tail = s;
        ln.bytes += size as u64;
        cq.len += 1;
        cq.bytes += size as u64;
    }

    /// Takes the next frame the timers let start at `now`: highest queue first, and in a
    /// queue the first frame not stopped (the earliest head among its unstopped lanes).
    /// Returns the packet and its queue.
    pub fn pop(&mut self, timers: &PauseTimers, now: SimTime) -> Option<(PacketId, usize)> {
        let paused = timers.any(now);
        for q in (0..self.queues.len()).rev() {
            let cq = &self.queues[q];
            let lane = if !paused {
                (cq.head != NIL).then(|| self.slots[cq.head as usize].lane)
            } else {
                cq.lanes
                    .iter()
                    .map(|&l| &self.lanes[l as usize])
                    .filter(|ln| !timers.blocks(ln.cos, ln.dst, now))
                    .min_by_key(|ln| self.slots[ln.head as usize].seq)
                    .map(|ln| self.slots[ln.head as usize].lane)
            };
            if let Some(lane) = lane {
                return Some((self.take_lane_head(q, lane), q));
            }
        }
        None
    }

    /// Removes the first frame of `lane` (in queue `q`) from both its lists.
    fn take_lane_head(&mut self, q: usize, lane: u32) -> PacketId {
        let s = self.lanes[lane as usize].head;
        let Slot { id, size, prev, next, next_in_lane, .. } = self.slots[s as usize];
        let cq = &mut self.queues[q];
        match prev {
            NIL => cq.head = next,
            p => self.slots[p as usize].next = next,
        }
        match next {
            NIL => cq.tail = prev,
            n => self.slots[n as usize].prev = prev,
        }
        let ln = &mut self.lanes[lane as usize];
        ln.head = next_in_lane;
        ln.bytes -= size as u64;
        if next_in_lane == NIL {
            ln.tail = NIL;
            let at = ln.at as usize;
            cq.lanes.swap_remove(at);
            if let Some(&moved) = cq.lanes.get(at) {
                self.lanes[moved as usize].at = at as u32;
            }
        }
        self.slots[s as usize].next = self.free;
        self.free = s;
        cq.len -= 1;
        cq.bytes -= size as u64;
        cq.departures += 1;
        cq.departure_bytes += size as u64;
        id
    }

    /// Bytes of queue `q` that the timers stop at `now` (for the cap on blocked traffic).
    pub fn blocked_bytes(&self, q: usize, timers: &PauseTimers, now: SimTime) -> u64 {
        self.queues[q]
            .lanes
            .iter()
            .map(|&l| &self.lanes[l as usize])
            .filter(|ln| timers.blocks(ln.cos, ln.dst, now))
            .map(|ln| ln.bytes)
            .sum()
    }

    /// The destinations of queue `q`'s frames, each listed at its first frame in arrival
    /// order (possibly more than once: a destination has a lane per class).
    pub fn dsts_in_order(&mut self, q: usize) -> impl Iterator<Item = NodeId> + '_ {
        self.heads.clear();
        let (lanes, slots) = (&self.lanes, &self.slots);
        self.heads.extend(self.queues[q].lanes.iter().map(|&l| {
            let ln = &lanes[l as usize];
            (slots[ln.head as usize].seq, ln.dst)
        }));
        self.heads.sort_unstable_by_key(|&(seq, _)| seq);
        self.heads.iter().map(|&(_, d)| d)
    }

    pub fn len_packets(&self) -> u64 {
        self.queues.iter().map(|q| q.len).sum()
    }

    pub fn len_bytes(&self) -> u64 {
        self.queues.iter().map(|q| q.bytes).sum()
    }
}
