//! Vegas against ns-2.35's `Agent/TCP/Vegas` (`reference/ns2/vegas`): one flow, then two flows
//! (the second starting 1 s later) on a 10 Mb/s, 20 ms bottleneck without loss, so only
//! Vegas' own rules move cwnd: slow start doubling every other round trip, the exit at
//! delta > gamma (cwnd - cwnd/8), congestion avoidance at 1/cwnd per ACK while delta < alpha,
//! and the resting windows (ns-2: 64.3; 41.5 and 24.9 packets). Then loss recovery, event for
//! event (`reference/ns2/vegas/drops.tcl`): the fine-grained retransmission of Brakmo et al.
//! 1994 §3.1 on queue overflow, 1, 2 and 3 drops in one window, lost retransmissions and a
//! delayed-ACK receiver.

use crate::common;
use crate::common::{bottleneck, cwnd_steps, first_mismatch, ns2_cwnd, reference, run_traced};

/// cwnd changes (time, cwnd) of each flow.
type Trajectories = Vec<Vec<(f64, f64)>>;

/// ns-2's cwnd changes per flow from the reference CSV.
fn ns2(name: &str) -> Trajectories {
    let path = format!("{}/../../reference/ns2/vegas/{name}_cwnd.csv", env!("CARGO_MANIFEST_DIR"));
    let mut out: Trajectories = Vec::new();
    for l in std::fs::read_to_string(path).expect("reference CSV").lines().skip(1) {
        let f: Vec<f64> = l.split(',').map(|x| x.parse().expect("number")).collect();
        let flow = f[1] as usize;
        if out.len() <= flow {
            out.resize(flow + 1, Vec::new());
        }
        out[flow].push((f[0], f[2]));
    }
    out
}

/// nsim's cwnd changes per flow on `scenarios/vegas_two_flow.toml` with `flows` flows.
fn nsim(flows: usize) -> Trajectories {
    let path = format!("{}/../../scenarios/vegas_two_flow.toml", env!("CARGO_MANIFEST_DIR"));
    let toml = std::fs::read_to_string(path)
        .expect("scenario")
        .replace("repeat = 2", &format!("repeat = {flows}"))
        .replace("pairs = 2", &format!("pairs = {flows}"));
    let r = common::run(&toml);
    let c = &r.series.cwnd;
    let mut out: Trajectories = vec![Vec::new(); flows];
    for ((t, f), w) in c.time_s.iter().zip(&c.flow).zip(&c.cwnd_pkts) {
        out[*f as usize].push((*t, *w));
    }
    out
}

/// cwnd at time `t` (the last change at or before it; 0 before the first).
fn at(s: &[(f64, f64)], t: f64) -> f64 {
    s.iter().take_while(|(ts, _)| *ts <= t).last().map_or(0.0, |&(_, w)| w)
}

/// Samples both every 10 ms over 10 s: cwnd may differ by up to 2.5 packets while a round's
/// steps land a few ACKs apart, but on average by under 0.2 and at the end by under 0.5.
fn compare(name: &str, flows: usize) {
    let (want, got) = (ns2(name), nsim(flows));
    assert_eq!(got.len(), want.len());
    for (f, (w, g)) in want.iter().zip(&got).enumerate() {
        let diffs: Vec<f64> =
            (1..1000).map(|k| (at(w, k as f64 / 100.0) - at(g, k as f64 / 100.0)).abs()).collect();
        let max = diffs.iter().cloned().fold(0.0, f64::max);
        let mean = diffs.iter().sum::<f64>() / diffs.len() as f64;
        let end = diffs[diffs.len() - 1];
        assert!(
            max <= 2.5 && mean < 0.2 && end < 0.5,
            "{name} flow {f}: max {max} mean {mean} end {end}"
        );
    }
}

#[test]
fn one_vegas_flow_follows_ns2_cwnd() {
    compare("one_flow", 1);
}

#[test]
fn two_vegas_flows_follow_ns2_cwnd() {
    compare("two_flow", 2);
}

/// `scenarios/vegas_fine_retransmit.toml` with nsim's (1-based) drop list `drops`, extra
/// transport options `extra`, for `secs` seconds.
fn lossy(drops: &[u64], extra: &str, secs: f64) -> (nsim_core::Results, Vec<common::Ev>) {
    let path = format!("{}/../../scenarios/vegas_fine_retransmit.toml", env!("CARGO_MANIFEST_DIR"));
    let list: Vec<String> = drops.iter().map(|d| d.to_string()).collect();
    let toml = std::fs::read_to_string(path)
        .expect("scenario")
        .replace("packets = [15, 17, 19]", &format!("packets = [{}]", list.join(", ")))
        .replace("clock_offset = \"6ms\"", &format!("clock_offset = \"6ms\"{extra}"))
        .replace("duration = \"6s\"", &format!("duration = \"{secs}s\""));
    run_traced(&toml, "vegas")
}

/// nsim equals ns-2's run `name` (drop list `drops`, ns-2's 0-based indices) over 6 s: every
/// bottleneck event within 1 us and every cwnd/ssthresh step. Returns the run's counters
/// (retransmissions, coarse timeouts).
fn matches_ns2(name: &str, drops: &[u64]) -> (u64, u64) {
    matches_ns2_with(name, drops, "", 6.0)
}

/// [`matches_ns2`] with extra transport options `extra` over `secs` seconds.
fn matches_ns2_with(name: &str, drops: &[u64], extra: &str, secs: f64) -> (u64, u64) {
    let nsim_drops: Vec<u64> = drops.iter().map(|d| d + 1).collect();
    let (res, evs) = lossy(&nsim_drops, extra, secs);
    // ns-2's Vegas has its own output(), which never sets CWR ("A" in the trace) after a
    // reduction; nsim's does (it matters only with ECN, off here): the flag is not compared.
    let no_cwr = |evs: Vec<common::Ev>| -> Vec<common::Ev> {
        evs.into_iter().map(|e| common::Ev { flags: e.flags.replace('A', "-"), ..e }).collect()
    };
    let theirs = reference("vegas", name);
    if let Some((i, a, b)) = first_mismatch(&no_cwr(bottleneck(&evs)), &theirs, 1e-6, secs) {
        panic!("vegas {name}: event {i} of {} differs:\n nsim {a:?}\n ns-2 {b:?}", theirs.len());
    }
    let c = &res.series.cwnd;
    let ours =
        cwnd_steps((0..c.time_s.len()).map(|i| (c.time_s[i], c.cwnd_pkts[i], c.ssthresh_pkts[i])));
    let theirs = ns2_cwnd("vegas", name);
    assert!(theirs.len() > 50, "vegas {name}: {} cwnd steps", theirs.len());
    let ours: Vec<_> = ours.into_iter().filter(|r| r.0 <= (secs * 1e5) as i64).collect();
    if let Some(i) = (0..ours.len().max(theirs.len())).find(|&i| ours.get(i) != theirs.get(i)) {
        panic!(
            "vegas {name}: cwnd step {i} of {}: nsim {:?} ns-2 {:?}",
            theirs.len(),
            ours.get(i),
            theirs.get(i)
        );
    }
    (res.flows[0].retransmits, res.flows[0].timeouts)
}

/// Five losses of one window by queue overflow: the fine-grained retransmissions repair some,
/// then the coarse timeout (cwnd 2, ssthresh half the window) at 3.04 s, as ns-2.
#[test]
fn vegas_recovers_from_queue_overflow_as_ns2() {
    assert_eq!(matches_ns2("overflow", &[]).1, 1);
}

/// One loss: retransmitted on the first duplicate ACK, once its fine-grained timeout (about
/// 1.2 RTT) has passed, not on the third; cwnd to 3/4.
#[test]
fn vegas_retransmits_one_loss_on_its_fine_grained_timeout_as_ns2() {
    assert_eq!(matches_ns2("1drop", &[14]), (1, 0));
}

/// Two and three losses in one window: each later one is retransmitted on a new ACK after the
/// first retransmission (ns-2 `v_worried_`), no coarse timeout, one window reduction.
#[test]
fn vegas_repairs_two_and_three_losses_in_one_window_without_timeout_as_ns2() {
    assert_eq!(matches_ns2("2drop", &[14, 16]).1, 0);
    assert_eq!(matches_ns2("3drop", &[14, 16, 18]).1, 0);
}

/// The retransmission is lost too: retransmitted again once the grown fine-grained timeout
/// expires, without a second reduction (cwnd changed when it was sent). When the lost one was
/// sent on a new ACK (`v_worried_`, no window change), its repeat halves the window instead of
/// cutting it to 3/4.
#[test]
fn vegas_retransmits_a_lost_retransmission_again_as_ns2() {
    assert_eq!(matches_ns2("lost_rtx", &[14, 20]), (2, 0));
    assert_eq!(matches_ns2("lost_worried_rtx", &[14, 16, 24]), (3, 0));
}

/// A delayed-ACK sink (ns-2 `TCPSink/DelAck`, `SYN_immediate_ack_ false`): ACKs cover two
/// segments, so five acknowledged ranges (26->28, 54->56, ...) wrap past the end of the send
/// log, whose slots ns-2 leaves uncleared (the next segments there count two transmissions: no
/// RTT sample). Of three losses in one window two are repaired by the fine-grained
/// retransmission; the third, with only two duplicate ACKs behind it, by the coarse timeout.
#[test]
fn vegas_with_delayed_acks_matches_ns2() {
    assert_eq!(matches_ns2_with("delack_3drop", &[14, 16, 18], ", delayed_ack = true", 10.0).1, 1);
}

/// Without the fine-grained retransmission (Reno's recovery, nsim's Vegas before this model) the
/// three losses of one window end in a coarse timeout; with it, none.
#[test]
fn without_fine_retransmit_three_losses_need_a_timeout() {
    let timeouts = |extra: &str| lossy(&[15, 17, 19], extra, 6.0).0.flows[0].timeouts;
    assert_eq!(timeouts(""), 0);
    assert!(timeouts(", vegas = { fine_retransmit = false }") >= 1);
}
