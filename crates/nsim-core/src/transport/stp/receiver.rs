//! The STP receiver (Henderson & Katz 1999; SSCOP receiver, ITU-T Q.2110): no ACK per
//! packet. It answers each POLL with a STAT (cumulative N(R) plus the gaps below the highest
//! sequence number the POLL announced) and sends a USTAT at once when a packet arrives
//! beyond the highest expected one, listing the new gap. Data is delivered in order; goodput
//! counts payload bytes as they are delivered.
//!
//! Out-of-order packets wait in a ring that grows only to its high-water mark.

use std::collections::VecDeque;

use crate::agent::{Agent, AgentCtx};
use crate::ids::{AgentId, NodeId};
use crate::packet::{PType, Packet, PacketId};
use crate::transport::stp::config::StpParams;
use crate::transport::stp::wire::{Poll, Stat, GAP_BYTES, MAX_GAPS};

pub struct StpSink {
    p: StpParams,
    src: NodeId,
    src_agent: AgentId,
    /// VR(R): next sequence number expected in order.
    next: u64,
    /// VR(H): one past the highest sequence number known to have been sent.
    high: u64,
    /// Slot i is sequence `next + 1 + i`: its payload + 1 if received (0 = missing).
    ooo: VecDeque<u32>,
}

impl StpSink {
    pub fn new(p: StpParams, src: NodeId, src_agent: AgentId) -> Self {
        StpSink {
            ooo: VecDeque::with_capacity((p.window as usize).min(4096) + 8),
            p,
            src,
            src_agent,
            next: 0,
            high: 0,
        }
    }

    fn have(&self, seq: u64) -> bool {
        seq < self.next
            || (seq > self.next
                && self.ooo.get((seq - self.next - 1) as usize).is_some_and(|&v| v != 0))
    }

    /// Stores packet `seq`; returns the payload bytes now delivered in order.
    fn receive(&mut self, seq: u64, payload: u32) -> u64 {
        if seq < self.next {
            return 0;
        }
        if seq > self.next {
            let i = (seq - self.next - 1) as usize;
            if i >= self.ooo.len() {
                self.ooo.resize(i + 1, 0);
            }
            self.ooo[i] = payload + 1;
            return 0;
        }
        let mut delivered = payload as u64;
        self.next += 1;
        while let Some(front) = self.ooo.pop_front() {
            if front == 0 {
                return delivered;
            }
            self.next += 1;
            delivered += front as u64 - 1;
        }
        delivered
    }

    /// Up to [`MAX_GAPS`] missing ranges in [next, high), lowest first.
    fn gaps(&self) -> ([(u64, u64); MAX_GAPS], usize) {
        let mut out = [(0, 0); MAX_GAPS];
        let (mut n, mut seq) = (0, self.next);
        while seq < self.high && n < MAX_GAPS {
            if self.have(seq) {
                seq += 1;
                continue;
            }
            let start = seq;
            while seq < self.high && !self.have(seq) {
                seq += 1;
            }
            out[n] = (start, seq);
            n += 1;
        }
        (out, n)
    }

    fn send_stat(&mut self, s: Stat, ctx: &mut AgentCtx) {
        let c = &mut ctx.net.flows[ctx.flow.idx()].ctl;
        if s.poll.is_some() {
            c.stats += 1;
        } else {
            c.ustats += 1;
        }
        ctx.send(Packet {
            dst: self.src,
            dst_agent: self.src_agent,
            size: self.p.header + GAP_BYTES * s.ngaps as u32,
            ptype: PType::StpStat,
            seq: s.cum,
            tcp: s.encode(),
            ..Packet::default()
        });
    }
}

impl Agent for StpSink {
    fn on_timer(&mut self, _kind: u16, _gen: u32, _ctx: &mut AgentCtx) {}

    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        let pkt = ctx.net.pool.get(id);
        let (ptype, h) = (pkt.ptype, pkt.tcp);
        if ptype == PType::StpPoll {
            let poll = Poll::decode(&h);
            self.high = self.high.max(poll.next_seq);
            let (gaps, ngaps) = self.gaps();
            let s = Stat { poll: Some((poll.ps, poll.sent)), cum: self.next, gaps, ngaps };
            self.send_stat(s, ctx);
            return;
        }
        let seq = h.seq;
        let delivered = self.receive(seq, h.payload);
        ctx.net.flows[ctx.flow.idx()].goodput_bytes += delivered;
        if seq > self.high {
            // A new gap [high, seq): report it at once (USTAT).
            let mut gaps = [(0, 0); MAX_GAPS];
            gaps[0] = (self.high, seq);
            let s = Stat { poll: None, cum: self.next, gaps, ngaps: 1 };
            self.high = seq + 1;
            self.send_stat(s, ctx);
        } else if seq == self.high {
            self.high += 1;
        }
    }
}
