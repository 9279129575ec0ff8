//! Full TCP connections against analytic expectations: handshake and close timing, delayed
//! ACK x Nagle request/response stalls (Noureddine 2002 ch. 2, RFC 896/1122), window limits, and
//! bulk throughput equal to the one-way agents on the same path.

use crate::common;
use crate::common::{one_link as path, run};

/// The active opener is ESTABLISHED one round trip of two 40 B segments after its SYN:
/// 2 x (40 B at 10 Mb/s + 50 ms) = 100.064 ms. A 10 kB file then completes and both ends
/// close (FIN, FIN, ACKs), with every packet accounted for.
#[test]
fn handshake_takes_one_round_trip_and_the_connection_closes() {
    let r = run(&path(
        "10Mb",
        "50ms",
        "5s",
        r#"{ kind = "file", size = "10000B" }"#,
        r#"{ kind = "tcp_full", mss = "1000B" }"#,
    ));
    let f = &r.flows[0];
    assert!((f.setup_s.unwrap() - 0.100064).abs() < 1e-9, "setup {:?}", f.setup_s);
    let done = f.completion_s.expect("file completed");
    let closed = f.close_s.expect("connection closed");
    assert!(closed > done && closed < done + 0.25, "completion {done}, close {closed}");
    assert_eq!(f.goodput_bps * 5.0 / 8.0, 10_000.0);
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
}

/// `close = false` (ns-2 FullTcp's `$tcp send N`): the same file completes but no FIN
/// follows, so the connection is still open at the end of the run; a one-way TCP refuses the
/// key (it has no FIN). Against ns-2.35: the distribution's nam-simplexlink.tcl
/// (tests/test_ns2_scripts.py).
#[test]
fn a_file_written_without_close_leaves_the_connection_open() {
    let open = r#"{ kind = "file", size = "10000B", close = false }"#;
    let r = run(&path("10Mb", "50ms", "5s", open, r#"{ kind = "tcp_full", mss = "1000B" }"#));
    let f = &r.flows[0];
    assert!(f.completion_s.is_some() && f.close_s.is_none(), "{f:?}");
    assert_eq!(f.goodput_bps * 5.0 / 8.0, 10_000.0);
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
    let err = common::config_error(&path("10Mb", "50ms", "5s", open, r#"{ kind = "tcp" }"#));
    assert!(err.contains("flows[0].app.close") && err.contains("no FIN"), "{err}");
}

/// Simultaneous open (RFC 793 §3.4 Figure 8): both ends send a SYN at time 0, each answers
/// the other's with SYN-ACK from SYN-RECEIVED, and each is ESTABLISHED when the other's
/// SYN-ACK arrives: after 2 x (40 B at 10 Mb/s + 50 ms), one round trip as for a normal open.
/// Six header-only segments cross instead of three (the last ACKs ride on data here), and the
/// file then completes and both ends close.
#[test]
fn simultaneous_open_follows_rfc793_figure_8() {
    let t = path(
        "10Mb",
        "50ms",
        "5s",
        r#"{ kind = "file", size = "10000B" }"#,
        r#"{ kind = "tcp_full", mss = "1000B", simultaneous_open = true }"#,
    ) + "[record]\ntrace = true\n";
    let (r, evs) = common::run_traced(&t, "simopen");
    let f = &r.flows[0];
    assert!((f.setup_s.unwrap() - 0.100064).abs() < 1e-9, "setup {:?}", f.setup_s);
    let mut syns_at_0: Vec<_> =
        evs.iter().filter(|e| e.op == '+' && e.t == 0.0).map(|e| (e.from, e.size)).collect();
    syns_at_0.sort();
    assert_eq!(syns_at_0, vec![(0, 40), (1, 40)], "both ends send a SYN at 0");
    let at_d: Vec<_> = evs
        .iter()
        .filter(|e| e.op == '+' && (e.t - 0.050032).abs() < 1e-9)
        .map(|e| e.size)
        .collect();
    assert_eq!(at_d, vec![40, 40], "each answers the crossing SYN with a SYN-ACK on arrival");
    assert!(f.completion_s.is_some() && f.close_s.is_some(), "{f:?}");
    assert_eq!(f.timeouts, 0);
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
}

/// Request/response with the request written in two pieces (Noureddine 2002 ch. 2, "request split
/// into two segments"): Nagle holds the second piece until the first is acknowledged, and the
/// server delays that ACK to BSD's next 200 ms tick, so on a LAN every transaction waits for
/// one tick: 5 transactions/s. Without Nagle the same exchange takes about one round trip.
#[test]
fn nagle_and_delayed_ack_cap_split_requests_at_five_per_second() {
    let app = r#"{ kind = "transactions", request = "100B", response = "100B", count = 20, split = "50B" }"#;
    let tcp = |nagle: bool| {
        format!(
            r#"{{ kind = "tcp_full", mss = "1000B", delayed_ack = true, delack_interval = "200ms", delack_clock = "tick", delack_phase = "0ms", nagle = {nagle} }}"#
        )
    };
    let r = run(&path("10Mb", "1ms", "10s", app, &tcp(true)));
    let f = &r.flows[0];
    assert_eq!(f.transactions, 20);
    let mean = f.transaction_mean_s.unwrap();
    assert!(
        (mean - 0.2).abs() < 0.01,
        "mean transaction {mean} s with Nagle + delayed ACK (expect 0.2 s)"
    );
    let r = run(&path("10Mb", "1ms", "10s", app, &tcp(false)));
    let mean = r.flows[0].transaction_mean_s.unwrap();
    assert!(
        mean < 0.003,
        "mean transaction {mean} s without Nagle (expect about one 2 ms round trip)"
    );
}

/// A response of an odd number of full segments plus a short tail (Noureddine 2002 ch. 2, HTTP/1.1
/// pathology 1): Nagle holds the tail behind the last full segment, whose ACK the client
/// delays, so the response waits for the delayed-ACK clock. Minshall's variant sends the tail
/// at once (no earlier short segment is unacknowledged).
#[test]
fn minshall_sends_the_short_tail_that_nagle_holds() {
    let app = r#"{ kind = "transactions", request = "100B", response = "3100B", count = 10, think = "50ms" }"#;
    let tcp = |minshall: bool| {
        format!(
            r#"{{ kind = "tcp_full", mss = "1000B", delayed_ack = true, delack_interval = "200ms", delack_clock = "timer", minshall = {minshall} }}"#
        )
    };
    let nagle =
        run(&path("10Mb", "1ms", "10s", app, &tcp(false))).flows[0].transaction_mean_s.unwrap();
    let minshall =
        run(&path("10Mb", "1ms", "10s", app, &tcp(true))).flows[0].transaction_mean_s.unwrap();
    assert!(nagle > 0.2, "Nagle: {nagle} s (expect the 200 ms delayed ACK)");
    assert!(minshall < 0.02, "Minshall: {minshall} s (expect a few round trips of 2 ms)");
}

/// A window-limited bulk transfer: the full TCP and the one-way agent of the same variant
/// deliver the same goodput on the same path (window 20 x 1000 B per 100 ms round trip).
#[test]
fn bulk_throughput_equals_the_one_way_agent() {
    let full = run(&path(
        "10Mb",
        "50ms",
        "30s",
        r#"{ kind = "bulk" }"#,
        r#"{ kind = "tcp_full", mss = "1000B", window = 20 }"#,
    ));
    let one_way = run(&path(
        "10Mb",
        "50ms",
        "30s",
        r#"{ kind = "bulk" }"#,
        r#"{ kind = "tcp", variant = "reno", packet_size = "1000B", window = 20 }"#,
    ));
    let (a, b) = (full.flows[0].goodput_bps, one_way.flows[0].goodput_bps);
    assert!((a - b).abs() / b < 0.01, "full {a} b/s, one-way {b} b/s");
    // Window-limited: 20 segments of 1000 B per RTT (100 ms + serialization) ~ 1.6 Mb/s.
    assert!((a - 1.6e6).abs() / 1.6e6 < 0.05, "{a}");
}

/// RFC 7323: without window scaling a 1 MB receive buffer still advertises at most 65535 B,
/// which caps a long fat pipe at 65535 B per RTT; with scaling on both ends the window is the
/// whole buffer.
#[test]
fn window_scaling_lifts_the_64k_limit() {
    let tcp = |ws: bool| {
        format!(
            r#"{{ kind = "tcp_full", mss = "1000B", window = 1000, rcv_buffer = "1000000B", window_scale = {ws} }}"#
        )
    };
    let plain =
        run(&path("1Gb", "50ms", "20s", r#"{ kind = "bulk" }"#, &tcp(false))).flows[0].goodput_bps;
    let scaled =
        run(&path("1Gb", "50ms", "20s", r#"{ kind = "bulk" }"#, &tcp(true))).flows[0].goodput_bps;
    let cap = 65_535.0 * 8.0 / 0.1;
    assert!(plain <= cap * 1.001 && plain > cap * 0.9, "unscaled {plain} b/s vs 64 KiB/RTT {cap}");
    assert!(scaled > 5.0 * cap, "scaled {scaled} b/s");
}

/// A bounded receive buffer is the advertised window, and a bounded send buffer holds the
/// application back: either way a bulk transfer moves buffer bytes per round trip (window /
/// RTT; RTT = 100 ms + 0.832 ms serialization of a 1040 B segment + 0.032 ms of its ACK).
#[test]
fn buffers_limit_a_bulk_transfer_to_one_buffer_per_round_trip() {
    let rtt = 0.100_864;
    for (key, bytes) in [("rcv_buffer", 5000.0), ("snd_buffer", 3000.0)] {
        let tcp =
            format!(r#"{{ kind = "tcp_full", mss = "1000B", window = 100, {key} = "{bytes}B" }}"#);
        let g =
            run(&path("10Mb", "50ms", "30s", r#"{ kind = "bulk" }"#, &tcp)).flows[0].goodput_bps;
        let expect = bytes * 8.0 / rtt;
        assert!((g - expect).abs() / expect < 0.02, "{key} {bytes} B: {g} b/s, expected {expect}");
    }
}

/// The active closer's last ACK is lost (the 13th segment it sends: SYN, ACK, 10 data
/// segments, then the ACK of the server's FIN). The server retransmits its FIN after its RTO
/// and is answered either from TIME-WAIT (a new ACK) or, with no TIME-WAIT, by a RST from the
/// CLOSED end (RFC 793 §3.4 "Reset Generation"); both close the connection one RTO later.
#[test]
fn a_lost_final_ack_is_repaired_by_time_wait_or_reset() {
    for time_wait in ["0s", "2s"] {
        let text = path("10Mb", "50ms", "5s", r#"{ kind = "file", size = "10000B" }"#, &format!(r#"{{ kind = "tcp_full", mss = "1000B", time_wait = "{time_wait}" }}"#))
            .replace("queue = { kind = \"droptail\", limit = \"1000p\" }", "queue = { kind = \"droptail\", limit = \"1000p\" }\nerror = { kind = \"drop_list\", packets = [13], flow = \"f\" }");
        let f = &run(&text).flows[0];
        let done = f.completion_s.unwrap();
        let closed = f.close_s.expect("closed after the FIN is retransmitted");
        assert!(
            closed > done + 0.2 && closed < done + 0.6,
            "time_wait {time_wait}: done {done}, closed {closed}"
        );
        assert_eq!(f.dropped_pkts, 1);
    }
}

/// A slow reader (80 kb/s into a 2000 B buffer) closes the window; its window updates pace
/// the sender, so a 20 kB file takes about 20 kB / 80 kb/s = 2 s.
#[test]
fn a_slow_reader_paces_the_sender_through_the_window() {
    let tcp = r#"{ kind = "tcp_full", mss = "1000B", rcv_buffer = "2000B", read_rate = "80kb" }"#;
    let f =
        &run(&path("10Mb", "50ms", "10s", r#"{ kind = "file", size = "20000B" }"#, tcp)).flows[0];
    let done = f.completion_s.expect("completed");
    assert!(done > 1.8 && done < 2.2, "completion {done} s, expected about 2 s");
}

/// RFC 1122 §4.2.2.17: a one-segment receive buffer closes the window after every segment and
/// only the reader's window update reopens it. The first update is lost (the receiver's 3rd
/// segment: SYN-ACK, the zero-window ACK, the update); without the persist timer the
/// connection would deadlock. The sender's zero-window probe brings the window back and the
/// file completes about one persist interval (>= the 200 ms minimum RTO) late.
#[test]
fn the_persist_timer_recovers_a_lost_window_update() {
    let tcp = r#"{ kind = "tcp_full", mss = "1000B", rcv_buffer = "1000B", read_rate = "80kb" }"#;
    let base = path("10Mb", "50ms", "10s", r#"{ kind = "file", size = "10000B" }"#, tcp);
    let lossy = base.replace(
        "queue = { kind = \"droptail\", limit = \"1000p\" }",
        "queue = { kind = \"droptail\", limit = \"1000p\" }\nreverse_error = { kind = \"drop_list\", packets = [3] }",
    );
    let clean = run(&base).flows[0].completion_s.unwrap();
    let f = &run(&lossy).flows[0];
    assert_eq!(f.ack_dropped_pkts, 1);
    let done = f.completion_s.expect("the persist timer reopened the window");
    assert!(
        done > clean + 0.15 && done < clean + 1.0,
        "clean {clean} s, with the lost update {done} s"
    );
}
