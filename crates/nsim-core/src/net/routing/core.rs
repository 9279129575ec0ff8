//! Dense next-hop tables for the core of each connected component, by Dijkstra.
//!
//! For each destination, Dijkstra over the reversed core links gives every core node's first
//! hop. Costs are (delay, hops) for the delay metric and (hops, 0) for hop counts; a node's
//! next hop is the link minimising (cost through it, link id), so ties go to the lower link id
//! (the rule of the all-pairs table this replaces). Only core links take part: a shortest path
//! between two core nodes never enters a hanging tree, which it would have to leave through the
//! node it entered by.
//!
//! With ECMP (`routing.ecmp`), each cell also gets every link on a shortest path, not only the
//! lowest: after a destination's Dijkstra run, a link v -> w is on a shortest path when w's cost
//! plus the link's equals v's (costs are positive, so every such w was settled before v).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::peel::Forest;
use super::{Comp, Metric};
use crate::ids::{LinkId, NodeId};

/// Equal-cost next hops per core table cell: `spans[cell]` = (offset, count) in `links`.
#[derive(Clone, Debug, Default)]
pub(super) struct EqualCost {
    pub spans: Vec<(u32, u32)>,
    pub links: Vec<LinkId>,
}

/// Builds every component's table and sets each node's component and anchor (also numbered
/// across components, in [`super::DstKey::core`]); with `ecmp`, also every cell's equal-cost
/// next hops.
pub(super) fn tables(
    f: &mut Forest,
    links: &[(NodeId, NodeId, u64)],
    metric: Metric,
    ecmp: bool,
) -> (Vec<Comp>, Vec<LinkId>, Option<EqualCost>) {
    let n = f.parent.len();
    let is_core = |v: usize| f.parent[v] == u32::MAX;
    // Weakly connected components of the core, members in id order; `local` = index within.
    let mut comp = vec![u32::MAX; n];
    let mut local = vec![0u32; n];
    let mut comps = Vec::new();
    let mut table = Vec::new();
    let mut members: Vec<usize> = Vec::new();
    let mut first_core = 0u32;
    let mut equal = ecmp.then(EqualCost::default);
    for seed in 0..n {
        if !is_core(seed) || comp[seed] != u32::MAX {
            continue;
        }
        let id = comps.len() as u32;
        members.clear();
        members.push(seed);
        comp[seed] = id;
        let mut i = 0;
        while i < members.len() {
            let v = members[i];
            let ends = f
                .out
                .of(v)
                .iter()
                .map(|&l| links[l as usize].1)
                .chain(f.inc.of(v).iter().map(|&l| links[l as usize].0));
            for u in ends.map(NodeId::idx) {
                if is_core(u) && comp[u] == u32::MAX {
                    comp[u] = id;
                    members.push(u);
                }
            }
            i += 1;
        }
        members.sort_unstable();
        for (i, &v) in members.iter().enumerate() {
            local[v] = i as u32;
        }
        let base = table.len();
        table.resize(base + members.len() * members.len(), LinkId::NONE);
        if let Some(e) = equal.as_mut() {
            e.spans.resize(table.len(), (0, 0));
        }
        dijkstra(
            &members,
            &local,
            f,
            links,
            metric,
            &mut table[base..],
            equal.as_mut().map(|e| (base, e)),
        );
        let c = members.len();
        let strong = (0..c * c).all(|k| k / c == k % c || table[base + k] != LinkId::NONE);
        comps.push(Comp { base, size: c as u32, first: first_core, strong });
        first_core += c as u32;
    }
    for &v in &f.order {
        let v = v as usize;
        let (c, a) = match f.parent[v] {
            u32::MAX => (comp[v], local[v]),
            p => (f.routes[p as usize].comp, f.routes[p as usize].anchor),
        };
        f.routes[v].comp = c;
        f.routes[v].anchor = a;
        f.keys[v].core = comps[c as usize].first + a;
    }
    (comps, table, equal)
}

/// Fills `next[from * c + to]` (local indices) for one component of `c` core nodes, and with
/// `equal` = (the component's first cell, the spans) every cell's equal-cost links.
fn dijkstra(
    members: &[usize],
    local: &[u32],
    f: &Forest,
    links: &[(NodeId, NodeId, u64)],
    metric: Metric,
    next: &mut [LinkId],
    mut equal: Option<(usize, &mut EqualCost)>,
) {
    let c = members.len();
    let cost = |l: usize| -> (u64, u64) {
        match metric {
            Metric::Hops => (1, 0),
            Metric::Delay => (links[l].2, 1),
        }
    };
    let mut dist: Vec<Option<(u64, u64, u32)>> = vec![None; c];
    let mut heap = BinaryHeap::new();
    for dst in 0..c {
        dist.fill(None);
        dist[dst] = Some((0, 0, 0));
        heap.push(Reverse((0u64, 0u64, 0u32, dst)));
        while let Some(Reverse((d1, d2, via, u))) = heap.pop() {
            if dist[u] != Some((d1, d2, via)) {
                continue;
            }
            for &l in f.inc.of(members[u]) {
                let l = l as usize;
                let from = links[l].0.idx();
                if f.parent[from] != u32::MAX {
                    continue;
                }
                let v = local[from] as usize;
                let (c1, c2) = cost(l);
                let cand = (d1 + c1, d2 + c2, l as u32);
                if dist[v].is_none_or(|cur| cand < cur) {
                    dist[v] = Some(cand);
                    next[v * c + dst] = LinkId(l as u32);
                    heap.push(Reverse((cand.0, cand.1, cand.2, v)));
                }
            }
        }
        if let Some((base, e)) = equal.as_mut() {
            for v in (0..c).filter(|&v| v != dst) {
                let Some((d1, d2, _)) = dist[v] else { continue };
                let off = e.links.len();
                // `out` lists a node's links in id order, so each span is sorted by link id.
                for &l in f.out.of(members[v]) {
                    let to = links[l as usize].1.idx();
                    if f.parent[to] != u32::MAX {
                        continue;
                    }
                    let (c1, c2) = cost(l as usize);
                    if dist[local[to] as usize]
                        .is_some_and(|(w1, w2, _)| (w1 + c1, w2 + c2) == (d1, d2))
                    {
                        e.links.push(LinkId(l));
                    }
                }
                e.spans[*base + v * c + dst] = (off as u32, (e.links.len() - off) as u32);
            }
        }
    }
}
