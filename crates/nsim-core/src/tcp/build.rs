//! Builds a TCP flow's agents from resolved parameters: the (congestion control, recovery)
//! pair of each variant (the table in [`crate::tcp`]) and the matching sink.

use crate::agent::Agent;
use crate::app::stream::StreamApp;
use crate::app::Generator;
use crate::ids::{AgentId, NodeId};
use crate::rng::SimRng;
use crate::tcp::cc::bbr::Bbr;
use crate::tcp::cc::bbr3::Bbr3;
use crate::tcp::cc::binomial::Binomial;
use crate::tcp::cc::cubic::Cubic;
use crate::tcp::cc::dctcp::Dctcp;
use crate::tcp::cc::gaimd::Gaimd;
use crate::tcp::cc::highspeed::HighSpeed;
use crate::tcp::cc::reno::{ByteIncrease, Reno as RenoCc};
use crate::tcp::cc::rule::Ruled;
use crate::tcp::cc::sf_sack::SfSack;
use crate::tcp::cc::tahoe::Tahoe as TahoeCc;
use crate::tcp::cc::vegas::Vegas;
use crate::tcp::cc::CongestionControl;
use crate::tcp::config::{RtoClock, RuleRecovery, SackAlgorithm, TcpParams, Variant};
use crate::tcp::recovery::sack_rfc6675::SackRfc6675;
use crate::tcp::recovery::vegas::Vegas as VegasRecovery;
use crate::tcp::recovery::{
    fack::Fack, newreno::NewReno, reno::Reno, sack1::Sack1, tahoe::Tahoe, Recovery,
};
use crate::tcp::sender::{Core, TcpSender};
use crate::tcp::sink::{SinkParams, TcpSink};
use crate::time::{Dur, SimTime};
use rand::RngExt;

/// Where a flow's packets come from and go to, and how they are classified.
#[derive(Clone, Copy, Debug)]
pub struct Endpoints {
    pub src: (NodeId, AgentId),
    pub dst: (NodeId, AgentId),
    pub prio: u8,
    pub tag: u16,
}

/// The congestion control and recovery of `p.variant`.
pub fn algorithms(p: &TcpParams) -> (Box<dyn CongestionControl>, Box<dyn Recovery>) {
    let mut reno = RenoCc::new(Core::start_cwnd(p), p.initial_ssthresh as f64);
    reno.max_ssthresh = p.max_ssthresh as f64;
    reno.byte_increase = ByteIncrease::new(p.ca_increase, p.payload.0);
    reno.abc = p.abc;
    let sack1 = || Box::new(Sack1::new(p.window, &p.sack1));
    let sack = || -> Box<dyn Recovery> {
        match p.sack1.algorithm {
            SackAlgorithm::Ns2 => sack1(),
            SackAlgorithm::Rfc6675 => Box::new(SackRfc6675::new(p.window, p.sack1.prr, p.rack)),
        }
    };
    // The window rules run on SACK recovery (ns-2's Sack1 agent unless `sack1.algorithm`
    // says "rfc6675") unless `recovery` picks Reno or NewReno.
    let rule_recovery = || -> Box<dyn Recovery> {
        match p.recovery {
            RuleRecovery::Sack1 => sack(),
            RuleRecovery::Reno => Box::new(Reno::default()),
            RuleRecovery::Newreno => Box::new(NewReno::new(p.newreno.clone())),
        }
    };
    match p.variant {
        Variant::Tahoe => (Box::new(TahoeCc(reno)), Box::new(Tahoe { fast_retransmit: true })),
        Variant::Vanilla => (Box::new(TahoeCc(reno)), Box::new(Tahoe { fast_retransmit: false })),
        Variant::Reno => (Box::new(reno), Box::new(Reno::default())),
        Variant::Newreno => (Box::new(reno), Box::new(NewReno::new(p.newreno.clone()))),
        Variant::Sack1 => (Box::new(reno), sack()),
        Variant::Fack => (Box::new(TahoeCc(reno)), Box::new(Fack::new(p.window, p.fack.rampdown))),
        // ns-2's Vegas starts at cwnd 1 (`initial_window()` with `syn_ && delay_growth_`)
        // even though it never sends a header-only SYN (twin: `syn = false`).
        Variant::Vegas => {
            let mut reno = reno;
            if p.delay_growth {
                reno.cwnd = 1.0;
            }
            let rec: Box<dyn Recovery> = if p.vegas.fine_retransmit {
                Box::new(VegasRecovery::default())
            } else {
                Box::new(Reno::default())
            };
            (Box::new(Vegas::new(reno, p.vegas.clone())), rec)
        }
        Variant::Gaimd => (Box::new(Ruled::new(reno, Gaimd::new(&p.gaimd))), rule_recovery()),
        Variant::Binomial => {
            (Box::new(Ruled::new(reno, Binomial::new(p.binomial.clone()))), rule_recovery())
        }
        Variant::Highspeed => {
            (Box::new(Ruled::new(reno, HighSpeed::new(p.highspeed.clone()))), rule_recovery())
        }
        Variant::SfSack => (Box::new(SfSack::new(reno, p.sf_sack.clone())), sack1()),
        Variant::Cubic => (Box::new(Cubic::new(reno, p.cubic.clone())), rule_recovery()),
        Variant::Dctcp => (Box::new(Dctcp::new(reno, &p.dctcp)), rule_recovery()),
        Variant::Bbr => {
            let rng = crate::rng::stream(p.bbr_seed, "bbr");
            let bbr = Bbr::new(
                p.bbr.clone(),
                reno.cwnd,
                p.initial_window,
                reno.ssthresh,
                p.payload.0 + p.header.0,
                p.window,
                rng,
            );
            (Box::new(bbr), sack())
        }
        Variant::Bbr3 => {
            let rng = crate::rng::stream(p.bbr_seed, "bbr3");
            let bbr3 = Bbr3::new(
                p.bbr3.clone(),
                reno.cwnd,
                p.initial_window,
                reno.ssthresh,
                p.payload.0 + p.header.0,
                p.window,
                rng,
            );
            (Box::new(bbr3), sack())
        }
    }
}

/// The RTO clock phase of a sender without an explicit `clock_offset`: uniform in [0, tick),
/// as ns-2 draws `boot_time_ = Random::uniform(tcpTick_)` when it creates each TCP agent.
pub fn random_phase(tick: Dur, rng: &mut SimRng) -> Dur {
    Dur(rng.random_range(0..tick.0))
}

/// Source and sink agents for one flow sending `bytes` (None: bulk, or what `feed` or
/// the stream application `app` supplies) until `stop`; `phase_rng` (the flow's own stream) draws the clock phase unless
/// `clock_offset` is set.
pub fn agents(
    mut p: TcpParams,
    bytes: Option<u64>,
    feed: Option<(Box<dyn Generator>, SimRng)>,
    app: Option<Box<dyn StreamApp>>,
    stop: Option<SimTime>,
    ends: Endpoints,
    phase_rng: &mut SimRng,
) -> (Box<dyn Agent>, Box<dyn Agent>) {
    if p.rto_clock == RtoClock::Global {
        // One clock for every sender, as one kernel's tcp_slowtimo.
        p.clock_offset.get_or_insert(Dur::ZERO);
    }
    p.clock_offset.get_or_insert_with(|| random_phase(p.tick, phase_rng));
    let sink = TcpSink::new(
        SinkParams {
            header: p.header.0 as u32,
            delayed_ack: p.delayed_ack,
            delack_interval: p.delack_interval,
            sack: p.sack,
            inherit_prio: p.tcp_ds.as_ref().is_some_and(|m| m.ack_inherit),
            dctcp_echo: matches!(p.variant, Variant::Dctcp | Variant::Bbr3),
            ts_echo_bugfix: p.ts_echo_bugfix,
        },
        ends.src.0,
        ends.src.1,
        p.window,
    );
    // Drawn only for BBR and BBRv3, so the other variants keep their streams.
    if p.variant.paced() {
        p.bbr_seed = phase_rng.random::<u64>();
    }
    let (cc, rec) = algorithms(&p);
    let mut core = Core::new(p, ends.dst.0, ends.dst.1, bytes, stop);
    core.delivery_hooks = cc.samples_delivery();
    core.delay_growth = core.p.delay_growth && core.p.variant != Variant::Fack;
    core.prio = ends.prio;
    core.tag = ends.tag;
    // Drawn only when used, so runs without randomised marking keep their streams.
    if core.p.tcp_ds.as_ref().is_some_and(|m| m.randomized) {
        core.mark_rng = Some(crate::rng::stream(phase_rng.random::<u64>(), "tcp_ds"));
    }
    (
        Box::new(TcpSender {
            core,
            cc,
            rec,
            file_bytes: bytes,
            feed,
            app,
            transfer: None,
            paused: None,
            app_gen: 0,
        }),
        Box::new(sink),
    )
}
