//! DV routing against ns-2.35: the route tables ns-2.35 printed for
//! reference/ns2/tcl/dv_table.tcl (five nodes, one link of cost 3, a link down at 3 s and up
//! at 6 s; `dv_table.routes`: time, node, destination, next hops, metric), and the
//! count-to-infinity that poisoned reverse avoids.

use crate::config::build::{build, RunOptions};
use crate::config::Scenario;
use crate::ids::NodeId;
use crate::sim::Simulator;
use crate::time::SimTime;

/// dv_table.tcl as a scenario: nodes n0..n4, 10 Mb/s 10 ms DropTail links.
const DV_TABLE: &str = r#"
name = "dv_table"
duration = "8.1s"
routers = ["n0", "n1", "n2", "n3", "n4"]
links = [
  { between = ["n0", "n1"], rate = "10Mb", delay = "10ms" },
  { between = ["n1", "n2"], rate = "10Mb", delay = "10ms" },
  { between = ["n2", "n3"], rate = "10Mb", delay = "10ms" },
  { between = ["n0", "n3"], rate = "10Mb", delay = "10ms" },
  { between = ["n3", "n4"], rate = "10Mb", delay = "10ms" },
]
[routing]
protocol = "dv"
costs = [{ from = "n0", to = "n3", cost = 3 }, { from = "n3", to = "n0", cost = 3 }]
[[event]]
at = "3s"
action = "down"
link = "n1-n2"
[[event]]
at = "6s"
action = "up"
link = "n1-n2"
"#;

fn sim(toml: &str) -> Simulator {
    build(&Scenario::from_toml(toml, "dv.toml").unwrap(), &RunOptions::default()).unwrap()
}

/// Node `x`'s route to `dst` as ns-2 prints it: next-hop node ids joined by commas, metric.
fn route(s: &Simulator, x: u32, dst: u32) -> String {
    let (links, metric) = s.net.dv.as_ref().unwrap().route(NodeId(x), NodeId(dst));
    let hops: Vec<String> = links.iter().map(|l| s.net.links[l.idx()].to.0.to_string()).collect();
    format!("{} {metric}", hops.join(","))
}

/// Every route at every instant ns-2.35 printed them, before, during and after the failure
/// (the triggered updates of 3.0 s and 6.0 s half-way at 3.001 s and 6.05 s included).
#[test]
fn route_tables_are_ns2s() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../reference/ns2/tcl/dv_table.routes"
    ))
    .unwrap();
    let mut s = sim(DV_TABLE);
    let mut checked = 0;
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let t: f64 = w[0].parse().unwrap();
        s.advance(SimTime::ZERO + crate::time::Dur::from_secs_f64(t), &mut |_| true);
        let (x, d) = (w[1].parse().unwrap(), w[2].parse().unwrap());
        let want = format!(
            "{} {}",
            w.get(3).filter(|_| w.len() == 5).copied().unwrap_or(""),
            w[w.len() - 1]
        );
        assert_eq!(route(&s, x, d), want, "at {t} s, node {x} to {d}");
        checked += 1;
    }
    assert_eq!(checked, 140);
}

/// A line a - b - c whose b-c link fails: with poisoned reverse a never believes b's route
/// through itself, so both lose c at once (metric infinity, 32) instead of counting up to
/// infinity advertisement by advertisement (RFC 1058 §2.2.2: split horizon with poisoned
/// reverse breaks two-node loops), and no packet to c loops between a and b.
#[test]
fn poisoned_reverse_avoids_counting_to_infinity() {
    let line = r#"
duration = "10s"
routers = ["a", "b", "c"]
links = [
  { between = ["a", "b"], rate = "10Mb", delay = "10ms" },
  { between = ["b", "c"], rate = "10Mb", delay = "10ms" },
]
[routing]
protocol = "dv"
[[event]]
at = "4s"
action = "down"
link = "b-c"
"#;
    let mut s = sim(line);
    s.advance(SimTime::ZERO + crate::time::Dur::from_secs(3), &mut |_| true);
    assert_eq!((route(&s, 0, 2), route(&s, 1, 2)), ("1 2".into(), "2 1".into()));
    // b hears of the failure at once, a one advertisement (10 ms on the wire) later.
    s.advance(SimTime::ZERO + crate::time::Dur::from_millis(4000), &mut |_| true);
    assert_eq!(route(&s, 1, 2), "2 32");
    s.advance(SimTime::ZERO + crate::time::Dur::from_millis(4011), &mut |_| true);
    assert_eq!(route(&s, 0, 2), "1 32");
    // Several periodic advertisements later, still unreachable: no count up through 3, 4...
    s.advance(SimTime::ZERO + crate::time::Dur::from_secs(10), &mut |_| true);
    assert_eq!((route(&s, 0, 2), route(&s, 1, 2)), ("1 32".into(), "2 32".into()));
}

/// Bad DV settings are refused naming the field and the reason.
#[test]
fn bad_dv_settings_name_the_field() {
    let base = "duration = \"1s\"\nrouters = [\"a\", \"b\"]\nlinks = [{ between = [\"a\", \"b\"], rate = \"1Mb\", delay = \"1ms\" }]\n[routing]\n";
    let endless = "routers = [\"a\", \"b\"]\nlinks = [{ between = [\"a\", \"b\"], rate = \"1Mb\", delay = \"1ms\" }]\n[routing]\nprotocol = \"dv\"\n";
    let e = build(&Scenario::from_toml(endless, "bad.toml").unwrap(), &RunOptions::default())
        .err()
        .expect("no duration");
    assert_eq!((e.path.as_str(), e.reason.contains("go on for ever")), ("duration", true));
    for (extra, field, reason) in [
        (
            "protocol = \"dv\"\ncosts = [{ from = \"a\", to = \"x\", cost = 2 }]",
            "routing.costs[0].to",
            "unknown node 'x'",
        ),
        (
            "protocol = \"dv\"\ncosts = [{ from = \"a\", to = \"b\", cost = 32 }]",
            "routing.costs[0].cost",
            "must be from 1 to infinity - 1 (31)",
        ),
        (
            "protocol = \"dv\"\ndv = { preference = 255 }",
            "routing.dv.preference",
            "must be below 255",
        ),
        ("protocol = \"dv\"\ndv = { infinity = 1 }", "routing.dv.infinity", "must be at least 2"),
        ("protocol = \"dv\"\necmp = true", "routing.ecmp", "does not apply"),
        ("protocol = \"dv\"\nrecompute = \"never\"", "routing.recompute", "does not apply"),
        (
            "costs = [{ from = \"a\", to = \"b\", cost = 2 }]",
            "routing.costs",
            "need routing.protocol = \"dv\"",
        ),
        ("dv = { multipath = true }", "routing.dv", "need routing.protocol = \"dv\""),
    ] {
        let scn = Scenario::from_toml(&format!("{base}{extra}\n"), "bad.toml").unwrap();
        let e = build(&scn, &RunOptions::default()).err().expect(extra);
        assert_eq!(e.path, field, "{extra}");
        assert!(e.reason.contains(reason), "{extra}: {}", e.reason);
    }
}
