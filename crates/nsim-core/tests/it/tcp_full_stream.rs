//! Byte-stream applications (`telnet`, `http`, `repeat`) over full TCP, against hand-computed
//! timings on an idle path (the one-way agents' formulas of tests/test_web_apps.py plus the
//! real connection set-up: SYN, SYN-ACK, then the opener's separate pure ACK as ns-2
//! FullTcp sends it, and FIN both ways before a new connection).

use crate::common::{one_link, run};
use nsim_core::Results;

/// Milliseconds to serialise `bytes` at 10 Mb/s.
fn ser(bytes: u64) -> f64 {
    bytes as f64 * 8.0 / 10e6 * 1e3
}

/// One 10 Mb/s link s -> d, 50 ms each way; `app` over full TCP with 1000 B segments, a
/// window of 100 segments from the start, no delayed ACKs (the defaults of ns-2 FullTcp).
fn run_app(app: &str, duration: &str) -> Results {
    run(&one_link(
        "10Mb",
        "50ms",
        duration,
        app,
        r#"{ kind = "tcp_full", mss = "1000B", window = 100, initial_window = 100 }"#,
    ))
}

/// ms of a transfer row.
fn rows(r: &Results, kind: &str) -> Vec<(f64, f64)> {
    r.transfers
        .iter()
        .filter(|t| t.kind == kind)
        .map(|t| (t.start_s * 1e3, t.duration_s * 1e3))
        .collect()
}

/// Handshake seen by the opener: SYN out, SYN-ACK back (40 B each way).
fn handshake() -> f64 {
    2.0 * (ser(40) + 50.0)
}

/// The first keystroke (60 B + 40 B header) waits for the handshake and leaves behind the
/// opener's pure ACK; the echo is the server's 100 B data segment carrying the keystroke's
/// ACK. Later keystrokes: one keystroke and one echo, one way each (the one-way agents'
/// echo is a 40 B ACK instead).
#[test]
fn telnet_echo_is_server_data_after_a_handshake() {
    let r = run_app(r#"{ kind = "telnet", size = "60B", count = 20 }"#, "30s");
    let echo = rows(&r, "echo");
    assert_eq!(echo.len(), 20);
    let later = 2.0 * (ser(100) + 50.0);
    let first = handshake() + ser(40) + later;
    assert!((echo[0].1 - first).abs() < 1e-9, "first echo {} ms, expected {first}", echo[0].1);
    for (k, e) in echo.iter().enumerate().skip(1) {
        assert!((e.1 - later).abs() < 1e-9, "echo {k}: {} ms, expected {later}", e.1);
    }
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
}

/// Rows of a reference CSV of `reference/ns2/fulltcp_stream/` (header skipped): (sent, arrived).
fn ns2(name: &str) -> Vec<(f64, f64)> {
    let path = format!("{}/../../reference/ns2/fulltcp_stream/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(|x| x.parse::<f64>().unwrap()).collect::<Vec<_>>())
        .map(|v| (v[1], v[2]))
        .collect()
}

/// ns-2.35 FullTcp with `Application/TcpApp` on the same path (reference/ns2/fulltcp_stream):
/// the echo of a 60 B keystroke, the first opening the connection, arrives after the same
/// delays as nsim's telnet echoes (the echo carries the keystroke's ACK), to the microsecond.
#[test]
fn telnet_echo_delays_match_ns2_fulltcp() {
    let echo = rows(&run_app(r#"{ kind = "telnet", size = "60B", count = 5 }"#, "30s"), "echo");
    let reference = ns2("echo.csv");
    assert_eq!(reference.len(), 5);
    for (k, (e, (sent, got))) in echo.iter().zip(&reference).enumerate() {
        let ns2_ms = (got - sent) * 1e3;
        assert!((e.1 - ns2_ms).abs() < 1e-6, "echo {k}: nsim {} ms, ns-2 {ns2_ms} ms", e.1);
    }
}

/// The same for one HTTP-like page: ns-2's answer (41000 B after a 536 B request, on a new
/// connection) is complete at the client when nsim's last segment arrives; nsim records the
/// page when that segment's ACK is back at the server (40 B + 50 ms later).
#[test]
fn http11_page_matches_ns2_fulltcp_request_and_answer() {
    let pages = rows(
        &run_app(
            r#"{ kind = "http", version = "1.1", count = 1, page = { kind = "fixed", objects = 4 } }"#,
            "30s",
        ),
        "page",
    );
    let (sent, got) = ns2("page.csv")[0];
    let expected = (got - sent) * 1e3 + ser(40) + 50.0;
    assert!(
        (pages[0].1 - expected).abs() < 1e-6,
        "nsim {} ms, ns-2 + ACK {expected} ms",
        pages[0].1
    );
}

/// HTTP/1.1, page 1 KB + 4 x 10 KB (41 full segments, under the 64 KB window): the client
/// opens a connection for its request (handshake), sends its pure ACK then the 536 B request
/// (576 B on the wire), the server answers with one burst of 41 x 1040 B, and the page is
/// done when the last segment's ACK is back.
#[test]
fn http11_page_is_handshake_request_burst_and_round_trip() {
    let r = run_app(
        r#"{ kind = "http", version = "1.1", count = 2, page = { kind = "fixed", objects = 4 } }"#,
        "30s",
    );
    let pages = rows(&r, "page");
    assert_eq!(pages.len(), 2);
    let request = ser(40) + ser(576) + 50.0;
    let burst = 41.0 * ser(1040);
    let expected = handshake() + request + burst + 50.0 + ser(40) + 50.0;
    for (k, p) in pages.iter().enumerate() {
        assert!((p.1 - expected).abs() < 1e-9, "page {k}: {} ms, expected {expected}", p.1);
    }
    assert_eq!(pages[0].0, 0.0);
    // Each page has its own connection (closed by the server once the page is acknowledged).
    let objects = rows(&r, "object");
    assert_eq!(objects.len(), 10);
    let index_acked = handshake() + request + ser(1040) + 50.0 + ser(40) + 50.0;
    assert!((objects[0].0 + objects[0].1 - index_acked).abs() < 1e-9, "index {:?}", objects[0]);
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
}

/// Two 10 kB transfers back to back, each on a new connection: the second waits for the
/// first connection's close (FIN, FIN+ACK), then the opener's ACK and a new SYN leave
/// together, and the transfer repeats the first one's timeline.
#[test]
fn repeat_new_connection_closes_and_opens_again() {
    let r =
        run_app(r#"{ kind = "repeat", size = "10000B", count = 2, new_connection = true }"#, "30s");
    let files = rows(&r, "file");
    assert_eq!(files.len(), 2);
    let transfer = handshake() + ser(40) + 10.0 * ser(1040) + 50.0 + ser(40) + 50.0;
    assert!((files[0].1 - transfer).abs() < 1e-9, "first {} ms, expected {transfer}", files[0].1);
    let close = 2.0 * (ser(40) + 50.0);
    let second = close + ser(40) + transfer;
    assert!((files[1].1 - second).abs() < 1e-9, "second {} ms, expected {second}", files[1].1);
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
}

/// HTTP/1.0 with up to 4 parallel connections: every item of every page is delivered and
/// recorded, on connection 0 and the three extra flows.
#[test]
fn http10_parallel_connections_complete_every_page() {
    let r = run_app(
        r#"{ kind = "http", version = "1.0", count = 3, think = { dist = "uniform", mean = "1s" } }"#,
        "60s",
    );
    assert_eq!(rows(&r, "page").len(), 3);
    assert_eq!(rows(&r, "object").len(), 27);
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
}

/// The example scenario under loss (a bulk transfer fills the bottleneck queue): web pages,
/// echoes and FTP transfers keep completing over reconnections (lost FINs, final ACKs and
/// SYNs included: an ACK of an old connection reaching a listener is answered with a reset),
/// and every packet is accounted for. (Lost SYNs and SYN-ACKs cost 3, 6, 12 s with the 3 s
/// initial RTO; seeds 1-16 over 200 s gave 23-33 pages, 34-50 transfers, no stall.)
#[test]
fn stream_apps_keep_completing_under_loss() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/fulltcp_web_telnet.toml"
    ))
    .unwrap();
    let r = run(&text);
    let count = |kind: &str| r.transfers.iter().filter(|t| t.kind == kind).count();
    let (pages, echoes, files) = (count("page"), count("echo"), count("file"));
    assert!(
        pages >= 5 && echoes >= 50 && files >= 5,
        "pages {pages}, echoes {echoes}, files {files}"
    );
    assert!(
        r.flows.iter().any(|f| f.timeouts + f.fast_retransmits > 0),
        "the bottleneck drops packets"
    );
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
}
