//! Full TCP against ns-2.35's `Agent/TCP/FullTcp` family, event by event, on the Fall & Floyd
//! topology (reference data and how it was made: `reference/ns2/fulltcp/`).

use crate::common;
use crate::common::{first_mismatch, reference, run_traced, Ev};

fn scenario(variant: &str, drops: &[u32]) -> String {
    scenario_with(variant, drops, "")
}

/// `extra`: more transport keys, e.g. `, delayed_ack = true`.
fn scenario_with(variant: &str, drops: &[u32], extra: &str) -> String {
    let error = format!("error = {{ kind = \"drop_list\", packets = {drops:?}, flow = \"tcp\" }}\nerror_at = \"enqueue\"");
    let transport = format!(
        "variant = \"{variant}\", window = 28, mss = \"1000B\", clock_offset = \"5ms\"{extra}"
    );
    two_hop("0ms", 8, &error, &transport)
}

/// s1 -8 Mb/s `access_delay`- r1 -800 kb/s 100 ms, DropTail `queue`- k1, one bulk tcp_full
/// flow s1 -> k1 with `transport` keys, `error` lines on r1 -> k1, 6 s, traced.
fn two_hop(access_delay: &str, queue: u32, error: &str, transport: &str) -> String {
    format!(
        r#"
duration = "6s"
hosts = ["s1", "r1", "k1"]

[[links]]
between = ["s1", "r1"]
rate = "8Mb"
delay = "{access_delay}"

[[links]]
between = ["r1", "k1"]
rate = "800kb"
delay = "100ms"
queue = {{ kind = "droptail", limit = "{queue}p" }}
{error}

[[flows]]
name = "tcp"
from = "s1"
to = "k1"
app = {{ kind = "bulk" }}
transport = {{ kind = "tcp_full", {transport} }}

[record]
trace = true
"#
    )
}

/// Data on the bottleneck r1->k1 and ACKs arriving at s1, as the reference keeps them.
fn kept(evs: &[Ev]) -> Vec<Ev> {
    evs.iter()
        .filter(|e| (e.from == 1 && e.to == 2) || (e.from == 1 && e.to == 0 && e.op == 'r'))
        .cloned()
        .collect()
}

fn compare(variant: &str, ns2: &str, drops: &[u32], until: f64) {
    compare_scenario(&scenario(variant, drops), ns2, until);
}

fn compare_scenario(text: &str, ns2: &str, until: f64) {
    let (_, evs) = run_traced(text, ns2);
    let ours = kept(&evs);
    let theirs = reference("fulltcp", ns2);
    if let Some((i, a, b)) = first_mismatch(&ours, &theirs, 1e-6, until) {
        panic!("{ns2}: event {i} differs (until {until} s)\n nsim: {a:?}\n ns-2: {b:?}");
    }
}

#[test]
fn reno_one_drop_matches_ns2() {
    compare("reno", "fulltcp_1drop", &[17], 6.0);
}

#[test]
fn reno_two_drops_match_ns2() {
    compare("reno", "fulltcp_2drop", &[17, 31], 6.0);
}

/// Six slow-start overflow drops, a timeout and go-back-N, whose duplicate ACKs inflate cwnd
/// past the threshold although no fast retransmit is allowed (ns-2 `reno_fastrecov_`).
#[test]
fn reno_queue_overflow_matches_ns2() {
    compare("reno", "fulltcp_overflow", &[100_000], 6.0);
}

#[test]
fn newreno_matches_ns2() {
    for (name, drops) in [
        ("newreno_1drop", &[17][..]),
        ("newreno_2drop", &[17, 31]),
        ("newreno_overflow", &[100_000]),
    ] {
        compare("newreno", name, drops, 6.0);
    }
}

/// A timeout followed by partial ACKs (drops: data 14001, then 28001-30001 among the recovery's
/// sends). ns-2 FullTcp/Newreno answers each partial ACK with a fast retransmit
/// (`pack_action`): it sends at most `recov_maxburst_` (2) more segments until an ACK that is
/// not partial, resends the acknowledged-to segment when go-back-N stands there (its
/// `foutput` leaves `t_seqno_` alone), and later fast-retransmits again after three duplicate
/// ACKs (`last_cwnd_action_`), halving ssthresh from 13 to 6 at 2.03 s. The RTO clock's
/// phase (ns-2 `boot_time_`) decides on which 10-ms tick the timeout fires: 0-3 ms gives
/// ns-2's. With `recov_maxburst = 0` nsim sends 10 segments at 1.68 s where ns-2 sends 2.
/// Event for event until 1.92628 s, where a segment reaches the full bottleneck queue at the
/// instant the queue starts sending another: ns-2 drops it, nsim queues it (the same-instant
/// order, docs/models/tcp_full.md "Validation"); the second fast retransmit follows in both.
#[test]
fn newreno_timeout_then_partial_acks_match_ns2() {
    let drops = [17, 31, 32, 33];
    let error = format!("error = {{ kind = \"drop_list\", packets = {drops:?}, flow = \"tcp\" }}\nerror_at = \"enqueue\"");
    let transport = "variant = \"newreno\", window = 28, mss = \"1000B\", clock_offset = \"3ms\"";
    let (_, evs) = run_traced(&two_hop("0ms", 8, &error, transport), "newreno_timeout");
    let (ours, theirs) = (kept(&evs), reference("fulltcp", "newreno_timeout"));
    if let Some((i, a, b)) = first_mismatch(&ours, &theirs, 1e-6, 1.9262) {
        panic!("newreno_timeout: event {i} differs\n nsim: {a:?}\n ns-2: {b:?}");
    }
    let second_fast_retransmit = |evs: &[Ev]| {
        evs.iter().any(|e| e.op == '+' && e.seq == 40_001 && (e.t - 2.03324).abs() < 1e-6)
    };
    assert!(
        second_fast_retransmit(&theirs) && second_fast_retransmit(&ours),
        "both fast-retransmit 40001 at 2.03324 s"
    );
    let unlimited = format!("{transport}, recov_maxburst = 0");
    let (_, evs) = run_traced(&two_hop("0ms", 8, &error, &unlimited), "newreno_timeout unlimited");
    assert!(
        first_mismatch(&kept(&evs), &theirs, 1e-6, 1.9262).is_some(),
        "without the burst limit nsim should differ from ns-2"
    );
}

#[test]
fn tahoe_matches_ns2() {
    for (name, drops) in
        [("tahoe_1drop", &[17][..]), ("tahoe_2drop", &[17, 31]), ("tahoe_overflow", &[100_000])]
    {
        compare("tahoe", name, drops, 6.0);
    }
}

/// ns-2 FullTcp's delayed ACK (`segsperack_ 2`): an ACK for every second segment, else at the
/// next tick of a periodic 100 ms timer (`interval_`) running from time 0, which is nsim's
/// `delack_clock = "tick"` with phase 0.
#[test]
fn delayed_ack_reno_matches_ns2() {
    let extra = r#", delayed_ack = true, delack_clock = "tick", delack_interval = "100ms", delack_phase = "0ms""#;
    compare_scenario(&scenario_with("reno", &[17], extra), "fulltcp_delack_1drop", 6.0);
}

/// ns-2 FullTcp/Sack at both ends: ACKs carry SACK blocks (2 + 8 B each) and recovery sends
/// by `pipe`, holes first (docs/models/tcp_full.md "SACK"). The overflow run matches until
/// 5.654364 s, where a segment reaches the full bottleneck queue at the very instant the queue
/// sends one: ns-2's floating-point clock puts the arrival first (a drop), nsim's integer
/// clock makes them equal and serves the earlier-scheduled departure first (no drop).
#[test]
fn sack_matches_ns2() {
    compare("sack", "sack_1drop", &[17], 6.0);
    compare("sack", "sack_2drop", &[17, 31], 6.0);
    compare("sack", "sack_overflow", &[100_000], 5.654);
}

/// The set-up of ns-2.35's test-suite-full.tcl (`Test/full`, `Test/delack`) and
/// test-suite-sack-full.tcl, rebuilt from their documented topology (reference/ns2/fulltcp/
/// scenario.tcl with `net0`): 8 Mb/s 5 ms + 800 kb/s 100 ms, DropTail 6, window 100, ns-2's default 536 B
/// segments, so slow start overflows the queue. ns-2 draws each agent's RTO clock phase at
/// random (`boot_time_`); `clock_offset` 2-3 ms reproduces all six runs (4-9 ms changes one
/// RTO of the delayed-ACK Reno run by a tick; the Fall & Floyd runs above need 3.5-7 ms).
fn suite_scenario(variant: &str, extra: &str) -> String {
    two_hop(
        "5ms",
        6,
        "",
        &format!("variant = \"{variant}\", window = 100, clock_offset = \"3ms\"{extra}"),
    )
}

#[test]
fn test_suite_full_matches_ns2() {
    for (variant, name) in [
        ("reno", "suite_full_fulltcp"),
        ("newreno", "suite_full_newreno"),
        ("tahoe", "suite_full_tahoe"),
        ("sack", "suite_full_sack"),
    ] {
        compare_scenario(&suite_scenario(variant, ""), name, 6.0);
    }
}

#[test]
fn test_suite_delack_matches_ns2() {
    let extra = r#", delayed_ack = true, delack_clock = "tick", delack_interval = "100ms", delack_phase = "0ms""#;
    for (variant, name) in [("reno", "suite_delack_fulltcp"), ("sack", "suite_delack_sack")] {
        compare_scenario(&suite_scenario(variant, extra), name, 6.0);
    }
}

/// `recovery_rules = "rfc"` with SACK follows RFC 6675: several losses in one window are all
/// repaired in one recovery, each retransmitted once, with no timeout (RFC 6675 §1: the point
/// of SACK-based recovery; Fall & Floyd 1996 §3 show the same for up to four drops).
#[test]
fn rfc6675_sack_repairs_several_losses_without_timeout() {
    for drops in [&[17][..], &[17, 31], &[17, 20, 23], &[17, 19, 21, 23]] {
        let text = scenario_with("sack", drops, r#", recovery_rules = "rfc""#)
            .replace("trace = true", "trace = false");
        let r = common::run(&text);
        let t = &r.flows[0];
        assert_eq!(
            (t.timeouts, t.fast_retransmits, t.retransmits),
            (0, 1, drops.len() as u64),
            "drops {drops:?}"
        );
    }
}

/// FullTcp/Sack with three and four losses in one window (the Fall & Floyd 3- and 4-drop
/// lists shifted by FullTcp's two handshake packets: data 14001, (24001,) 26001, 28001) and
/// with two losses in separate windows (data 8001 in slow start, 57001 in congestion
/// avoidance after the first recovery). The example `scenarios/tcp_full_sack.toml` is the
/// 3-drop run.
#[test]
fn sack_multi_drop_matches_ns2() {
    compare("sack", "sack_3drop", &[17, 29, 31], 6.0);
    compare_scenario(include_str!("../../../../scenarios/tcp_full_sack.toml"), "sack_3drop", 6.0);
    compare("sack", "sack_4drop", &[17, 27, 29, 31], 6.0);
    compare("sack", "sack_sep", &[11, 61], 6.0);
    // As in the ns-2 traces: each loss retransmitted once, one recovery per window, no timeout.
    for (drops, recoveries) in [(&[17, 29, 31][..], 1), (&[17, 27, 29, 31], 1), (&[11, 61], 2)] {
        let r = common::run(&scenario("sack", drops).replace("trace = true", "trace = false"));
        let t = &r.flows[0];
        assert_eq!(
            (t.timeouts, t.fast_retransmits, t.retransmits),
            (0, recoveries, drops.len() as u64),
            "drops {drops:?}"
        );
    }
}

/// `text` with same-instant events in ns-2's order.
fn in_ns2_order(text: &str) -> String {
    format!("{text}\n[run]\ntie_order = \"ns2\"\n")
}

/// ns-2's order of same-instant events (`run.tie_order = "ns2"`, docs/guide/ns2-scripts.md):
/// the runs that `sack_matches_ns2` and `newreno_timeout_then_partial_acks_match_ns2` stop at
/// a tie (5.654364 s, 1.92628 s) match past it.
#[test]
fn ns2_tie_order_matches_past_the_ties() {
    let sack = scenario("sack", &[100_000]);
    compare_scenario(&in_ns2_order(&sack), "sack_overflow", 6.0);
    let (_, evs) = run_traced(&sack, "sack_overflow fifo");
    assert!(
        first_mismatch(&kept(&evs), &reference("fulltcp", "sack_overflow"), 1e-6, 6.0).is_some(),
        "nsim's own order differs after 5.654 s"
    );

    let error = "error = { kind = \"drop_list\", packets = [17, 31, 32, 33], flow = \"tcp\" }\nerror_at = \"enqueue\"";
    let transport = "variant = \"newreno\", window = 28, mss = \"1000B\", clock_offset = \"3ms\"";
    compare_scenario(&in_ns2_order(&two_hop("0ms", 8, error, transport)), "newreno_timeout", 6.0);
}

/// ns-2's order changes no run that already matched: the 21 FullTcp comparisons above, again
/// to 6 s with `run.tie_order = "ns2"`.
#[test]
fn ns2_tie_order_keeps_the_other_matches() {
    let delack = r#", delayed_ack = true, delack_clock = "tick", delack_interval = "100ms", delack_phase = "0ms""#;
    let mut runs: Vec<(String, &str)> = [
        ("reno", "fulltcp_1drop", &[17][..]),
        ("reno", "fulltcp_2drop", &[17, 31]),
        ("reno", "fulltcp_overflow", &[100_000]),
        ("newreno", "newreno_1drop", &[17]),
        ("newreno", "newreno_2drop", &[17, 31]),
        ("newreno", "newreno_overflow", &[100_000]),
        ("tahoe", "tahoe_1drop", &[17]),
        ("tahoe", "tahoe_2drop", &[17, 31]),
        ("tahoe", "tahoe_overflow", &[100_000]),
        ("sack", "sack_1drop", &[17]),
        ("sack", "sack_2drop", &[17, 31]),
        ("sack", "sack_3drop", &[17, 29, 31]),
        ("sack", "sack_4drop", &[17, 27, 29, 31]),
        ("sack", "sack_sep", &[11, 61]),
    ]
    .into_iter()
    .map(|(variant, name, drops)| (scenario(variant, drops), name))
    .collect();
    runs.push((scenario_with("reno", &[17], delack), "fulltcp_delack_1drop"));
    for (variant, name) in [
        ("reno", "suite_full_fulltcp"),
        ("newreno", "suite_full_newreno"),
        ("tahoe", "suite_full_tahoe"),
        ("sack", "suite_full_sack"),
    ] {
        runs.push((suite_scenario(variant, ""), name));
    }
    for (variant, name) in [("reno", "suite_delack_fulltcp"), ("sack", "suite_delack_sack")] {
        runs.push((suite_scenario(variant, delack), name));
    }
    for (text, name) in runs {
        compare_scenario(&in_ns2_order(&text), name, 6.0);
    }
}

/// ns-2 types every packet of a FullTcp that called `listen` as `ack`, its data segments too
/// (`FullTcpAgent::listen` sets `type_ = PT_ACK`), and the opener's as `tcp`: ns-2.35's run of
/// reference/ns2/fulltcp/full_tcp_twoway.tcl (an FTP at each end of one connection) sends
/// 255 data segments and 347 pure ACKs from the listener, every one `ack`. nsim's trace labels
/// them the same on scenarios/fulltcp_transactions.toml, whose servers answer with data.
#[test]
fn the_listeners_packets_are_ack_packets_in_the_trace_data_too() {
    let path = format!(
        "{}/../../reference/ns2/fulltcp/full_tcp_twoway.labels",
        env!("CARGO_MANIFEST_DIR")
    );
    let ns2 = std::fs::read_to_string(path).expect("reference labels");
    let rows: Vec<Vec<&str>> = ns2.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let listener = |r: &&Vec<&str>| r[0] == "2";
    assert!(
        rows.iter().filter(listener).all(|r| r[2] == "ack")
            && rows.iter().filter(|r| !listener(r)).all(|r| r[2] == "tcp")
    );
    assert!(
        rows.iter().any(|r| listener(&r) && r[3] == "data"),
        "the reference must carry listener data"
    );

    let (res, evs) = run_traced(
        include_str!("../../../../scenarios/fulltcp_transactions.toml"),
        "listener_labels",
    );
    assert!(res.accounting.balanced());
    // r2 -> r1 carries only what the two listeners (server, dst) send; r1 -> r2 the openers'.
    let (r1, r2) = (4, 5);
    let on = |from: u32, to: u32| {
        evs.iter().filter(move |e| e.op == '+' && e.from == from && e.to == to)
    };
    let listener_data = on(r2, r1).filter(|e| e.size > 40).count();
    assert!(listener_data > 0, "the servers' responses cross r2 -> r1");
    assert!(on(r2, r1).all(|e| e.kind == "ack"), "every listener packet is `ack`");
    assert!(on(r1, r2).all(|e| e.kind == "tcp"), "every opener packet is `tcp`");
}
