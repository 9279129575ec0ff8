//! Full TCP: two-way, byte-sequenced connections with the RFC 793 state machine (handshake,
//! FIN, RST), advertised windows, delayed ACKs, Nagle, and Tahoe/Reno/NewReno/SACK recovery on the
//! shared congestion control ([`crate::tcp::cc`]) and RTO estimator ([`crate::tcp::rtt`]).
//! Behavioural reference: ns-2.35 `Agent/TCP/FullTcp` (tcp/tcp-full.cc). See
//! `docs/models/tcp_full.md`.
//!
//! | file | concept |
//! |------|---------|
//! | [`state`] | RFC 793 states and transitions |
//! | [`conn`] | the endpoint agent: segment processing, output, timers |
//! | [`send_buffer`] | send buffer and application back-pressure |
//! | [`reassembly`] | receive sequence space, out-of-order data, advertised window, SWS |
//! | [`delack`] | delayed ACK (ns-2 timer or BSD 200 ms tick) |
//! | [`nagle`] | Nagle / Minshall and sender SWS avoidance |
//! | [`recovery`] | fast retransmit / recovery decisions in bytes |
//! | [`sack`] | SACK scoreboard and pipe-controlled recovery in bytes |
//! | [`timer`] | restartable timers |
//! | [`app`] | bulk, file and request/response applications |
//! | [`config`] | `transport = { kind = "tcp_full" }` |

pub mod app;
pub mod config;
pub mod conn;
pub mod delack;
pub mod nagle;
pub mod reassembly;
pub mod recovery;
pub mod sack;
pub mod send_buffer;
pub mod state;
pub mod timer;

use crate::agent::Agent;
use crate::rng::SimRng;
use crate::tcp::build::{random_phase, Endpoints};
use crate::tcp::cc::reno::Reno;
use crate::tcp::cc::tahoe::Tahoe;
use crate::tcp::cc::CongestionControl;
use app::{App, AppKind};
use config::{FullParams, FullVariant};
use conn::FullTcp;

fn congestion_control(p: &FullParams) -> Box<dyn CongestionControl> {
    // ns-2 starts ssthresh at `window_` (RFC 5681 §3.1 "arbitrarily high").
    let reno = Reno::new(1.0, p.window as f64);
    match p.variant {
        FullVariant::Tahoe => Box::new(Tahoe(reno)),
        FullVariant::Reno | FullVariant::Newreno | FullVariant::Sack => Box::new(reno),
    }
}

/// The active opener (at the flow's source) and the listener (at its destination); both
/// share one RTO clock phase drawn from `phase_rng` unless `clock_offset` is set, and each
/// draws its own delayed-ACK tick phase unless `delack_phase` is set.
pub fn agents(mut p: FullParams, app: AppKind, ends: Endpoints, phase_rng: &mut SimRng) -> (Box<dyn Agent>, Box<dyn Agent>) {
    p.clock_offset.get_or_insert_with(|| random_phase(p.tick, phase_rng));
    let file = match app {
        AppKind::File { bytes } => Some(bytes),
        _ => None,
    };
    let end = |rng: &mut SimRng| {
        let mut q = p.clone();
        q.delack_phase.get_or_insert_with(|| random_phase(p.delack_interval, rng));
        q
    };
    let (pc, ps) = (end(phase_rng), end(phase_rng));
    let mut client = FullTcp::new(pc, congestion_control(&p), App::new(app.clone(), true), true, ends.dst, file);
    let mut server = FullTcp::new(ps, congestion_control(&p), App::new(app, false), false, ends.src, None);
    client.prio = ends.prio;
    client.tag = ends.tag;
    server.prio = ends.prio;
    server.tag = ends.tag;
    (Box::new(client), Box::new(server))
}
