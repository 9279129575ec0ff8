//! Which timestamp the sink echoes (ns-2.35 `Agent/TCPSink ts_echo_bugfix_`, tcp-sink.cc): FACK,
//! which takes an RTT sample from every ACK's echo, on the Fall & Floyd path with segment 14
//! and its fast retransmission dropped, against ns-2.35 runs with both settings
//! (`reference/ns2/ts_echo/`). With ns-2.35's default the ACKs of the segments above the hole
//! echo the segment before it, the samples grow with the hole's age and the timeout that
//! repairs the lost retransmission fires at 2.72 s; echoing each arriving segment, at 1.74 s.

use crate::common::run_traced;
use crate::tcp_fall_floyd::{assert_run_matches, Run};

/// `scenarios/fack_ts_echo.toml` (ns-2's drop-list indices 14 and 29 are nsim's packets 15 and
/// 30) with `ts_echo_bugfix` left out (None) or set. The timeout's instant depends on the phase
/// of the 10 ms RTO clock (ns-2's `boot_time_`): a `clock_offset` in [5.5 ms, 5.9 ms]
/// reproduces both ns-2 runs (and the Fall & Floyd ones).
fn run(ts_echo_bugfix: Option<bool>) -> Run {
    let base = include_str!("../../../../scenarios/fack_ts_echo.toml");
    let setting = ts_echo_bugfix.map_or(String::new(), |b| format!(", ts_echo_bugfix = {b}"));
    let toml = base.replace(", ts_echo_bugfix = true", &setting);
    assert!(
        toml.contains("\"5.7ms\"") && toml.contains(&format!("\"5.7ms\"{setting} }}")),
        "scenario changed"
    );
    let (res, evs) = run_traced(&toml, &format!("tsecho{ts_echo_bugfix:?}"));
    Run { res, evs }
}

/// ns-2's srtt and RTO at 6 s from its `srtt_` (8·srtt) and `rttvar_` (4·rttvar) in 10 ms ticks
/// (`reference/ns2/ts_echo/<name>.stats`), in seconds: srtt in whole ticks, and tcp.cc
/// `rtt_update`'s `t_rtxcur_` = (8·srtt + 8·4·rttvar) / 8 ticks, at least `minrto_` 0.2 s.
fn ns2_srtt_rto(name: &str) -> (f64, f64) {
    let path = format!("{}/../../reference/ns2/ts_echo/{name}.stats", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("stats");
    let get = |k: &str| -> i64 {
        text.lines()
            .find_map(|l| l.strip_prefix(k)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("{k}"))
    };
    let (srtt8, rttvar4) = (get("srtt_ "), get("rttvar_ "));
    ((srtt8 >> 3) as f64 * 0.01, (((rttvar4 << 3) + srtt8) >> 3) as f64 * 0.01)
}

fn assert_matches(r: &Run, name: &str) {
    assert_run_matches(r, "ts_echo", name, 6.0);
    let tcp = &r.res.series.tcp;
    let last = tcp.time_s.len() - 1;
    let (srtt, rto) = ns2_srtt_rto(name);
    assert!(
        (tcp.srtt_s[last] - srtt).abs() < 1e-9,
        "{name}: srtt {} s, ns-2 {srtt} s",
        tcp.srtt_s[last]
    );
    assert!(
        (tcp.rto_s[last] - rto.max(0.2)).abs() < 1e-9,
        "{name}: rto {} s, ns-2 {rto} s",
        tcp.rto_s[last]
    );
}

/// The RTO in force when segment 14's second loss is found by the timeout: the last sample
/// before `t` seconds.
fn rto_before(r: &Run, t: f64) -> f64 {
    let tcp = &r.res.series.tcp;
    let i = tcp.time_s.iter().rposition(|&x| x < t).expect("a sample");
    tcp.rto_s[i]
}

#[test]
fn ts_echo_bugfix_default_matches_ns2_event_for_event() {
    let r = run(None);
    assert_matches(&r, "fack_14_29_bugfix_true");
    assert_eq!((r.res.flows[0].retransmits, r.res.flows[0].timeouts), (2, 1));
    assert!(rto_before(&r, 1.7) > 1.0, "rto {} s", rto_before(&r, 1.7));
}

#[test]
fn ts_echo_bugfix_false_matches_ns2_event_for_event() {
    let r = run(Some(false));
    assert_matches(&r, "fack_14_29_bugfix_false");
    assert!(rto_before(&r, 1.7) < 0.7, "rto {} s", rto_before(&r, 1.7));
}
