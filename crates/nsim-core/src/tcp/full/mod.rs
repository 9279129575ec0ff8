//! Full TCP: two-way, byte-sequenced connections with the RFC 793 state machine (handshake,
//! FIN, RST), advertised windows, delayed ACKs, Nagle, and Tahoe/Reno/NewReno/SACK recovery on the
//! shared congestion control ([`crate::tcp::cc`]: Reno's windows, CUBIC's with `cc = "cubic"`,
//! paced BBR v1 with `cc = "bbr"`, paced BBRv3 with `cc = "bbr3"`) and RTO estimator ([`crate::tcp::rtt`]).
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
//! | [`prr`] | Proportional Rate Reduction (RFC 6937) in that recovery (`prr`) |
//! | [`conn::rack_tlp`] | RACK-TLP loss detection (RFC 8985) in that recovery (`loss_detection = "rack"`) |
//! | [`send_times`] | per-ACK RTT samples for CUBIC and HyStart++ (`cc = "cubic"`), RACK's per-segment state |
//! | [`timer`] | restartable timers |
//! | [`app`] | bulk, file and request/response applications |
//! | [`conn::stream_end`] | byte-stream applications (`repeat`, `telnet`, `http`) and their peers |
//! | [`config`] | `transport = { kind = "tcp_full" }` |

pub mod app;
pub mod config;
pub mod conn;
pub mod delack;
pub mod nagle;
pub mod prr;
pub mod reassembly;
pub mod recovery;
pub mod sack;
pub mod send_buffer;
pub mod send_times;
pub mod state;
pub mod timer;

use crate::agent::Agent;
use crate::rng::SimRng;
use crate::tcp::build::{random_phase, Endpoints};
use crate::tcp::cc::bbr::Bbr;
use crate::tcp::cc::bbr3::Bbr3;
use crate::tcp::cc::cubic::Cubic;
use crate::tcp::cc::reno::Reno;
use crate::tcp::cc::tahoe::Tahoe;
use crate::tcp::cc::CongestionControl;
use app::{App, AppKind};
use config::{FullParams, FullVariant};
use conn::stream_end::{Role, StreamEnd};
use conn::FullTcp;
use rand::RngExt;

/// One end's congestion control for its `incarnation`-th connection (stream flows reconnect):
/// BBR's random stream comes from the end's own seed and the incarnation.
fn congestion_control(p: &FullParams, incarnation: u32) -> Box<dyn CongestionControl> {
    // ns-2 starts ssthresh at `window_` (RFC 5681 §3.1 "arbitrarily high").
    let reno = Reno::new(1.0, p.window as f64);
    if let Some(c) = &p.cubic {
        return Box::new(Cubic::new(reno, c.clone()));
    }
    let seed = p.bbr_seed.wrapping_add(incarnation as u64);
    let (iw, packet) = (p.initial_window, p.mss + p.header);
    if let Some(c) = &p.bbr {
        let rng = crate::rng::stream(seed, "bbr");
        return Box::new(Bbr::new(c.clone(), iw as f64, iw, reno.ssthresh, packet, p.window, rng));
    }
    if let Some(c) = &p.bbr3 {
        let rng = crate::rng::stream(seed, "bbr3");
        return Box::new(Bbr3::new(c.clone(), iw as f64, iw, reno.ssthresh, packet, p.window, rng));
    }
    match p.variant {
        FullVariant::Tahoe => Box::new(Tahoe(reno)),
        FullVariant::Reno | FullVariant::Newreno | FullVariant::Sack => Box::new(reno),
    }
}

/// Each end's parameters: one RTO clock phase for both drawn from `phase_rng` unless
/// `clock_offset` is set, and each end's own delayed-ACK tick phase unless `delack_phase` is;
/// with BBR or BBRv3, each end's seed for its stream last (drawn only then, so other flows keep theirs).
fn end_params(mut p: FullParams, phase_rng: &mut SimRng) -> (FullParams, FullParams) {
    p.clock_offset.get_or_insert_with(|| random_phase(p.tick, phase_rng));
    let end = |rng: &mut SimRng| {
        let mut q = p.clone();
        q.delack_phase.get_or_insert_with(|| random_phase(p.delack_interval, rng));
        q
    };
    let (mut source, mut dest) = (end(phase_rng), end(phase_rng));
    if p.bbr_family() {
        source.bbr_seed = phase_rng.random::<u64>();
        dest.bbr_seed = phase_rng.random::<u64>();
    }
    (source, dest)
}

/// The active opener (at the flow's source) and the listener (at its destination).
pub fn agents(
    p: FullParams,
    app: AppKind,
    ends: Endpoints,
    phase_rng: &mut SimRng,
) -> (Box<dyn Agent>, Box<dyn Agent>) {
    let file = match app {
        AppKind::File { bytes, .. } => Some(bytes),
        _ => None,
    };
    let (pc, ps) = end_params(p, phase_rng);
    let mut client = FullTcp::new(
        pc.clone(),
        congestion_control(&pc, 0),
        App::new(app.clone(), true),
        true,
        ends.dst,
        file,
    );
    let mut server = FullTcp::new(
        ps.clone(),
        congestion_control(&ps, 0),
        App::new(app, false),
        false,
        ends.src,
        None,
    );
    client.prio = ends.prio;
    client.tag = ends.tag;
    server.prio = ends.prio;
    server.tag = ends.tag;
    (Box::new(client), Box::new(server))
}

/// A byte-stream flow (`repeat`, `telnet`, `http`; [`conn::stream_end`]): the source plays
/// `writer` (the application), the destination `reader` (its peer). The source opens the
/// connection, except when the reader is a web client, which opens one per page.
pub fn stream_agents(
    p: FullParams,
    writer: Role,
    reader: Role,
    ends: Endpoints,
    phase_rng: &mut SimRng,
) -> (Box<dyn Agent>, Box<dyn Agent>) {
    let (pw, pr) = end_params(p, phase_rng);
    let client_opens = matches!(reader, Role::Client { .. });
    let mut src = FullTcp::new(
        pw.clone(),
        congestion_control(&pw, 0),
        App::new(AppKind::Stream, !client_opens),
        !client_opens,
        ends.dst,
        None,
    );
    let mut dst = FullTcp::new(
        pr.clone(),
        congestion_control(&pr, 0),
        App::new(AppKind::Stream, client_opens),
        client_opens,
        ends.src,
        None,
    );
    for (end, role) in [(&mut src, writer), (&mut dst, reader)] {
        end.prio = ends.prio;
        end.tag = ends.tag;
        end.set_stream(StreamEnd::new(role));
    }
    (Box::new(src), Box::new(dst))
}
