//! Static routing: next hops computed once before the run, in state linear in the network.
//!
//! Semantics (unchanged from the dense all-pairs table this replaces): shortest paths by hop
//! count (default) or by propagation delay (ties by hop count), as ns-2's static route logic
//! (`rtProto Static`, `RouteLogic::compute_routes`) does with unit or delay costs. Among the
//! links leaving a node on a shortest path, the one with the lowest link id wins, so routes
//! are deterministic. Explicit overrides then replace single next hops ("at node X, traffic for
//! D goes to Y").
//!
//! Representation (issue 15): an all-pairs table is n² entries (1.6 GB for 20,000 nodes) and n
//! Dijkstra runs. Instead, trees hanging off the network are peeled away ([`peel`]): a node
//! whose only neighbour is its parent, over a duplex link pair, is reached only through that
//! parent and leaves only through it, so its routes need no table. What remains (the "core":
//! the nodes on cycles, plus one root per tree-shaped component) gets a dense table per
//! connected component from Dijkstra ([`core`]). Hosts, dumbbells, chains, parking lots and
//! trees have a core of one node per component. Down a hanging tree, the next hop towards a
//! descendant is the heavy child (the one with the largest subtree) or the next light edge on
//! the destination's path from its root, stored per node: every path crosses at most log2(n)
//! light edges, and in the common shapes one or two. Forwarding is a few index loads, no
//! hashing, no search. Networks of at most 1,024 nodes also keep a dense table derived from
//! that state, so small scenarios forward with one load, as before.
//!
//! Exactness: a hanging tree has one path between any two of its nodes and to its root, so the
//! metric and tie-breaks only matter in the core, where Dijkstra runs as before over the core
//! links (a shortest path between core nodes never enters a hanging tree). Tests compare every
//! next hop with the all-pairs Dijkstra on each shape, with overrides and simplex links.
//!
//! ECMP (`routing.ecmp = true`): where a core node has several next hops on shortest paths to a
//! destination, a flow's packets take the one a seeded hash of the flow picks (RFC 2991 §4.1,
//! "modulo-N hash"; RFC 2992 analyses it): every packet of a flow (data and ACKs alike each
//! keep one path), flows spread evenly over the equal-cost links. The hash mixes in the node,
//! so successive routers do not all pick the same branch (hash polarisation). Hanging trees
//! have one path and no choice. Without ECMP a packet costs one branch more than before.
//!
//! A routing protocol (`routing.protocol = "dv"`, [`dv`]) starts from a table without routes
//! ([`RouteTable::unrouted`]) and installs next hops node by node as ns-2's nodes do
//! ([`multipath`]: one per destination, or several used in turn with `multiPath_`); the
//! lookup reads the same dense array, and a cell with several routes in the same branch ECMP
//! takes, so static routing's per-packet path is unchanged.

mod core;
pub mod dv;
mod ecmp;
mod multipath;
pub mod ns2_rng;
mod peel;
#[cfg(test)]
mod tests;

use crate::ids::{LinkId, NodeId};

/// Path cost used for shortest paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Every link costs 1.
    Hops,
    /// A link costs its propagation delay (ties broken by hop count).
    Delay,
}

/// What forwarding at a node needs to know about that node (all ids are `u32`, `NONE` =
/// `u32::MAX`). Aligned to a cache line: a lookup reads one of these, at the node forwarding
/// (routers' records stay cached; a host's is read when it sends). What a lookup needs about
/// the destination is in [`DstKey`].
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct NodeRoute {
    /// Position in the preorder of the hanging trees; the node's subtree (itself and the nodes
    /// hanging below it) is `pre..end`.
    pre: u32,
    end: u32,
    /// The link to the parent; `NONE` for a core node.
    up: LinkId,
    /// The link to the heavy child and the child's subtree `heavy_pre..heavy_end`.
    heavy_down: LinkId,
    heavy_pre: u32,
    heavy_end: u32,
    /// Light edges on the path from the anchor down to this node, and where they are stored.
    light_depth: u32,
    light_off: u32,
    /// Connected component, and the index within it of the core node this node hangs from.
    comp: u32,
    anchor: u32,
    /// 1 + index of the node's first override in `RouteTable::overrides`; 0 if none.
    first_override: u32,
}

/// What a lookup needs to know about the destination, in 16 bytes, four to a cache line.
///
/// Why apart from [`NodeRoute`] (issue 15): at a router the `at` record stays cached but the
/// destination's is one of thousands. With 20,002 nodes the 64-byte records take 1.3 MB,
/// beyond a core's 512 KB L2 here, and callgrind counted 0.85 L1 read misses per event in the
/// lookup (the destination's record, a sending host's own record, and at a host's router the
/// light-edge array). These keys take 320 KB for 20,002 nodes, and the light edge a router
/// reads for a host hanging from it (the last one on the host's path) is in the key, so a
/// lookup at a router touches one small entry instead of a record and the light-edge array:
/// 0.70 misses per event, and a fifth fewer in an L2-sized cache (docs/models/routing.md).
#[derive(Clone, Copy, Debug)]
#[repr(align(16))]
struct DstKey {
    /// [`NodeRoute::pre`].
    pre: u32,
    /// The node's anchor numbered across all components: component `c`'s core nodes are
    /// `comps[c].first..comps[c].first + comps[c].size`, so one number gives both the component
    /// and the anchor within it.
    core: u32,
    /// The last light edge on the path from the anchor to this node, and the node it leaves
    /// from (`NONE` for both if the path has none): the next hop there, where most lookups for
    /// a host in a tree are made.
    light_from: NodeId,
    last_light: LinkId,
}

impl Default for DstKey {
    fn default() -> Self {
        DstKey { pre: 0, core: 0, light_from: NodeId::NONE, last_light: LinkId::NONE }
    }
}

/// A connected component's core: a dense `size` x `size` next-hop table at `base`.
#[derive(Clone, Copy, Debug)]
struct Comp {
    base: usize,
    size: u32,
    /// The number of the component's first core node across all components ([`DstKey::core`]).
    first: u32,
    /// Every core node reaches every other: nodes hanging in it reach everything in it.
    strong: bool,
}

/// Next hops for every (node, destination), in state linear in nodes and links for trees.
pub struct RouteTable {
    nodes: Vec<NodeRoute>,
    /// Per node, what lookups for it as the destination read (with `nodes`, one per-node record
    /// split in two).
    keys: Vec<DstKey>,
    comps: Vec<Comp>,
    /// The core tables of all components.
    core: Vec<LinkId>,
    /// Light edges of every node's path from its anchor (see [`NodeRoute::light_off`]).
    light: Vec<LinkId>,
    /// Explicit next hops (at, destination, link), sorted.
    overrides: Vec<(NodeId, NodeId, LinkId)>,
    /// Networks of at most `DENSE_MAX_NODES` nodes also keep every next hop in one n x n array
    /// filled from the compact state: one load per packet, as the table before issue 15.
    dense: Vec<LinkId>,
    /// Several next hops per cell: ECMP's equal-cost core links (`routing.ecmp`), or the
    /// routes a routing protocol installed ([`multipath`]). `None`: one next hop per cell.
    spread: Option<Spread>,
}

/// How a cell with several next hops picks one.
enum Spread {
    /// A flow's hash (ECMP): the equal-cost next hops of the core cells and the hash salt.
    Hash(ecmp::Ecmp),
    /// Round robin per packet over the routes a routing protocol installed (ns-2's
    /// `Classifier/MultiPath`), and the per-cell route counts it keeps.
    RoundRobin(Box<multipath::MultiPath>),
}

/// Largest network with a dense table (4 MB at most). Measured (docs/models/routing.md): at 258
/// nodes the compact lookup cost 5 % more instructions per event than one load; at 2,050 nodes
/// it is as fast as the 17 MB table, which no longer fits the caches.
const DENSE_MAX_NODES: usize = 1024;

impl RouteTable {
    /// Computes shortest-path next hops. `links` are (from, to, delay_ps) per link id.
    pub fn shortest_paths(n: usize, links: &[(NodeId, NodeId, u64)], metric: Metric) -> Self {
        Self::with_ecmp(n, links, metric, None)
    }

    /// Shortest paths, and with `ecmp_salt` every core hop's equal-cost links, a flow's pick
    /// hashed with that salt (see the module doc).
    pub fn with_ecmp(
        n: usize,
        links: &[(NodeId, NodeId, u64)],
        metric: Metric,
        ecmp_salt: Option<u64>,
    ) -> Self {
        let mut forest = peel::Forest::new(n, links);
        let (comps, core, equal) = core::tables(&mut forest, links, metric, ecmp_salt.is_some());
        let spread =
            equal.zip(ecmp_salt).map(|(sets, salt)| Spread::Hash(ecmp::Ecmp { sets, salt }));
        let mut t = RouteTable {
            nodes: forest.routes,
            keys: forest.keys,
            comps,
            core,
            light: forest.light,
            overrides: Vec::new(),
            dense: Vec::new(),
            spread,
        };
        t.fill_dense();
        t
    }

    /// A table of `n` nodes without routes, which a routing protocol fills by [`Self::add_routes`]
    /// and [`Self::delete_routes`] (every lookup reads the dense array, whatever `n`).
    pub fn unrouted(n: usize) -> Self {
        let mut t = Self::with_ecmp(n, &[], Metric::Hops, None);
        t.dense = vec![LinkId::NONE; n * n];
        t.spread = Some(Spread::RoundRobin(Box::new(multipath::MultiPath::new(n))));
        t
    }

    /// Installs `links` at `at` for `dst` (ns-2 `Node add-routes`; with `multipath` several are
    /// used in turn). Only on a table made by [`Self::unrouted`].
    pub fn add_routes(&mut self, at: NodeId, dst: NodeId, links: &[LinkId], multipath: bool) {
        let cell = at.idx() * self.nodes.len() + dst.idx();
        if let Some(Spread::RoundRobin(m)) = self.spread.as_mut() {
            m.add(at, dst, links, multipath, &mut self.dense[cell]);
        }
    }

    /// Removes `links` at `at` for `dst` (ns-2 `Node delete-routes`).
    pub fn delete_routes(&mut self, at: NodeId, dst: NodeId, links: &[LinkId]) {
        let cell = at.idx() * self.nodes.len() + dst.idx();
        if let Some(Spread::RoundRobin(m)) = self.spread.as_mut() {
            m.delete(at, dst, links, &mut self.dense[cell]);
        }
    }

    /// The ECMP hash salt, if the table spreads flows over equal-cost links.
    pub fn ecmp_salt(&self) -> Option<u64> {
        match &self.spread {
            Some(Spread::Hash(e)) => Some(e.salt),
            _ => None,
        }
    }

    /// Shortest paths over the links marked up only (a topology change, net/dynamics.rs):
    /// the same computation on the surviving links, with their ids kept.
    pub fn shortest_paths_up(
        n: usize,
        links: &[(NodeId, NodeId, u64)],
        up: &[bool],
        metric: Metric,
        ecmp_salt: Option<u64>,
    ) -> Self {
        let kept: Vec<LinkId> =
            (0..links.len()).filter(|&l| up[l]).map(|l| LinkId(l as u32)).collect();
        let edges: Vec<_> = kept.iter().map(|l| links[l.idx()]).collect();
        let mut t = Self::with_ecmp(n, &edges, metric, ecmp_salt);
        let map = |l: &mut LinkId| {
            if *l != LinkId::NONE {
                *l = kept[l.idx()];
            }
        };
        for r in &mut t.nodes {
            map(&mut r.up);
            map(&mut r.heavy_down);
        }
        for k in &mut t.keys {
            map(&mut k.last_light);
        }
        let ecmp_links = t.spread.iter_mut().flat_map(|s| match s {
            Spread::Hash(e) => e.sets.links.iter_mut(),
            Spread::RoundRobin(_) => [].iter_mut(),
        });
        t.core
            .iter_mut()
            .chain(t.light.iter_mut())
            .chain(t.dense.iter_mut())
            .chain(ecmp_links)
            .for_each(map);
        t
    }

    /// The link leaving `at` towards `dst`, if any.
    #[inline(always)]
    pub fn next_hop(&self, at: NodeId, dst: NodeId) -> Option<LinkId> {
        let l = if self.dense.is_empty() {
            self.lookup(at, dst)
        } else {
            self.dense[at.idx() * self.nodes.len() + dst.idx()]
        };
        (l != LinkId::NONE).then_some(l)
    }

    /// The link leaving `at` towards `dst` for a packet of `flow`: with ECMP, the flow's pick
    /// among the equal-cost links of a core hop; with a routing protocol's several routes, the
    /// next in turn; otherwise [`Self::next_hop`].
    #[inline(always)]
    pub fn next_hop_flow(&self, at: NodeId, dst: NodeId, flow: u32) -> Option<LinkId> {
        match &self.spread {
            None => self.next_hop(at, dst),
            Some(Spread::Hash(e)) => {
                match self.core_cell(at, dst).and_then(|k| e.pick(k, at, flow)) {
                    Some(l) => Some(l),
                    None => self.next_hop(at, dst),
                }
            }
            Some(Spread::RoundRobin(m)) => match m.pick(at, dst) {
                Some(l) => l,
                None => self.next_hop(at, dst),
            },
        }
    }

    /// The core table cell a lookup at `at` for `dst` reads at `at` itself: `at` is a core node
    /// without an override for `dst`, and `dst` is in its component but not hanging below it.
    #[inline(never)]
    fn core_cell(&self, at: NodeId, dst: NodeId) -> Option<usize> {
        let a = &self.nodes[at.idx()];
        if a.up != LinkId::NONE || at == dst {
            return None;
        }
        if a.first_override != 0
            && self.overridden(a.first_override as usize - 1, at, dst).is_some()
        {
            return None;
        }
        let d = self.keys[dst.idx()];
        if a.pre < d.pre && d.pre < a.end {
            return None;
        }
        let c = self.comps[a.comp as usize];
        let d_anchor = d.core.wrapping_sub(c.first);
        (d_anchor < c.size)
            .then(|| c.base + a.anchor as usize * c.size as usize + d_anchor as usize)
    }

    /// Follows a flow's next hops from `src` to `dst`: the nodes its packets cross, `src` and
    /// `dst` included (fewer if the path ends or loops).
    pub fn flow_path(
        &self,
        src: NodeId,
        dst: NodeId,
        flow: u32,
        link_to: impl Fn(LinkId) -> NodeId,
    ) -> Vec<NodeId> {
        let mut path = vec![src];
        let _ = self.walk(src, dst, flow, link_to, |n| path.push(n));
        path
    }

    /// The next hop from the compact state (`NONE` if there is none). Not inlined, so the
    /// dense path stays one load in the forwarding code.
    #[inline(never)]
    fn lookup(&self, at: NodeId, dst: NodeId) -> LinkId {
        let a = &self.nodes[at.idx()];
        if a.first_override != 0 {
            if let Some(l) = self.overridden(a.first_override as usize - 1, at, dst) {
                return l;
            }
        }
        if at == dst {
            return LinkId::NONE;
        }
        let d = self.keys[dst.idx()];
        if a.pre < d.pre && d.pre < a.end {
            if a.heavy_pre <= d.pre && d.pre < a.heavy_end {
                a.heavy_down
            } else if d.light_from == at {
                d.last_light
            } else {
                self.deeper_light(a.light_depth, dst)
            }
        } else {
            let c = self.comps[a.comp as usize];
            // Outside `c`'s numbers: another component (wraps below `first`).
            let d_anchor = d.core.wrapping_sub(c.first);
            if d_anchor >= c.size {
                LinkId::NONE
            } else if a.up != LinkId::NONE {
                // Up to the anchor, if the anchor reaches the destination's anchor.
                if c.strong
                    || a.anchor == d_anchor
                    || self.core_hop(c, a.anchor, d_anchor) != LinkId::NONE
                {
                    a.up
                } else {
                    LinkId::NONE
                }
            } else {
                self.core_hop(c, a.anchor, d_anchor)
            }
        }
    }

    /// The light edge at `depth` on `dst`'s path from its anchor: the next hop towards `dst`
    /// from a node at that light depth above the last light edge (trees of three levels or
    /// more). Apart and cold, so the common lookup keeps few registers and loads.
    #[cold]
    #[inline(never)]
    fn deeper_light(&self, depth: u32, dst: NodeId) -> LinkId {
        self.light[(self.nodes[dst.idx()].light_off + depth) as usize]
    }

    /// Fills the dense table of a small network from the compact state.
    fn fill_dense(&mut self) {
        let n = self.nodes.len();
        if n <= DENSE_MAX_NODES {
            self.dense = (0..n * n)
                .map(|k| self.lookup(NodeId((k / n) as u32), NodeId((k % n) as u32)))
                .collect();
        }
    }

    #[inline]
    fn core_hop(&self, c: Comp, from: u32, to: u32) -> LinkId {
        self.core[c.base + from as usize * c.size as usize + to as usize]
    }

    /// The override at `at` for `dst`, scanning `at`'s overrides from index `i`.
    #[cold]
    fn overridden(&self, mut i: usize, at: NodeId, dst: NodeId) -> Option<LinkId> {
        while let Some(&(a, d, l)) = self.overrides.get(i) {
            if a != at {
                break;
            }
            if d == dst {
                return Some(l);
            }
            i += 1;
        }
        None
    }

    /// Replaces the next hop at `at` towards `dst`.
    pub fn set_next_hop(&mut self, at: NodeId, dst: NodeId, link: LinkId) {
        if !self.dense.is_empty() {
            self.dense[at.idx() * self.nodes.len() + dst.idx()] = link;
        }
        match self.overrides.binary_search_by_key(&(at, dst), |&(a, d, _)| (a, d)) {
            Ok(i) => self.overrides[i].2 = link,
            Err(i) => self.overrides.insert(i, (at, dst, link)),
        }
        for r in &mut self.nodes {
            r.first_override = 0;
        }
        for (i, &(a, _, _)) in self.overrides.iter().enumerate().rev() {
            self.nodes[a.idx()].first_override = i as u32 + 1;
        }
    }

    /// Follows next hops from `src`; `Ok(hops)` if `dst` is reached, `Err(node)` naming the
    /// node where the path ends or starts to loop.
    pub fn trace_path(
        &self,
        src: NodeId,
        dst: NodeId,
        link_to: impl Fn(LinkId) -> NodeId,
    ) -> Result<usize, NodeId> {
        self.walk(src, dst, 0, link_to, |_| {})
    }

    /// Follows `flow`'s next hops from `src`, telling `visit` each node reached; `Ok(hops)` if
    /// `dst` is reached, `Err(node)` where the path ends or starts to loop (after n hops).
    fn walk(
        &self,
        src: NodeId,
        dst: NodeId,
        flow: u32,
        link_to: impl Fn(LinkId) -> NodeId,
        mut visit: impl FnMut(NodeId),
    ) -> Result<usize, NodeId> {
        let mut at = src;
        for hops in 0..=self.nodes.len() {
            if at == dst {
                return Ok(hops);
            }
            match self.next_hop_flow(at, dst, flow) {
                Some(l) => at = link_to(l),
                None => return Err(at),
            }
            visit(at);
        }
        Err(at)
    }

    /// Routing state held, in table entries (per-node records, counted once for their `at` and
    /// destination halves, core table cells, stored light edges, overrides, the dense table of a
    /// small network): what grows with the network.
    pub fn entries(&self) -> usize {
        let ecmp = match &self.spread {
            Some(Spread::Hash(e)) => e.sets.spans.len() + e.sets.links.len(),
            _ => 0,
        };
        self.nodes.len()
            + self.core.len()
            + self.light.len()
            + self.overrides.len()
            + self.dense.len()
            + ecmp
    }
}
