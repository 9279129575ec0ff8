//! The "linux" defaults profile (`profile = "linux"`, crates/nsim-core/src/tcp/profile.rs):
//! each setting it changes takes effect in a run, explicit keys win over it, and a flow
//! without it keeps ns-2.35's defaults. Expected values are the profile's sources: RFC 6928's
//! initial window of 10, RFC 6298 (2.1)'s 1 s initial RTO, Linux's 200 ms `TCP_RTO_MIN`, SACK
//! blocks of 8 bytes each on ACKs (RFC 2018 §3, as ns-2 sizes them), Linux's 40 ms delayed ACK.

use crate::common;

use crate::common::Ev;

/// One TCP flow s -(1 Gb/s, 1 ms)- r -(10 Mb/s, 19 ms)- d (RTT 40 ms plus serialization), a
/// `size` file, with `error` on s -> r and `transport` the rest of the tcp table.
fn path(size: &str, error: &str, transport: &str) -> String {
    format!(
        r#"
duration = "10s"
hosts = ["s", "d"]
routers = ["r"]
[[links]]
between = ["s", "r"]
rate = "1Gb"
delay = "1ms"
error = {error}
[[links]]
between = ["r", "d"]
rate = "10Mb"
delay = "19ms"
[[flows]]
name = "f"
from = "s"
to = "d"
app = {{ kind = "file", size = "{size}" }}
transport = {{ kind = "tcp", window = 1000, {transport} }}
"#
    )
}

const NO_LOSS: &str = r#"{ kind = "uniform", rate = 0.0 }"#;

/// Events of segments entering the sender's first link ('+' at the source, data or SYN).
fn sends(evs: &[Ev]) -> Vec<&Ev> {
    let src = evs.iter().find(|e| e.kind == "tcp").expect("a segment").from;
    evs.iter().filter(|e| e.op == '+' && e.kind == "tcp" && e.from == src).collect()
}

/// Data segments sent in the first round trip after the handshake: the initial window.
fn first_flight(transport: &str) -> usize {
    let (_, evs) = common::run_traced(&path("100KB", NO_LOSS, transport), "iw");
    let s = sends(&evs);
    let first = s.iter().find(|e| e.seq > 0).expect("data").t;
    s.iter().filter(|e| e.seq > 0 && e.t < first + 0.02).count()
}

#[test]
fn the_initial_window_is_10_under_linux_and_an_explicit_key_wins() {
    assert_eq!(first_flight(r#"variant = "cubic", profile = "linux""#), 10);
    assert_eq!(first_flight(r#"variant = "cubic""#), 2);
    assert_eq!(first_flight(r#"variant = "cubic", profile = "ns2""#), 2);
    assert_eq!(first_flight(r#"variant = "cubic", profile = "linux", initial_window = 4"#), 4);
}

/// When the lost SYN (the first packet on s -> r) is sent again.
fn syn_retransmit(transport: &str) -> f64 {
    let (_, evs) = common::run_traced(
        &path("10KB", r#"{ kind = "drop_list", packets = [1] }"#, transport),
        "syn",
    );
    sends(&evs).iter().filter(|e| e.seq == 0).nth(1).expect("SYN sent again").t
}

#[test]
fn the_initial_rto_is_1_s_under_linux_3_s_under_ns2() {
    // RFC 6298 (2.1) against ns-2.35's rtxcur_init_; the 10 ms clock may add a tick.
    let near = |t: f64, want: f64| (want..want + 0.011).contains(&t);
    let t = syn_retransmit(r#"profile = "linux""#);
    assert!(near(t, 1.0), "linux: {t}");
    let t = syn_retransmit("");
    assert!(near(t, 3.0), "ns2: {t}");
    let t = syn_retransmit(r#"profile = "linux", initial_rto = "2s""#);
    assert!(near(t, 2.0), "explicit: {t}");
}

/// The time from the last ACK before a tail loss's retransmission to that retransmission:
/// the RTO (its timer restarts on each new ACK, RFC 6298 (5.3)).
fn tail_rto(transport: &str) -> f64 {
    // 20 KB = 20 segments after the SYN: the 21st packet on s -> r is the last segment.
    let (_, evs) = common::run_traced(
        &path("20000B", r#"{ kind = "drop_list", packets = [21] }"#, transport),
        "tail",
    );
    let s = sends(&evs);
    let retx = s
        .iter()
        .rev()
        .find(|e| s.iter().filter(|o| o.seq == e.seq).count() > 1)
        .expect("a retransmission");
    let src = s[0].from;
    let last_ack = evs
        .iter()
        .rev()
        .find(|e| e.op == 'r' && e.kind == "ack" && e.to == src && e.t < retx.t)
        .expect("an ACK")
        .t;
    retx.t - last_ack
}

#[test]
fn the_minimum_rto_is_200_ms_under_linux_and_an_explicit_key_wins() {
    // SRTT + 4·RTTVAR is far below 200 ms on this 40 ms path: the floor sets the RTO.
    let rto = tail_rto(r#"variant = "newreno", profile = "linux""#);
    // The RTO clock's 10 ms ticks may add up to two.
    assert!((0.2..0.221).contains(&rto), "linux: {rto}");
    let rto = tail_rto(r#"variant = "newreno", profile = "linux", min_rto = "500ms""#);
    assert!((0.5..0.521).contains(&rto), "explicit: {rto}");
}

/// The largest ACK size in a run that loses the 10th data segment (a hole for SACK to report).
fn biggest_ack(transport: &str) -> u32 {
    let (_, evs) = common::run_traced(
        &path("50KB", r#"{ kind = "drop_list", packets = [11] }"#, transport),
        "sack",
    );
    evs.iter().filter(|e| e.kind == "ack").map(|e| e.size).max().expect("ACKs")
}

#[test]
fn the_sink_sends_sack_blocks_under_linux_even_for_newreno() {
    // A 40-byte ACK carries 8 bytes per SACK block (at most 3).
    assert!(biggest_ack(r#"variant = "newreno", profile = "linux""#) > 40);
    assert_eq!(biggest_ack(r#"variant = "newreno""#), 40);
    assert_eq!(biggest_ack(r#"variant = "newreno", profile = "linux", sack = false"#), 40);
}

#[test]
fn the_sink_delays_acks_40_ms_under_linux() {
    // A 1-segment file: its only data segment waits the whole delayed-ACK timeout at the sink.
    let ack_delay = |transport: &str| {
        let (_, evs) = common::run_traced(&path("1000B", NO_LOSS, transport), "delack");
        // Segment 1's last arrival is at d (two hops, no loss); the next ACK queued is its.
        let data = evs
            .iter()
            .rev()
            .find(|e| e.op == 'r' && e.kind == "tcp" && e.seq == 1)
            .expect("segment 1 arrives")
            .t;
        let ack =
            evs.iter().find(|e| e.op == '+' && e.kind == "ack" && e.t >= data).expect("its ACK").t;
        ack - data
    };
    assert!((ack_delay(r#"profile = "linux""#) - 0.04).abs() < 1e-6);
    assert!(ack_delay("").abs() < 1e-6);
    assert!((ack_delay(r#"profile = "linux", delack_interval = "100ms""#) - 0.1).abs() < 1e-6);
}

#[test]
fn summary_lists_what_the_profile_set_only_for_flows_that_name_one() {
    let r = common::run(&path(
        "10KB",
        NO_LOSS,
        r#"variant = "cubic", profile = "linux", initial_window = 4"#,
    ));
    let s = serde_json::to_value(r.summary()).expect("json");
    let f = &s["tcp_profiles"]["f"];
    assert_eq!(f["profile"], "linux");
    assert_eq!(f["initial_window"], 4);
    assert_eq!(f["min_rto_s"], 0.2);
    assert_eq!(f["initial_rto_s"], 1.0);
    assert_eq!(f["delayed_ack"], true);
    assert_eq!(f["delack_interval_s"], 0.04);
    assert_eq!(f["sack"], true);
    assert_eq!(f["abc"], 2);
    let r = common::run(&path("10KB", NO_LOSS, r#"variant = "cubic""#));
    assert!(serde_json::to_value(r.summary()).expect("json").get("tcp_profiles").is_none());
}

#[test]
fn byte_counting_is_refused_where_the_variant_has_no_ack_counted_growth() {
    let err = nsim_core::Scenario::from_toml(
        &path("10KB", NO_LOSS, r#"variant = "vegas", abc = 2"#),
        "t.toml",
    )
    .and_then(|s| nsim_core::build(&s, &Default::default()).map(|_| ()))
    .expect_err("vegas has no byte counting");
    assert!(err.to_string().contains("abc"), "{err}");
    // The profile itself leaves such variants' growth alone.
    let r = common::run(&path("10KB", NO_LOSS, r#"variant = "vegas", profile = "linux""#));
    assert_eq!(serde_json::to_value(r.summary()).expect("json")["tcp_profiles"]["f"]["abc"], 0);
}
