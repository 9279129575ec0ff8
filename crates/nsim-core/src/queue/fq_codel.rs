//! FQ-CoDel: flow queueing with per-flow CoDel (RFC 8290).
//!
//! Read first: RFC 8290 §4.1 (enqueue: classify into a flow queue, drop from the fattest
//! queue on overflow), §4.2 (dequeue: DRR over "new" then "old" flow lists, quantum 1514,
//! new flows moved to the old list when they empty or use up their deficit), §5.1
//! (defaults: 1024 flows, quantum 1514 B, limit 10240 packets, CoDel 5 ms / 100 ms); Linux
//! `sch_fq_codel.c`.
//!
//! Flows are nsim flow ids: bucket = flow id mod `flows` (a perfect hash while there are no
//! more flows than buckets; RFC 8290 hashes the 5-tuple with a random perturbation, which
//! can collide). On overflow nsim drops from the head of the fattest bucket, as RFC 8290
//! §4.1 says, in a batch of up to half its packets (at most 64) as Linux does, so the O(flows)
//! search for the fattest bucket is amortized. ECN-capable packets are marked instead of
//! dropped by CoDel (`ecn`, on by default as in Linux). Each bucket's CoDel measures its own
//! bytes for the "last MTU" rule (Linux uses the whole qdisc's backlog). Not implemented:
//! `memory_limit`, the `drop_batch_size` option, hash perturbation.

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::Deserialize;

use super::codel::{check_codel, CodelParams, CodelState};
use super::fifo::Fifo;
use super::{BuildCtx, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::PacketId;
use crate::record::DropReason;
use crate::time::Dur;
use crate::units::TimeSpec;

/// FQ-CoDel configuration (defaults: RFC 8290 §5.1 and Linux).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FqCodelConfig {
    /// Number of flow queues. Default 1024.
    #[serde(default = "default_flows")]
    pub flows: u32,
    /// DRR quantum in bytes. Default 1514 (RFC 8290 §5.1).
    #[serde(default = "default_quantum")]
    pub quantum: u32,
    /// Total packets held before dropping from the fattest flow. Default 10240.
    #[serde(default = "default_limit")]
    pub limit: u64,
    /// Per-flow CoDel target. Default 5ms.
    #[serde(default = "default_target")]
    pub target: TimeSpec,
    /// Per-flow CoDel interval. Default 100ms.
    #[serde(default = "default_interval")]
    pub interval: TimeSpec,
    /// CoDel's "last MTU is never dropped" size. Default 1514 B.
    #[serde(default = "default_quantum")]
    pub mtu: u32,
    /// Mark ECN-capable packets CE instead of dropping them (RFC 8290 §5.1 / Linux default:
    /// on). Default true.
    #[serde(default = "yes")]
    pub ecn: bool,
}

fn yes() -> bool {
    true
}

fn default_flows() -> u32 {
    1024
}
fn default_quantum() -> u32 {
    1514
}
fn default_limit() -> u64 {
    10240
}
fn default_target() -> TimeSpec {
    TimeSpec(Dur::from_millis(5))
}
fn default_interval() -> TimeSpec {
    TimeSpec(Dur::from_millis(100))
}

impl QueueConfig for FqCodelConfig {
    fn validate(&self, _path: &str) -> Result<(), String> {
        if self.flows == 0 || self.flows > 65536 {
            return Err("flows: must be in [1, 65536]".into());
        }
        if self.quantum == 0 {
            return Err("quantum: must be at least 1 byte".into());
        }
        if self.limit == 0 {
            return Err("limit: must be at least 1 packet".into());
        }
        check_codel(self.target.0, self.interval.0)
    }

    fn build(&self, _ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        let params = CodelParams {
            target: self.target.0,
            interval: self.interval.0,
            mtu: self.mtu,
            ecn: self.ecn,
        };
        let n = self.flows as usize;
        Ok(Box::new(FqCodel {
            buckets: (0..n)
                .map(|_| Bucket {
                    fifo: Fifo::default(),
                    codel: CodelState::new(params),
                    deficit: 0,
                    list: List::None,
                })
                .collect(),
            new_flows: VecDeque::with_capacity(n),
            old_flows: VecDeque::with_capacity(n),
            quantum: self.quantum as i64,
            limit: self.limit,
            pkts: 0,
            bytes: 0,
        }))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    None,
    New,
    Old,
}

struct Bucket {
    fifo: Fifo,
    codel: CodelState,
    deficit: i64,
    list: List,
}

pub struct FqCodel {
    buckets: Vec<Bucket>,
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
    quantum: i64,
    limit: u64,
    pkts: u64,
    bytes: u64,
}

/// Linux `fq_codel_drop`: at most this many packets per overflow batch.
const MAX_BATCH: u64 = 64;

impl FqCodel {
    /// RFC 8290 §4.1: drop from the head of the fattest flow queue (a batch of up to half
    /// its packets, at most 64, as Linux).
    fn drop_from_fattest(&mut self, ctx: &mut QueueCtx) {
        let fat = (0..self.buckets.len())
            .max_by_key(|&i| self.buckets[i].fifo.bytes())
            .expect("at least one bucket");
        let b = &mut self.buckets[fat];
        let n = (b.fifo.packets() / 2).clamp(1, MAX_BATCH);
        for _ in 0..n {
            let Some(e) = b.fifo.pop() else { break };
            self.pkts -= 1;
            self.bytes -= e.size as u64;
            ctx.drops.push((e.id, DropReason::Overflow));
        }
    }

    /// The front flow of the new list, else of the old list.
    fn head(&self) -> Option<(u32, List)> {
        match self.new_flows.front() {
            Some(&f) => Some((f, List::New)),
            None => self.old_flows.front().map(|&f| (f, List::Old)),
        }
    }

    fn pop_head(&mut self, list: List) {
        match list {
            List::New => self.new_flows.pop_front(),
            _ => self.old_flows.pop_front(),
        };
    }

    fn move_to_old_tail(&mut self, f: u32, from: List) {
        self.pop_head(from);
        self.old_flows.push_back(f);
        self.buckets[f as usize].list = List::Old;
    }
}

impl QueueDisc for FqCodel {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let p = ctx.pool.get(id);
        let (f, size) = ((p.flow.0 as usize % self.buckets.len()) as u32, p.size);
        let b = &mut self.buckets[f as usize];
        b.fifo.push(id, size, ctx.now);
        if b.list == List::None {
            b.list = List::New;
            b.deficit = self.quantum;
            self.new_flows.push_back(f);
        }
        self.pkts += 1;
        self.bytes += size as u64;
        if self.pkts > self.limit {
            self.drop_from_fattest(ctx);
        }
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        while let Some((f, list)) = self.head() {
            let quantum = self.quantum;
            let b = &mut self.buckets[f as usize];
            if b.deficit <= 0 {
                b.deficit += quantum;
                self.move_to_old_tail(f, list);
                continue;
            }
            let (p0, b0) = (b.fifo.packets(), b.fifo.bytes());
            let out = b.codel.dequeue(&mut b.fifo, ctx);
            self.pkts -= p0 - b.fifo.packets();
            self.bytes -= b0 - b.fifo.bytes();
            match out {
                Some(e) => {
                    b.deficit -= e.size as i64;
                    return Some(e.id);
                }
                // RFC 8290 §4.2: an empty new flow goes to the old list (so it cannot
                // starve the old ones by re-entering as new); an empty old flow leaves.
                None if list == List::New => self.move_to_old_tail(f, list),
                None => {
                    self.pop_head(list);
                    self.buckets[f as usize].list = List::None;
                }
            }
        }
        None
    }

    fn len_packets(&self) -> u64 {
        self.pkts
    }

    fn len_bytes(&self) -> u64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests;
