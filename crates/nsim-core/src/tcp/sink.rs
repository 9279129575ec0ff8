//! TCP receivers (ns-2 `Agent/TCPSink`, `Agent/TCPSink/DelAck`, `Agent/TCPSink/Sack1`;
//! tcp/tcp-sink.cc).
//!
//! - Every ACK carries the highest in-order sequence number received (ns-2 convention) and
//!   echoes a send timestamp. With `ts_echo_bugfix` (default, ns-2.35 `ts_echo_bugfix_ true`,
//!   the default since 2003/08/13 in tcl/lib/ns-default.tcl; `Acker::update_ts`, RFC 7323
//!   §4.3 TS.Recent) it is the timestamp of the latest segment at or below the last ACK sent
//!   plus one, taken only if not older than the one held: out-of-order segments above a hole
//!   echo the segment before the hole, a delayed ACK echoes the first of its two segments.
//!   Without it (ns-2 before 2003/08/13) the ACK echoes the segment that triggered it.
//! - Immediate ACK (default): one ACK per data segment.
//! - Delayed ACK (`delayed_ack = true`, ns-2 `DelAckSink`): an in-order segment with no ACK
//!   pending arms the delay timer (default 100 ms) and is not acknowledged yet; the next
//!   segment, or the timer, sends the ACK. Out-of-order segments and segments that fill a gap
//!   are acknowledged at once (RFC 5681 §4.2, RFC 1122 §4.2.3.2).
//! - SACK (`sack = true`): up to 3 blocks `[left, right)`, the first one containing the
//!   segment that triggered the ACK, then the most recently reported others (RFC 2018 §4).
//! - ECN (RFC 3168 §6.1.3): after a CE-marked segment every ACK carries ECE, until a segment
//!   with CWR arrives. For DCTCP (`dctcp_echo`, RFC 8257 §3.2) an ACK carries ECE exactly when
//!   the segments it acknowledges were CE-marked: with delayed ACKs, a segment whose CE state
//!   differs from the one before sends the delayed ACK at once, with the old state.
//! - Goodput: payload bytes are counted when they are delivered in order (headers, SYN and
//!   duplicates excluded), into the flow's `goodput_bytes`.
//!
//! Out-of-order segments wait in a ring that grows only to its high-water mark (no allocation
//! per packet in steady state).

use std::collections::VecDeque;

use crate::agent::{Agent, AgentCtx};
use crate::ids::{AgentId, NodeId};
use crate::packet::flags;
use crate::packet::{Ecn, PType, Packet, PacketId, TcpHdr};
use crate::time::{Dur, SimTime};

const TIMER_DELACK: u16 = 1;
/// RFC 2018 §3: at most 3 blocks fit beside the timestamp option.
const MAX_SACK_BLOCKS: usize = 3;
/// Bytes an ACK grows per SACK block (ns-2 `Agent/TCPSink/Sack1`).
const SACK_BLOCK_BYTES: u32 = 8;

#[derive(Clone, Copy, Debug)]
pub struct SinkParams {
    pub header: u32,
    pub delayed_ack: bool,
    pub delack_interval: Dur,
    pub sack: bool,
    /// Each ACK carries the `prio` of the data segment it answers (TCP-DS, Noureddine 2002
    /// §4.6.1); false: precedence 0.
    pub inherit_prio: bool,
    /// ECN-Echo as RFC 8257 §3.2 (DCTCP): each ACK echoes the CE state of what it acknowledges.
    pub dctcp_echo: bool,
    /// Echo the held timestamp (ns-2 `ts_echo_bugfix_`, see the module doc); false: the
    /// triggering segment's.
    pub ts_echo_bugfix: bool,
}

pub struct TcpSink {
    p: SinkParams,
    /// Where ACKs go: the source node and agent.
    src: NodeId,
    src_agent: AgentId,
    /// Highest in-order sequence number received; -1 before any.
    cum: i64,
    /// Segments above `cum + 1` received so far: slot i is `cum + 2 + i`, holding payload + 1
    /// (0 = missing).
    ooo: VecDeque<u32>,
    /// Previously reported SACK blocks, most recent first.
    blocks: [(i64, i64); MAX_SACK_BLOCKS],
    nblocks: usize,
    /// The header of the segment whose ACK is being delayed.
    delayed: Option<TcpHdr>,
    delack_gen: u32,
    ece: bool,
    /// `prio` of the latest data segment, for ACKs that inherit it.
    last_prio: u8,
    /// The timestamp the next ACK echoes with `ts_echo_bugfix` (ns-2 `ts_to_echo_`).
    ts_to_echo: SimTime,
    /// Cumulative ACK of the last ACK sent; 0 before any, as ns-2's `last_ack_sent_`.
    last_ack_sent: i64,
}

impl TcpSink {
    pub fn new(p: SinkParams, src: NodeId, src_agent: AgentId, window: u32) -> Self {
        TcpSink {
            p,
            src,
            src_agent,
            cum: -1,
            ooo: VecDeque::with_capacity(
                (window as usize).min(crate::tcp::scoreboard::INITIAL_SLOTS) + 8,
            ),
            blocks: [(0, 0); MAX_SACK_BLOCKS],
            nblocks: 0,
            delayed: None,
            delack_gen: 0,
            ece: false,
            last_prio: 0,
            ts_to_echo: SimTime::ZERO,
            last_ack_sent: 0,
        }
    }

    /// ns-2 `Acker::update_ts` with `ts_echo_rfc1323_ false`: hold the timestamp of a segment
    /// that the last ACK sent made next in order (or acknowledged), unless it is older.
    fn hold_timestamp(&mut self, h: &TcpHdr) {
        if h.seq as i64 <= self.last_ack_sent + 1 && h.ts_echo >= self.ts_to_echo {
            self.ts_to_echo = h.ts_echo;
        }
    }

    /// Records segment `seq`; returns payload bytes newly delivered in order.
    fn receive(&mut self, seq: i64, payload: u32) -> u64 {
        if seq <= self.cum {
            return 0;
        }
        if seq > self.cum + 1 {
            let i = (seq - self.cum - 2) as usize;
            if i >= self.ooo.len() {
                self.ooo.resize(i + 1, 0);
            }
            self.ooo[i] = payload + 1;
            return 0;
        }
        let mut delivered = payload as u64;
        self.cum += 1;
        while let Some(&front) = self.ooo.front() {
            if front == 0 {
                self.ooo.pop_front();
                return delivered;
            }
            self.ooo.pop_front();
            self.cum += 1;
            delivered += front as u64 - 1;
        }
        delivered
    }

    fn have(&self, seq: i64) -> bool {
        seq <= self.cum || self.ooo.get((seq - self.cum - 2) as usize).is_some_and(|&v| v != 0)
    }

    /// The contiguous block of received segments around `seq` (which is above `cum`).
    fn block_around(&self, seq: i64) -> (i64, i64) {
        let (mut l, mut r) = (seq, seq + 1);
        while l - 1 > self.cum + 1 && self.have(l - 1) {
            l -= 1;
        }
        while self.have(r) {
            r += 1;
        }
        (l, r)
    }

    /// Rebuilds the SACK list after segment `seq` arrived (RFC 2018 §4): the block holding it
    /// first, then earlier blocks still above the cumulative ACK that are disjoint from it.
    fn update_sack(&mut self, seq: i64) {
        let mut out = [(0i64, 0i64); MAX_SACK_BLOCKS];
        let mut n = 0;
        if seq > self.cum {
            out[0] = self.block_around(seq);
            n = 1;
        }
        for &(l, _) in &self.blocks[..self.nblocks] {
            if n == MAX_SACK_BLOCKS {
                break;
            }
            if l <= self.cum + 1 || !self.have(l) {
                continue;
            }
            let b = self.block_around(l);
            if out[..n].iter().all(|&(ol, or)| b.1 < ol || b.0 > or) {
                out[n] = b;
                n += 1;
            }
        }
        self.blocks = out;
        self.nblocks = n;
    }

    fn send_ack(&mut self, echo: &TcpHdr, ctx: &mut AgentCtx) {
        let ts_echo = if self.p.ts_echo_bugfix { self.ts_to_echo } else { echo.ts_echo };
        let mut h =
            TcpHdr { ack: self.cum.max(0) as u64, ts_echo, conn: echo.conn, ..TcpHdr::default() };
        self.last_ack_sent = self.cum;
        if self.ece {
            h.flags |= flags::ECE;
        }
        if self.p.sack {
            h.nsack = self.nblocks as u8;
            for (d, &(l, r)) in h.sack.iter_mut().zip(&self.blocks[..self.nblocks]) {
                *d = (l as u64, r as u64);
            }
        }
        ctx.send(Packet {
            dst: self.src,
            dst_agent: self.src_agent,
            // ns-2 adds 8 bytes per SACK block (RFC 2018 §3: 2 + 8n with the option header).
            size: self.p.header + SACK_BLOCK_BYTES * h.nsack as u32,
            ptype: PType::Ack,
            prio: if self.p.inherit_prio { self.last_prio } else { 0 },
            seq: h.ack,
            tcp: h,
            ..Packet::default()
        });
    }
}

impl Agent for TcpSink {
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx) {
        if kind == TIMER_DELACK && gen == self.delack_gen {
            if let Some(h) = self.delayed.take() {
                self.send_ack(&h, ctx);
            }
        }
    }

    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        let p = ctx.net.pool.get(id);
        let (h, ce) = (p.tcp, p.ecn == Ecn::Ce);
        self.last_prio = p.prio;
        if self.p.dctcp_echo {
            if ce != self.ece {
                if let Some(old) = self.delayed.take() {
                    self.delack_gen = self.delack_gen.wrapping_add(1);
                    self.send_ack(&old, ctx);
                }
                self.ece = ce;
            }
        } else {
            if h.flags & flags::CWR != 0 {
                self.ece = false;
            }
            self.ece |= ce;
        }
        self.hold_timestamp(&h);
        let seq = h.seq as i64;
        let delivered = self.receive(seq, h.payload);
        ctx.net.flows[ctx.flow.idx()].goodput_bytes += delivered;
        if self.p.sack {
            self.update_sack(seq);
        }
        if self.p.delayed_ack {
            // ns-2: `th->seqno() == acker_->Seqno()`: in order and not filling a gap.
            if self.delayed.is_none() && seq == self.cum {
                self.delayed = Some(h);
                ctx.timer_at(ctx.now() + self.p.delack_interval, TIMER_DELACK, self.delack_gen);
                return;
            }
            self.delayed = None;
            self.delack_gen = self.delack_gen.wrapping_add(1);
        }
        self.send_ack(&h, ctx);
    }
}

#[cfg(test)]
mod tests;
