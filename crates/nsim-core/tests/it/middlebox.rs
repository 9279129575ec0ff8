//! Node hooks (middleboxes) in whole scenarios, against analytic references: a hold adds
//! exactly its delay; a drop pattern drops exactly its share; a window written into ACKs
//! gives the window-limited rate W / RTT (RFC 5681 §2: the sender sends at most
//! min(cwnd, rwnd)); IP-ABR's window is Holl 2003's eq. 7.2, W = share · RTT · l_data / l_pkt.

use crate::common::run;
use nsim_core::{build, RunOptions, Scenario};

/// s -(20 ms)- r -(30 ms)- d at 10 Mb/s; `flows` and `middlebox` tables appended.
pub(crate) fn path(rest: &str) -> String {
    format!(
        r#"
duration = "60s"
hosts = ["s", "d"]
routers = ["r"]
[[links]]
between = ["s", "r"]
rate = "10Mb"
delay = "20ms"
[[links]]
between = ["r", "d"]
rate = "10Mb"
delay = "30ms"
{rest}
"#
    )
}

pub(crate) const CBR: &str = r#"
[[flows]]
name = "udp"
from = "s"
to = "d"
stop = "50s"
app = { kind = "cbr", rate = "100kb", size = "500B" }
"#;

pub(crate) const BULK: &str = r#"
[[flows]]
name = "tcp"
from = "s"
to = "d"
app = { kind = "bulk" }
transport = { kind = "tcp", window = 100 }
"#;

/// Round trip of a 1040 B segment and its 40 B ACK over the two 10 Mb/s hops.
pub(crate) fn rtt_s() -> f64 {
    2.0 * (0.020 + 0.030) + 2.0 * (1040.0 + 40.0) * 8.0 / 10e6
}

#[test]
fn a_delay_hook_adds_exactly_its_delay_and_keeps_accounting() {
    let plain = run(&path(CBR));
    let held = run(&path(&format!(
        "{CBR}\n[[middlebox]]\nnode = \"r\"\nhook = {{ kind = \"delay\", delay = \"7ms\" }}\n"
    )));
    let d0 = plain.flows[0].delay_mean_s.unwrap();
    let d1 = held.flows[0].delay_mean_s.unwrap();
    assert!((d1 - d0 - 0.007).abs() < 1e-9, "{d0} -> {d1}");
    assert_eq!(plain.flows[0].delivered_pkts, held.flows[0].delivered_pkts);
    assert!(held.accounting.balanced());
}

#[test]
fn packets_held_at_the_end_count_as_in_flight() {
    let toml = path(&format!(
        "{CBR}\n[[middlebox]]\nnode = \"r\"\nhook = {{ kind = \"delay\", delay = \"2s\" }}\n"
    ))
    .replace("stop = \"50s\"", "stop = \"70s\"");
    let r = run(&toml);
    assert!(r.accounting.in_flight >= 40, "{:?}", r.accounting);
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
}

#[test]
fn drop_every_drops_every_nth_packet_with_its_own_reason() {
    let r = run(&path(&format!(
        "{CBR}\n[[middlebox]]\nnode = \"r\"\nhook = {{ kind = \"drop_every\", n = 4 }}\n"
    )));
    let f = &r.flows[0];
    assert_eq!(f.drops["middlebox"], f.sent_pkts / 4);
    assert_eq!(f.delivered_pkts, f.sent_pkts - f.sent_pkts / 4);
    assert_eq!(r.accounting.dropped_by_reason["middlebox"], f.sent_pkts / 4);
    assert!(r.accounting.balanced());
}

/// Asserts that a bulk TCP flow under `hook` at r runs at the window-limited rate of 5
/// segments per round trip.
fn assert_five_segments_per_rtt(hook: &str) {
    let r = run(&path(&format!("{BULK}\n[[middlebox]]\nnode = \"r\"\nhook = {hook}\n")));
    let expect = 5.0 * 1040.0 * 8.0 / rtt_s();
    let got = r.flows[0].throughput_bps;
    assert!((got / expect - 1.0).abs() < 0.01, "{hook}: {got} vs W/RTT = {expect}");
}

#[test]
fn an_rwnd_clamp_gives_the_window_limited_rate() {
    assert_five_segments_per_rtt(r#"{ kind = "rwnd_clamp", rwnd = "5000B" }"#);
}

#[test]
fn a_window_cap_in_segments_matches_the_same_clamp_in_bytes() {
    assert_five_segments_per_rtt(r#"{ kind = "window_cap", segments = 5 }"#);
}

#[test]
fn ip_abr_writes_share_times_rtt_times_data_ratio() {
    let r = run(&path(&format!(
        "{BULK}\n[[middlebox]]\nnode = \"r\"\nhook = {{ kind = \"ip_abr\", share = \"500kb\" }}\n"
    )));
    // Eq. 7.2 in bytes, then whole segments as the one-way sender counts them.
    let w = (500e3 / 8.0 * rtt_s() * 1000.0 / 1040.0 / 1000.0).floor();
    assert_eq!(w, 6.0);
    let expect = w * 1040.0 * 8.0 / rtt_s();
    let got = r.flows[0].throughput_bps;
    assert!((got / expect - 1.0).abs() < 0.01, "{got} vs {expect}");
    let free = run(&path(BULK));
    assert!(free.flows[0].throughput_bps > 5.0 * got);
}

/// The same proxy over full TCP (byte sequence numbers, ACK = next expected byte, windows in
/// bytes): eq. 7.2 gives 6113 B, and the full TCP sender sends whole segments only (sender
/// SWS avoidance with an endless source), so again 6 segments per round trip.
#[test]
fn ip_abr_works_on_full_tcp_byte_sequences() {
    let bulk = r#"
[[flows]]
name = "tcp"
from = "s"
to = "d"
app = { kind = "bulk" }
transport = { kind = "tcp_full", window = 100, mss = "1000B" }
"#;
    let r = run(&path(&format!(
        "{bulk}\n[[middlebox]]\nnode = \"r\"\nhook = {{ kind = \"ip_abr\", share = \"500kb\" }}\n"
    )));
    let w = (500e3 / 8.0 * rtt_s() * 1000.0 / 1040.0 / 1000.0).floor();
    assert_eq!(w, 6.0);
    let expect = w * 1040.0 * 8.0 / rtt_s();
    let got = r.flows[0].throughput_bps;
    assert!((got / expect - 1.0).abs() < 0.02, "{got} vs {expect}");
    assert!(run(&path(bulk)).flows[0].throughput_bps > 5.0 * got);
}

#[test]
fn ip_abr_follows_its_share_schedule() {
    let hook =
        r#"{ kind = "ip_abr", share = "500kb", schedule = [{ at = "30s", share = "250kb" }] }"#;
    let r = run(&path(&format!("{BULK}\n[[middlebox]]\nnode = \"r\"\nhook = {hook}\n")));
    // Eq. 7.2 in whole segments: 6 for 30 s, then floor(3.06) = 3 for 30 s.
    let segs = |share: f64| (share / 8.0 * rtt_s() * 1000.0 / 1040.0 / 1000.0).floor();
    assert_eq!((segs(500e3), segs(250e3)), (6.0, 3.0));
    let expect = (6.0 + 3.0) / 2.0 * 1040.0 * 8.0 / rtt_s();
    let got = r.flows[0].throughput_bps;
    assert!((got / expect - 1.0).abs() < 0.02, "{got} vs {expect}");
}

#[test]
fn a_flow_filter_leaves_other_flows_alone() {
    let two = format!("{BULK}{}", BULK.replace("name = \"tcp\"", "name = \"other\""));
    let r = run(&path(&format!("{two}\n[[middlebox]]\nnode = \"r\"\nflows = [\"tcp\"]\nhook = {{ kind = \"rwnd_clamp\", rwnd = \"2000B\" }}\n")));
    assert!(r.flows[1].throughput_bps > 5.0 * r.flows[0].throughput_bps);
}

fn build_error(toml: &str) -> String {
    let scn = Scenario::from_toml(toml, "t.toml").map_err(|e| e.to_string());
    match scn {
        Err(e) => e,
        Ok(s) => build(&s, &RunOptions::default()).err().expect("an error").to_string(),
    }
}

#[test]
fn bad_middlebox_tables_give_clear_errors() {
    let e = build_error(&path(&format!(
        "{BULK}\n[[middlebox]]\nnode = \"x\"\nhook = {{ kind = \"delay\", delay = \"1ms\" }}\n"
    )));
    assert!(e.contains("middlebox[0].node") && e.contains("unknown node 'x'"), "{e}");
    let e = build_error(&path(&format!("{BULK}\n[[middlebox]]\nnode = \"r\"\nflows = [\"nope*\"]\nhook = {{ kind = \"delay\", delay = \"1ms\" }}\n")));
    assert!(e.contains("middlebox[0].flows[0]") && e.contains("no flow named 'nope*'"), "{e}");
    let e = build_error(&path(&format!(
        "{BULK}\n[[middlebox]]\nnode = \"r\"\nhook = {{ kind = \"teleport\" }}\n"
    )));
    assert!(e.contains("teleport"), "{e}");
    let e = build_error(&path(&format!(
        "{BULK}\n[[middlebox]]\nnode = \"r\"\nhook = {{ kind = \"drop_every\", n = 0 }}\n"
    )));
    assert!(e.contains("middlebox[0].hook.n"), "{e}");
}
