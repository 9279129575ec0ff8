//! TFRC's steady-state rate under uniform random loss, against two external references:
//!
//! 1. The RFC 5348 §3.1 throughput equation evaluated at the loss *event* rate that uniform
//!    loss p produces (a renewal argument: after an event starts, the next X·R/s packets'
//!    losses join it, then the next loss is 1/p packets away on average, so
//!    p_event = p / (1 + p·X·R/s); solved together with X = X_eq(p_event) by fixed point).
//! 2. ns-2.35 `Agent/TFRC` on the same path (`reference/ns2/tfrc_uniform_loss/`, 3 seeds per
//!    p, 180 s after a 20 s warm-up).
//!
//! Path: s -(100 Mb/s, 2 ms)- r -(10 Mb/s, 48 ms, uniform loss p on data)- d, queues never
//! full; 1000 B payload + 32 B header (ns-2's sizes).

use crate::common;

const S: f64 = 1000.0;
const WIRE: f64 = 1032.0;
/// Propagation RTT plus the serialization of one data packet and one feedback packet.
const RTT: f64 =
    0.100 + WIRE * 8.0 * (1.0 / 100e6 + 1.0 / 10e6) + 40.0 * 8.0 * (1.0 / 100e6 + 1.0 / 10e6);
const WARMUP: f64 = 20.0;

/// `extra`: more transport keys, e.g. `, spec = "ns2"`.
fn scenario_with(p: f64, duration: f64, seed: u64, extra: &str) -> String {
    format!(
        r#"
duration = "{duration}s"
seed = {seed}
hosts = ["s", "d"]
routers = ["r"]
[[links]]
between = ["s", "r"]
rate = "100Mb"
delay = "2ms"
queue = {{ kind = "droptail", limit = "10000p" }}
[[links]]
between = ["r", "d"]
rate = "10Mb"
delay = "48ms"
queue = {{ kind = "droptail", limit = "10000p" }}
error = {{ kind = "uniform", rate = {p} }}
[[flows]]
from = "s"
to = "d"
app = {{ kind = "bulk" }}
transport = {{ kind = "tfrc"{extra} }}
[record]
series = ["flow_throughput"]
interval = "1s"
"#
    )
}

/// Delivered data packets per second after the warm-up.
fn measured(p: f64, duration: f64, seed: u64) -> f64 {
    measured_with(p, duration, seed, "")
}

fn measured_with(p: f64, duration: f64, seed: u64, extra: &str) -> f64 {
    let r = common::run(&scenario_with(p, duration, seed, extra));
    assert!(r.accounting.balanced());
    let ft = &r.series.flow_throughput;
    let bytes: u64 = ft
        .time_s
        .iter()
        .zip(&ft.delivered_bytes)
        .filter(|(t, _)| **t > WARMUP)
        .map(|(_, b)| *b)
        .sum();
    bytes as f64 / WIRE / (duration - WARMUP)
}

fn x_eq(p: f64) -> f64 {
    let r = RTT;
    S / (r * (2.0 * p / 3.0).sqrt()
        + 4.0 * r * 3.0 * (3.0 * p / 8.0).sqrt() * p * (1.0 + 32.0 * p * p))
}

/// The equation's rate (packets/s) at the loss event rate uniform loss `p` produces.
fn equation_pkts(p: f64) -> f64 {
    let mut x = x_eq(p);
    for _ in 0..200 {
        let per_rtt = x / S * RTT;
        x = 0.5 * x + 0.5 * x_eq(p / (1.0 + p * per_rtt));
    }
    x / S
}

/// Mean received packets per second of the ns-2.35 runs at `p`.
fn ns2(p: f64) -> f64 {
    let path =
        format!("{}/../../reference/ns2/tfrc_uniform_loss/summary.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("reference CSV");
    let rows: Vec<f64> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[0].parse::<f64>().unwrap() == p)
        .map(|f| f[8].parse().unwrap())
        .collect();
    assert!(!rows.is_empty(), "no ns-2 rows for p = {p}");
    rows.iter().sum::<f64>() / rows.len() as f64
}

#[test]
fn steady_state_rate_follows_the_equation_and_ns2() {
    for (p, duration) in [(0.002, 300.0), (0.01, 300.0), (0.05, 400.0)] {
        let got = measured(p, duration, 1);
        let eq = equation_pkts(p);
        let ns = ns2(p);
        eprintln!("p={p}: nsim {got:.1} pkt/s, equation {eq:.1}, ns-2 {ns:.1}");
        assert!((got / eq - 1.0).abs() < 0.10, "p={p}: nsim {got:.1} vs equation {eq:.1} pkt/s");
        assert!((got / ns - 1.0).abs() < 0.15, "p={p}: nsim {got:.1} vs ns-2 {ns:.1} pkt/s");
    }
}

/// ns-2.35's sender rules (`spec = "ns2"`: additive increase, t_RTO from a 100-ms tick
/// estimator, the capped timeout factor) against ns-2.35 on the same path, 3 seeds x 200 s per
/// loss rate. Measured: within 7.4 % of ns-2 at every p (+5.6, +7.4, +7.0, -0.2, -4.0, -4.0,
/// -2.1 % for p = 0.001 ... 0.1), where the RFC 5348 rules with ns-2's `df_`, `numPkts_` and
/// `ca_` fall 12 and 17 % short at p = 0.05 and 0.1 (t_RTO = 4R is 0.4 s there; ns-2's
/// estimator gives 0.3 s). The rest at low p is the receiver's (ns-2's `TFRCSink` is not
/// modelled).
#[test]
fn ns2_sender_rules_follow_ns2() {
    for p in [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1] {
        let mean =
            |extra: &str| (1..=3).map(|k| measured_with(p, 200.0, k, extra)).sum::<f64>() / 3.0;
        let (ns2_rules, ns) = (mean(", spec = \"ns2\""), ns2(p));
        assert!(
            (ns2_rules / ns - 1.0).abs() < 0.08,
            "p={p}: nsim (ns2 rules) {ns2_rules:.1} vs ns-2 {ns:.1} pkt/s"
        );
        if p >= 0.05 {
            let rfc = mean(", rtt_weight = 0.95, ndupack = 1, oscillation_prevention = true");
            assert!(
                (ns2_rules / ns - 1.0).abs() + 0.05 < (rfc / ns - 1.0).abs(),
                "p={p}: RFC rules {rfc:.1}, ns2 rules {ns2_rules:.1}, ns-2 {ns:.1}"
            );
        }
    }
}
