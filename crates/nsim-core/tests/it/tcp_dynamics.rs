//! Window dynamics end to end: slow start, delayed ACKs, Vegas, RTO backoff, finite
//! transfers, determinism and configuration errors.

use crate::common::{run, run_traced};
use nsim_core::Scenario;

/// One flow s -> d over r: 100 Mb/s access, `bottleneck` r -> d, 2 x 50 ms, `extra` appended.
fn path(bottleneck: &str, queue: u32, transport: &str, extra: &str) -> String {
    format!(
        r#"
duration = "20s"
hosts = ["s", "d"]
routers = ["r"]
[[links]]
between = ["s", "r"]
rate = "100Mb"
delay = "1ms"
[[links]]
between = ["r", "d"]
rate = "{bottleneck}"
delay = "49ms"
queue = {{ kind = "droptail", limit = "{queue}p" }}
[[flows]]
name = "f"
from = "s"
to = "d"
app = {{ kind = "bulk" }}
transport = {{ kind = "tcp", {transport} }}
{extra}
"#
    )
}

/// cwnd sampled once per RTT (100 ms), as consecutive ratios, until slow start ends (the
/// 50-packet access queue overflows). The first round trip is left out: as in ns-2
/// (`delay_growth_`), the ACK of segment 0 resets cwnd to the initial window.
fn slow_start_growth(delayed_ack: bool) -> Vec<f64> {
    let t = path(
        "1Gb",
        1000,
        &format!("variant = \"newreno\", window = 10000, syn = false, delayed_ack = {delayed_ack}"),
        "[record]\nseries = [\"tcp\"]\ninterval = \"100ms\"",
    );
    let r = run(&t.replace("duration = \"20s\"", "duration = \"1.5s\""));
    let cw = &r.series.tcp.cwnd_pkts;
    cw.windows(2)
        .map(|w| w[1] / w[0])
        .skip_while(|&g| g <= 1.0)
        .skip(1)
        .take_while(|&g| g > 1.2)
        .collect()
}

#[test]
fn slow_start_doubles_cwnd_per_rtt() {
    let g = slow_start_growth(false);
    assert!(g.len() >= 5, "{g:?}");
    assert!(g.iter().all(|r| (1.95..=2.05).contains(r)), "growth per RTT {g:?}");
}

#[test]
fn slow_start_grows_one_and_a_half_per_rtt_with_delayed_acks() {
    let g = slow_start_growth(true);
    assert!(g.len() >= 5, "{g:?}");
    assert!(g.iter().all(|r| (1.3..=1.55).contains(r)), "growth per RTT {g:?}");
    let mean = g.iter().sum::<f64>() / g.len() as f64;
    assert!((1.42..=1.52).contains(&mean), "mean growth per RTT {mean} {g:?}");
}

#[test]
fn vegas_keeps_between_alpha_and_beta_packets_queued() {
    let t = path(
        "10Mb",
        100,
        "variant = \"vegas\", window = 1000",
        "[record]\nseries = [\"queue\", \"tcp\"]\ninterval = \"50ms\"",
    );
    let r = run(&t);
    let q = &r.series.queue;
    // Link 2 is r -> d (links are s->r, r->s, r->d, d->r); steady state after 5 s.
    let v: Vec<f64> = (0..q.time_s.len())
        .filter(|&i| q.link[i] == 2 && q.time_s[i] > 5.0)
        .map(|i| q.len_pkts[i] as f64)
        .collect();
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    assert!((1.0..=3.0).contains(&mean), "Vegas queue {mean:.2} packets");
    assert_eq!(r.flows[0].dropped_pkts, 0, "Vegas never fills the 100-packet buffer");
    // In steady state cwnd = bandwidth-delay product (10 Mb/s x 100 ms / 1000 B = 125
    // packets: Vegas' packets are packet_size on the wire, as ns-2's) + alpha..beta: the link
    // stays busy with a tiny queue.
    let s = &r.series.tcp;
    let late: Vec<f64> =
        (0..s.time_s.len()).filter(|&i| s.time_s[i] > 14.0).map(|i| s.cwnd_pkts[i]).collect();
    assert!(late.iter().all(|&w| (126.0..=129.5).contains(&w)), "{late:?}");
}

#[test]
fn rto_backoff_doubles_until_the_data_gets_through() {
    // The SYN (packet 1) passes; data packets 2..=7 are all lost: seq 1 and 2, then five
    // retransmissions of seq 1.
    let t = path("10Mb", 100, "variant = \"newreno\"", "")
        .replace("delay = \"49ms\"", "delay = \"49ms\"\nerror = { kind = \"drop_list\", packets = [2, 3, 4, 5, 6, 7], flow = \"f\" }\nerror_at = \"enqueue\"");
    let (r, evs) = run_traced(&t.replace("duration = \"20s\"", "duration = \"30s\""), "backoff");
    let sends: Vec<f64> = evs
        .iter()
        .filter(|e| e.kind == "tcp" && e.seq == 1 && e.from == 0 && e.op == '+')
        .map(|e| e.t)
        .collect();
    let gaps: Vec<f64> = sends.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.len() >= 5, "{sends:?}");
    for w in gaps.windows(2).take(4) {
        assert!((w[1] / w[0] - 2.0).abs() < 0.01, "RTO gaps {gaps:?}");
    }
    assert_eq!(r.flows[0].timeouts, 5);
}

#[test]
fn file_transfer_records_its_completion_time() {
    let t = path("10Mb", 100, "variant = \"sack1\", window = 64", "")
        .replace("app = { kind = \"bulk\" }", "app = { kind = \"file\", size = \"100KB\" }");
    let r = run(&t);
    let f = &r.flows[0];
    let done = f.completion_s.expect("completed");
    // 100 segments: ~7 RTTs of slow start (100 ms each) plus serialization.
    assert!((0.5..1.2).contains(&done), "{done}");
    assert_eq!(f.sent_bytes - 40 * f.sent_pkts, 100_000, "payload sent once, no losses");
    assert_eq!((f.goodput_bps * f.stop_s.unwrap_or(20.0) / 8.0).round(), 100_000.0);
    // Stopped before the last byte: no completion time.
    let cut = run(&t.replace(
        "app = { kind = \"file\", size = \"100KB\" }",
        "app = { kind = \"file\", size = \"100KB\" }\nstop = \"0.3s\"",
    ));
    assert_eq!(cut.flows[0].completion_s, None);
    assert!(cut.flows[0].goodput_bps > 0.0);
}

#[test]
fn same_scenario_twice_gives_identical_results() {
    let t = include_str!("../../../../scenarios/tcp_sack1_dumbbell.toml");
    let a = serde_json::to_string(&strip_wall(run(t))).unwrap();
    let b = serde_json::to_string(&strip_wall(run(t))).unwrap();
    assert_eq!(a, b);
}

fn strip_wall(mut r: nsim_core::Results) -> nsim_core::Results {
    r.wall_s = 0.0;
    r.setup_wall_s = 0.0;
    r.run_wall_s = 0.0;
    r
}

#[track_caller]
fn config_error(toml: &str) -> String {
    let scn = Scenario::from_toml(toml, "t.toml").expect("parses");
    match nsim_core::build(&scn, &Default::default()) {
        Ok(_) => panic!("accepted an invalid scenario"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn nonsensical_combinations_are_rejected_with_the_field_path() {
    let base = path("10Mb", 100, "variant = \"reno\"", "");
    // CBR over TCP is an application-limited sender (tests/it/tcp_app_limited.rs), but its
    // generator is still checked.
    let e = config_error(&base.replace(
        "app = { kind = \"bulk\" }",
        "app = { kind = \"cbr\", rate = \"1Mb\", jitter = 2.0 }",
    ));
    assert!(e.contains("flows[0].app.jitter"), "{e}");
    let e = config_error(&base.replace(
        "transport = { kind = \"tcp\", variant = \"reno\" }",
        "transport = { kind = \"udp\" }",
    ));
    assert!(e.contains("flows[0].app.kind") && e.contains("tcp"), "{e}");
    let e = config_error(&base.replace("variant = \"reno\"", "variant = \"sack1\", sack = false"));
    assert!(e.contains("flows[0].transport.sack"), "{e}");
    let e = config_error(&base.replace("variant = \"reno\"", "variant = \"reno\", window = 0"));
    assert!(e.contains("flows[0].transport.window"), "{e}");
    let e = config_error(
        &base.replace("variant = \"reno\"", "variant = \"reno\", recovery = \"newreno\""),
    );
    assert!(e.contains("flows[0].transport.recovery") && e.contains("window rules"), "{e}");
    let e = config_error(
        &base.replace("variant = \"reno\"", "variant = \"sf_sack\", sf_sack = { tau = \"0s\" }"),
    );
    assert!(e.contains("flows[0].transport.sf_sack"), "{e}");
    let e = config_error(&base.replace(
        "rate = \"10Mb\"\ndelay = \"49ms\"",
        "rate = \"10Mb\"\ndelay = \"49ms\"\nsimplex = true",
    ));
    assert!(e.contains("for its ACKs"), "{e}");
}

#[test]
fn every_variant_dumbbell_example_fills_the_bottleneck_and_balances() {
    let examples = [
        include_str!("../../../../scenarios/tcp_tahoe_dumbbell.toml"),
        include_str!("../../../../scenarios/tcp_reno_dumbbell.toml"),
        include_str!("../../../../scenarios/tcp_newreno_dumbbell.toml"),
        include_str!("../../../../scenarios/tcp_sack1_dumbbell.toml"),
        include_str!("../../../../scenarios/tcp_fack_dumbbell.toml"),
        include_str!("../../../../scenarios/tcp_vegas_dumbbell.toml"),
    ];
    for t in examples {
        let r = run(t);
        assert!(r.accounting.balanced(), "{}: {:?}", r.scenario, r.accounting);
        let goodput: f64 = r.flows.iter().map(|f| f.goodput_bps).sum();
        assert!(goodput > 0.85 * 1.5e6 * 1000.0 / 1040.0, "{}: {goodput}", r.scenario);
        assert!(r.series.tcp.time_s.len() >= 4 * 290, "{}: TCP series recorded", r.scenario);
    }
}

/// Two TCP flows from the same host through a RED bottleneck that marks instead of dropping.
fn red_pair(ecn: bool) -> nsim_core::Results {
    let t = format!(
        r#"
duration = "30s"
hosts = ["s", "d"]
routers = ["r"]
[[links]]
between = ["s", "r"]
rate = "100Mb"
delay = "1ms"
[[links]]
between = ["r", "d"]
rate = "5Mb"
delay = "20ms"
queue = {{ kind = "red", limit = "100p", min_th = 5, max_th = 15, q_weight = 0.002, setbit = true, use_mark_p = false, gentle = false, bytes = false, queue_in_bytes = false }}
[[flows]]
name = "f{{i}}"
repeat = 2
from = "s"
to = "d"
start = "0s"
stagger = {{ every = "2s" }}
stop = "25s"
app = {{ kind = "bulk" }}
transport = {{ kind = "tcp", variant = "newreno", window = 100, ecn = {ecn} }}
"#
    );
    run(&t)
}

#[test]
fn ecn_flows_back_off_on_marks_instead_of_losses() {
    let with = red_pair(true);
    let without = red_pair(false);
    let bn = |r: &nsim_core::Results| {
        r.queues.iter().find(|q| q.from == "r" && q.to == "d").unwrap().clone()
    };
    assert!(bn(&with).ecn_marks > 20, "RED marks ECT packets: {}", bn(&with).ecn_marks);
    assert_eq!(bn(&without).ecn_marks, 0);
    let rexmit = |r: &nsim_core::Results| r.flows.iter().map(|f| f.retransmits).sum::<u64>();
    // Every early congestion signal becomes a mark; only forced drops (average above max_th,
    // mostly while RED's slow average catches up with the start-up queue) remain.
    assert!(!bn(&with).drops.contains_key("red_early"), "{:?}", bn(&with).drops);
    assert!(
        bn(&without).drops.get("red_early").copied().unwrap_or(0) > 20,
        "{:?}",
        bn(&without).drops
    );
    assert!(
        rexmit(&with) * 3 < rexmit(&without) * 2,
        "ECN avoids losses: {} vs {}",
        rexmit(&with),
        rexmit(&without)
    );
    // The senders still share and fill the link, and the queue stays near RED's thresholds.
    let goodput: f64 = with.flows.iter().map(|f| f.goodput_bps).sum();
    assert!(goodput > 0.85 * 5e6 * 1000.0 / 1040.0 * 25.0 / 30.0, "{goodput}");
    assert!(bn(&with).mean_len_pkts < 20.0, "{}", bn(&with).mean_len_pkts);
}

#[test]
fn no_new_data_after_the_stop_time() {
    let t = path("10Mb", 100, "variant = \"reno\"", "")
        .replace("app = { kind = \"bulk\" }", "app = { kind = \"bulk\" }\nstop = \"2s\"");
    let (r, evs) = run_traced(&t, "stop");
    let before = evs
        .iter()
        .filter(|e| e.kind == "tcp" && e.op == '+' && e.from == 0 && e.t <= 2.0)
        .map(|e| e.seq)
        .max()
        .unwrap();
    let after = evs
        .iter()
        .filter(|e| e.kind == "tcp" && e.op == '+' && e.from == 0 && e.t > 2.0)
        .map(|e| e.seq)
        .max();
    assert!(
        after.is_none_or(|s| s <= before),
        "sent {after:?} after the stop (max before {before})"
    );
    assert_eq!(r.flows[0].delivered_pkts, before + 1, "everything sent is delivered");
}

/// Every variant x sink option x loss level runs to the end without a panic, balances its
/// accounting, delivers data, and finishes small file transfers.
#[test]
fn option_matrix_runs_clean() {
    let variants = ["tahoe", "reno", "newreno", "sack1", "fack", "vegas"];
    let sinks =
        ["", ", delayed_ack = true", ", ecn = true, maxburst = 2", ", window = 1, syn = false"];
    for v in variants {
        for (k, sink) in sinks.iter().enumerate() {
            for (loss, size) in [(0.0, "1B"), (0.02, "30KB"), (0.2, "5KB")] {
                let t = path("2Mb", 10, &format!("variant = \"{v}\"{sink}"), "")
                    .replace(
                        "delay = \"49ms\"",
                        &format!(
                            "delay = \"49ms\"\nerror = {{ kind = \"uniform\", rate = {loss} }}"
                        ),
                    )
                    .replace(
                        "app = { kind = \"bulk\" }",
                        &format!("app = {{ kind = \"file\", size = \"{size}\" }}"),
                    )
                    .replace("duration = \"20s\"", "duration = \"60s\"");
                let r = run(&t);
                let f = &r.flows[0];
                assert!(r.accounting.balanced(), "{v} {k} {loss}: {:?}", r.accounting);
                assert!(
                    f.completion_s.is_some(),
                    "{v} {k} {loss} {size}: not completed ({} sent)",
                    f.sent_pkts
                );
                assert!(f.goodput_bps > 0.0);
            }
        }
    }
}

#[test]
fn json_schema_describes_the_tcp_options() {
    let schema = Scenario::json_schema().to_string();
    for word in [
        "\"tcp\"",
        "newreno",
        "sack1",
        "rfc6675",
        "\"bulk\"",
        "\"file\"",
        "min_rto",
        "clock_offset",
        "error_at",
    ] {
        assert!(schema.contains(word), "schema lacks {word}");
    }
}

#[test]
fn benchmark_scenarios_are_valid() {
    for t in [
        include_str!("../../../../benches/scenarios/tcp_dumbbell_16.toml"),
        include_str!("../../../../benches/scenarios/tcp_dumbbell_128.toml"),
        include_str!("../../../../benches/scenarios/tcp_dumbbell_1024.toml"),
    ] {
        let scn = Scenario::from_toml(t, "bench.toml").expect("parses");
        let sim = nsim_core::build(&scn, &Default::default()).expect("builds");
        assert_eq!(sim.flows.len(), scn.dumbbell.as_ref().unwrap().pairs as usize);
    }
}
