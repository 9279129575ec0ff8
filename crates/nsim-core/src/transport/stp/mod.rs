//! STP, the Satellite Transport Protocol (Henderson & Katz, IEEE JSAC 17(2) 1999; T. R.
//! Henderson, PhD thesis, UC Berkeley 1999), the protocol Holl 2003 compares with
//! TCP. See `docs/models/stp.md`.
//!
//! Read first: the model page's source table (STP = SSCOP's selective-repeat ARQ with POLL /
//! STAT / USTAT adapted to IP; only the papers' abstracts are reachable, so the congestion
//! window is nsim's TCP-like choice); ITU-T Q.2110 (SSCOP) §7 for the PDUs and the
//! N(PS) retransmission rule; Holl 2003 §2.3.2 for what Holl's runs show (sparse reverse
//! traffic, greedier than TCP, no self-pacing). STP is not in ns-2: every parameter and its
//! source or reason is in [`config`] and the model page.
//!
//! | file | concept |
//! |---|---|
//! | [`sender`] | window, POLL timer, selective and timeout retransmission |
//! | [`receiver`] | in-order delivery, STAT and USTAT |
//! | [`wire`] | PDU fields in the fixed-size packet |
//! | [`config`] | parameters, defaults and sources |

pub mod config;
pub mod receiver;
pub mod sender;
pub mod wire;

use crate::agent::Agent;
use crate::tcp::build::Endpoints;
use crate::time::SimTime;
use config::StpParams;

/// Source and sink agents for one bulk STP flow that sends new data until `stop`.
pub fn agents(
    p: StpParams,
    stop: Option<SimTime>,
    ends: Endpoints,
) -> (Box<dyn Agent>, Box<dyn Agent>) {
    let sink = receiver::StpSink::new(p.clone(), ends.src.0, ends.src.1);
    let mut src = sender::StpSender::new(p, ends.dst.0, ends.dst.1, stop);
    src.prio = ends.prio;
    src.tag = ends.tag;
    (Box::new(src), Box::new(sink))
}
