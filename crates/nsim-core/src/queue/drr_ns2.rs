//! ns-2's Deficit Round Robin: source addresses hashed into buckets that share one buffer.
//!
//! Source: ns-2.35 `Queue/DRR` (queue/drr.cc, Sandeep Bajaj 1997; defaults from
//! tcl/lib/ns-default.tcl), after Shreedhar & Varghese, "Efficient Fair Queuing using Deficit
//! Round Robin", SIGCOMM 1995. nsim's `drr` (queue/round_robin.rs) schedules configured
//! classes with queues of their own; this one reproduces ns-2's discipline for ports of ns-2
//! studies, quirks included:
//!
//! - A packet goes to bucket `h(a) mod buckets`, where `a` is its source node (ns-2's source
//!   address: with flat addressing, the node id; nsim's node index, the same when nodes are
//!   declared in ns-2's order as the ns-2 front end does), or `a & 0xfff0` with `mask`, and
//!   `h(a) = ((a + (a >> 8) + !(a >> 4)) mod (2^24 - 1)) + 1`. Ports play no part: every flow
//!   of one node shares a bucket, and different nodes may collide.
//! - All buckets share `blimit` bytes. An arrival is queued first; then, while the buffer
//!   holds more than `blimit`, the bucket holding the most bytes (the first found walking the
//!   round from the current bucket) loses its head packet (`DropReason::Overflow`).
//! - A bucket joins the round at its end, with a deficit of 0, when it becomes backlogged.
//!   On its turn it gains `quantum` bytes once and sends while its head packet fits in the
//!   deficit; a bucket emptied by a departure leaves the round with deficit and turn reset,
//!   one emptied by overflow drops leaves it with both kept (its turn flag as it was).
//!
//! Parameters (ns-2 name, ns-2.35 default): `buckets` (`buckets_`, 10), `blimit` (`blimit_`,
//! 25000 bytes), `quantum` (`quantum_`, 250 bytes), `mask` (`mask_`, false). ns-2's
//! `limit_` plays no part. Checked against ns-2.35 on CBR flows from three nodes
//! (tests/test_queue_drr_ns2.py, reference/ns2/drr_ns2/).

use schemars::JsonSchema;
use serde::Deserialize;

use super::fifo::Fifo;
use super::{BuildCtx, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::PacketId;
use crate::record::DropReason;
use crate::units::{Bytes, SizeSpec};

/// ns-2 DRR configuration.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DrrNs2Config {
    /// Number of hash buckets (ns-2 `buckets_`), at least 1. Default 10.
    #[serde(default = "default_buckets")]
    pub buckets: u32,
    /// Buffer shared by all buckets (ns-2 `blimit_`), bytes. Default 25000 bytes.
    #[serde(default = "default_blimit")]
    pub blimit: SizeSpec,
    /// Bytes a bucket may send per round (ns-2 `quantum_`), at least 1. Default 250 bytes.
    #[serde(default = "default_quantum")]
    pub quantum: SizeSpec,
    /// Hash the source address with its low four bits cleared (ns-2 `mask_ 1`). Default false.
    #[serde(default)]
    pub mask: bool,
}

fn default_buckets() -> u32 {
    10
}
fn default_blimit() -> SizeSpec {
    SizeSpec(Bytes(25_000))
}
fn default_quantum() -> SizeSpec {
    SizeSpec(Bytes(250))
}

impl QueueConfig for DrrNs2Config {
    fn validate(&self, _path: &str) -> Result<(), String> {
        if self.buckets == 0 {
            return Err("buckets: at least 1 bucket".into());
        }
        if self.blimit.0 .0 == 0 {
            return Err("blimit: a shared buffer of 0 bytes drops every packet".into());
        }
        if self.quantum.0 .0 == 0 {
            return Err("quantum: a quantum of 0 bytes never sends (at least 1 byte)".into());
        }
        if self.quantum.0 .0 > i64::MAX as u64 / 4 {
            return Err(format!("quantum: {} bytes is too large", self.quantum.0 .0));
        }
        Ok(())
    }
    fn build(&self, _ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        Ok(Box::new(DrrNs2::new(self.buckets, self.blimit.0 .0, self.quantum.0 .0, self.mask)))
    }
}

/// One bucket: its packets, its deficit, and its place in the round (a ring of indices).
#[derive(Default)]
struct Bucket {
    fifo: Fifo,
    deficit: i64,
    /// Whether the bucket has had its quantum for the current visit (ns-2 `turn`).
    turn: bool,
    prev: u32,
    next: u32,
}

/// ns-2's hashed DRR (see the module doc).
pub struct DrrNs2 {
    buckets: Vec<Bucket>,
    blimit: u64,
    quantum: i64,
    mask: bool,
    /// The bucket whose turn it is; `None` when no bucket is backlogged.
    curr: Option<u32>,
    /// Backlogged buckets (ns-2 `flwcnt`).
    active: u32,
    pkts: u64,
    bytes: u64,
}

impl DrrNs2 {
    pub fn new(buckets: u32, blimit: u64, quantum: u64, mask: bool) -> Self {
        DrrNs2 {
            buckets: (0..buckets).map(|_| Bucket::default()).collect(),
            blimit,
            quantum: quantum as i64,
            mask,
            curr: None,
            active: 0,
            pkts: 0,
            bytes: 0,
        }
    }

    /// ns-2's `DRR::hash` of a source address, reduced to a bucket index.
    fn bucket_of(&self, src: u32) -> usize {
        let a = if self.mask { (src & 0xfff0) as i64 } else { src as i64 };
        let h = (a + (a >> 8) + !(a >> 4)) % ((2 << 23) - 1) + 1;
        h.rem_euclid(self.buckets.len() as i64) as usize
    }

    /// Puts bucket `b` at the end of the round (before the current bucket).
    fn activate(&mut self, b: u32) {
        match self.curr {
            Some(head) => {
                let last = self.buckets[head as usize].prev;
                self.buckets[b as usize].prev = last;
                self.buckets[b as usize].next = head;
                self.buckets[last as usize].next = b;
                self.buckets[head as usize].prev = b;
            }
            None => {
                self.buckets[b as usize].prev = b;
                self.buckets[b as usize].next = b;
                self.curr = Some(b);
            }
        }
        self.active += 1;
    }

    /// Takes bucket `b` out of the round; the turn passes on if it was `b`'s.
    fn idle(&mut self, b: u32) {
        let (prev, next) = (self.buckets[b as usize].prev, self.buckets[b as usize].next);
        if next == b {
            self.curr = None;
        } else {
            self.buckets[next as usize].prev = prev;
            self.buckets[prev as usize].next = next;
            if self.curr == Some(b) {
                self.curr = Some(next);
            }
        }
        self.active -= 1;
    }

    /// The backlogged bucket holding the most bytes, the first such from the current one
    /// (ns-2 `getMaxflow`).
    fn longest(&self) -> u32 {
        let start = self.curr.expect("the buffer holds packets");
        let (mut best, mut b) = (start, start);
        for _ in 0..self.active {
            if self.buckets[b as usize].fifo.bytes() > self.buckets[best as usize].fifo.bytes() {
                best = b;
            }
            b = self.buckets[b as usize].next;
        }
        best
    }
}

impl QueueDisc for DrrNs2 {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let p = ctx.pool.get(id);
        let (size, b) = (p.size, self.bucket_of(p.src.0));
        self.buckets[b].fifo.push(id, size, ctx.now);
        self.pkts += 1;
        self.bytes += size as u64;
        if self.buckets[b].fifo.packets() == 1 {
            self.buckets[b].deficit = 0;
            self.activate(b as u32);
        }
        while self.bytes > self.blimit {
            let m = self.longest();
            let e = self.buckets[m as usize].fifo.pop().expect("a backlogged bucket");
            self.pkts -= 1;
            self.bytes -= e.size as u64;
            ctx.drops.push((e.id, DropReason::Overflow));
            if self.buckets[m as usize].fifo.packets() == 0 {
                self.idle(m);
            }
        }
    }

    fn dequeue(&mut self, _ctx: &mut QueueCtx) -> Option<PacketId> {
        let mut c = self.curr?;
        loop {
            let quantum = self.quantum;
            let bucket = &mut self.buckets[c as usize];
            if !bucket.turn {
                bucket.deficit += quantum;
                bucket.turn = true;
            }
            let size = bucket.fifo.front().expect("a backlogged bucket").size as i64;
            if bucket.deficit >= size {
                bucket.deficit -= size;
                let e = bucket.fifo.pop().expect("a backlogged bucket");
                let emptied = bucket.fifo.packets() == 0;
                if emptied {
                    bucket.turn = false;
                    bucket.deficit = 0;
                }
                self.pkts -= 1;
                self.bytes -= e.size as u64;
                if emptied {
                    self.idle(c);
                }
                return Some(e.id);
            }
            bucket.turn = false;
            c = bucket.next;
            self.curr = Some(c);
        }
    }

    fn len_packets(&self) -> u64 {
        self.pkts
    }

    fn len_bytes(&self) -> u64 {
        self.bytes
    }

    /// Dequeuing the empty queue changes nothing.
    fn notices_idle(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests;
