//! Fall & Floyd (1996) drop scenarios: nsim against ns-2.35 traces kept in
//! `reference/ns2/fall_floyd/`, and the behaviours the paper describes.

use crate::common::{bottleneck, cwnd_steps, first_mismatch, ns2_cwnd, reference, run_traced, Ev};

const VARIANTS: [&str; 5] = ["tahoe", "reno", "newreno", "sack1", "fack"];

fn scenario(variant: &str, drops: usize) -> String {
    let text = match drops {
        1 => include_str!("../../../../scenarios/fall_floyd_1drop.toml"),
        2 => include_str!("../../../../scenarios/fall_floyd_2drop.toml"),
        3 => include_str!("../../../../scenarios/fall_floyd_3drop.toml"),
        _ => include_str!("../../../../scenarios/fall_floyd_4drop.toml"),
    };
    text.replace("variant = \"reno\"", &format!("variant = \"{variant}\""))
}

/// Sequence numbers ns-2's drop list removes in each scenario (reference README/summary).
fn dropped(drops: usize) -> &'static [u64] {
    match drops {
        1 => &[14],
        2 => &[14, 28],
        3 => &[14, 26, 28],
        _ => &[14, 24, 26, 28],
    }
}

/// (time, seq) of every data packet offered to the bottleneck a second time or later.
fn retransmissions(evs: &[Ev]) -> Vec<(f64, u64)> {
    let mut seen = std::collections::HashSet::new();
    evs.iter()
        .filter(|e| e.from == 1 && e.to == 2 && e.kind == "tcp" && (e.op == '+' || e.op == 'd'))
        .filter(|e| !seen.insert(e.seq))
        .map(|e| (e.t, e.seq))
        .collect()
}

/// One row of `reference/ns2/fall_floyd/summary.csv`: (retransmits, timeouts).
fn ns2_counters(dir: &str, variant: &str, drops: usize) -> (u64, u64) {
    let path = format!("{}/../../reference/ns2/{dir}/summary.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("summary.csv");
    let mut lines = text.lines().map(|l| l.split(',').collect::<Vec<_>>());
    let header = lines.next().expect("header");
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("summary.csv has no column {name}"))
    };
    let row = lines.find(|f| f[0] == variant && f[1] == drops.to_string()).expect("row");
    (row[col("n_retransmits")].parse().unwrap(), row[col("n_timeouts")].parse().unwrap())
}

pub struct Run {
    pub res: nsim_core::Results,
    pub evs: Vec<Ev>,
}

fn run(variant: &str, drops: usize, extra: &str) -> Run {
    let mut toml = scenario(variant, drops);
    if !extra.is_empty() {
        toml = toml.replace("clock_offset = \"5ms\"", &format!("clock_offset = \"5ms\", {extra}"));
    }
    let (res, evs) = run_traced(&toml, &format!("{variant}{drops}{}", extra.len()));
    Run { res, evs }
}

/// nsim options equivalent to the "classic" globals of ns-2's test-suite-tcpVariants.tcl
/// (reference/ns2/README.md): integer window reductions, initial RTO 6 s, min RTO 1 s, no
/// limited transmit, NewReno without partial window deflation, timer reset on every partial ACK.
const CLASSIC: &str = "whole_packet_reduction = true, initial_rto = \"6s\", min_rto = \"1s\", limited_transmit = false, \
    newreno = { partial_window_deflation = false, reset_timer_first_partial_only = false }";

/// Run `r` equals ns-2's run `name` in `reference/ns2/<dir>/` up to `until` seconds: every
/// bottleneck event and the cwnd/ssthresh trajectory.
pub fn assert_run_matches(r: &Run, dir: &str, name: &str, until: f64) {
    let theirs = reference(dir, name);
    if let Some((i, a, b)) = first_mismatch(&bottleneck(&r.evs), &theirs, 1e-6, until) {
        panic!("{dir} {name}: event {i} of {} differs:\n nsim {a:?}\n ns-2 {b:?}", theirs.len());
    }
    let c = &r.res.series.cwnd;
    let ours =
        cwnd_steps((0..c.time_s.len()).map(|i| (c.time_s[i], c.cwnd_pkts[i], c.ssthresh_pkts[i])));
    let theirs = ns2_cwnd(dir, name);
    assert!(theirs.len() > 50, "{dir} {name}: {} cwnd steps", theirs.len());
    let ours: Vec<_> = ours.into_iter().filter(|r| r.0 <= (until * 1e5) as i64).collect();
    if let Some(i) = (0..ours.len().max(theirs.len())).find(|&i| ours.get(i) != theirs.get(i)) {
        panic!(
            "{dir} {name}: cwnd step {i} of {}: nsim {:?} ns-2 {:?}",
            theirs.len(),
            ours.get(i),
            theirs.get(i)
        );
    }
}

fn assert_matches_ns2(dir: &str, extra: &str) {
    for v in VARIANTS {
        for n in 1..=4 {
            let r = run(v, n, extra);
            assert_run_matches(&r, dir, &format!("{v}_{n}drop"), 6.0);
            let f = &r.res.flows[0];
            assert_eq!(
                (f.retransmits, f.timeouts),
                ns2_counters(dir, v, n),
                "{dir} {v} {n}-drop: (retransmits, timeouts)"
            );
        }
    }
}

/// Vanilla TCP (Goyal-Jain 1997; ns-2 `Agent/TCP` with `noFastRetrans_ true`,
/// `reference/ns2/vanilla/`): the same 1-4 drops, each repaired only after a retransmission
/// timeout, event for event as ns-2.
#[test]
fn vanilla_matches_ns2_event_for_event_and_repairs_every_loss_by_timeout() {
    for n in 1..=4 {
        let r = run("vanilla", n, "");
        assert_run_matches(&r, "vanilla", &format!("vanilla_{n}drop"), 6.0);
        let f = &r.res.flows[0];
        assert_eq!(f.fast_retransmits, 0, "{n}-drop");
        assert!(f.timeouts >= 1, "{n}-drop: {} timeouts", f.timeouts);
    }
}

/// Reno without ns-2's multiple-fast-retransmit guard (`bugfix = false`, ns-2.35 `bugFix_
/// false`, `reference/ns2/bugfix/`): a loss in the window being recovered may start a new fast
/// retransmit, event for event as ns-2.
#[test]
fn reno_without_bugfix_matches_ns2_event_for_event() {
    for n in 1..=4 {
        assert_run_matches(
            &run("reno", n, "bugfix = false"),
            "bugfix",
            &format!("reno_{n}drop"),
            6.0,
        );
    }
}

/// The distinct ssthresh values of a run, in order, from its cwnd series.
fn ssthresh_steps(r: &Run) -> Vec<f64> {
    let mut v = r.res.series.cwnd.ssthresh_pkts.clone();
    v.dedup();
    v
}

/// Goyal-Jain 1997 §2.3 and Fig. 2 (4.3BSD-Reno): three losses in one window give two fast
/// retransmits, each halving the window, then a timeout with ssthresh at one eighth of the
/// window at the first loss (here 15 packets: 7, 3, then max(2, 15/8) = 2, ns-2's floor of 2).
/// With the guard (the default) the second loss waits for the timeout at ssthresh 3.
#[test]
fn reno_without_bugfix_halves_twice_then_times_out_on_three_losses() {
    let r = run("reno", 3, "bugfix = false");
    let f = &r.res.flows[0];
    assert_eq!((f.fast_retransmits, f.timeouts), (2, 1));
    assert_eq!(ssthresh_steps(&r), [28.0, 7.0, 3.0, 2.0]);
    let guarded = run("reno", 3, "");
    let f = &guarded.res.flows[0];
    assert_eq!((f.fast_retransmits, f.timeouts), (1, 1));
    assert_eq!(ssthresh_steps(&guarded), [28.0, 7.0, 3.0]);
}

/// How ns-2 starts a connection (`reference/ns2/tcp_start/`, 1 drop, 3 s): with `syn = false`
/// segment 0 is `packet_size` bytes with no header (1000 B) and its ACK still resets cwnd to
/// the initial window (`delay_growth_`); FACK ignores `delay_growth_` on that ACK, so after the
/// SYN its cwnd is 1 + 1 = 2 whatever `initial_window` says. With `delay_growth = false` (ns-2
/// `delay_growth_ false`) cwnd starts at the initial window, SYN or not, and the first ACK
/// opens it like any other: growth one round trip earlier.
#[test]
fn connection_start_matches_ns2_event_for_event() {
    for v in ["reno", "sack1", "fack"] {
        for (case, extra) in [
            ("nosyn", "syn = false"),
            ("iw4", "initial_window = 4"),
            ("nosyn_nogrowth", "syn = false, delay_growth = false"),
            ("iw4_nogrowth", "initial_window = 4, delay_growth = false"),
        ] {
            assert_run_matches(&run(v, 1, extra), "tcp_start", &format!("{v}_{case}"), 3.0);
        }
    }
}

#[test]
fn every_variant_and_drop_count_matches_ns2_event_for_event() {
    assert_matches_ns2("fall_floyd", "");
}

#[test]
fn classic_settings_match_ns2_event_for_event() {
    assert_matches_ns2("fall_floyd_classic", CLASSIC);
}

#[test]
fn tahoe_slow_starts_after_each_loss() {
    for n in 1..=4 {
        let r = run("tahoe", n, "");
        let s = &r.res.series.tcp;
        let f = &r.res.flows[0];
        assert_eq!(retransmissions(&r.evs)[0].1, 14, "{n}-drop: the first hole is repaired first");
        assert_eq!(f.timeouts, 0);
        assert!(f.fast_retransmits >= 1);
        // Every loss detection closes cwnd to 1 (sampled every 10 ms; cwnd stays 1 for an RTT).
        let closes: Vec<usize> = (1..s.cwnd_pkts.len())
            .filter(|&i| s.cwnd_pkts[i] == 1.0 && s.cwnd_pkts[i - 1] > 1.0)
            .collect();
        assert_eq!(closes.len() as u64, f.fast_retransmits, "{n}-drop: cwnd closed at {closes:?}");
        // ... with ssthresh at half the window, and cwnd then grows exponentially again.
        let last = *closes.last().unwrap();
        assert!(
            (2.0..=14.0).contains(&s.ssthresh_pkts[last]),
            "{n}-drop ssthresh {}",
            s.ssthresh_pkts[last]
        );
        let later = s.time_s.iter().position(|&t| t >= s.time_s[last] + 0.7).unwrap();
        assert!(
            s.cwnd_pkts[later] >= 4.0,
            "{n}-drop: cwnd {} at {}",
            s.cwnd_pkts[later],
            s.time_s[later]
        );
    }
}

#[test]
fn congestion_state_transitions_are_logged_in_order() {
    let r = run("newreno", 3, "");
    let c = &r.res.series.cwnd;
    let mut states: Vec<&str> = c.state.clone();
    states.dedup();
    // Limited transmit's duplicates (disorder), fast retransmit (recovery), the impatient
    // timer's timeout (loss), then open again (later only duplicate ACKs caused by the
    // go-back-N resends: disorder, never a second recovery).
    assert_eq!(states[..5], ["open", "disorder", "recovery", "loss", "open"], "{states:?}");
    assert!(states[5..].iter().all(|s| *s == "open" || *s == "disorder"), "{states:?}");
    let f = &r.res.flows[0];
    assert_eq!((f.fast_retransmits, f.timeouts), (1, 1));
}

#[test]
fn reno_survives_one_drop_but_times_out_with_more() {
    let one = run("reno", 1, "");
    assert_eq!(retransmissions(&one.evs).iter().map(|r| r.1).collect::<Vec<_>>(), [14]);
    assert_eq!((one.res.flows[0].fast_retransmits, one.res.flows[0].timeouts), (1, 0));
    for n in 2..=4 {
        let r = run("reno", n, "");
        let f = &r.res.flows[0];
        assert_eq!(f.timeouts, 1, "{n}-drop: Reno waits for the retransmission timer");
        // The first hole is fast-retransmitted; every other one only after the timeout.
        let rx = retransmissions(&r.evs);
        assert_eq!(rx[0].1, 14);
        assert!(
            rx[1].0 - rx[0].0 > 0.5,
            "{n}-drop: second retransmission {:?} waits for the RTO",
            rx[1]
        );
    }
}

/// Asserts that the dropped packets were retransmitted once each, in order, one per round
/// trip (RTT here is 0.21-0.3 s), without a timeout.
#[track_caller]
fn assert_one_hole_per_rtt(r: &Run, n: usize) {
    let rx = retransmissions(&r.evs);
    assert_eq!(rx.iter().map(|r| r.1).collect::<Vec<_>>(), dropped(n), "{n}-drop: {rx:?}");
    for w in rx.windows(2) {
        let gap = w[1].0 - w[0].0;
        assert!(
            (0.2..0.35).contains(&gap),
            "{n}-drop: retransmissions {w:?} are not one RTT apart"
        );
    }
    assert_eq!(r.res.flows[0].timeouts, 0, "{n}-drop");
}

#[test]
fn newreno_retransmits_one_lost_packet_per_round_trip() {
    // RFC 6582 "slow-but-steady": every partial ACK re-arms the timer (Fall & Floyd's NewReno).
    for n in 1..=4 {
        assert_one_hole_per_rtt(
            &run("newreno", n, "newreno = { reset_timer_first_partial_only = false }"),
            n,
        );
    }
    // The "impatient" default (ns-2.35 `newreno_changes1_ 1`) repairs two holes the same way...
    assert_one_hole_per_rtt(&run("newreno", 2, ""), 2);
    // ...but with three, the timer armed at the first partial ACK expires first (as in ns-2).
    assert_eq!(run("newreno", 3, "").res.flows[0].timeouts, 1);
}

#[test]
fn sack_and_fack_repair_all_holes_in_about_one_round_trip() {
    let runs = [("sack1", ""), ("fack", ""), ("sack1", "sack1 = { algorithm = \"rfc6675\" }")];
    for (v, extra) in runs {
        for n in 1..=4 {
            let r = run(v, n, extra);
            let rx = retransmissions(&r.evs);
            let mut seqs: Vec<u64> = rx.iter().map(|r| r.1).collect();
            seqs.sort();
            assert_eq!(
                seqs,
                dropped(n),
                "{v} {extra} {n}-drop: each hole retransmitted exactly once"
            );
            let span = rx.last().unwrap().0 - rx[0].0;
            assert!(span < 0.3, "{v} {extra} {n}-drop: holes repaired over {span} s");
            let f = &r.res.flows[0];
            assert_eq!((f.timeouts, f.fast_retransmits), (0, 1), "{v} {extra} {n}-drop");
        }
    }
}
