//! Goyal-Jain 1997 §7.2 (Goyal et al. 1997) end to end: with a byte-counted cwnd and the integer
//! congestion-avoidance increase MSS·MSS/cwnd, a sender whose window exceeds MSS² bytes
//! (512-B MSS: 262144 B, 512 packets) never grows again; ACK counting restores growth.

use crate::common::run;

/// One Reno flow, 512-B segments, starting in congestion avoidance at 600 packets (307200 B,
/// above MSS²) on a 1 Gb/s, 100 ms path that never fills (600 packets per RTT is 26 Mb/s).
/// Returns the cwnd growth (packets) over 3 s, about 30 round trips.
fn growth(ca_increase: &str) -> f64 {
    let t = format!(
        r#"
duration = "3.05s"
hosts = ["s", "d"]
routers = ["r"]
[[links]]
between = ["s", "r"]
rate = "1Gb"
delay = "1ms"
queue = {{ kind = "droptail", limit = "2000p" }}
[[links]]
between = ["r", "d"]
rate = "1Gb"
delay = "49ms"
queue = {{ kind = "droptail", limit = "2000p" }}
[[flows]]
name = "f"
from = "s"
to = "d"
app = {{ kind = "bulk" }}
transport = {{ kind = "tcp", variant = "reno", window = 10000, packet_size = "512B", syn = false, initial_window = 600, initial_ssthresh = 600, ca_increase = "{ca_increase}" }}
[record]
series = ["tcp"]
interval = "50ms"
"#
    );
    let r = run(&t);
    assert_eq!(r.flows[0].dropped_pkts, 0, "{ca_increase}: the path must not drop");
    let cw = &r.series.tcp.cwnd_pkts;
    assert!(cw[0] >= 600.0, "{ca_increase}: starts in congestion avoidance at 600, got {}", cw[0]);
    cw[cw.len() - 1] - 600.0
}

#[test]
fn integer_increase_stalls_and_ack_counting_grows() {
    let float = growth("float");
    let integer = growth("integer");
    let counting = growth("ack_counting");
    // Floating point: about one packet per round trip (RFC 5681 (3)), some 30 in 3 s.
    assert!((25.0..=31.0).contains(&float), "float growth {float}");
    // Integer: ⌊262144 / 307200⌋ = 0 bytes per ACK, the §7.2 stall.
    assert_eq!(integer, 0.0, "integer arithmetic must stall above MSS² bytes");
    // ACK counting: N = 2, ⌊2·262144 / cwnd⌋ = 1 byte per 2 ACKs while cwnd < 2·MSS² bytes,
    // against 262144/cwnd ≈ 0.84 bytes per ACK in floating point: about 0.59 of its growth.
    let ratio = counting / float;
    assert!(
        (0.52..=0.66).contains(&ratio),
        "ack counting grows {counting} = {ratio:.3} of float's {float}"
    );
}
