//! IEEE 802.3x PAUSE on Noureddine 2002's link speed mismatch Noureddine 2002 (Fig 3.1 / 3.11): a
//! host sending at its 100 Mb/s line rate into a 10 Mb/s switch port loses most of its
//! frames without flow control and none with it (the switch's XOFF/XON hold the excess in
//! the host's NIC); every packet is accounted for either way.

use nsim_core::{build, Results, RunOptions, Scenario};

fn run(pause: &str) -> Results {
    let path = format!("{}/../../scenarios/ethernet_pause.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace(r#"pause = "simple""#, &format!(r#"pause = "{pause}""#));
    let scn = Scenario::from_toml(&text, &path).unwrap();
    build(&scn, &RunOptions::default()).unwrap().run(&mut |_| true).unwrap()
}

#[test]
fn line_rate_into_a_slow_port_loses_nothing_with_pause() {
    let off = run("off");
    let on = run("simple");
    for r in [&off, &on] {
        assert!(r.accounting.balanced(), "{:?}", r.accounting);
    }
    let f = |r: &Results| r.flows[0].clone();
    // 0.2 s at 97.5 Mb/s of 1500-byte packets: 1625 packets offered.
    assert_eq!(f(&on).sent_pkts, 1625);
    assert!(
        f(&off).dropped_pkts > 1000,
        "without PAUSE a 70 KB buffer overflows: {}",
        f(&off).dropped_pkts
    );
    assert_eq!(f(&on).dropped_pkts, 0);
    assert_eq!(f(&on).delivered_pkts, 1625, "all drained by the end");
    let q = |r: &Results, a: &str, b: &str| {
        r.queues.iter().find(|q| q.from == a && q.to == b).unwrap().clone()
    };
    let (bottleneck, back, nic) = (q(&on, "sw", "d"), q(&on, "sw", "s"), q(&on, "s", "sw"));
    // The switch stops s above 56 KB and never lets its buffer pass 70 KB.
    assert!(
        bottleneck.max_len_bytes <= 70_000 && bottleneck.max_len_bytes > 56_000,
        "{}",
        bottleneck.max_len_bytes
    );
    assert!(
        back.pause_sent > 0 && back.resume_sent == back.pause_sent,
        "{} XOFF, {} XON",
        back.pause_sent,
        back.resume_sent
    );
    assert_eq!(nic.pause_received, back.pause_sent + back.resume_sent);
    // s's NIC was paused most of the time the backlog drained at 10 Mb/s (about 2 s).
    assert!(nic.paused_s > 1.5 && nic.paused_s < 2.1, "{}", nic.paused_s);
    assert_eq!(q(&off, "sw", "s").pause_sent, 0);
}

#[test]
fn class_rows_count_the_frames_a_full_buffer_drops() {
    // Without PAUSE the 70 KB port overflows: its one class queue (cos0) must show the same
    // arrivals as the link's row, arrivals = departures + drops + queued, as on any queue.
    let off = run("off");
    let link = off.queues.iter().position(|q| q.from == "sw" && q.to == "d").unwrap();
    let row = &off.queues[link];
    let cos0 = off.classes.iter().find(|c| c.link == link as u32 && c.class == "cos0").unwrap();
    assert!(cos0.dropped_pkts > 1000, "{}", cos0.dropped_pkts);
    assert_eq!(
        (cos0.arrivals, cos0.arrival_bytes, cos0.dropped_pkts),
        (row.arrivals, row.arrival_bytes, row.dropped_pkts)
    );
    assert_eq!(cos0.arrivals, cos0.departures + cos0.dropped_pkts + cos0.queued_pkts);
    let in_flight: u64 = off.queues.iter().map(|q| q.in_flight_pkts).sum();
    let queued: u64 = off.queues.iter().map(|q| q.queued_pkts).sum();
    assert_eq!((in_flight, queued), (off.accounting.in_flight, off.accounting.queued));
}
