//! The two-way TCP when the peer's window shrinks below one segment with nothing in flight.
//! Sender SWS avoidance (RFC 1122 §4.2.3.4) holds a short segment back until (1) a full
//! segment, (2) all queued data or (3) half the largest window ever offered can go, "or (4)
//! the override timeout occurs"; BSD arms the persist timer for it (TCP/IP Illustrated vol. 2
//! §25.11, `tcp_setpersist` when data waits and no timer runs). Without that timer nothing
//! would ever bring an ACK, and the connection would stall for good: a middlebox that writes a
//! window below one segment into the ACKs (Holl 2003's IP-ABR proxy, `rwnd_clamp`) does this.

use crate::common::run_balanced;
use nsim_core::Results;

/// A two-way bulk transfer (1000 B segments) through a router that clamps the advertised
/// window to 100 kB, then from 30 s to `rwnd`.
fn clamped(rwnd: &str) -> String {
    crate::middlebox::path(&format!(
        r#"
[[flows]]
name = "tcp"
from = "s"
to = "d"
app = {{ kind = "bulk" }}
transport = {{ kind = "tcp_full", window = 100, mss = "1000B" }}

[[middlebox]]
name = "proxy"
node = "r"
hook = {{ kind = "rwnd_clamp", rwnd = "100000B" }}

[[event]]
at = "30s"
action = "set"
middlebox = "proxy"
rwnd = "{rwnd}"

[record]
windows = [["10s", "30s"], ["40s", "60s"]]
"#
    ))
}

fn goodput(r: &Results, window: usize) -> f64 {
    r.windows[window].goodput_bps[0].unwrap()
}

/// A window of 400 B (below the 1000 B segment and below half the 100 kB once offered): each
/// persist expiry sends one 400 B segment, so the transfer goes on at 400 B per round trip
/// plus one RTO, where it used to stop for good.
#[test]
fn a_window_below_one_segment_is_used_at_each_persist_expiry() {
    let r = run_balanced(&clamped("400B"));
    let rtt = crate::middlebox::rtt_s();
    assert!(
        goodput(&r, 0) > 1e6,
        "before the clamp the flow runs at its window: {}",
        goodput(&r, 0)
    );
    let after = goodput(&r, 1);
    // One 400 B segment per round trip and persist interval; the interval is the RTO,
    // between ns-2 FullTcp's 200 ms floor and 1 s here.
    let (lo, hi) = (400.0 * 8.0 / (rtt + 1.0), 400.0 * 8.0 / (rtt + 0.2));
    assert!(after >= lo && after <= hi, "after: {after} b/s, expected {lo}..{hi}");
}

/// A window of one full segment needs no timer: ACKs keep the flow at one segment per round
/// trip, as before this rule.
#[test]
fn a_window_of_one_segment_runs_on_its_acks() {
    let r = run_balanced(&clamped("1000B"));
    let rtt = crate::middlebox::rtt_s();
    let per_rtt = 1000.0 * 8.0 / rtt;
    let after = goodput(&r, 1);
    assert!((after / per_rtt - 1.0).abs() < 0.05, "after: {after} b/s against {per_rtt}");
}
