//! Mathis, Semke, Mahdavi & Ott, "The Macroscopic Behavior of the TCP Congestion Avoidance
//! Algorithm", CCR 27(3) 1997: with random loss p, a window-unlimited TCP delivers
//! MSS/RTT · C/sqrt(p), C = sqrt(3/2) acking every segment, sqrt(3/4) with delayed ACKs.
//! Topology: 1 Gb/s links (queueing negligible), 2 x 100 ms propagation, uniform loss p on the
//! data direction only; Sack1 (ns-2's, and RFC 6675 at two points), window 10000 (never
//! limiting).
//!
//! The Mathis model leaves out retransmission timeouts. At p = 0.05 (cwnd ~5 packets) about
//! one loss event in six ends in a timeout (lost retransmissions, too few duplicate ACKs), and
//! nsim delivers ~20 % less than the model; there the test compares with Padhye, Firoiu,
//! Towsley & Kurose (SIGCOMM 1998, eq. 31), which includes timeouts.

use crate::common;

const MSS: f64 = 1000.0;

fn scenario(p: f64, duration_s: f64, delayed_ack: bool, sack: &str) -> String {
    let tcp = format!("variant = \"sack1\", window = 10000, delayed_ack = {delayed_ack}, sack1 = {{ algorithm = \"{sack}\" }}");
    common::uniform_loss(p, duration_s, &tcp) + "[record]\nseries = [\"tcp\"]\ninterval = \"1s\"\n"
}

struct Measured {
    /// Goodput in packets per second.
    rate: f64,
    /// Mean RTO seen by the sender (T0 of the PFTK model).
    rto: f64,
}

fn measure(p: f64, delayed_ack: bool, sack: &str) -> Measured {
    // Enough simulated time for ~300 loss events (2000 at high p, where they are cheap and
    // the timeouts they cause make the rate noisier).
    let losses = if p >= 0.01 { 2000.0 } else { 300.0 };
    let pkts_per_s = |c: f64| c / p.sqrt() / 0.2;
    let c = if delayed_ack { (0.75f64).sqrt() } else { (1.5f64).sqrt() };
    let duration = (losses / p / pkts_per_s(c)).max(20.0);
    let r = common::run(&scenario(p, duration, delayed_ack, sack));
    let rto = &r.series.tcp.rto_s;
    Measured {
        rate: r.flows[0].goodput_bps / 8.0 / MSS,
        rto: rto.iter().sum::<f64>() / rto.len() as f64,
    }
}

/// Base RTT: 200 ms propagation + a 1040 B and a 40 B packet serialized on two 1 Gb/s hops.
const RTT: f64 = 0.200 + 2.0 * (1040.0 + 40.0) * 8.0 / 1e9;

/// Mathis et al. eq. (3): packets per second.
fn mathis(p: f64, c: f64) -> f64 {
    c / (RTT * p.sqrt())
}

/// PFTK eq. (31) without the window limit, b packets per ACK, timeout T0: packets per second.
fn pftk(p: f64, b: f64, t0: f64) -> f64 {
    let timeouts = t0 * (3.0 * (3.0 * b * p / 8.0).sqrt()).min(1.0) * p * (1.0 + 32.0 * p * p);
    1.0 / (RTT * (2.0 * b * p / 3.0).sqrt() + timeouts)
}

fn ratio(p: f64, delayed_ack: bool, sack: &str) -> f64 {
    let c = if delayed_ack { (0.75f64).sqrt() } else { (1.5f64).sqrt() };
    measure(p, delayed_ack, sack).rate / mathis(p, c)
}

#[test]
fn throughput_within_15_percent_of_mathis_for_ack_every_segment() {
    let mut report = Vec::new();
    for p in [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02] {
        report.push((p, ratio(p, false, "ns2")));
    }
    println!("p, measured/predicted: {report:?}");
    for (p, r) in report {
        assert!((0.85..=1.15).contains(&r), "p = {p}: measured/predicted = {r:.3}");
    }
}

#[test]
fn timeouts_at_5_percent_loss_match_pftk_not_mathis() {
    let p = 0.05;
    let m = measure(p, false, "ns2");
    let vs_mathis = m.rate / mathis(p, 1.5f64.sqrt());
    let vs_pftk = m.rate / pftk(p, 1.0, m.rto);
    println!(
        "p = 0.05: measured/Mathis {vs_mathis:.3}, measured/PFTK {vs_pftk:.3} (T0 {:.3} s)",
        m.rto
    );
    assert!(vs_mathis < 0.9, "timeouts should cost throughput at p = 0.05: {vs_mathis:.3}");
    assert!((0.85..=1.15).contains(&vs_pftk), "measured/PFTK = {vs_pftk:.3}");
}

#[test]
fn throughput_within_15_percent_of_mathis_with_delayed_acks() {
    for p in [0.001, 0.01] {
        let r = ratio(p, true, "ns2");
        println!("delayed ACK p = {p}: {r:.3}");
        assert!((0.85..=1.15).contains(&r), "p = {p}: measured/predicted = {r:.3}");
    }
}

#[test]
fn rfc6675_sack_recovery_within_15_percent_of_mathis() {
    for p in [0.001, 0.01] {
        let r = ratio(p, false, "rfc6675");
        println!("RFC 6675 p = {p}: {r:.3}");
        assert!((0.85..=1.15).contains(&r), "p = {p}: measured/predicted = {r:.3}");
    }
}
