//! Goyal-Jain 1997 §4 (Goyal, Jain et al. 1997), SACK recovery bound: with window W at the third
//! duplicate ACK and W/n segments lost from that window, Sack1 retransmits every hole within
//! ⌈log2(n/(n−2))⌉ round trips: one RTT when n >= 4 (at most W/4 lost), two when n >= 8/3 (at
//! most 3W/8). Measured here as the time from the fast retransmit to the last retransmission,
//! in RTTs, with a receiver window W = 40 on a 3 Mb/s, 100 ms path (BDP 36 packets, so the
//! window is spread over the round trip as the analysis assumes) and k contiguous segments
//! dropped once the window is full.

use crate::common;

const RTT_S: f64 = 0.1;

/// Retransmission rounds (time from the first to the last retransmission, in RTTs, rounded
/// up) and timeouts after dropping `k` contiguous data segments from a full window of 40.
fn rounds_after_losing(k: u64) -> (f64, u64) {
    let drops: Vec<String> = (300..300 + k).map(|i| i.to_string()).collect();
    let toml = format!(
        r#"
duration = "8s"
hosts = ["s", "d"]
routers = ["r"]
[[links]]
between = ["s", "r"]
rate = "1Gb"
delay = "25ms"
error = {{ kind = "drop_list", packets = [{}], flow = "f" }}
[[links]]
between = ["r", "d"]
rate = "3Mb"
delay = "25ms"
queue = {{ kind = "droptail", limit = "100p" }}
[[flows]]
name = "f"
from = "s"
to = "d"
app = {{ kind = "bulk" }}
transport = {{ kind = "tcp", variant = "sack1", window = 40, syn = false, limited_transmit = false }}
"#,
        drops.join(", ")
    );
    let (r, evs) = common::run_traced(&toml, "sackbound");
    // Retransmissions: a data segment leaving the source a second time ("+" at node 0).
    let mut seen = std::collections::HashSet::new();
    let rtx: Vec<f64> = evs
        .iter()
        .filter(|e| e.op == '+' && e.from == 0 && e.kind == "tcp")
        .filter(|e| !seen.insert(e.seq))
        .map(|e| e.t)
        .collect();
    assert_eq!(rtx.len() as u64, k, "every lost segment is retransmitted once");
    ((rtx[rtx.len() - 1] - rtx[0]) / RTT_S, r.flows[0].timeouts)
}

#[test]
fn sack_repairs_up_to_a_quarter_window_in_one_round_trip() {
    for k in [2, 5, 10] {
        let (span, timeouts) = rounds_after_losing(k);
        assert_eq!(timeouts, 0);
        assert!(span < 1.0, "k = {k}: retransmissions spread over {span:.2} RTT");
    }
}

#[test]
fn sack_repairs_three_eighths_of_a_window_in_two_round_trips() {
    let (span, timeouts) = rounds_after_losing(15);
    assert_eq!(timeouts, 0);
    assert!((1.0..2.0).contains(&span), "retransmissions spread over {span:.2} RTT");
}

/// The bounds are tight: one segment more than W/4 (or 3W/8) needs another round trip.
#[test]
fn one_more_loss_than_the_bound_needs_another_round_trip() {
    assert!(rounds_after_losing(11).0 >= 1.0);
    assert!(rounds_after_losing(16).0 >= 2.0);
}
