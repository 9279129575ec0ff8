use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rand::{RngExt, SeedableRng};

use super::*;

fn n(i: u32) -> NodeId {
    NodeId(i)
}

/// Links of duplex pairs `(a, b, delay)`: pair k gives link 2k = a->b and 2k+1 = b->a.
fn duplex(pairs: &[(u32, u32, u64)]) -> Vec<(NodeId, NodeId, u64)> {
    pairs.iter().flat_map(|&(a, b, d)| [(n(a), n(b), d), (n(b), n(a), d)]).collect()
}

/// The all-pairs table this module replaced, kept verbatim as the reference: one Dijkstra per
/// destination over all links.
fn all_pairs(nn: usize, links: &[(NodeId, NodeId, u64)], metric: Metric) -> Vec<LinkId> {
    let mut next = vec![LinkId::NONE; nn * nn];
    let mut in_links: Vec<Vec<usize>> = vec![Vec::new(); nn];
    for (i, &(_, t, _)) in links.iter().enumerate() {
        in_links[t.idx()].push(i);
    }
    let cost = |l: usize| -> (u64, u64) {
        match metric {
            Metric::Hops => (1, 0),
            Metric::Delay => (links[l].2, 1),
        }
    };
    for dst in 0..nn {
        let mut dist: Vec<Option<(u64, u64, u32)>> = vec![None; nn];
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
                    next[v * nn + dst] = LinkId(l as u32);
                    heap.push(Reverse((cand.0, cand.1, cand.2, v)));
                }
            }
        }
    }
    next
}

/// Every next hop equals the all-pairs reference.
#[track_caller]
fn same_as_all_pairs(nn: usize, links: &[(NodeId, NodeId, u64)], metric: Metric) -> RouteTable {
    let t = RouteTable::shortest_paths(nn, links, metric);
    let reference = all_pairs(nn, links, metric);
    for at in 0..nn {
        for dst in 0..nn {
            let want = reference[at * nn + dst];
            let want = (at != dst && want != LinkId::NONE).then_some(want);
            let (a, d) = (n(at as u32), n(dst as u32));
            assert_eq!(t.next_hop(a, d), want, "at {at} for {dst}");
            assert_eq!(
                Some(t.lookup(a, d)).filter(|&l| l != LinkId::NONE),
                want,
                "compact state at {at} for {dst}"
            );
        }
    }
    t
}

/// Dumbbell with `k` pairs: routers 0 and 1, senders 2..2+k on 0, receivers 2+k.. on 1.
fn dumbbell(k: u32) -> Vec<(NodeId, NodeId, u64)> {
    let mut p = vec![(0, 1, 10)];
    p.extend((0..k).map(|i| (2 + i, 0, 1 + i as u64)));
    p.extend((0..k).map(|i| (1, 2 + k + i, 1)));
    duplex(&p)
}

/// Parking lot: routers 0..k in a line, each with host k+1+i attached.
fn parking_lot(k: u32) -> Vec<(NodeId, NodeId, u64)> {
    let mut p: Vec<_> = (1..k).map(|i| (i - 1, i, 5)).collect();
    p.extend((0..k).map(|i| (i, k + i, 1)));
    duplex(&p)
}

/// Three-level tree: core 0; `a` aggregation, `a*e` edge switches and `a*e*h` hosts.
fn tree(a: u32, e: u32, h: u32) -> (usize, Vec<(NodeId, NodeId, u64)>) {
    let mut p = Vec::new();
    let mut next = 1;
    for _ in 0..a {
        let ag = next;
        next += 1;
        p.push((0, ag, 3));
        for _ in 0..e {
            let ed = next;
            next += 1;
            p.push((ag, ed, 2));
            for _ in 0..h {
                p.push((ed, next, 1));
                next += 1;
            }
        }
    }
    (next as usize, duplex(&p))
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
fn dumbbell_next_hops_by_hand() {
    // Routers 0, 1; senders 2, 3; receivers 4, 5. Links: 0 r0->r1, 1 r1->r0, 2 s0->r0,
    // 3 r0->s0, 4 s1->r0, 5 r0->s1, 6 r1->d0, 7 d0->r1, 8 r1->d1, 9 d1->r1.
    let t = same_as_all_pairs(6, &dumbbell(2), Metric::Hops);
    assert_eq!(t.next_hop(n(2), n(4)), Some(LinkId(2)));
    assert_eq!(t.next_hop(n(0), n(4)), Some(LinkId(0)));
    assert_eq!(t.next_hop(n(1), n(4)), Some(LinkId(6)));
    assert_eq!(t.next_hop(n(1), n(5)), Some(LinkId(8)));
    assert_eq!(t.next_hop(n(5), n(3)), Some(LinkId(9)));
    assert_eq!(t.next_hop(n(1), n(3)), Some(LinkId(1)));
    assert_eq!(t.next_hop(n(0), n(3)), Some(LinkId(5)));
    assert_eq!(t.next_hop(n(2), n(3)), Some(LinkId(2)));
}

#[test]
fn chain_next_hops_by_hand() {
    // 0 - 1 - 2 - 3: link 2i = i -> i+1, 2i+1 = i+1 -> i.
    let t = same_as_all_pairs(4, &duplex(&[(0, 1, 1), (1, 2, 1), (2, 3, 1)]), Metric::Delay);
    assert_eq!(t.next_hop(n(0), n(3)), Some(LinkId(0)));
    assert_eq!(t.next_hop(n(1), n(3)), Some(LinkId(2)));
    assert_eq!(t.next_hop(n(2), n(3)), Some(LinkId(4)));
    assert_eq!(t.next_hop(n(3), n(0)), Some(LinkId(5)));
    assert_eq!(t.next_hop(n(2), n(0)), Some(LinkId(3)));
    assert_eq!(t.next_hop(n(1), n(0)), Some(LinkId(1)));
}

#[test]
fn parking_lot_next_hops_by_hand() {
    // Routers 0 - 1 - 2, hosts 3, 4, 5 on them. Links 0..3 the router line, then 4 r0->h3,
    // 5 h3->r0, 6 r1->h4, 7 h4->r1, 8 r2->h5, 9 h5->r2.
    let t = same_as_all_pairs(6, &parking_lot(3), Metric::Hops);
    assert_eq!(t.next_hop(n(3), n(5)), Some(LinkId(5)));
    assert_eq!(t.next_hop(n(0), n(5)), Some(LinkId(0)));
    assert_eq!(t.next_hop(n(1), n(5)), Some(LinkId(2)));
    assert_eq!(t.next_hop(n(2), n(5)), Some(LinkId(8)));
    assert_eq!(t.next_hop(n(1), n(3)), Some(LinkId(1)));
    assert_eq!(t.next_hop(n(1), n(4)), Some(LinkId(6)));
}

#[test]
fn tree_next_hops_by_hand() {
    // Core 0; aggregation 1 and 8; edges 2, 5 under 1 and 9, 12 under 8; two hosts per
    // edge (3, 4 on 2; 6, 7 on 5; 10, 11 on 9; 13, 14 on 12).
    let (nn, links) = tree(2, 2, 2);
    assert_eq!(nn, 15);
    // Pairs in order: (0,1) links 0/1, (1,2) 2/3, (2,3) 4/5, (2,4) 6/7, (1,5) 8/9, (5,6) 10/11,
    // (5,7) 12/13, (0,8) 14/15, (8,9) 16/17, (9,10) 18/19, (9,11) 20/21, (8,12) 22/23,
    // (12,13) 24/25, (12,14) 26/27.
    let t = same_as_all_pairs(nn, &links, Metric::Hops);
    // Host 3 to host 14: up 3->2->1->0, down 0->8->12->14.
    let hops = [(3, 5), (2, 3), (1, 1), (0, 14), (8, 22), (12, 26)];
    for (at, l) in hops {
        assert_eq!(t.next_hop(n(at), n(14)), Some(LinkId(l)), "at {at}");
    }
    // Host 3 to host 7 under the same aggregation switch: 3->2->1->5->7.
    assert_eq!(t.next_hop(n(2), n(7)), Some(LinkId(3)));
    assert_eq!(t.next_hop(n(1), n(7)), Some(LinkId(8)));
    assert_eq!(t.next_hop(n(5), n(7)), Some(LinkId(12)));
    assert_eq!(t.trace_path(n(3), n(14), |l| links[l.idx()].1), Ok(6));
}

#[test]
fn meshes_with_hanging_trees_match_all_pairs() {
    // A ring of 4 routers (a cycle, so a real core) with delay ties, a host on each, a chain
    // of 3 hanging from router 0 and a simplex shortcut 1 -> 3.
    let mut links = duplex(&[
        (0, 1, 2),
        (1, 2, 2),
        (2, 3, 2),
        (3, 0, 2),
        (0, 4, 1),
        (1, 5, 1),
        (2, 6, 1),
        (3, 7, 1),
    ]);
    links.extend(duplex(&[(0, 8, 1), (8, 9, 1), (9, 10, 1)]));
    links.push((n(1), n(3), 3));
    for metric in [Metric::Hops, Metric::Delay] {
        same_as_all_pairs(11, &links, metric);
    }
}

#[test]
fn simplex_links_and_disconnected_parts_match_all_pairs() {
    // 0 -> 1 simplex with a host 2 on 1; a separate pair 3 - 4; an isolated node 5.
    let mut links = vec![(n(0), n(1), 1)];
    links.extend(duplex(&[(1, 2, 1), (3, 4, 1)]));
    let t = same_as_all_pairs(6, &links, Metric::Hops);
    assert_eq!(t.next_hop(n(2), n(0)), None);
    assert_eq!(t.next_hop(n(0), n(2)), Some(LinkId(0)));
    assert_eq!(t.next_hop(n(3), n(2)), None);
}

#[test]
fn random_graphs_match_all_pairs() {
    // Sparse random graphs: trees with a few extra (sometimes simplex) links and random
    // delays, both metrics.
    let mut rng = rand_pcg::Pcg64::seed_from_u64(15);
    for _ in 0..60 {
        let nn = rng.random_range(2..40u32);
        let mut links = Vec::new();
        for v in 1..nn {
            let p = rng.random_range(0..v);
            links.extend(duplex(&[(p, v, rng.random_range(0..4))]));
        }
        for _ in 0..rng.random_range(0..4) {
            let (a, b) = (rng.random_range(0..nn), rng.random_range(0..nn));
            if a != b {
                links.push((n(a), n(b), rng.random_range(0..4)));
            }
        }
        for metric in [Metric::Hops, Metric::Delay] {
            same_as_all_pairs(nn as usize, &links, metric);
        }
    }
}

#[test]
fn networks_above_the_dense_size_match_all_pairs() {
    // 1,111 nodes: forwarding reads the compact state only.
    let (nn, mut links) = tree(30, 4, 8);
    links.extend(duplex(&[(1, 38, 2), (38, 75, 2)]));
    for metric in [Metric::Hops, Metric::Delay] {
        let t = same_as_all_pairs(nn, &links, metric);
        assert!(t.dense.is_empty());
    }
}

#[test]
fn overrides_replace_single_next_hops() {
    // Ring 0 - 1 - 2 - 3 - 0 with a host 4 on 2.
    let links = duplex(&[(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 0, 1), (2, 4, 1)]);
    let mut t = RouteTable::shortest_paths(5, &links, Metric::Hops);
    assert_eq!(t.next_hop(n(0), n(4)), Some(LinkId(0)));
    // At 0, send traffic for 4 the other way round (0 -> 3 is link 7).
    t.set_next_hop(n(0), n(4), LinkId(7));
    t.set_next_hop(n(0), n(4), LinkId(7));
    assert_eq!(t.next_hop(n(0), n(4)), Some(LinkId(7)));
    assert_eq!(t.lookup(n(0), n(4)), LinkId(7), "the compact state has it too");
    assert_eq!(t.next_hop(n(0), n(2)), Some(LinkId(0)), "other destinations keep their route");
    assert_eq!(t.next_hop(n(1), n(4)), Some(LinkId(2)), "other nodes keep their route");
    assert_eq!(t.trace_path(n(0), n(4), |l| links[l.idx()].1), Ok(3));
    assert_eq!(t.entries(), RouteTable::shortest_paths(5, &links, Metric::Hops).entries() + 1);
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

#[test]
fn state_grows_linearly_with_the_network() {
    // Entries per node stay bounded as each shape grows 16-fold (from above the size that keeps
    // a dense table); the all-pairs table held n².
    type Shape = fn(u32) -> (usize, Vec<(NodeId, NodeId, u64)>);
    let shapes: [(&str, Shape); 4] = [
        ("dumbbell", |k| (2 + 2 * k as usize, dumbbell(k))),
        ("chain", |k| (k as usize, duplex(&(1..k).map(|i| (i - 1, i, 1)).collect::<Vec<_>>()))),
        ("parking lot", |k| (2 * k as usize, parking_lot(k))),
        ("tree", |k| tree(k / 10, 4, 8)),
    ];
    for (name, shape) in shapes {
        let per_node = |k: u32| {
            let (nn, links) = shape(k);
            RouteTable::shortest_paths(nn, &links, Metric::Hops).entries() as f64 / nn as f64
        };
        let (small, large) = (per_node(1100), per_node(17600));
        assert!(large <= 4.0, "{name}: {large} entries per node");
        assert!(large <= small * 1.1, "{name}: {small} -> {large} entries per node");
    }
}

/// Shortest-path costs (cost, hops) from every node to every destination, `None` if unreachable:
/// the reference for the equal-cost sets.
fn distances(
    nn: usize,
    links: &[(NodeId, NodeId, u64)],
    metric: Metric,
) -> Vec<Option<(u64, u64)>> {
    let cost = |l: usize| match metric {
        Metric::Hops => (1, 0),
        Metric::Delay => (links[l].2, 1),
    };
    let mut dist = vec![None; nn * nn];
    for dst in 0..nn {
        dist[dst * nn + dst] = Some((0, 0));
        // Bellman-Ford: small graphs, and independent of the Dijkstra under test.
        for _ in 0..nn {
            for (l, &(a, b, _)) in links.iter().enumerate() {
                if let Some((d1, d2)) = dist[b.idx() * nn + dst] {
                    let (c1, c2) = cost(l);
                    let cand = (d1 + c1, d2 + c2);
                    if dist[a.idx() * nn + dst].is_none_or(|cur| cand < cur) {
                        dist[a.idx() * nn + dst] = Some(cand);
                    }
                }
            }
        }
    }
    dist
}

#[test]
fn ecmp_flows_use_exactly_the_equal_cost_next_hops() {
    // Random graphs with many cycles and tied delays: at every node, for every destination,
    // the links 64 flows take are exactly the links on some shortest path (RFC 2991's
    // equal-cost set), whatever the node's place (core, hanging tree) in the compact state.
    let mut rng = rand_pcg::Pcg64::seed_from_u64(2991);
    let mut multi = 0;
    for _ in 0..40 {
        let nn = rng.random_range(2..30u32);
        let mut links = Vec::new();
        for v in 1..nn {
            links.extend(duplex(&[(rng.random_range(0..v), v, rng.random_range(0..2))]));
        }
        for _ in 0..rng.random_range(0..nn) {
            let (a, b) = (rng.random_range(0..nn), rng.random_range(0..nn));
            if a != b {
                links.extend(duplex(&[(a, b, rng.random_range(0..2))]));
            }
        }
        for metric in [Metric::Hops, Metric::Delay] {
            let nn = nn as usize;
            let t = RouteTable::with_ecmp(nn, &links, metric, Some(7));
            let plain = RouteTable::shortest_paths(nn, &links, metric);
            let dist = distances(nn, &links, metric);
            for at in 0..nn {
                for dst in (0..nn).filter(|&d| d != at) {
                    let (a, d) = (n(at as u32), n(dst as u32));
                    let Some(here) = dist[at * nn + dst] else {
                        assert_eq!(t.next_hop_flow(a, d, 0), None);
                        continue;
                    };
                    let want: std::collections::BTreeSet<LinkId> = (0..links.len())
                        .filter(|&l| links[l].0 == a)
                        .filter(|&l| {
                            let (c1, c2) = match metric {
                                Metric::Hops => (1, 0),
                                Metric::Delay => (links[l].2, 1),
                            };
                            dist[links[l].1.idx() * nn + dst]
                                .is_some_and(|(x, y)| (x + c1, y + c2) == here)
                        })
                        .map(|l| LinkId(l as u32))
                        .collect();
                    let got: std::collections::BTreeSet<LinkId> =
                        (0..64).filter_map(|f| t.next_hop_flow(a, d, f)).collect();
                    assert_eq!(got, want, "at {at} for {dst}");
                    multi += (want.len() > 1) as usize;
                    // Without ECMP every flow takes the one next hop of the plain table.
                    assert!((0..8).all(|f| plain.next_hop_flow(a, d, f) == plain.next_hop(a, d)));
                }
            }
        }
    }
    assert!(multi > 100, "the graphs have equal-cost choices to test ({multi})");
}

#[test]
fn ecmp_spreads_flows_evenly_and_the_salt_reshuffles_them() {
    // Two leaves 0, 1 and four spines 2..5 (links leaf-spine in leaf order), a host 6 on leaf 0
    // and 7 on leaf 1: 4,000 flows from leaf 0 to host 7 over four equal two-hop paths.
    let mut p: Vec<(u32, u32, u64)> = (0..2).flat_map(|l| (2..6).map(move |s| (l, s, 1))).collect();
    p.extend([(6, 0, 1), (7, 1, 1)]);
    let links = duplex(&p);
    let count = |salt: u64| {
        let t = RouteTable::with_ecmp(8, &links, Metric::Hops, Some(salt));
        let mut per = [0u32; 4];
        for f in 0..4000 {
            let l = t.next_hop_flow(n(0), n(7), f).unwrap();
            per[links[l.idx()].1.idx() - 2] += 1;
        }
        per
    };
    let (a, b) = (count(1), count(2));
    // Pearson's chi-square against the uniform split, 3 degrees of freedom: 16.27 is the
    // 0.1 % critical value, so a fair hash fails this one time in a thousand salts.
    for per in [a, b] {
        let chi2: f64 = per.iter().map(|&c| (c as f64 - 1000.0).powi(2) / 1000.0).sum();
        assert!(chi2 < 16.27, "{per:?} chi2 {chi2}");
    }
    assert_ne!(a, b, "another salt moves flows");
}
