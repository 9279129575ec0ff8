//! MAC learning switches (IEEE 802.1D-2004 §7.7-7.9) on a small switched LAN: h0, h1 on sw1,
//! h2, h3 on sw2, sw1 - sw2. A frame for an address no bridge has seen is flooded out of
//! every port but its own (each host it is not for discards its copy: `filtered`); once the
//! destination has sent a frame, the bridges forward to it on one port only; an entry older
//! than the ageing time is forgotten; a static entry is never flooded around.

use crate::common::run;
use nsim_core::Results;

/// The LAN, with `bridges` options and `flows` appended.
fn lan(bridge_opts: &str, flows: &str) -> String {
    let mut t = String::from("duration = \"5s\"\nhosts = [\"h0\", \"h1\", \"h2\", \"h3\"]\nrouters = [\"sw1\", \"sw2\"]\n");
    for (a, b) in [("h0", "sw1"), ("h1", "sw1"), ("sw1", "sw2"), ("h2", "sw2"), ("h3", "sw2")] {
        t += &format!("[[links]]\nbetween = [\"{a}\", \"{b}\"]\nrate = \"100Mb\"\ndelay = \"10us\"\nethernet = {{ buffer = \"64KB\" }}\n");
    }
    for sw in ["sw1", "sw2"] {
        t += &format!("[[bridges]]\nnode = \"{sw}\"\n{bridge_opts}\n");
    }
    t + flows
}

/// Frames the link sw -> `host` carried (the tests' hosts receive nothing else).
fn carried(r: &Results, host: &str) -> u64 {
    r.queues.iter().filter(|q| q.to == host).map(|q| q.departures).sum()
}

/// Copies discarded (by hosts they were not for, or by a bridge), from the run's accounting.
fn all_filtered(r: &Results) -> u64 {
    r.accounting.dropped_by_reason.get("filtered").copied().unwrap_or(0)
}

/// A one-way UDP flow: its destination never sends, so no bridge ever learns it and every
/// frame is flooded to all three other hosts, two of which discard it.
#[test]
fn unknown_destination_is_flooded_to_every_other_port() {
    let r = run(&lan("", "[[flows]]\nname = \"u\"\nfrom = \"h0\"\nto = \"h2\"\napp = { kind = \"cbr\", rate = \"1Mb\", size = \"1000B\" }\nstop = \"1s\"\n"));
    let sent = r.flows[0].sent_pkts;
    assert!(sent > 100);
    assert_eq!(r.flows[0].delivered_pkts, sent, "every frame reaches h2");
    assert_eq!(r.flows[0].dropped_pkts, 0, "discarded copies are not the flow's loss");
    assert_eq!((carried(&r, "h1"), carried(&r, "h3"), carried(&r, "h0")), (sent, sent, 0));
    assert_eq!(all_filtered(&r), 2 * sent);
    assert!(r.accounting.balanced());
}

/// TCP with a 1-segment initial window: the first segment finds h2 unknown and is flooded (h1 and h3 discard a copy each);
/// h2's ACK then teaches both bridges where h2 is (and they already know h0 from the
/// segment), so every later frame goes out of one port only.
#[test]
fn learned_destination_is_forwarded_on_one_port() {
    let flow = "[[flows]]\nname = \"t\"\nfrom = \"h0\"\nto = \"h2\"\napp = { kind = \"bulk\" }\ntransport = { kind = \"tcp\", variant = \"newreno\", syn = false, initial_window = 1 }\nstop = \"1s\"\n";
    let r = run(&lan("", flow));
    assert!(r.flows[0].delivered_pkts > 1000);
    assert_eq!((carried(&r, "h1"), carried(&r, "h3"), all_filtered(&r)), (1, 1, 2));
    assert_eq!(r.flows[0].dropped_pkts + r.flows[0].ack_dropped_pkts, 0);
    assert!(r.accounting.balanced());
}

/// h2 sends one burst at t = 0 (both bridges learn it), then h0 sends to h2 from t = 2 s.
/// With the 802.1D default ageing (300 s) h0's frames are forwarded; with a 1-s ageing the
/// entry is gone, and h0's frames are flooded until h2 speaks again (it never does).
#[test]
fn entries_age_out() {
    let flows = "[[flows]]\nname = \"teach\"\nfrom = \"h2\"\nto = \"h3\"\napp = { kind = \"cbr\", rate = \"1Mb\", size = \"1000B\" }\nstop = \"10ms\"\n\
                 [[flows]]\nname = \"late\"\nfrom = \"h0\"\nto = \"h2\"\napp = { kind = \"cbr\", rate = \"1Mb\", size = \"1000B\" }\nstart = \"2s\"\nstop = \"2.1s\"\n";
    let kept = run(&lan("", flows));
    let aged = run(&lan("ageing = \"1s\"", flows));
    let late = kept.flows[1].sent_pkts;
    assert!(late > 5);
    // The teaching flow: h3 unknown, flooded, h0 and h1 discard each copy; the late flow none.
    let teach = kept.flows[0].sent_pkts;
    assert_eq!(all_filtered(&kept), 2 * teach);
    assert_eq!(
        all_filtered(&aged),
        2 * teach + 2 * late,
        "after ageing h0's frames reach h1 and h3 too"
    );
    assert_eq!(aged.flows[1].delivered_pkts, late);
}

/// A static entry on both bridges: h0's one-way flow to h2 is never flooded.
#[test]
fn static_entry_is_never_flooded() {
    let t = lan("", "[[flows]]\nname = \"u\"\nfrom = \"h0\"\nto = \"h2\"\napp = { kind = \"cbr\", rate = \"1Mb\", size = \"1000B\" }\nstop = \"1s\"\n")
        .replacen("node = \"sw1\"\n", "node = \"sw1\"\nstatic = { h2 = \"sw2\" }\n", 1)
        .replacen("node = \"sw2\"\n", "node = \"sw2\"\nstatic = { h2 = \"h2\" }\n", 1);
    let r = run(&t);
    assert_eq!(all_filtered(&r), 0);
    assert_eq!(r.flows[0].delivered_pkts, r.flows[0].sent_pkts);
}

/// A loop of bridges is refused (no spanning tree protocol), naming the field.
#[test]
fn bridge_loop_is_an_error() {
    let t = lan("", "").replace("routers = [\"sw1\", \"sw2\"]", "routers = [\"sw1\", \"sw2\", \"sw3\"]")
        + "[[links]]\nbetween = [\"sw1\", \"sw3\"]\nrate = \"100Mb\"\ndelay = \"10us\"\n[[links]]\nbetween = [\"sw3\", \"sw2\"]\nrate = \"100Mb\"\ndelay = \"10us\"\n[[bridges]]\nnode = \"sw3\"\n";
    let scn = nsim_core::Scenario::from_toml(&t, "loop.toml").expect("parses");
    let err =
        nsim_core::build(&scn, &Default::default()).err().expect("a loop is refused").to_string();
    assert!(err.contains("bridges[") && err.contains("loop"), "{err}");
}
