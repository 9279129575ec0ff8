//! MAC learning switches: IEEE 802.1D transparent bridging at a node (docs/models/ethernet.md).
//!
//! Read first: IEEE 802.1D-2004 §7.7 (forwarding and filtering), §7.8 (learning) and §7.9
//! (the filtering database; ageing time 300 s by default, Table 7-5 "recommended value").
//!
//! A bridge learns, from each frame's source address, the port that leads to it (the
//! direction back to the neighbour the frame came from) and refreshes that entry on every
//! frame; it sends a frame for a known address out of that port only, discards it if that port
//! is the one it came in on, and floods a frame for an unknown or aged-out address out of
//! every port except the one it came in on. Static entries never age and are never relearned.
//!
//! Addresses: nsim has no MAC layer. A frame's source and destination address are the end
//! hosts of its packet (`src`, `dst`), which are the MAC addresses a frame carries on a LAN of
//! hosts and bridges only; the builder therefore requires every neighbour of a bridge to be a
//! host or a bridge. There is no spanning tree protocol, so the bridged LAN must be a tree
//! (checked when building: a loop would flood forever).
//!
//! A flooded frame is copied into new packets, one per extra port; they belong to the frame's
//! flow but are outside its counters (it sent one packet). A copy that reaches a host it is not
//! addressed to is discarded by the host's address filter, as is a frame a bridge filters:
//! reason `filtered`, counted in the run's totals only: not as the flow's loss, and not as a
//! drop of the link that carried it (that link sent it: arrivals = departures + drops holds). In a
//! tree exactly one copy reaches the destination. A bridge node runs no IP forwarding and no
//! node hooks; the state is a table per bridge indexed by node id (no hashing per frame).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{CResult, ConfigError};
use crate::ids::{LinkId, NodeId};
use crate::net::{Link, Net, Node, NodeKind};
use crate::packet::PacketId;
use crate::record::DropReason;
use crate::time::{Dur, SimTime};
use crate::units::TimeSpec;

/// IEEE 802.1D-2004 Table 7-5: recommended ageing time of learned entries.
pub const DEFAULT_AGEING: Dur = Dur::from_secs(300);

/// `[[bridges]]`: a node that forwards as a MAC learning switch.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BridgeSpec {
    /// The node (listed in `routers`) that bridges all of its links.
    pub node: String,
    /// How long a learned entry lives without a frame from that address. Default "300s"
    /// (IEEE 802.1D-2004 Table 7-5).
    pub ageing: Option<TimeSpec>,
    /// Static entries: host name -> the neighbour whose link leads to it. They never age and
    /// learning never changes them (802.1D §7.9.1). Default none.
    #[serde(default, rename = "static")]
    pub fixed: BTreeMap<String, String>,
}

/// A filtering-database entry: the port towards an address, and when it was last seen.
#[derive(Clone, Copy, Debug)]
struct Entry {
    port: Option<LinkId>,
    seen: SimTime,
    fixed: bool,
}

/// What a bridge does with one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Forward(LinkId),
    Flood,
    Filter,
}

pub struct Bridge {
    ageing: Dur,
    /// The node's outgoing link directions (its ports).
    pub ports: Vec<LinkId>,
    /// By address (node id).
    table: Vec<Entry>,
}

impl Bridge {
    /// Learns `src` behind `in_port` (the direction back towards where the frame came from)
    /// and decides where the frame for `dst` goes.
    pub fn decide(&mut self, src: NodeId, dst: NodeId, in_port: LinkId, now: SimTime) -> Action {
        let e = &mut self.table[src.idx()];
        if !e.fixed {
            *e = Entry { port: Some(in_port), seen: now, fixed: false };
        }
        let e = self.table[dst.idx()];
        let known = e.port.filter(|_| e.fixed || now.0 - e.seen.0 < self.ageing.0);
        match known {
            Some(p) if p == in_port => Action::Filter,
            Some(p) => Action::Forward(p),
            None => Action::Flood,
        }
    }
}

/// Every bridge of the network, and which node is one.
pub struct Bridges {
    /// By node id: its index in `list`.
    of_node: Vec<Option<usize>>,
    pub list: Vec<Bridge>,
    /// By link id: the opposite direction of the same link (a port's way back).
    reverse: Vec<Option<LinkId>>,
}

impl Bridges {
    pub fn is_bridge(&self, n: NodeId) -> bool {
        self.of_node[n.idx()].is_some()
    }
}

/// Builds the bridges of `specs` over `links`; checks that every neighbour of a bridge is a
/// host or a bridge, that the bridged LAN has no loop, and the static entries.
pub fn build(
    specs: &[BridgeSpec],
    ids: &dyn Fn(&str, &str) -> CResult<NodeId>,
    nodes: &[Node],
    links: &[Link],
) -> CResult<Option<Box<Bridges>>> {
    if specs.is_empty() {
        return Ok(None);
    }
    let n = nodes.len();
    let kind = |i: usize| nodes[i].kind;
    let mut of_node = vec![None; n];
    for (i, s) in specs.iter().enumerate() {
        let node = ids(&s.node, &format!("bridges[{i}].node"))?;
        if kind(node.idx()) != NodeKind::Router {
            return Err(ConfigError::new(
                format!("bridges[{i}].node"),
                format!("'{}' is a host; a bridge must be listed in `routers`", s.node),
            ));
        }
        if of_node[node.idx()].replace(i).is_some() {
            return Err(ConfigError::new(
                format!("bridges[{i}].node"),
                format!("'{}' is already a bridge", s.node),
            ));
        }
    }
    let reverse: Vec<Option<LinkId>> = links
        .iter()
        .map(|l| {
            links.iter().position(|r| r.from == l.to && r.to == l.from).map(|r| LinkId(r as u32))
        })
        .collect();
    // Union-find over the nodes joined by bridged links: a link closing a cycle is a loop.
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for (li, l) in links.iter().enumerate() {
        let (a, b) = (l.from.idx(), l.to.idx());
        if of_node[a].is_none() && of_node[b].is_none() {
            continue;
        }
        if of_node[a].is_some() && of_node[b].is_none() && kind(b) != NodeKind::Host {
            let i = of_node[a].expect("checked");
            return Err(ConfigError::new(format!("bridges[{i}].node"), format!("'{}' links to router '{}': a bridge's neighbours must be hosts or bridges (frames carry end-host addresses)", specs[i].node, nodes[b].name)));
        }
        let Some(back) = reverse[li] else {
            let i = of_node[a].or(of_node[b]).expect("a bridged link");
            return Err(ConfigError::new(format!("bridges[{i}].node"), format!("the link {} -> {} is simplex: a bridge learns from the way back, so its links must be duplex", nodes[a].name, nodes[b].name)));
        };
        // Each duplex link appears twice (both directions); count it once.
        if back.idx() < li {
            continue;
        }
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra == rb {
            let i = of_node[a].or(of_node[b]).expect("a bridged link");
            return Err(ConfigError::new(format!("bridges[{i}].node"), "the bridged LAN has a loop: nsim runs no spanning tree protocol, so bridges and their links must form a tree".to_string()));
        }
        parent[ra] = rb;
    }
    let mut list = Vec::with_capacity(specs.len());
    for (i, s) in specs.iter().enumerate() {
        let node = ids(&s.node, &format!("bridges[{i}].node"))?;
        let ports: Vec<LinkId> =
            (0..links.len()).filter(|&l| links[l].from == node).map(|l| LinkId(l as u32)).collect();
        let ageing = s.ageing.map_or(DEFAULT_AGEING, |t| t.0);
        if ageing == Dur::ZERO {
            return Err(ConfigError::new(
                format!("bridges[{i}].ageing"),
                "must be greater than zero",
            ));
        }
        let mut table = vec![Entry { port: None, seen: SimTime::ZERO, fixed: false }; n];
        for (host, via) in &s.fixed {
            let path = format!("bridges[{i}].static.{host}");
            let h = ids(host, &path)?;
            let v = ids(via, &path)?;
            let port =
                ports.iter().copied().find(|&p| links[p.idx()].to == v).ok_or_else(|| {
                    ConfigError::new(
                        path.clone(),
                        format!("'{via}' is not a neighbour of '{}'", s.node),
                    )
                })?;
            table[h.idx()] = Entry { port: Some(port), seen: SimTime::ZERO, fixed: true };
        }
        list.push(Bridge { ageing, ports, table });
    }
    Ok(Some(Box::new(Bridges { of_node, list, reverse })))
}

impl Net {
    /// Frame `id` arrives over `l` at a bridge, or at a host next to one: bridge it, or apply
    /// the host's address filter. Returns the packet if it is for the node it reached.
    #[inline(never)]
    pub(crate) fn bridge_arrive(&mut self, l: LinkId, id: PacketId) -> Option<PacketId> {
        let (from, at) = (self.links[l.idx()].from, self.links[l.idx()].to);
        let (src, dst) = {
            let p = self.pool.get(id);
            (p.src, p.dst)
        };
        let bridges = self.bridges.as_deref_mut().expect("bridge_arrive with bridges");
        let Some(bi) = bridges.of_node[at.idx()] else {
            if dst != at && bridges.is_bridge(from) {
                self.drop_packet(id, DropReason::Filtered, None);
                return None;
            }
            return self.forward(at, id);
        };
        if dst == at {
            return Some(id);
        }
        let in_port =
            bridges.reverse[l.idx()].expect("bridged links are duplex (checked when building)");
        let bridge = &mut bridges.list[bi];
        match bridge.decide(src, dst, in_port, self.now) {
            Action::Forward(p) => self.enqueue(p, id),
            Action::Filter => self.drop_packet(id, DropReason::Filtered, None),
            Action::Flood => {
                let ports = bridge.ports.len();
                let outs = ports - usize::from(bridge.ports.contains(&in_port));
                if outs == 0 {
                    // A bridge with no other port: nowhere to flood to.
                    self.drop_packet(id, DropReason::Filtered, None);
                    return None;
                }
                let mut sent = 0;
                for k in 0..ports {
                    let port = self.bridges.as_deref().expect("checked above").list[bi].ports[k];
                    if port == in_port {
                        continue;
                    }
                    sent += 1;
                    // Copies first: the original may be dropped (and its slot reused) once queued.
                    let frame = if sent == outs {
                        id
                    } else {
                        let copy = *self.pool.get(id);
                        self.pool.alloc(copy)
                    };
                    self.enqueue(port, frame);
                }
            }
        }
        None
    }
}
