//! TCP over ATM UBR Goyal-Jain 1997 (LAN): the classic result that plain tail drop wastes the
//! bottleneck on partial frames and that EPD / Selective Drop / FBA restore efficiency and
//! fairness; accounting balances frame by frame.

use nsim_core::{build, Results, RunOptions, Scenario};

/// 512 B of payload in 12 cells of 53 B at 155.52 Mb/s Goyal-Jain 1997 (§4: "125.2 Mbps").
const MAX_GOODPUT_BPS: f64 = 155.52e6 * 512.0 / 636.0;

fn run_lan(policy: &str, buffer: u64, secs: u64) -> Results {
    let path = format!("{}/../../scenarios/atm_ubr_lan.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace(
        r#"atm = { buffer = 1000, policy = "tail_drop" }"#,
        &format!(r#"atm = {{ buffer = {buffer}, policy = "{policy}" }}"#),
    );
    let scn = Scenario::from_toml(&text, &path).unwrap();
    let opts =
        RunOptions { duration: Some(nsim_core::time::Dur::from_secs(secs)), ..Default::default() };
    build(&scn, &opts).unwrap().run(&mut |_| true).unwrap()
}

/// (efficiency, Jain fairness) over the TCP flows.
fn metrics(r: &Results) -> (f64, f64) {
    let x: Vec<f64> = r.flows.iter().map(|f| f.goodput_bps).collect();
    let sum: f64 = x.iter().sum();
    let sq: f64 = x.iter().map(|v| v * v).sum();
    (sum / MAX_GOODPUT_BPS, sum * sum / (x.len() as f64 * sq))
}

#[test]
fn drop_policies_on_the_seed_001_lan() {
    let mut rows = Vec::new();
    for policy in ["tail_drop", "ppd", "epd", "selective_drop", "fba"] {
        let r = run_lan(policy, 1000, 3);
        assert!(r.accounting.balanced(), "{policy}: {:?}", r.accounting);
        let (eff, fair) = metrics(&r);
        let bn = r.queues.iter().find(|q| q.from == "sw1" && q.to == "sw2").unwrap();
        eprintln!(
            "{policy:>15}: efficiency {eff:.3} fairness {fair:.3} drops {:?} events {}",
            bn.drops, r.events
        );
        assert!(eff <= 1.0 + 1e-9, "{policy}: goodput above the cell-tax maximum");
        rows.push((policy, eff, fair, bn.drops.clone()));
    }
    let eff = |p: &str| rows.iter().find(|r| r.0 == p).unwrap().1;
    // Plain UBR forwards the remains of damaged frames: the frame-aware policies do better.
    for p in ["epd", "selective_drop", "fba"] {
        assert!(eff(p) > eff("tail_drop"), "{p} {} vs tail drop {}", eff(p), eff("tail_drop"));
    }
}

fn is_source(node: &str) -> bool {
    node.starts_with('s') && !node.starts_with("sw")
}

#[test]
fn cells_balance_per_vc_and_runs_repeat_bit_for_bit() {
    let a = run_lan("tail_drop", 1000, 1);
    let b = run_lan("tail_drop", 1000, 1);
    let g = |r: &Results| {
        r.flows
            .iter()
            .map(|f| (f.delivered_bytes, f.goodput_bps.to_bits(), f.retransmits))
            .collect::<Vec<_>>()
    };
    assert_eq!(g(&a), g(&b));
    assert_eq!(a.events, b.events);
    // Every cell a VC offered to a port departed, was dropped, or is still buffered.
    let vcs: Vec<_> = a.classes.iter().filter(|c| c.class.starts_with("vc")).collect();
    assert!(vcs.len() >= 20, "data and ACK VCs on the ATM links: {}", vcs.len());
    for c in &vcs {
        assert_eq!(
            c.arrivals,
            c.departures + c.dropped_pkts + c.queued_pkts,
            "{} on link {}",
            c.class,
            c.link
        );
    }
    // The host ports never drop: the cells a source offers are its segments times 12 (552-byte
    // segments, Goyal-Jain 1997's 12-cell frames) plus its ACK VC's 2-cell frames on the way back,
    // less one cell per flow: with `syn = false` ns-2 sends segment 0 as 512 B with no header
    // (docs/models/tcp.md), an 11-cell frame.
    let flows_cells: u64 =
        a.flows.iter().filter(|f| f.sent_pkts > 0).map(|f| f.sent_pkts * 12 - 1).sum();
    let host_cells: u64 = vcs
        .iter()
        .filter(|c| is_source(&a.queues[c.link as usize].from) && !c.class.ends_with("/ack"))
        .map(|c| c.arrivals)
        .sum();
    assert_eq!(host_cells, flows_cells);
}

#[test]
fn partial_discard_without_the_last_cell_costs_the_next_frame_at_reassembly() {
    // PPD that also discards the end-of-frame cell: the receiver cannot see the boundary, so
    // the next frame of the VC is merged into the damaged PDU and discarded (reason `aal5`),
    // the reason Romanow & Floyd keep that cell.
    let path = format!("{}/../../scenarios/atm_ubr_lan.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let run = |keep: bool| {
        let t = text.replace(
            r#"policy = "tail_drop" }"#,
            &format!(r#"policy = "ppd", keep_eom = {keep} }}"#),
        );
        let scn = Scenario::from_toml(&t, &path).unwrap();
        let opts =
            RunOptions { duration: Some(nsim_core::time::Dur::from_secs(1)), ..Default::default() };
        let r = build(&scn, &opts).unwrap().run(&mut |_| true).unwrap();
        assert!(r.accounting.balanced(), "{:?}", r.accounting);
        r.accounting.dropped_by_reason.get("aal5").copied().unwrap_or(0)
    };
    // Five sources at line rate into one port: a kept last cell mostly finds the buffer still
    // full and overflows, so merging remains when it is kept, but less of it.
    let (kept, dropped) = (run(true), run(false));
    assert!(
        dropped > kept && kept > 0,
        "aal5 discards: {kept} keeping the last cell, {dropped} not"
    );
}

#[test]
fn routers_segment_and_reassemble_where_a_path_enters_and_leaves_atm() {
    // h0 -(packet link)- r0 =(ATM)= r1 -(packet link)- h1: r0 segments, r1 reassembles.
    let toml = r#"
name = "IP over an ATM core"
duration = "2s"
hosts = ["h0", "h1"]
routers = ["r0", "r1"]
[[links]]
between = ["h0", "r0"]
rate = "100Mb"
delay = "1ms"
[[links]]
between = ["r0", "r1"]
rate = "155.52Mb"
delay = "2ms"
atm = { buffer = 500, policy = "epd" }
[[links]]
between = ["r1", "h1"]
rate = "100Mb"
delay = "1ms"
[[flows]]
from = "h0"
to = "h1"
app = { kind = "bulk" }
transport = { kind = "tcp", variant = "newreno", window = 64, packet_size = "512B", syn = false }
"#;
    let scn = Scenario::from_toml(toml, "core.toml").unwrap();
    let r = build(&scn, &RunOptions::default()).unwrap().run(&mut |_| true).unwrap();
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
    let f = &r.flows[0];
    assert!(f.delivered_pkts > 1000, "{}", f.delivered_pkts);
    // The ATM hop carried every delivered segment as 12 cells (segment 0, headerless with
    // `syn = false` as in ns-2, as 11); the packet links saw frames.
    let core = r.queues.iter().position(|q| q.from == "r0" && q.to == "r1").unwrap() as u32;
    let vc0 = r.classes.iter().find(|c| c.link == core && c.class == "vc0").unwrap();
    assert!(
        vc0.departures >= 12 * f.delivered_pkts - 1,
        "{} cells for {} segments",
        vc0.departures,
        f.delivered_pkts
    );
    let egress = r.queues.iter().find(|q| q.from == "r1" && q.to == "h1").unwrap();
    assert_eq!(egress.departures, f.delivered_pkts);
}

#[test]
fn frames_on_an_atm_link_are_in_flight_in_its_queue_row() {
    // One CBR flow over one ATM link, no queueing: a 1000 B datagram is ceil(1016 / 48) = 22
    // cells (RFC 2684 LLC/SNAP + I.363.5 trailer), at 424 kb/s one cell per 1 ms slot, so
    // each frame takes 22 ms to send and 100 ms more to propagate; one is sent every 50 ms
    // (at 0, 50, ..., 1000 ms). At 1.01 s the frames sent at t with t + 122 ms > 1010 ms are
    // on the wire: t = 900, 950, 1000 ms, 3 frames, none queued; 18 delivered.
    let toml = r#"
name = "frames in flight on an ATM link"
duration = "1.01s"
hosts = ["a", "b"]
[[links]]
between = ["a", "b"]
rate = "424kb"
delay = "100ms"
atm = { buffer = 1000 }
[[flows]]
from = "a"
to = "b"
app = { kind = "cbr", interval = "50ms", size = "1000B" }
"#;
    let scn = Scenario::from_toml(toml, "atm_in_flight.toml").unwrap();
    let r = build(&scn, &RunOptions::default()).unwrap().run(&mut |_| true).unwrap();
    let ab = r.queues.iter().find(|q| q.from == "a" && q.to == "b").unwrap();
    assert_eq!((ab.in_flight_pkts, ab.queued_pkts), (3, 0));
    assert_eq!((r.flows[0].sent_pkts, r.flows[0].delivered_pkts), (21, 18));
    assert_eq!(ab.arrivals, ab.departures + ab.dropped_pkts + ab.queued_pkts);
}

#[test]
fn queue_rows_account_for_every_packet_in_the_atm_lan() {
    // Mid-run on the Goyal-Jain LAN (EPD, 1000 cells; under tail drop every flow happens to
    // be waiting for a timeout at 1 s): the queue rows' packets held at the end add up to the
    // run's accounting, and each row balances.
    let r = run_lan("epd", 1000, 1);
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
    let in_flight: u64 = r.queues.iter().map(|q| q.in_flight_pkts).sum();
    let queued: u64 = r.queues.iter().map(|q| q.queued_pkts).sum();
    assert_eq!((in_flight, queued), (r.accounting.in_flight, r.accounting.queued));
    assert!(in_flight > 5, "five window-limited flows have frames on the wire: {in_flight}");
    for q in &r.queues {
        assert_eq!(
            q.arrivals,
            q.departures + q.dropped_pkts + q.queued_pkts,
            "{} -> {}",
            q.from,
            q.to
        );
    }
}
