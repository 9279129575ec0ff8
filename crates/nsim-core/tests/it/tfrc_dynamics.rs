//! TFRC's dynamics against Floyd, Handley, Padhye & Widmer, "Equation-Based Congestion
//! Control for Unicast Applications", SIGCOMM 2000 (quoted by Bakthavachalu 2004, §2.2.2.1):
//!
//! - "Given a fixed RTT and absence of history discounting, TFRC's increase in transmission
//!   rate is limited to about 0.14 packets per RTT. After an extended absence of congestion,
//!   history discounting begins and TFRC begins to increase its sending rate by 0.22 packets
//!   per RTT."
//! - "TFRC requires from four to eight RTTs to halve its sending rate in response to
//!   persistent congestion."
//!
//! Deterministic losses (a drop list on the data direction): one loss every 100 packets
//! until steady state, then either no loss at all or one loss every 4 packets (a loss event
//! in every RTT: persistent congestion). The rate is read from the sender's `tcp` series,
//! where TFRC reports X·R/s (packets per RTT).

use crate::common;

const RTT: f64 = 0.1;

fn scenario(drops: &[u64], discounting: bool, duration: f64) -> String {
    let list = drops.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    format!(
        r#"
duration = "{duration}s"
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
error = {{ kind = "drop_list", packets = [{list}], flow = "f" }}
[[flows]]
name = "f"
from = "s"
to = "d"
app = {{ kind = "bulk" }}
transport = {{ kind = "tfrc", history_discounting = {discounting} }}
[record]
series = ["tcp"]
interval = "10ms"
"#
    )
}

/// (time, packets per RTT) samples of the sender's rate.
fn rate_series(r: &nsim_core::Results) -> Vec<(f64, f64)> {
    let t = &r.series.tcp;
    t.time_s.iter().copied().zip(t.cwnd_pkts.iter().copied()).collect()
}

/// Time at which the `k`-th data packet (1-based) was dropped, from the trace.
fn drop_time(evs: &[common::Ev], k: u64) -> f64 {
    evs.iter().find(|e| e.op == 'd' && e.seq == k - 1).expect("drop in trace").t
}

/// Steady losses every 100 packets for `n` losses.
fn steady(n: u64) -> Vec<u64> {
    (1..=n).map(|i| 100 * i).collect()
}

/// Largest increase of the rate over any one RTT in [from, to].
fn max_increase_per_rtt(s: &[(f64, f64)], from: f64, to: f64) -> f64 {
    let step = (RTT / 0.01).round() as usize;
    s.windows(step + 1)
        .filter(|w| w[0].0 >= from && w[step].0 <= to)
        .map(|w| w[step].1 - w[0].1)
        .fold(f64::MIN, f64::max)
}

/// Mean increase per RTT between `from` and `to`.
fn mean_increase_per_rtt(s: &[(f64, f64)], from: f64, to: f64) -> f64 {
    let at = |t: f64| s.iter().find(|x| x.0 >= t).expect("sample").1;
    (at(to) - at(from)) / ((to - from) / RTT)
}

#[test]
fn increase_after_congestion_ends_is_slow() {
    let drops = steady(60);
    let mut out = Vec::new();
    for discounting in [false, true] {
        let (r, evs) = common::run_traced(&scenario(&drops, discounting, 120.0), "tfrc_inc");
        let last = drop_time(&evs, 6000);
        let s = rate_series(&r);
        let max = max_increase_per_rtt(&s, last + 3.0 * RTT, last + 30.0);
        let late = mean_increase_per_rtt(&s, last + 20.0, last + 30.0);
        eprintln!("discounting={discounting}: max {max:.3}, 20-30 s after the last loss {late:.3} packets/RTT");
        out.push((max, late));
    }
    // SIGCOMM 2000: at most ~0.14 packets/RTT without discounting (the equation gives
    // W = sqrt(1.5·I_mean) and I_mean grows by W/6 per RTT: dW/dRTT = 1.5/12 = 0.125) ...
    let (max, late) = out[0];
    assert!(max <= 0.14 * 1.1, "without discounting the rate grew {max:.3} packets/RTT");
    assert!((late - 0.125).abs() < 0.02, "without discounting: {late:.3} packets/RTT");
    // ... and ~0.22 once discounting has reached its floor DF = 0.5 (W_tot0 = 3.5:
    // dW/dRTT = 1.5/7 = 0.214). While DF falls towards 0.5 the old intervals lose weight and
    // the increase is briefly faster (up to ~0.3 here).
    let (max_d, late_d) = out[1];
    assert!(max_d > max, "discounting did not speed up the increase");
    assert!((late_d / 0.22 - 1.0).abs() < 0.1, "with discounting: {late_d:.3} packets/RTT");
}

#[test]
fn persistent_congestion_halves_the_rate_in_four_to_eight_rtts() {
    let mut drops = steady(50);
    drops.extend((1..=400).map(|i| 5000 + 4 * i));
    let (r, evs) = common::run_traced(&scenario(&drops, true, 80.0), "tfrc_halve");
    let onset = drop_time(&evs, 5004);
    let s = rate_series(&r);
    let before: Vec<f64> =
        s.iter().filter(|(t, _)| (onset - 5.0..onset).contains(t)).map(|x| x.1).collect();
    let base = before.iter().sum::<f64>() / before.len() as f64;
    let half = s.iter().find(|(t, x)| *t > onset && *x <= base / 2.0).expect("the rate halves").0;
    let rtts = (half - onset) / RTT;
    eprintln!("rate {base:.2} packets/RTT halved after {rtts:.1} RTTs");
    assert!((4.0..=8.0).contains(&rtts.round()), "halved after {rtts:.1} RTTs");
}
