//! The random phase of each sender's RTO clock (ns-2 `boot_time_ = Random::uniform(tcpTick_)`,
//! drawn when ns-2 creates a TCP agent): nsim draws it per flow from the run's seed, so a
//! DropTail TCP run, with no other randomness, differs from seed to seed as ns-2's runs do.

use crate::common::run;

/// 16 Reno flows with equal RTTs (208 ms + queueing, so the RTO is above `min_rto` and
/// depends on the tick-counted RTT samples) through one DropTail bottleneck, 10 ms apart.
fn dumbbell(seed: u64, transport_extra: &str) -> String {
    format!(
        r#"
duration = "20s"
seed = {seed}
[dumbbell]
pairs = 16
bottleneck = {{ rate = "10Mb", delay = "100ms", queue = {{ kind = "droptail", limit = "50p" }} }}
access = {{ rate = "100Mb", delay = "2ms" }}
[[flows]]
name = "f{{i}}"
repeat = 16
from = "s{{i}}"
to = "d{{i}}"
stagger = {{ every = "10ms" }}
app = {{ kind = "bulk" }}
transport = {{ kind = "tcp", variant = "reno", window = 100 {transport_extra} }}
"#
    )
}

/// Per-flow (goodput bytes/s rounded, retransmits, timeouts) of one run.
fn outcome(seed: u64, extra: &str) -> Vec<(u64, u64, u64)> {
    run(&dumbbell(seed, extra))
        .flows
        .iter()
        .map(|f| (f.goodput_bps as u64, f.retransmits, f.timeouts))
        .collect()
}

#[test]
fn seeds_differ_through_the_clock_phase_alone() {
    let runs: Vec<_> = (1..=3).map(|s| outcome(s, "")).collect();
    assert_ne!(runs[0], runs[1], "seeds 1 and 2 gave identical runs: no random clock phase");
    assert_ne!(runs[1], runs[2], "seeds 2 and 3 gave identical runs: no random clock phase");
    assert_eq!(runs[0], outcome(1, ""), "same seed, same run");
    // With the phase fixed nothing else in this scenario is random: every seed is the same run.
    let fixed: Vec<_> = (1..=2).map(|s| outcome(s, ", clock_offset = \"3ms\"")).collect();
    assert_eq!(fixed[0], fixed[1]);
}

/// The numbers quoted in docs/models/tcp.md ("Random clock phase"): spread over seeds of the
/// 16-flow dumbbell. Run with `cargo test -p nsim-core --release --test it tcp_clock_phase --
/// --ignored --nocapture`.
#[test]
#[ignore]
fn clock_phase_spread_over_seeds() {
    for extra in ["", ", clock_offset = \"0s\""] {
        println!("transport extra: '{extra}'");
        for seed in 1..=10 {
            let r = run(&dumbbell(seed, extra));
            let g: Vec<f64> = r.flows.iter().map(|f| f.goodput_bps / 1e6).collect();
            let jain = g.iter().sum::<f64>().powi(2)
                / (g.len() as f64 * g.iter().map(|x| x * x).sum::<f64>());
            let (min, max) = g.iter().fold((f64::MAX, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
            let timeouts: u64 = r.flows.iter().map(|f| f.timeouts).sum();
            let rtx: u64 = r.flows.iter().map(|f| f.retransmits).sum();
            println!(
                "seed {seed:2}: total {:.3} Mb/s, Jain {jain:.4}, per-flow {min:.3}..{max:.3} Mb/s, retransmits {rtx}, timeouts {timeouts}",
                g.iter().sum::<f64>()
            );
        }
    }
}

/// (flow, time) of every retransmission timeout in the 16-flow dumbbell with Vanilla TCP
/// (every loss a timeout) on a 500-ms clock: the instants the sender enters "loss".
fn timeouts(extra: &str) -> Vec<(u32, f64)> {
    let toml = dumbbell(1, &format!(", tick = \"500ms\" {extra}"))
        .replace("variant = \"reno\"", "variant = \"vanilla\"")
        + "[record]\nseries = [\"cwnd\"]\n";
    let c = run(&toml).series.cwnd;
    (1..c.time_s.len())
        .filter(|&i| {
            c.state[i] == "loss"
                && (0..i)
                    .rev()
                    .find(|&j| c.flow[j] == c.flow[i])
                    .is_none_or(|j| c.state[j] != "loss")
        })
        .map(|i| (c.flow[i], c.time_s[i]))
        .collect()
}

/// 4.4BSD's slow timer (`rto_clock = "global"`; TCP/IP Illustrated vol. 2 ch. 25: every
/// 500 ms `tcp_slowtimo` takes one tick off every connection's retransmission timer, which
/// fires when it reaches 0): every timeout falls on a tick of the one clock (phase 0 for
/// every sender), so senders whose timers start within the same tick time out at the same
/// instant. ns-2's per-connection timer (the default) expires RTO after arming, off the ticks.
#[test]
fn global_slow_timer_fires_every_timeout_on_a_tick_of_one_clock() {
    let on_tick = |t: f64| ((t / 0.5).round() * 0.5 - t).abs() < 1e-9;
    let global = timeouts(", rto_clock = \"global\"");
    assert!(global.len() >= 16, "{} timeouts", global.len());
    assert!(global.iter().all(|&(_, t)| on_tick(t)), "{global:?}");
    let mut instants: Vec<u64> = global.iter().map(|&(_, t)| (t * 2.0).round() as u64).collect();
    instants.dedup();
    assert!(instants.len() < global.len(), "no two senders timed out together: {global:?}");
    let own = timeouts("");
    assert!(own.len() >= 16, "{} timeouts", own.len());
    assert!(own.iter().filter(|&&(_, t)| !on_tick(t)).count() * 2 > own.len(), "{own:?}");
}
