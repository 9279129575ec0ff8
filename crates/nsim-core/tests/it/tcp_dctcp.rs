//! DCTCP (RFC 8257) with step marking against the fluid analysis of Alizadeh, Javanmard &
//! Prabhakar, "Analysis of DCTCP: Stability, Convergence, and Fairness", SIGMETRICS 2011 §3
//! (the sawtooth model of Alizadeh et al., SIGCOMM 2010 §3.3): N synchronized flows on a link
//! of capacity C (packets/s) with round trip RTT and marking threshold K settle at
//! W* = (C·RTT + K)/N; the queue peaks at Q_max = K + N and swings by
//! A = ½·sqrt(2N(C·RTT + K)); α ≈ sqrt(2/W*). The link stays busy (K > C·RTT/7, §3.4).
//!
//! Here: 2 flows, 1 Gb/s bottleneck, 160 µs base round trip (C·RTT = 19.2 packets of 1040 B),
//! K = 20: W* = 19.6, Q_max = 22, A = 6.3, so the queue swings between about 15.7 and 22.

use crate::common;

/// Also run with a threshold change by queue_changes.rs.
pub(crate) const SCENARIO: &str = r#"
duration = "2s"
hosts = ["s1", "s2", "d"]
routers = ["r"]
[[links]]
between = ["r", "d"]
rate = "1Gb"
delay = "50us"
queue = { kind = "step_mark", limit = "200p", k = "20p" }
[[links]]
between = ["s1", "r"]
rate = "10Gb"
delay = "25us"
[[links]]
between = ["s2", "r"]
rate = "10Gb"
delay = "25us"
[[flows]]
name = "a"
from = "s1"
to = "d"
app = { kind = "bulk" }
transport = { kind = "tcp", variant = "dctcp", ecn = true, window = 10000 }
[[flows]]
name = "b"
from = "s2"
to = "d"
start = "1ms"
app = { kind = "bulk" }
transport = { kind = "tcp", variant = "dctcp", ecn = true, window = 10000 }
[record]
series = ["queue"]
interval = "20us"
"#;

#[test]
fn queue_swings_as_the_sawtooth_analysis_says_and_the_link_stays_full() {
    let r = common::run(SCENARIO);
    assert!(r.accounting.balanced());
    let q = &r.series.queue;
    // The bottleneck's forward direction (r -> d) is link 0; after a 0.5 s warm-up.
    let lens: Vec<f64> = (0..q.time_s.len())
        .filter(|&i| q.link[i] == 0 && q.time_s[i] > 0.5)
        .map(|i| q.len_pkts[i] as f64)
        .collect();
    let mut sorted = lens.clone();
    sorted.sort_by(f64::total_cmp);
    let pct = |p: f64| sorted[((sorted.len() - 1) as f64 * p) as usize];
    let (lo, hi, mean) = (pct(0.02), pct(0.98), lens.iter().sum::<f64>() / lens.len() as f64);
    let goodput: f64 = r.flows.iter().map(|f| f.goodput_bps).sum();
    let drops: u64 = r.flows.iter().map(|f| f.dropped_pkts).sum();
    let (c_rtt, k, n): (f64, f64, f64) = (1e9 * 160e-6 / (1040.0 * 8.0), 20.0, 2.0);
    let (q_max, amp) = (k + n, 0.5 * (2.0 * n * (c_rtt + k)).sqrt());
    println!("queue 2nd-98th percentile {lo}-{hi} (model {:.1}-{q_max}), mean {mean:.1}; goodput {:.1} Mb/s; drops {drops}", q_max - amp, goodput / 1e6);
    assert_eq!(drops, 0, "marking at K = 20 keeps the 200-packet buffer from overflowing");
    assert!(
        goodput > 0.95 * 1e9 * 1000.0 / 1040.0,
        "the link stays busy: {:.1} Mb/s",
        goodput / 1e6
    );
    assert!((hi - q_max).abs() <= 3.0, "peak {hi} against K + N = {q_max}");
    assert!(((hi - lo) - amp).abs() <= 0.5 * amp, "swing {} against A = {amp:.1}", hi - lo);
}
