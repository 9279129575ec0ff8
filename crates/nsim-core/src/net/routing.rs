//! Static routing: a next-hop table computed once before the run.
//!
//! Shortest paths by hop count (default) or by propagation delay (Dijkstra), as ns-2's static
//! route logic (`rtProto Static`) does with unit or delay costs. Ties go to the path through
//! the lower link id, so tables are deterministic. Explicit overrides then replace single
//! next hops ("at node X, traffic for D goes to Y"). The table is a dense `Vec` indexed by
//! (node, destination): one load per forwarded packet, no hashing.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

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

/// Next-hop table.
pub struct RouteTable {
    n: usize,
    next: Vec<LinkId>,
}

impl RouteTable {
    /// Computes shortest-path next hops. `links` are (from, to, delay_ps) per link id.
    pub fn shortest_paths(n: usize, links: &[(NodeId, NodeId, u64)], metric: Metric) -> Self {
        match metric {
            Metric::Hops => Self::fewest_hops(n, links),
            Metric::Delay => Self::dijkstra(n, links, metric),
        }
    }

    /// Hop-count routes by one breadth-first search per destination, O(n (n + links)): the
    /// same table as Dijkstra with unit costs (each node's next hop is its lowest-id link to a
    /// neighbour one hop closer), without a heap. At 2,050 nodes (the 1,024-pair dumbbell)
    /// this cut the set-up about five-fold (issue 14; docs/performance.md).
    fn fewest_hops(n: usize, links: &[(NodeId, NodeId, u64)]) -> Self {
        let mut next = vec![LinkId::NONE; n * n];
        let mut in_links: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut out_links: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, &(f, t, _)) in links.iter().enumerate() {
            in_links[t.idx()].push(i);
            out_links[f.idx()].push(i);
        }
        let mut dist = vec![u32::MAX; n];
        let mut order: Vec<usize> = Vec::with_capacity(n);
        for dst in 0..n {
            dist.fill(u32::MAX);
            order.clear();
            dist[dst] = 0;
            order.push(dst);
            let mut head = 0;
            while head < order.len() {
                let u = order[head];
                head += 1;
                for &l in &in_links[u] {
                    let v = links[l].0.idx();
                    if dist[v] == u32::MAX {
                        dist[v] = dist[u] + 1;
                        order.push(v);
                    }
                }
            }
            for &v in &order[1..] {
                // Out-links are in id order, so the first one found is the lowest.
                let via = out_links[v].iter().find(|&&l| dist[links[l].1.idx()] == dist[v] - 1);
                next[v * n + dst] = LinkId(*via.expect("a BFS-reached node has a link one hop closer") as u32);
            }
        }
        RouteTable { n, next }
    }

    /// Dijkstra per destination over reversed links; ties go to the lower first-hop link id.
    fn dijkstra(n: usize, links: &[(NodeId, NodeId, u64)], metric: Metric) -> Self {
        let mut next = vec![LinkId::NONE; n * n];
        // For each destination, Dijkstra over reversed links gives every node's first hop.
        let mut in_links: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, &(_, t, _)) in links.iter().enumerate() {
            in_links[t.idx()].push(i);
        }
        let cost = |l: usize| -> (u64, u64) {
            match metric {
                Metric::Hops => (1, 0),
                Metric::Delay => (links[l].2, 1),
            }
        };
        for dst in 0..n {
            let mut dist: Vec<Option<(u64, u64, u32)>> = vec![None; n];
            let mut heap = BinaryHeap::new();
            dist[dst] = Some((0, 0, 0));
            heap.push(Reverse((0u64, 0u64, 0u32, dst)));
            while let Some(Reverse((d1, d2, via, u))) = heap.pop() {
                if dist[u] != Some((d1, d2, via)) {
                    continue;
                }
                for &l in &in_links[u] {
                    let v = links[l].0.idx();
                    let (c1, c2) = cost(l);
                    let cand = (d1 + c1, d2 + c2, l as u32);
                    if dist[v].is_none_or(|cur| cand < cur) {
                        dist[v] = Some(cand);
                        next[v * n + dst] = LinkId(l as u32);
                        heap.push(Reverse((cand.0, cand.1, cand.2, v)));
                    }
                }
            }
        }
        RouteTable { n, next }
    }

    /// The link leaving `at` towards `dst`, if any.
    #[inline]
    pub fn next_hop(&self, at: NodeId, dst: NodeId) -> Option<LinkId> {
        let l = self.next[at.idx() * self.n + dst.idx()];
        (l != LinkId::NONE).then_some(l)
    }

    pub fn set_next_hop(&mut self, at: NodeId, dst: NodeId, link: LinkId) {
        self.next[at.idx() * self.n + dst.idx()] = link;
    }

    /// Follows next hops from `src`; `Ok(hops)` if `dst` is reached, `Err(node)` naming the
    /// node where the path ends or starts to loop.
    pub fn trace_path(&self, src: NodeId, dst: NodeId, link_to: impl Fn(LinkId) -> NodeId) -> Result<usize, NodeId> {
        let mut at = src;
        for hops in 0..=self.n {
            if at == dst {
                return Ok(hops);
            }
            match self.next_hop(at, dst) {
                Some(l) => at = link_to(l),
                None => return Err(at),
            }
        }
        Err(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(i: u32) -> NodeId {
        NodeId(i)
    }

    #[test]
    fn hop_count_and_delay_metrics_pick_different_paths() {
        // 0 -> 1 -> 2 (two fast hops) versus 0 -> 2 direct but slow.
        let links = [(n(0), n(1), 1), (n(1), n(2), 1), (n(0), n(2), 100)];
        let hops = RouteTable::shortest_paths(3, &links, Metric::Hops);
        assert_eq!(hops.next_hop(n(0), n(2)), Some(LinkId(2)));
        let delay = RouteTable::shortest_paths(3, &links, Metric::Delay);
        assert_eq!(delay.next_hop(n(0), n(2)), Some(LinkId(0)));
        assert_eq!(delay.next_hop(n(2), n(0)), None);
    }

    #[test]
    fn ties_prefer_the_lower_link_id() {
        // Two equal two-hop paths 0->1->3 and 0->2->3.
        let links = [(n(0), n(1), 1), (n(0), n(2), 1), (n(1), n(3), 1), (n(2), n(3), 1)];
        let t = RouteTable::shortest_paths(4, &links, Metric::Hops);
        assert_eq!(t.next_hop(n(0), n(3)), Some(LinkId(0)));
    }

    #[test]
    fn breadth_first_hops_equal_dijkstra_with_unit_costs() {
        // A 5x5 grid of duplex links with many equal-cost paths, plus a one-way shortcut and an
        // unreachable node: every next hop must match the heap-based search.
        let mut links = Vec::new();
        for r in 0..5u32 {
            for c in 0..5u32 {
                let i = r * 5 + c;
                if c < 4 {
                    links.extend([(n(i), n(i + 1), 1), (n(i + 1), n(i), 1)]);
                }
                if r < 4 {
                    links.extend([(n(i), n(i + 5), 1), (n(i + 5), n(i), 1)]);
                }
            }
        }
        links.push((n(0), n(24), 1));
        let bfs = RouteTable::fewest_hops(26, &links);
        let dij = RouteTable::dijkstra(26, &links, Metric::Hops);
        assert_eq!(bfs.next, dij.next);
        assert_eq!(bfs.next_hop(n(0), n(24)), Some(LinkId(links.len() as u32 - 1)));
        assert_eq!(bfs.next_hop(n(3), n(25)), None);
    }

    #[test]
    fn trace_path_reports_dead_ends_and_loops() {
        let links = [(n(0), n(1), 1), (n(1), n(0), 1)];
        let mut t = RouteTable::shortest_paths(3, &links, Metric::Hops);
        let to = |l: LinkId| links[l.idx()].1;
        assert_eq!(t.trace_path(n(0), n(1), to), Ok(1));
        assert_eq!(t.trace_path(n(0), n(2), to), Err(n(0)));
        t.set_next_hop(n(0), n(2), LinkId(0));
        t.set_next_hop(n(1), n(2), LinkId(1));
        assert!(t.trace_path(n(0), n(2), to).is_err());
    }
}
