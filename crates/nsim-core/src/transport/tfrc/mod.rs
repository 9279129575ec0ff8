//! TFRC, TCP-Friendly Rate Control: an equation-based, rate-paced, unreliable transport whose
//! long-run rate follows the TCP throughput equation. See `docs/models/tfrc.md`.
//!
//! Read first: RFC 5348 (TFRC, 2008) §3-6, RFC 3448 (its predecessor; `spec = "rfc3448"`);
//! Floyd, Handley, Padhye & Widmer, "Equation-Based Congestion Control for Unicast
//! Applications", SIGCOMM 2000 (the dynamics: at most ~0.14 packets/RTT of increase, 4-8 RTTs
//! to halve the rate under persistent congestion); ns-2.35 `Agent/TFRC` / `Agent/TFRCSink`
//! (tfrc.cc, tfrc-sink.cc), the behavioural reference of Bakthavachalu 2004.
//!
//! | file | concept |
//! |---|---|
//! | [`equation`] | the throughput equation and its inverse (RFC 5348 §3.1) |
//! | [`loss_detect`] | lost packets from sequence gaps, NDUPACK = 3 (§5.1-5.2) |
//! | [`loss_intervals`] | weighted average loss interval, history discounting (§5.4-5.5) |
//! | [`receiver`] | loss events, first-interval synthesis, per-RTT feedback (§6) |
//! | [`sender`] | RTT, rate update, slow start, no-feedback timer, pacing (§4) |
//! | [`ns2_sender`] | ns-2.35 `Agent/TFRC`'s sender rules (`spec = "ns2"`) |
//! | [`send_gate`] | stop time, pause and the send timer, for both senders |
//! | [`wire`] | header fields in the fixed-size packet |
//! | [`config`] | parameters, defaults and sources |

pub mod config;
pub mod equation;
pub mod loss_detect;
pub mod loss_intervals;
pub mod ns2_sender;
pub mod receiver;
pub mod send_gate;
pub mod sender;
pub mod wire;

use crate::agent::{Agent, AgentCtx};
use crate::ids::{AgentId, NodeId};
use crate::packet::{Ecn, PType, Packet};
use crate::tcp::build::Endpoints;
use crate::tcp::{CongState, TcpProbe};
use crate::time::{Dur, SimTime};
use config::TfrcParams;
use wire::DataHdr;

/// Where a sender's data goes and how it is marked (both senders).
pub struct DataPath {
    pub dst: NodeId,
    pub dst_agent: AgentId,
    pub prio: u8,
    pub tag: u16,
}

impl DataPath {
    /// Sends data packet `seq` now, of `p`'s sizes, with the sender's RTT estimate `rtt`.
    pub fn send(&self, p: &TfrcParams, seq: u64, rtt: Option<Dur>, ctx: &mut AgentCtx) {
        let h = DataHdr { seq, ts: ctx.now(), rtt, payload: p.s };
        ctx.send(Packet {
            dst: self.dst,
            dst_agent: self.dst_agent,
            size: p.s + p.header,
            ptype: PType::Tfrc,
            prio: self.prio,
            tag: self.tag,
            ecn: if p.ecn { Ecn::Ect } else { Ecn::NotEct },
            seq,
            tcp: h.encode(),
            ..Packet::default()
        });
    }
}

/// TFRC in the TCP series: `cwnd` is the rate in packets per RTT (X·R/s), `srtt` R, `rto` the
/// t_RTO the equation uses; `ssthresh` is 0 and the state "open".
pub fn rate_probe(x: f64, r: f64, s: f64, t_rto: f64) -> TcpProbe {
    TcpProbe {
        cwnd: x * r / s,
        ssthresh: 0.0,
        srtt: Dur::from_secs_f64(r),
        rto: Dur::from_secs_f64(t_rto),
        in_flight_pkts: 0,
        in_flight_bytes: 0,
        state: CongState::Open,
    }
}

/// Source and sink agents for one TFRC flow that sends until `stop`.
pub fn agents(
    p: TfrcParams,
    stop: Option<SimTime>,
    ends: Endpoints,
) -> (Box<dyn Agent>, Box<dyn Agent>) {
    let sink = receiver::TfrcSink::new(p.clone(), ends.src.0, ends.src.1);
    let path = DataPath { dst: ends.dst.0, dst_agent: ends.dst.1, prio: ends.prio, tag: ends.tag };
    let src: Box<dyn Agent> = if p.spec == config::TfrcSpec::Ns2 {
        Box::new(ns2_sender::Ns2TfrcSender::new(p, path, stop))
    } else {
        Box::new(sender::TfrcSender::new(p, path, stop))
    };
    (src, Box::new(sink))
}

#[cfg(test)]
mod tests;
