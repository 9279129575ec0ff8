//! Test harness: one TCP sender on a two-node network whose link delivers instantly into a
//! list, and ACKs written by hand (STYLE.md item 7: segment dialogues).

use crate::agent::{Agent, AgentCtx, TIMER_START};
use crate::ids::{AgentId, FlowId, NodeId};
use crate::net::testkit::run_links;
use crate::net::{Link, Net, Node, NodeKind, RouteTable};
use crate::packet::{Packet, TcpHdr};
use crate::queue::droptail::DropTail;
use crate::tcp::build::algorithms;
use crate::tcp::config::{TcpConfig, TcpParams, Variant};
use crate::tcp::sender::{Core, TcpSender};
use crate::tcp::CongState;
use crate::time::{Dur, SimTime};
use crate::units::{BitsPerSec, Limit};

/// ACK template: override only what a test cares about (`TcpHdr { ack: 5, ..ACK }`).
pub const ACK: TcpHdr = TcpHdr::EMPTY;

pub struct TcpHarness {
    pub net: Net,
    pub tx: TcpSender,
}

pub fn ms(t: u64) -> SimTime {
    SimTime(Dur::from_millis(t).0)
}

/// Two hosts and one link from `from` to `to` that delivers at once (1 Tb/s, no delay).
pub fn instant_net(from: NodeId, to: NodeId) -> Net {
    let nodes = vec![
        Node { name: "a".into(), kind: NodeKind::Host },
        Node { name: "b".into(), kind: NodeKind::Host },
    ];
    let queue = Box::new(DropTail::new(Limit::Packets(1 << 20), false));
    let link = Link::new(from, to, BitsPerSec(1_000_000_000_000), Dur::ZERO, queue, 0, 0);
    let routes = RouteTable::shortest_paths(2, &[(from, to, 0)], crate::net::routing::Metric::Hops);
    Net::new(nodes, vec![link], routes, 1)
}

/// Runs link events up to `t`, handing timers to `agent`; returns the packets delivered.
pub fn run_net(
    net: &mut Net,
    agent: &mut dyn Agent,
    me: (NodeId, AgentId),
    t: SimTime,
) -> Vec<Packet> {
    let timers = |net: &mut Net, kind: u16, gen: u32| {
        agent.on_timer(kind, gen, &mut AgentCtx { net, me: me.1, node: me.0, flow: FlowId(0) })
    };
    run_links(net, t, timers).into_iter().map(|(_, p)| p).collect()
}

impl TcpHarness {
    /// A sender of `variant` with ns-2.35 defaults changed by `tweak`, bulk data, no SYN (the
    /// first data segment is 0) unless the tweak turns it back on, and no `delay_growth_`.
    pub fn new(variant: Variant, tweak: impl FnOnce(&mut TcpParams)) -> Self {
        let mut p = TcpConfig::from_variant(variant).resolve("t").expect("valid");
        p.syn = false;
        tweak(&mut p);
        let net = instant_net(NodeId(0), NodeId(1));
        let (cc, rec) = algorithms(&p);
        let mut core = Core::new(p, NodeId(1), AgentId(1), None, None);
        // Plain RFC 5681 growth from the first ACK on (no ns-2 delay_growth_ reset at ACK 0).
        core.delay_growth = false;
        TcpHarness {
            net,
            tx: TcpSender {
                core,
                cc,
                rec,
                file_bytes: None,
                feed: None,
                app: None,
                transfer: None,
                paused: None,
                app_gen: 0,
            },
        }
    }

    fn ctx(net: &mut Net) -> AgentCtx<'_> {
        AgentCtx { net, me: AgentId(0), node: NodeId(0), flow: FlowId(0) }
    }

    fn run_until(&mut self, t: SimTime) -> Vec<Packet> {
        run_net(&mut self.net, &mut self.tx, (NodeId(0), AgentId(0)), t)
    }

    /// Sequence numbers delivered while running to `t` (timers included).
    #[track_caller]
    pub fn advance(&mut self, t: SimTime) -> Vec<u64> {
        self.run_until(t).iter().map(|p| p.tcp.seq).collect()
    }

    /// Starts the flow at time 0; returns the segments sent.
    pub fn start(&mut self) -> Vec<u64> {
        self.start_packets().iter().map(|p| p.tcp.seq).collect()
    }

    /// Starts the flow at time 0; returns the packets sent.
    pub fn start_packets(&mut self) -> Vec<Packet> {
        self.tx.on_timer(TIMER_START, 0, &mut Self::ctx(&mut self.net));
        self.run_until(SimTime(Dur::from_micros(1).0))
    }

    /// Delivers ACK `h` at `at` (after running everything due before it); returns the
    /// segments the sender sent in response.
    pub fn ack(&mut self, at: SimTime, h: TcpHdr) -> Vec<u64> {
        self.run_until(at);
        let id = self.net.pool.alloc(Packet { tcp: h, ..Packet::default() });
        self.tx.on_packet(id, &mut Self::ctx(&mut self.net));
        self.net.pool.free(id);
        self.advance(at + Dur::from_micros(1))
    }

    /// A cumulative ACK of `ack` at `at`.
    pub fn cum(&mut self, at: SimTime, ack: u64) -> Vec<u64> {
        self.ack(at, TcpHdr { ack, ..ACK })
    }

    pub fn cwnd(&self) -> f64 {
        self.tx.cc.cwnd()
    }
    pub fn ssthresh(&self) -> f64 {
        self.tx.cc.ssthresh()
    }
    pub fn state(&self) -> CongState {
        self.tx.core.state()
    }
    pub fn counters(&self) -> crate::record::flow_stats::TcpCounters {
        self.net.flows[0].tcp
    }
}
