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
//! | [`wire`] | header fields in the fixed-size packet |
//! | [`config`] | parameters, defaults and sources |

pub mod config;
pub mod equation;
pub mod loss_detect;
pub mod loss_intervals;
pub mod ns2_sender;
pub mod receiver;
pub mod sender;
pub mod wire;

use crate::agent::Agent;
use crate::tcp::build::Endpoints;
use crate::time::SimTime;
use config::TfrcParams;

/// Source and sink agents for one TFRC flow that sends until `stop`.
pub fn agents(p: TfrcParams, stop: Option<SimTime>, ends: Endpoints) -> (Box<dyn Agent>, Box<dyn Agent>) {
    let sink = receiver::TfrcSink::new(p.clone(), ends.src.0, ends.src.1);
    let src: Box<dyn Agent> = if p.spec == config::TfrcSpec::Ns2 {
        let mut src = ns2_sender::Ns2TfrcSender::new(p, ends.dst.0, ends.dst.1, stop);
        (src.prio, src.tag) = (ends.prio, ends.tag);
        Box::new(src)
    } else {
        let mut src = sender::TfrcSender::new(p, ends.dst.0, ends.dst.1, stop);
        (src.prio, src.tag) = (ends.prio, ends.tag);
        Box::new(src)
    };
    (src, Box::new(sink))
}

#[cfg(test)]
mod tests;
