//! The client end of a web flow over the one-way TCP agents: the flow's TCP sink plus the
//! page requests. When the server's application asks ([`super::stream::StreamIo::request_at`])
//! the client sends a request packet of `request` bytes plus the TCP/IP header to the
//! server (ns-2 packet type `http`, counted as the flow's control packets, like ACKs). A
//! request that is lost is sent again after a timeout that starts at the transport's initial
//! RTO and doubles up to its maximum (as a lost SYN would be), until data arrives.
//!
//! With `serve_after = "request_ack"` (ns-2 `PagePool/WebTraf`, tcl/webcache/webtraf.tcl
//! `launch-req` / `done-req`: the request is sent by a one-way agent whose `done` callback,
//! when the request is acknowledged, hands it to the server) the server only acknowledges the
//! request (a real 40 B ACK back to the client) and starts the page when that acknowledgment
//! reaches the client, told at once as the Tcl callback tells it; a lost acknowledgment, like a
//! lost request, costs the retransmission timeout.

use crate::agent::{Agent, AgentCtx};
use crate::ids::{AgentId, NodeId};
use crate::packet::{PType, Packet, PacketId, TcpHdr};
use crate::probe::TcpProbe;
use crate::time::Dur;

/// Timer kind the server's application arms on the client: send request `gen` now.
pub const TIMER_REQUEST: u16 = 100;
/// The request `gen` has had no answer for one timeout.
const TIMER_RETRY: u16 = 101;
/// Timer kind the client arms on the server: the client has request `gen`'s acknowledgment,
/// serve it now (`serve_after = "request_ack"`).
pub const TIMER_REQUEST_ACKED: u16 = 102;

pub struct WebClient {
    pub sink: Box<dyn Agent>,
    pub server: (NodeId, AgentId),
    /// Request bytes on the wire (request plus header).
    pub size: u32,
    pub initial_rto: Dur,
    pub max_rto: Dur,
    pub prio: u8,
    pub tag: u16,
    /// The request waiting for its answer and its current timeout.
    pending: Option<(u32, Dur)>,
    /// The answer is the request's acknowledgment, not the page's data.
    after_ack: bool,
}

impl WebClient {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        sink: Box<dyn Agent>,
        server: (NodeId, AgentId),
        size: u32,
        initial_rto: Dur,
        max_rto: Dur,
        prio: u8,
        tag: u16,
        after_ack: bool,
    ) -> Self {
        WebClient { sink, server, size, initial_rto, max_rto, prio, tag, pending: None, after_ack }
    }

    fn send(&mut self, id: u32, rto: Dur, ctx: &mut AgentCtx) {
        self.pending = Some((id, rto));
        ctx.send(Packet {
            dst: self.server.0,
            dst_agent: self.server.1,
            size: self.size,
            ptype: PType::Request,
            prio: self.prio,
            tag: self.tag,
            seq: id as u64,
            tcp: TcpHdr { seq: id as u64, ..TcpHdr::EMPTY },
            ..Packet::default()
        });
        ctx.timer_at(ctx.now() + rto, TIMER_RETRY, id);
    }
}

impl Agent for WebClient {
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx) {
        match kind {
            TIMER_REQUEST => self.send(gen, self.initial_rto, ctx),
            TIMER_RETRY => {
                if let Some((id, rto)) = self.pending.filter(|&(id, _)| id == gen) {
                    self.send(id, (rto + rto).min(self.max_rto), ctx);
                }
            }
            _ => self.sink.on_timer(kind, gen, ctx),
        }
    }

    /// Data arrived: the request was answered. With `serve_after = "request_ack"` the answer
    /// is the request's acknowledgment, and the server is told to serve it.
    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        let p = ctx.net.pool.get(id);
        if p.ptype == PType::Ack {
            let acked = p.tcp.ack as u32;
            if let Some((pending, _)) = self.pending.filter(|&(pending, _)| pending == acked) {
                self.pending = None;
                ctx.net.timer(ctx.now(), self.server.1, TIMER_REQUEST_ACKED, pending);
            }
            return;
        }
        if !self.after_ack {
            self.pending = None;
        }
        self.sink.on_packet(id, ctx);
    }

    fn tcp_probe(&self) -> Option<TcpProbe> {
        self.sink.tcp_probe()
    }
}
