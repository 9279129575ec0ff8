//! A notice the core gives about a built scenario, beside `python/nsim/notices.py`'s: TCP
//! flows whose `window`s cap their goodput well below what their path carries (issue 30).
//! ns-2's one-way agents default to `window_ 20` packets, so a single Reno flow on a 10 Mb/s
//! path with an 83 ms round trip gets about 20 × 1000 B / 83 ms = 1.9 Mb/s, faithfully, and
//! nothing said so. Flows are judged together at every link of their path: twenty
//! window-limited flows that fill a link between them are not held by their windows.
//!
//! The bound is the sliding-window law: a sender with at most W segments of s payload bytes
//! outstanding delivers at most W·s per round trip (RFC 5681 §2 defines the window that
//! caps what is outstanding). The round trip counted is the base one: propagation both ways
//! plus one segment's and one ACK's serialization on each link, no queueing.

use crate::ids::NodeId;
use crate::net::Net;
use crate::sim::Simulator;
use crate::time::Dur;

/// Notices for the network-paced TCP flows (`bulk`, `file`) held by their windows: at every
/// link of the flow's path, all flows crossing it are such flows and their windows together
/// allow less than half of its rate. A link that also carries other traffic (UDP, TFRC, full
/// TCP, application-limited TCP) cannot say, so such flows get none. Up to three held flows
/// get a notice each; more get one notice that names three.
pub fn window_limited(sim: &Simulator) -> Vec<String> {
    let net = &sim.net;
    let paths: Vec<Option<Path>> = sim
        .flows
        .iter()
        .map(|f| path(net, f.src, f.dst, f.window.map_or(0, |w| w.payload + w.header)))
        .collect();
    let mut crossing: Vec<Vec<usize>> = vec![Vec::new(); net.links.len()];
    for (i, p) in paths.iter().enumerate() {
        for &l in p.iter().flat_map(|p| &p.links) {
            crossing[l].push(i);
        }
    }
    // Per window flow: its goodput bound (bit/s), base RTT (s), wire bytes per payload byte.
    let bound: Vec<Option<(f64, f64, f64)>> = sim
        .flows
        .iter()
        .zip(&paths)
        .map(|(f, out)| {
            let (w, out) = (f.window?, out.as_ref()?);
            let back = path(net, f.dst, f.src, w.header)?;
            let rtt = (out.delay.0 + out.tx.0 + back.delay.0 + back.tx.0) as f64 * 1e-12;
            Some((
                w.packets as f64 * w.payload as f64 * 8.0 / rtt,
                rtt,
                (w.payload + w.header) as f64 / w.payload as f64,
            ))
        })
        .collect();
    let link_held = |l: usize| {
        let wire: Option<f64> = crossing[l].iter().map(|&g| bound[g].map(|(b, _, x)| b * x)).sum();
        wire.is_some_and(|w| w < net.links[l].rate.0 as f64 / 2.0)
    };
    let held: Vec<usize> = (0..sim.flows.len())
        .filter(|&i| {
            bound[i].is_some()
                && paths[i]
                    .as_ref()
                    .is_some_and(|p| !p.links.is_empty() && p.links.iter().all(|&l| link_held(l)))
        })
        .collect();
    let note = |i: usize| {
        let (f, w, (b, rtt, wire)) = (
            &sim.flows[i],
            sim.flows[i].window.expect("held flows have one"),
            bound[i].expect("held"),
        );
        let capacity = net.links[paths[i].as_ref().expect("held").slowest].rate.0 as f64 / wire;
        let needed = (capacity * rtt / (8.0 * w.payload as f64)).ceil();
        format!(
            "flow `{}`: its window of {} packets of {} B per {:.1} ms round trip allows at most {:.2} Mb/s of goodput, \
             under half the {:.2} Mb/s its slowest link carries: the window, not the network, holds it (ns-2's \
             one-way TCP `window_` is 20 packets unless set); `window = {needed}` or more lets it fill the path",
            f.name,
            w.packets,
            w.payload,
            rtt * 1e3,
            b / 1e6,
            capacity / 1e6,
        )
    };
    if held.len() <= 3 {
        return held.into_iter().map(note).collect();
    }
    let names: Vec<&str> = held[..3].iter().map(|&i| sim.flows[i].name.as_str()).collect();
    vec![format!(
        "flows `{}` and {} more: their windows together allow less than half of every link they cross, so the windows, \
         not the network, hold them (ns-2's one-way TCP `window_` is 20 packets unless set); for one of them: {}",
        names.join("`, `"),
        held.len() - 3,
        note(held[0]),
    )]
}

/// A route from one node to another, for a packet of some size.
struct Path {
    links: Vec<usize>,
    /// Total propagation delay and serialization of the packet.
    delay: Dur,
    tx: Dur,
    /// The first slowest link.
    slowest: usize,
}

/// The route from `from` to `to` for a `bytes` packet; `None` without one.
fn path(net: &Net, from: NodeId, to: NodeId, bytes: u64) -> Option<Path> {
    let mut p = Path { links: Vec::new(), delay: Dur::ZERO, tx: Dur::ZERO, slowest: usize::MAX };
    let mut at = from;
    while at != to {
        if p.links.len() == net.links.len() {
            return None;
        }
        let l = net.routes.next_hop(at, to)?.idx();
        let link = &net.links[l];
        p.delay = p.delay + link.delay;
        p.tx = p.tx + link.rate.tx_time(bytes);
        if p.slowest == usize::MAX || link.rate.0 < net.links[p.slowest].rate.0 {
            p.slowest = l;
        }
        p.links.push(l);
        at = link.to;
    }
    Some(p)
}
