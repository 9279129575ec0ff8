//! Routing through whole scenarios: the tree helper end to end, errors that name the node, and
//! routing state that grows linearly with the network (counted in entries, not timed).

use crate::common::config_error;
use nsim_core::{build, Results, RunOptions, Scenario};

fn sim(toml: &str) -> nsim_core::sim::Simulator {
    let scn = Scenario::from_toml(toml, "t.toml").expect("parses");
    build(&scn, &RunOptions::default()).expect("builds")
}

fn run(toml: &str) -> Results {
    let mut r = sim(toml).run(&mut |_| true).expect("runs");
    r.wall_s = 0.0;
    r.setup_wall_s = 0.0;
    r.run_wall_s = 0.0;
    r
}

const TREE_EXAMPLE: &str = include_str!("../../../../scenarios/tree_mixed_traffic.toml");

#[test]
fn tree_example_routes_across_the_core_and_reruns_identically() {
    let a = run(TREE_EXAMPLE);
    assert!(a.flows.iter().all(|f| f.delivered_pkts > 0), "every flow delivers");
    let acc = &a.accounting;
    assert_eq!(acc.created, acc.delivered + acc.dropped + acc.queued + acc.in_flight);
    let departures = |from: &str, to: &str| {
        a.queues.iter().find(|q| q.from == from && q.to == to).unwrap().departures
    };
    // h15 -> h0 climbs edge3, agg1, the core, then down agg0 and edge0; the voice calls from
    // h10..h13 (edge2 and edge3, under agg1) reach the server through the core.
    for (from, to) in [
        ("h15", "edge3"),
        ("edge3", "agg1"),
        ("agg1", "core"),
        ("core", "agg0"),
        ("agg0", "edge0"),
        ("edge0", "h0"),
        ("core", "srv"),
    ] {
        assert!(departures(from, to) > 0, "{from} -> {to} carries traffic");
    }
    // Nothing goes down to the hosts under agg1 that no flow sends to.
    assert_eq!(departures("edge2", "h8"), 0);
    let b = run(TREE_EXAMPLE);
    assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
}

const SMALL_TREE: &str = r#"
duration = "1s"
hosts = ["lonely"]
[tree]
levels = [
  { fanout = 2, prefix = "agg", link = { rate = "10Mb", delay = "1ms" } },
  { fanout = 2, prefix = "h", link = { rate = "10Mb", delay = "1ms" } },
]
[[flows]]
from = "h0"
to = "h3"
app = { kind = "cbr", rate = "1Mb" }
"#;

#[test]
fn no_route_and_routing_loops_are_errors_naming_the_node() {
    assert!(sim(SMALL_TREE).net.nodes.len() == 8);
    let e = config_error(&SMALL_TREE.replace("to = \"h3\"", "to = \"lonely\""));
    assert!(
        e.contains("flows[0].to")
            && e.contains("no route from 'h0' to 'lonely'")
            && e.contains("ends or loops at 'h0'"),
        "{e}"
    );
    // At agg1, send traffic for h3 back to the core, which sends it to agg1 again.
    let looped =
        format!("{SMALL_TREE}\n[[routing.routes]]\nat = \"agg1\"\nto = \"h3\"\nnext = \"core\"\n");
    let e = config_error(&looped);
    assert!(e.contains("no route from 'h0' to 'h3'") && e.contains("loops at"), "{e}");
    // An override naming an unknown node names the field.
    let e = config_error(&SMALL_TREE.replace("to = \"h3\"", "to = \"h2\"").replace(
        "[[flows]]",
        "[[routing.routes]]\nat = \"agg1\"\nto = \"h2\"\nnext = \"h9\"\n[[flows]]",
    ));
    assert!(e.contains("routing.routes[0].next") && e.contains("unknown node 'h9'"), "{e}");
}

/// Routing entries per node of a dumbbell with `pairs` pairs and one flow per pair.
fn dumbbell_entries_per_node(pairs: u32) -> f64 {
    let s = sim(&format!(
        r#"duration = "1s"
        [dumbbell]
        pairs = {pairs}
        bottleneck = {{ rate = "1Gb", delay = "10ms" }}
        access = {{ rate = "1Gb", delay = "1ms" }}
        [[flows]]
        repeat = {pairs}
        from = "s{{i}}"
        to = "d{{i}}"
        app = {{ kind = "bulk" }}
        transport = {{ kind = "tcp", variant = "sack1" }}"#
    ));
    s.net.routes.entries() as f64 / s.net.nodes.len() as f64
}

#[test]
fn routing_state_grows_linearly_with_the_network() {
    // The all-pairs table held n² entries: 4 x 10^8 for the 10,000-pair benchmark. (Networks
    // of up to 1,024 nodes also keep a dense table, so both sizes are above that.)
    let (small, large) = (dumbbell_entries_per_node(600), dumbbell_entries_per_node(9600));
    assert!(large < 2.5, "{large} entries per node");
    assert!(large <= small * 1.05, "{small} -> {large} entries per node");
}
