//! Distance-vector routing as ns-2.35 runs it (`$ns rtproto DV`): routes learnt from
//! neighbours' advertisements, which travel as packets on the links.
//!
//! Source: ns-2.35 `tcl/rtglib/route-proto.tcl` (`Agent/rtProto/DV`, `Agent/rtProto/Direct`,
//! `rtObject`, `rtPeer`), `routing/rtProtoDV.cc` (the `rtProtoDV` packet) and
//! `tcl/lib/ns-default.tcl` (the defaults). Each node runs:
//! - Direct: a route to each neighbour whose link is up, metric the link's `cost` (default
//!   1), preference `direct_preference` (100);
//! - DV: from each neighbour's last advertisement, the metric of each destination through it
//!   (advertised metric + the cost of the link to that neighbour, capped at `infinity`, 32);
//!   the neighbours with the lowest metric give the route (several with `multipath`), kept
//!   while its metric does not grow; preference `preference` (120);
//! - the node's route per destination (`rtObject`): the protocol with the lower preference,
//!   then the lower metric, installed in the route table ([`super::multipath`]).
//!
//! A node advertises its whole table (one metric per node; the packet's size in bytes is
//! the number of nodes, as ns-2's) to every neighbour whose link is up: every
//! `advert_interval` (2 s) times a uniform draw in [0.9, 1.1], the first at a uniform time in
//! [0, 0.5] s, and at once when its routes change (a triggered update); when only a link came
//! back, to that neighbour. Split horizon with poisoned reverse: a route through a neighbour
//! is advertised to it as `infinity`. A link going down sets every metric through it to
//! `infinity`; the two nodes then recompute and advertise. The advertisements are routed as
//! data (through the nodes' routes), queued and dropped like data, and show in the trace as
//! ns-2's `rtProtoDV` packets. The jitter draws ns-2's own generator ([`super::ns2_rng`]),
//! in ns-2's order, so the routing packets leave when ns-2's do.
//!
//! Where ns-2 leaves an order to Tcl's hash tables (which of several equal-cost neighbours
//! comes first), nsim takes the neighbours by node id.

use super::ns2_rng::Ns2Rng;
use crate::ids::{AgentId, FlowId, LinkId, NodeId};
use crate::net::Net;
use crate::packet::{PType, Packet, PacketId};
use crate::time::{Dur, SimTime};

/// ns-2's `rtObject set maxpref_`: no route.
const MAXPREF: i64 = 255;
/// ns-2's `rtObject set unreach_`.
const UNREACH: i64 = -1;

/// What `routing.dv` sets (ns-2's `Agent/rtProto/DV` and `Agent/rtProto/Direct` class
/// variables, `Node set multiPath_`).
#[derive(Clone, Debug)]
pub struct DvParams {
    /// `advertInterval`: 2 s.
    pub advert_interval: Dur,
    /// `INFINITY` (ns-2: `Agent set ttl_`, 32): the metric of an unreachable destination.
    pub infinity: u32,
    /// `Agent/rtProto/DV set preference_`: 120.
    pub preference: u32,
    /// `Agent/rtProto/Direct set preference_`: 100.
    pub direct_preference: u32,
    /// `Node set multiPath_ 1`: equal-cost routes used in turn, packet by packet.
    pub multipath: bool,
}

impl Default for DvParams {
    fn default() -> Self {
        DvParams {
            advert_interval: Dur::from_secs(2),
            infinity: 32,
            preference: 120,
            direct_preference: 100,
            multipath: false,
        }
    }
}

/// Which protocol a node's route came from (`rtVia_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    None,
    Direct,
    Dv,
}

/// A neighbour as DV sees it (`rtPeer`, `ifs_`, `ifstat_`).
struct Peer {
    node: NodeId,
    /// The link to it.
    link: LinkId,
    /// Its metric for each destination, the link's cost added.
    metric: Vec<i64>,
    /// The link's state when DV last looked (`ifstat_`).
    up: bool,
    /// Direct's route to it is installed, and its metric.
    direct: Option<i64>,
}

/// One node's protocols and routes.
struct Node {
    /// Neighbours by node id.
    peers: Vec<Peer>,
    direct_changed: u32,
    /// DV, per destination: preference, metric, and the peers of its next hops.
    dv_pref: Vec<i64>,
    dv_metric: Vec<i64>,
    dv_next: Vec<Vec<usize>>,
    dv_changed: u32,
    /// Peers whose link came up since the last advertisement (`ifsUp_`).
    ifs_up: Vec<usize>,
    /// The route in use per destination (`rtObject`).
    next: Vec<Vec<LinkId>>,
    pref: Vec<i64>,
    metric: Vec<i64>,
    via: Vec<Via>,
}

/// Every node's DV state (in [`Net::dv`] while the run has DV routing).
pub struct Dv {
    p: DvParams,
    nodes: Vec<Node>,
    /// Each link's `cost`.
    costs: Vec<u32>,
    /// Each node's routing agent (its timers and the packets for it).
    agents: Vec<AgentId>,
    /// The flow the routing packets are counted under.
    flow: FlowId,
    rng: Ns2Rng,
    /// Advertisements in flight by message id, as ns-2 keeps them (`msg_`); the packet
    /// carries the id.
    messages: Vec<Option<Box<[i64]>>>,
    /// DV is running (the routes of the first computation are not advertised: ns-2 adds DV
    /// after them).
    running: bool,
}

impl Dv {
    /// Each node's routes to its neighbours at time 0 (ns-2 `rtObject init-all`), the first
    /// advertisement of each node scheduled (`send-periodic-update` at `uniform 0 0.5`, drawn
    /// node by node). `costs` per link, `agents` per node.
    pub fn install(
        net: &mut Net,
        p: DvParams,
        costs: Vec<u32>,
        agents: Vec<AgentId>,
        flow: FlowId,
    ) {
        let n = net.nodes.len();
        let inf = p.infinity as i64;
        let nodes = (0..n)
            .map(|x| {
                let mut peers: Vec<Peer> = Vec::new();
                for (l, link) in net
                    .links
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| k.from.idx() == x && k.to.idx() != x)
                {
                    // ns-2 keeps one interface per neighbour (`ifs_($nbr)`): the last link made.
                    peers.retain(|q| q.node != link.to);
                    peers.push(Peer {
                        node: link.to,
                        link: LinkId(l as u32),
                        metric: vec![inf; n],
                        up: true,
                        direct: None,
                    });
                }
                peers.sort_by_key(|q| q.node);
                let mut pref = vec![MAXPREF; n];
                let mut metric = vec![UNREACH; n];
                pref[x] = 0;
                metric[x] = 0;
                Node {
                    peers,
                    direct_changed: 0,
                    dv_pref: vec![p.preference as i64; n],
                    dv_metric: vec![UNREACH; n],
                    dv_next: vec![Vec::new(); n],
                    dv_changed: 0,
                    ifs_up: Vec::new(),
                    next: vec![Vec::new(); n],
                    pref,
                    metric,
                    via: vec![Via::None; n],
                }
            })
            .collect();
        let mut dv = Dv {
            p,
            nodes,
            costs,
            agents,
            flow,
            rng: Ns2Rng::rtglib(),
            messages: Vec::new(),
            running: false,
        };
        for x in 0..n {
            dv.direct_routes(net, x);
        }
        for x in 0..n {
            dv.node_routes(net, x);
        }
        dv.running = true;
        for x in 0..n {
            let at = dv.rng.uniform(0.0, 0.5);
            net.timer(SimTime::ZERO + Dur::from_secs_f64(at), dv.agents[x], 0, 0);
        }
        net.dv = Some(Box::new(dv));
    }

    /// Direct's `compute-routes`: a route to each neighbour whose link is up.
    fn direct_routes(&mut self, net: &Net, x: usize) {
        let node = &mut self.nodes[x];
        node.direct_changed = 0;
        for q in &mut node.peers {
            let up = !net.links[q.link.idx()].is_down();
            if q.direct.is_none() && up {
                q.direct = Some(self.costs[q.link.idx()] as i64);
                node.direct_changed += 1;
            } else if q.direct.is_some() && !up {
                q.direct = None;
                node.direct_changed += 1;
            }
        }
    }

    /// DV's `compute-routes`: each destination's best neighbours from their last metrics.
    fn dv_routes(&mut self, x: usize) {
        let (inf, multipath, pref_dv) =
            (self.p.infinity as i64, self.p.multipath, self.p.preference as i64);
        let node = &mut self.nodes[x];
        node.dv_changed = 0;
        let mut nh: Vec<usize> = Vec::new();
        for dst in 0..node.dv_pref.len() {
            if let Some(&q) = node.dv_next[dst].first() {
                node.dv_metric[dst] = node.peers[q].metric[dst];
                node.dv_pref[dst] = pref_dv;
            }
            let (mut pf, mut mt) = (MAXPREF, inf);
            nh.clear();
            for (i, q) in node.peers.iter().enumerate() {
                let pmt = q.metric[dst];
                if pmt < 0 || pmt >= inf || pref_dv > pf || pmt > mt {
                    continue;
                }
                if pref_dv < pf || pmt < mt {
                    (pf, mt) = (pref_dv, pmt);
                    nh.clear();
                }
                nh.push(i);
            }
            if pf == MAXPREF && mt == inf {
                continue;
            }
            if pf > node.dv_pref[dst] || (node.dv_metric[dst] >= 0 && mt > node.dv_metric[dst]) {
                continue;
            }
            node.dv_changed += 1;
            let better = pf < node.dv_pref[dst] || mt < node.dv_metric[dst];
            node.dv_pref[dst] = pf;
            node.dv_metric[dst] = mt;
            let next = &mut node.dv_next[dst];
            if better {
                next.clear();
            } else {
                next.retain(|q| nh.contains(q));
                nh.retain(|q| !next.contains(q));
            }
            if better || multipath || next.is_empty() {
                next.extend(nh.iter().take(if multipath { usize::MAX } else { 1 }));
            }
        }
    }

    /// A protocol's route to `dst` at node `x`: (links, preference, metric), if it has one.
    fn offer(&self, x: usize, via: Via, dst: usize) -> Option<(Vec<LinkId>, i64, i64)> {
        let node = &self.nodes[x];
        match via {
            Via::Direct => {
                node.peers.iter().find(|q| q.node.idx() == dst).and_then(|q| {
                    q.direct.map(|m| (vec![q.link], self.p.direct_preference as i64, m))
                })
            }
            Via::Dv if !node.dv_next[dst].is_empty() => Some((
                node.dv_next[dst].iter().map(|&q| node.peers[q].link).collect(),
                node.dv_pref[dst],
                node.dv_metric[dst],
            )),
            _ => None,
        }
    }

    /// `rtObject compute-routes`: each destination's route from the best protocol, installed
    /// in the route table; then an advertisement if the routes changed.
    fn node_routes(&mut self, net: &mut Net, x: usize) {
        let node = &mut self.nodes[x];
        let protocols = (node.direct_changed > 0) as u32 + (node.dv_changed > 0) as u32;
        node.direct_changed = 0;
        node.dv_changed = 0;
        if protocols == 0 {
            return;
        }
        let mut changes = 0;
        let (at, multipath) = (NodeId(x as u32), self.p.multipath);
        for dst in (0..self.nodes.len()).filter(|&d| d != x) {
            let (mut best, mut pf, mut mt, mut rv) = (Vec::new(), MAXPREF, UNREACH, Via::None);
            for via in [Via::Direct, Via::Dv] {
                if let Some((links, ppf, pmt)) = self.offer(x, via, dst) {
                    if ppf < pf || (ppf == pf && pmt < mt) || mt < 0 {
                        (best, pf, mt, rv) = (links, ppf, pmt, via);
                    }
                }
            }
            let to = NodeId(dst as u32);
            let node = &self.nodes[x];
            if best.is_empty() {
                if !node.next[dst].is_empty() {
                    net.routes.delete_routes(at, to, &node.next[dst]);
                    let node = &mut self.nodes[x];
                    (node.next[dst], node.pref[dst], node.metric[dst], node.via[dst]) =
                        (best, pf, mt, rv);
                    changes += 1;
                }
            } else if rv == node.via[dst] {
                if best != node.next[dst] {
                    net.routes.delete_routes(at, to, &node.next[dst]);
                    net.routes.add_routes(at, to, &best, multipath);
                    self.nodes[x].next[dst] = best;
                    changes += 1;
                }
                let node = &mut self.nodes[x];
                if mt != node.metric[dst] {
                    node.metric[dst] = mt;
                    changes += 1;
                }
                node.pref[dst] = pf;
            } else {
                if node.via[dst] != Via::None {
                    let (links, ppf, pmt) =
                        self.offer(x, node.via[dst], dst).unwrap_or((Vec::new(), MAXPREF, UNREACH));
                    let node = &mut self.nodes[x];
                    (node.next[dst], node.pref[dst], node.metric[dst]) = (links, ppf, pmt);
                }
                let node = &mut self.nodes[x];
                if node.pref[dst] != pf || node.metric[dst] != mt {
                    net.routes.delete_routes(at, to, &node.next[dst]);
                    net.routes.add_routes(at, to, &best, multipath);
                    (node.next[dst], node.pref[dst], node.metric[dst], node.via[dst]) =
                        (best, pf, mt, rv);
                    changes += 1;
                }
            }
        }
        if self.running {
            self.send_updates(net, x, changes);
        }
    }

    /// DV's `send-updates`: to every neighbour after a change, else to those whose link came
    /// back; only over links that are up.
    fn send_updates(&mut self, net: &mut Net, x: usize, changes: u32) {
        let node = &mut self.nodes[x];
        let targets: Vec<usize> =
            if changes > 0 { (0..node.peers.len()).collect() } else { node.ifs_up.clone() };
        node.ifs_up.clear();
        for q in targets {
            if !net.links[self.nodes[x].peers[q].link.idx()].is_down() {
                self.send_to_peer(net, x, q);
            }
        }
    }

    /// One advertisement from `x` to its peer `q`, poisoned reverse.
    fn send_to_peer(&mut self, net: &mut Net, x: usize, q: usize) {
        let inf = self.p.infinity as i64;
        let node = &self.nodes[x];
        let link = node.peers[q].link;
        let update: Box<[i64]> = (0..node.metric.len())
            .map(|d| {
                if node.metric[d] < 0 || node.next[d].contains(&link) {
                    inf
                } else {
                    node.metric[d]
                }
            })
            .collect();
        let size = update.len() as u32;
        let mid = self.messages.len() as u64;
        self.messages.push(Some(update));
        let to = node.peers[q].node;
        let mut p = Packet {
            dst: to,
            size,
            flow: self.flow,
            ptype: PType::RtProtoDv,
            src: NodeId(x as u32),
            src_agent: self.agents[x],
            dst_agent: self.agents[to.idx()],
            created: net.now,
            ..Packet::default()
        };
        p.tcp.seq = mid;
        let id = net.pool.alloc(p);
        net.count_sent(self.flow, id);
        net.forward(NodeId(x as u32), id);
    }

    /// DV's `recv-update`: the peer's metrics, and new routes if any changed.
    fn receive(&mut self, net: &mut Net, x: usize, from: NodeId, mid: u64) {
        let Some(msg) = self.messages.get_mut(mid as usize).and_then(Option::take) else { return };
        let inf = self.p.infinity as i64;
        let node = &mut self.nodes[x];
        let Some(q) = node.peers.iter_mut().find(|q| q.node == from) else { return };
        let cost = self.costs[q.link.idx()] as i64;
        let mut changed = 0;
        for (d, &m) in msg.iter().enumerate() {
            let m = (m + cost).min(inf);
            if m != q.metric[d] {
                q.metric[d] = m;
                changed += 1;
            }
        }
        if changed > 0 {
            self.dv_routes(x);
            self.nodes[x].dv_changed += changed;
            self.node_routes(net, x);
        }
    }

    /// `rtObject intf-changed` at `x`: Direct's routes, DV's view of its links (a link down:
    /// every metric through it `infinity`; a link up: advertise to that neighbour), new routes.
    fn interfaces_changed(&mut self, net: &mut Net, x: usize) {
        self.direct_routes(net, x);
        let inf = self.p.infinity as i64;
        let node = &mut self.nodes[x];
        node.ifs_up.clear();
        for (i, q) in node.peers.iter_mut().enumerate() {
            let up = !net.links[q.link.idx()].is_down();
            if up != q.up {
                q.up = up;
                if up {
                    node.ifs_up.push(i);
                } else {
                    q.metric.fill(inf);
                }
            }
        }
        self.dv_routes(x);
        self.node_routes(net, x);
    }

    /// The route in use at `x` for `dst`: its next-hop links and metric (-1: none).
    pub fn route(&self, x: NodeId, dst: NodeId) -> (&[LinkId], i64) {
        let node = &self.nodes[x.idx()];
        (&node.next[dst.idx()], node.metric[dst.idx()])
    }
}

impl Net {
    /// A node's periodic advertisement (its routing agent's timer): to every neighbour, and
    /// the next one `advert_interval * uniform(0.9, 1.1)` later.
    pub fn dv_periodic(&mut self, x: NodeId) {
        let mut dv = self.dv.take().expect("a DV timer needs DV routing");
        dv.send_updates(self, x.idx(), 1);
        let next =
            self.now.as_secs_f64() + dv.p.advert_interval.as_secs_f64() * dv.rng.uniform(0.9, 1.1);
        self.timer(SimTime::ZERO + Dur::from_secs_f64(next), dv.agents[x.idx()], 0, 0);
        self.dv = Some(dv);
    }

    /// An advertisement reached node `x` (packet `id`, still to be freed by the caller).
    pub fn dv_receive(&mut self, x: NodeId, id: PacketId) {
        let p = self.pool.get(id);
        let (from, mid) = (p.src, p.tcp.seq);
        let mut dv = self.dv.take().expect("a DV packet needs DV routing");
        dv.receive(self, x.idx(), from, mid);
        self.dv = Some(dv);
    }

    /// Links of `nodes` failed or came back: each recomputes, in node order (ns-2's
    /// `rtModel notify`).
    pub(crate) fn dv_interfaces_changed(&mut self, nodes: &[NodeId]) {
        let mut dv = self.dv.take().expect("checked by the caller");
        for &x in nodes {
            dv.interfaces_changed(self, x.idx());
        }
        self.dv = Some(dv);
    }
}
