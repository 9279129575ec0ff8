//! Host output scheduler/shaper, design #3 of Noureddine 2002 (§4.6.2, Fig. 4.21,
//! Algorithm 2; notes seed-002b.md §3.4, §3.7): per-connection queues in three strict-priority
//! classes, an independent WRR per mark inside each class, HIGH and MED packets gated by the
//! host's two token buckets, and remarking of packets that waited too long.
//!
//! Marks are the packet's `prio` as the `af` discipline reads it: 0 HIGH, 1 MED, 2 or more
//! LOW (a TCP-DS marker or a video layer sets it; an unmarked flow's default `prio` 0 is HIGH).
//! One dequeue, for class 1, 2, 3 in turn, and in each class for HIGH, MED, LOW in turn:
//!
//! * the class's WRR for that mark "clears" a connection (the next one in the round whose head
//!   packet may go at that mark; a connection sends `weight` packets per visit);
//! * HIGH / MED: the packet leaves if the mark's bucket holds its size and no higher class is
//!   waiting for a token of that mark in this pass ("a lower class cannot send at a marking
//!   level at which a higher class is blocked by the shaper"); else the class is waiting at
//!   that mark and the next mark is tried. LOW packets always leave.
//!
//! The seed's prose ("Otherwise, MED priority packets, if any, are checked, followed by LOW")
//! is followed where the pseudo-code's `else if` could be read as skipping MED and LOW once a
//! HIGH packet was cleared. Remarking: a HIGH head that has waited `maxdelay_high` (200 ms)
//! is "anxious" and may also go as MED, examined before the MED heads of its class; a HIGH or
//! MED head that has waited `maxdelay_med` (400 ms) may also go as LOW in its turn. The mark
//! changes only when the packet leaves at the lower mark. When nothing can leave, the link is
//! woken at the earliest time a blocked bucket will hold the cleared packet (then the bucket
//! is checked again: a smaller packet may have taken the tokens) or a waiting head becomes
//! anxious. Buckets start full (RFC 2697 convention, like `shaper`).
//!
//! "MUST keep mark" (seed §3.6, §3.7: "packets flagged MUST are never remarked"): a packet
//! whose TCP flags carry [`flags::MUST_KEEP`] (set by the TCP-DS marker, `tcp_ds.must_keep`,
//! e.g. on the SYN of an interactive application) is never anxious: it waits for a token of
//! its own mark however long it waits.
//!
//! ACK bypass (`ack_bypass = true`; seed §3.7, one of the two fixes for ACKs held behind
//! shaped data): pure ACKs (no payload, no SYN/FIN/RST) skip the connection queues and the
//! token buckets; they wait in one FIFO served before every class and keep their mark. Not
//! modelled: the thesis' companion measures (a pure ACK emitted beside a queued data segment
//! carrying a new ACK, or rewriting the ACK field of queued segments), which change the TCP
//! sender rather than the scheduler.
//!
//! Cost: a dequeue scans the connections of each class (hosts have a few); no allocation or
//! hashing per packet (connection queues are indexed by flow id).

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::Deserialize;

use super::classify::{Classifier, MatchSpec};
use super::token_bucket::TokenBucket;
use super::{BuildCtx, ClassStats, QueueConfig, QueueCtx, QueueDisc};
use crate::packet::flags;
use crate::packet::{PType, PacketId};
use crate::record::flow_stats::mark;
use crate::record::DropReason;
use crate::time::{Dur, SimTime};
use crate::units::BitsPerSec;
use crate::units::{RateSpec, SizeSpec, TimeSpec};

/// Host scheduler configuration.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HostSchedConfig {
    /// Which class (1 highest .. 3) and WRR weight each flow's connection gets: the first
    /// rule matching a connection's first packet wins.
    #[serde(default)]
    pub connections: Vec<ConnectionRule>,
    /// The class of connections no rule matches. Default 3.
    #[serde(default = "three")]
    pub default_class: u8,
    /// The HIGH token bucket. Default 250 Kbps, 6000 B Noureddine 2002 (§4.6.3 TCP-DS SLA).
    pub high: Option<BucketSpec>,
    /// The MED token bucket. Default 500 Kbps, 6000 B (depth not given in the seed).
    pub med: Option<BucketSpec>,
    /// A HIGH packet waiting this long may leave as MED. Default 200 ms.
    pub maxdelay_high: Option<TimeSpec>,
    /// A HIGH or MED packet waiting this long may leave as LOW. Default 400 ms.
    pub maxdelay_med: Option<TimeSpec>,
    /// Packets held over all connections; an arrival beyond it is dropped. Default 1000.
    #[serde(default = "thousand")]
    pub limit: u64,
    /// Pure ACKs bypass the connection queues and token buckets (served first, in arrival
    /// order). Default false.
    #[serde(default)]
    pub ack_bypass: bool,
}

/// A class and WRR weight for the connections a match takes.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConnectionRule {
    #[serde(rename = "match")]
    pub matches: MatchSpec,
    /// 1 (highest, e.g. Telnet), 2 (e.g. Web) or 3 (e.g. FTP).
    pub class: u8,
    /// Packets per WRR visit, >= 1. Default 1.
    #[serde(default = "one")]
    pub weight: u32,
}

/// A token bucket: rate and depth.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BucketSpec {
    pub rate: RateSpec,
    pub depth: SizeSpec,
}

fn three() -> u8 {
    3
}
fn one() -> u32 {
    1
}
fn thousand() -> u64 {
    1000
}

const HIGH: usize = 0;
const MED: usize = 1;
const LOW: usize = 2;

impl HostSchedConfig {
    fn buckets(&self) -> [(BitsPerSec, u64); 2] {
        let b = |s: Option<BucketSpec>, rate| {
            s.map_or((BitsPerSec(rate), 6000), |s| (s.rate.0, s.depth.0 .0))
        };
        [b(self.high, 250_000), b(self.med, 500_000)]
    }
}

impl QueueConfig for HostSchedConfig {
    fn validate(&self, _path: &str) -> Result<(), String> {
        let class_ok = |c: u8| (1..=3).contains(&c);
        for (i, r) in self.connections.iter().enumerate() {
            if !class_ok(r.class) {
                return Err(format!("connections[{i}].class: {} is not 1, 2 or 3", r.class));
            }
            if r.weight == 0 {
                return Err(format!("connections[{i}].weight: must be at least 1"));
            }
        }
        if !class_ok(self.default_class) {
            return Err(format!("default_class: {} is not 1, 2 or 3", self.default_class));
        }
        for ((rate, depth), name) in self.buckets().into_iter().zip(["high", "med"]) {
            if rate.0 == 0 || depth == 0 {
                return Err(format!("{name}: rate and depth must be positive"));
            }
        }
        if self.limit == 0 {
            return Err("limit: must be at least 1 packet".into());
        }
        Ok(())
    }

    fn build(&self, ctx: &BuildCtx) -> Result<Box<dyn QueueDisc>, String> {
        let mut specs: Vec<Option<&MatchSpec>> =
            self.connections.iter().map(|r| Some(&r.matches)).collect();
        specs.push(None);
        let classifier =
            Classifier::new(&specs, ctx).map_err(|e| e.replacen("classes[", "connections[", 1))?;
        let mut rules: Vec<(usize, u32)> =
            self.connections.iter().map(|r| (r.class as usize - 1, r.weight)).collect();
        rules.push((self.default_class as usize - 1, 1));
        let [h, m] = self.buckets();
        let md = |t: Option<TimeSpec>, ms| t.map_or(Dur::from_millis(ms), |t| t.0);
        Ok(Box::new(HostSched {
            classifier,
            rules,
            conns: Vec::new(),
            members: Default::default(),
            rr: Default::default(),
            buckets: [TokenBucket::new(h.0, h.1), TokenBucket::new(m.0, m.1)],
            maxdelay: [md(self.maxdelay_high, 200), md(self.maxdelay_med, 400)],
            limit: self.limit,
            ack_bypass: self.ack_bypass,
            acks: VecDeque::new(),
            len: (0, 0),
            stats: std::array::from_fn(|c| ClassStats {
                name: format!("class{}", c + 1),
                ..Default::default()
            }),
        }))
    }
}

/// One connection's queue: packets with their arrival times.
struct Conn {
    q: VecDeque<(PacketId, SimTime)>,
    class: usize,
    weight: u32,
}

/// A WRR round over a class's connections for one mark: the connection being visited and
/// the packets it has sent in this visit.
#[derive(Clone, Copy, Default)]
struct Round {
    pos: usize,
    used: u32,
}

/// Which heads a WRR pass looks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    /// Heads marked `mark`.
    Own(usize),
    /// HIGH heads that have waited `maxdelay_high` (sent as MED).
    AnxiousHigh,
    /// LOW heads, or HIGH / MED heads that have waited `maxdelay_med` (sent as LOW).
    Low,
}

pub struct HostSched {
    classifier: Classifier,
    /// (class, weight) per classifier result; the last is the default.
    rules: Vec<(usize, u32)>,
    /// Connection queues by flow id.
    conns: Vec<Option<Conn>>,
    /// Flow ids of each class's connections, in order of first arrival.
    members: [Vec<usize>; 3],
    rr: [[Round; 3]; 3],
    buckets: [TokenBucket; 2],
    maxdelay: [Dur; 2],
    limit: u64,
    ack_bypass: bool,
    /// Bypassing pure ACKs with their connection's class, oldest first.
    acks: VecDeque<(PacketId, usize)>,
    len: (u64, u64),
    stats: [ClassStats; 3],
}

impl HostSched {
    /// Whether connection `f`'s head may go in a pass for `want` at `now`.
    fn fits(&self, f: usize, want: Want, now: SimTime, pool: &crate::packet::PacketPool) -> bool {
        let Some(&(id, at)) = self.conns[f].as_ref().and_then(|c| c.q.front()) else {
            return false;
        };
        let p = pool.get(id);
        let (m, waited, keeps) = (mark(p.prio), now.since(at), must_keep(p));
        match want {
            Want::Own(x) => m == x,
            Want::AnxiousHigh => m == HIGH && !keeps && waited >= self.maxdelay[0],
            Want::Low => m == LOW || (!keeps && waited >= self.maxdelay[1]),
        }
    }

    /// The connection the WRR of (`class`, `mark`) clears: the first from the round's
    /// position whose head fits the first `wants` that any head fits.
    fn clear(
        &self,
        class: usize,
        mark: usize,
        wants: &[Want],
        now: SimTime,
        pool: &crate::packet::PacketPool,
    ) -> Option<usize> {
        let members = &self.members[class];
        let n = members.len();
        let pos = self.rr[class][mark].pos;
        wants.iter().find_map(|&w| {
            (0..n).map(|j| (pos + j) % n).find(|&k| self.fits(members[k], w, now, pool))
        })
    }

    /// Counts a packet of `class` leaving.
    fn departed(&mut self, class: usize, size: u64) {
        self.len.0 -= 1;
        self.len.1 -= size;
        self.stats[class].departures += 1;
        self.stats[class].departure_bytes += size;
        self.stats[class].queued_pkts -= 1;
    }

    /// Sends the head of member `k` of `class` at `mark`, advancing that mark's round.
    fn send(&mut self, class: usize, mark: usize, k: usize, ctx: &mut QueueCtx) -> PacketId {
        let f = self.members[class][k];
        let conn = self.conns[f].as_mut().expect("a member has a queue");
        let (id, _) = conn.q.pop_front().expect("a cleared head");
        let r = &mut self.rr[class][mark];
        if r.pos != k {
            *r = Round { pos: k, used: 0 };
        }
        r.used += 1;
        if r.used >= conn.weight {
            *r = Round { pos: (k + 1) % self.members[class].len(), used: 0 };
        }
        let p = ctx.pool.get_mut(id);
        p.prio = p.prio.max(mark as u8);
        let size = p.size as u64;
        self.departed(class, size);
        id
    }

    /// The earliest time after `now` a waiting HIGH or MED head becomes eligible at a lower mark.
    fn next_anxiety(&self, now: SimTime, pool: &crate::packet::PacketPool) -> Option<SimTime> {
        self.conns
            .iter()
            .flatten()
            .filter_map(|c| c.q.front())
            .filter(|&&(id, _)| !must_keep(pool.get(id)))
            .flat_map(|&(id, at)| {
                let m = mark(pool.get(id).prio);
                let high = (m == HIGH).then(|| at + self.maxdelay[0]);
                let med = (m <= MED).then(|| at + self.maxdelay[1]);
                [high, med]
            })
            .flatten()
            .filter(|&t| t > now)
            .min()
    }
}

/// The marker asked that this packet keep its mark.
fn must_keep(p: &crate::packet::Packet) -> bool {
    p.tcp.flags & flags::MUST_KEEP != 0
}

/// A pure ACK: a TCP segment without payload, SYN, FIN or RST.
fn pure_ack(p: &crate::packet::Packet) -> bool {
    matches!(p.ptype, PType::Ack | PType::Tcp)
        && p.tcp.payload == 0
        && p.tcp.flags & (flags::SYN | flags::FIN | flags::RST) == 0
}

impl QueueDisc for HostSched {
    fn enqueue(&mut self, id: PacketId, ctx: &mut QueueCtx) {
        let p = ctx.pool.get(id);
        let (f, size) = (p.flow.idx(), p.size as u64);
        if f >= self.conns.len() {
            self.conns.resize_with(f + 1, || None);
        }
        if self.conns[f].is_none() {
            let (class, weight) = self.rules[self.classifier.classify(p)];
            self.conns[f] = Some(Conn { q: VecDeque::new(), class, weight });
            self.members[class].push(f);
        }
        let conn = self.conns[f].as_mut().expect("just created");
        let s = &mut self.stats[conn.class];
        s.arrivals += 1;
        s.arrival_bytes += size;
        if self.len.0 >= self.limit {
            s.drops[DropReason::Overflow.idx()] += 1;
            ctx.drops.push((id, DropReason::Overflow));
            return;
        }
        if self.ack_bypass && pure_ack(p) {
            self.acks.push_back((id, conn.class));
        } else {
            conn.q.push_back((id, ctx.now));
        }
        s.queued_pkts += 1;
        self.len.0 += 1;
        self.len.1 += size;
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<PacketId> {
        let now = ctx.now;
        if let Some((id, class)) = self.acks.pop_front() {
            let size = ctx.pool.get(id).size as u64;
            self.departed(class, size);
            return Some(id);
        }
        // Marks at which a higher class waits for a token in this pass.
        let mut waiting = [false; 2];
        let mut wake: Option<SimTime> = None;
        for class in 0..3 {
            if self.stats[class].queued_pkts == 0 {
                continue;
            }
            let mut class_waits = [false; 2];
            for mark in [HIGH, MED, LOW] {
                let wants: &[Want] = match mark {
                    HIGH => &[Want::Own(HIGH)],
                    MED => &[Want::AnxiousHigh, Want::Own(MED)],
                    _ => &[Want::Low],
                };
                let Some(k) = self.clear(class, mark, wants, now, ctx.pool) else { continue };
                if mark == LOW {
                    return Some(self.send(class, mark, k, ctx));
                }
                let (id, _) = *self.conns[self.members[class][k]]
                    .as_ref()
                    .and_then(|c| c.q.front())
                    .expect("a cleared head");
                let size = ctx.pool.get(id).size;
                if !waiting[mark] && self.buckets[mark].take(now, size) {
                    return Some(self.send(class, mark, k, ctx));
                }
                class_waits[mark] = true;
                if let Some(t) = self.buckets[mark].ready_at(now, size).filter(|&t| t > now) {
                    wake = Some(wake.map_or(t, |w| w.min(t)));
                }
            }
            waiting = [waiting[0] || class_waits[0], waiting[1] || class_waits[1]];
        }
        for t in wake.into_iter().chain(self.next_anxiety(now, ctx.pool)) {
            ctx.wake(t);
        }
        None
    }

    fn len_packets(&self) -> u64 {
        self.len.0
    }

    fn len_bytes(&self) -> u64 {
        self.len.1
    }

    fn class_stats(&self) -> Vec<ClassStats> {
        self.stats.to_vec()
    }
}

#[cfg(test)]
mod tests;
