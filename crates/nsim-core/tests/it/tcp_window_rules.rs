//! Window rules beyond Reno, end to end. Against ns-2.35 on `scenarios/tcp_highspeed.toml`'s
//! path (references `reference/ns2/highspeed/` and `reference/ns2/aimd/`): HighSpeed (RFC
//! 3649), standard Sack1, GAIMD (Yang & Lam) and binomial SQRT and IIAD (Bansal &
//! Balakrishnan). Against analytic response functions under uniform random loss, as
//! `tcp_mathis.rs` does for Reno: HighSpeed's w = 0.12/p^0.835, GAIMD's and binomial's.

use crate::common;
use crate::common::run;

const SCENARIO: &str = include_str!("../../../../scenarios/tcp_highspeed.toml");

/// ns-2 rows (time, cwnd, ssthresh) of `reference/ns2/<dir>/<name>_cwnd.csv`.
fn ns2_rows(dir: &str, name: &str) -> Vec<(f64, f64, f64)> {
    let path = format!("{}/../../reference/ns2/{dir}/{name}_cwnd.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("reference CSV");
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some((f[0].parse().ok()?, f[1].parse().ok()?, f[2].parse().ok()?))
        })
        .collect()
}

/// (bottleneck drops, retransmits, timeouts) from `reference/ns2/<dir>/summary.csv`.
fn ns2_summary(dir: &str, name: &str) -> (u64, u64, u64) {
    let path = format!("{}/../../reference/ns2/{dir}/summary.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("summary.csv");
    let f: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with(&format!("{name},")))
        .expect("row")
        .split(',')
        .collect();
    (f[1].parse().unwrap(), f[2].parse().unwrap(), f[3].parse().unwrap())
}

struct Trace {
    rows: Vec<(f64, f64, f64)>,
    drops: u64,
    retransmits: u64,
    timeouts: u64,
}

/// The scenario with `transport` (e.g. `variant = "gaimd", gaimd = { beta = 0.875 }`).
fn nsim(transport: &str) -> Trace {
    let r = run(&SCENARIO.replace("variant = \"highspeed\"", transport));
    let c = &r.series.cwnd;
    let rows =
        (0..c.time_s.len()).map(|i| (c.time_s[i], c.cwnd_pkts[i], c.ssthresh_pkts[i])).collect();
    let f = &r.flows[0];
    Trace { rows, drops: f.dropped_pkts, retransmits: f.retransmits, timeouts: f.timeouts }
}

/// The value of the event-driven series at time `t` (last change at or before it).
fn at(rows: &[(f64, f64, f64)], t: f64) -> (f64, f64) {
    let i = rows.partition_point(|r| r.0 <= t + 1e-9);
    rows.get(i.wrapping_sub(1)).map_or((f64::NAN, f64::NAN), |r| (r.1, r.2))
}

/// (time, ssthresh) at every reduction after t = 0.
fn reductions(rows: &[(f64, f64, f64)]) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut last = rows.first().map_or(f64::NAN, |r| r.2);
    for r in rows.iter().filter(|r| r.0 > 0.0) {
        if r.2 != last {
            out.push((r.0, r.2));
            last = r.2;
        }
    }
    out
}

/// nsim with `transport` against ns-2 run `dir/name`: cwnd every 100 ms, every reduction,
/// drops, retransmissions and timeouts.
fn compare(transport: &str, dir: &str, name: &str) {
    let variant = format!("{dir}/{name}");
    let ours = nsim(transport);
    let theirs = ns2_rows(dir, name);
    // cwnd every 100 ms over 30 s. ns-2 prints TracedVar times to 10 us, so a sample may
    // fall one or two ACKs (up to 0.01 packet each here, a(w)/w) to either side.
    for &(t, cwnd, _) in theirs.iter().filter(|r| ((r.0 * 10.0).round() - r.0 * 10.0).abs() < 1e-9)
    {
        let (c, _) = at(&ours.rows, t);
        assert!((c - cwnd).abs() <= 0.03, "{variant} at {t} s: cwnd nsim {c} ns-2 {cwnd}");
    }
    // Every window reduction: same ssthresh, same time to 1 ms.
    let (a, b) = (reductions(&ours.rows), reductions(&theirs));
    assert_eq!(a.len(), b.len(), "{variant}: reductions nsim {a:?} ns-2 {b:?}");
    for (x, y) in a.iter().zip(&b) {
        assert!(
            (x.0 - y.0).abs() < 1e-3 && x.1 == y.1,
            "{variant}: reduction nsim {x:?} ns-2 {y:?}"
        );
    }
    assert_eq!(
        (ours.drops, ours.retransmits, ours.timeouts),
        ns2_summary(dir, name),
        "{variant}: (drops, retransmits, timeouts)"
    );
}

#[test]
fn highspeed_matches_ns2() {
    compare("variant = \"highspeed\"", "highspeed", "highspeed");
}

#[test]
fn standard_sack1_on_the_same_path_matches_ns2() {
    compare("variant = \"sack1\"", "highspeed", "sack1");
}

#[test]
fn gaimd_matches_ns2() {
    // Bakthavachalu 2004's GAIMD(1, 0.125), and Yang & Lam's TCP-friendly default (0.3125, 7/8).
    compare("variant = \"gaimd\", gaimd = { alpha = 1.0, beta = 0.875 }", "aimd", "gaimd_1_0.125");
    compare("variant = \"gaimd\"", "aimd", "gaimd_friendly");
}

#[test]
fn binomial_sqrt_and_iiad_match_ns2() {
    compare("variant = \"binomial\"", "aimd", "sqrt");
    compare("variant = \"binomial\", binomial = { k = 1.0, l = 0.0 }", "aimd", "iiad");
}

/// `common::uniform_loss` with a window that never binds.
fn uniform_loss(p: f64, duration_s: f64, transport: &str) -> String {
    common::uniform_loss(p, duration_s, &format!("window = 100000, {transport}"))
}

/// Base RTT: 200 ms propagation + a 1040 B and a 40 B packet serialized on two 1 Gb/s hops.
const RTT: f64 = 0.200 + 2.0 * (1040.0 + 40.0) * 8.0 / 1e9;

/// Measured window (goodput x RTT, packets) over RFC 3649's w = 0.12/p^0.835.
fn response_ratio(p: f64, p_model: &str) -> f64 {
    let w = 0.12 / p.powf(0.835);
    // About 150 loss events.
    let duration = (150.0 / p / (w / RTT)).max(30.0);
    let r = run(&uniform_loss(
        p,
        duration,
        &format!("variant = \"highspeed\", highspeed = {{ p_model = \"{p_model}\" }}"),
    ));
    r.flows[0].goodput_bps / 8.0 / 1000.0 * RTT / w
}

/// Measured 1.009 (p = 3e-4) and 0.971 (1e-4) with RFC 3649's p(w); 1.047 at 3e-4 with
/// ns-2's, whose a(w) is a few per cent larger.
#[test]
fn highspeed_follows_the_rfc3649_response_function_under_uniform_loss() {
    for (p, model) in [(3e-4, "rfc3649"), (1e-4, "rfc3649"), (3e-4, "ns2")] {
        let r = response_ratio(p, model);
        assert!(
            (0.9..1.1).contains(&r),
            "p = {p}, p_model {model}: measured window / (0.12/p^0.835) = {r:.3}"
        );
    }
}

/// Mean window (packets per RTT) of the deterministic binomial sawtooth (Bansal &
/// Balakrishnan §3 with the fluid increase dw/dRTT = alpha/w^k): one loss every 1/p packets,
/// the window cycling from w - beta·w^l up to w. Solved for w by bisection. GAIMD(alpha, b) is
/// k = 0, l = 1, beta = 1 - b, whose closed form is sqrt(alpha(1+b)/(2(1-b)p)) (Yang & Lam
/// 2000; Floyd, Handley & Padhye 2000 for TCP(a, b)).
fn binomial_window(p: f64, alpha: f64, beta: f64, k: f64, l: f64) -> f64 {
    let cycle = |w: f64| {
        let lo = (w - beta * w.powf(l)).max(1.0);
        let pkts = (w.powf(2.0 + k) - lo.powf(2.0 + k)) / ((2.0 + k) * alpha);
        let rtts = (w.powf(1.0 + k) - lo.powf(1.0 + k)) / ((1.0 + k) * alpha);
        (pkts, rtts)
    };
    let (mut a, mut b) = (2.0f64, 1e7f64);
    for _ in 0..200 {
        let m = (a * b).sqrt();
        if cycle(m).0 < 1.0 / p {
            a = m;
        } else {
            b = m;
        }
    }
    let (pkts, rtts) = cycle(a);
    pkts / rtts
}

/// GAIMD and binomial under uniform loss p = 0.001 against their deterministic response
/// functions: measured/model 0.977 (GAIMD (0.3125, 7/8)), 0.981 (GAIMD(1, 0.125)), 0.979
/// (SQRT), 0.931 (IIAD); the test requires [0.9, 1.1].
#[test]
fn gaimd_and_binomial_follow_their_response_functions_under_uniform_loss() {
    let p: f64 = 1e-3;
    let cases = [
        ("variant = \"gaimd\"", binomial_window(p, 0.3125, 0.125, 0.0, 1.0)),
        (
            "variant = \"gaimd\", gaimd = { alpha = 1.0, beta = 0.875 }",
            binomial_window(p, 1.0, 0.125, 0.0, 1.0),
        ),
        ("variant = \"binomial\"", binomial_window(p, 1.5, 1.0, 0.5, 0.5)),
        (
            "variant = \"binomial\", binomial = { k = 1.0, l = 0.0 }",
            binomial_window(p, 1.5, 1.0, 1.0, 0.0),
        ),
    ];
    // For GAIMD the sawtooth model is the closed form sqrt(alpha(1+b)/(2(1-b)p)).
    let closed = |alpha: f64, b: f64| (alpha * (1.0 + b) / (2.0 * (1.0 - b) * p)).sqrt();
    assert!((cases[0].1 / closed(0.3125, 0.875) - 1.0).abs() < 1e-6, "{}", cases[0].1);
    assert!((cases[1].1 / closed(1.0, 0.875) - 1.0).abs() < 1e-6, "{}", cases[1].1);
    for (transport, model) in cases {
        let duration = (150.0 / p / (model / RTT)).max(30.0);
        // Slow start stops near the model window: IIAD would need hundreds of seconds to come
        // down from a slow-start overshoot (it sheds one packet per loss).
        let t = format!("{transport}, initial_ssthresh = {}", model.round());
        let r = run(&uniform_loss(p, duration, &t));
        let w = r.flows[0].goodput_bps / 8.0 / 1000.0 * RTT;
        println!("{transport}: window {w:.2}, model {model:.2}, ratio {:.3}", w / model);
        assert!(
            (0.9..1.1).contains(&(w / model)),
            "{transport}: window {w:.2} vs model {model:.2}"
        );
    }
}
