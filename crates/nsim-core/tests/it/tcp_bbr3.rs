//! BBRv3 (draft-ietf-ccwg-bbr-06) on whole scenarios: determinism and accounting on
//! scenarios/tcp_bbr3.toml, bad parameters, and the draft's published claims against BBR v1 on
//! a 10 Mb/s, 40 ms dumbbell (ns-3.37 has no BBRv3 to compare with): a per-round loss rate
//! capped by BBR.LossThresh = 2 % "and an average packet loss rate considerably lower" (§3.2)
//! on shallow buffers; full throughput with "substantially lower queueing delays for
//! bottlenecks with deep buffers" (Abstract; §3.2: queue ≤ 1.5 BDP); and bandwidth probing
//! spaced so that "Reno/CUBIC [can] reach a bandwidth at least as high as that given BBR flow"
//! (§5.3.3.8.2) on a path of BDP ≤ ~62 packets (§5.3.3.8.1).

use crate::common;

/// `flows` bulk flows of `variant` (each with its own 100 Mb/s, 1 ms access link) through a
/// 10 Mb/s bottleneck of 19 ms (40 ms base RTT, BDP ≈ 48 packets of 1040 B) whose drop-tail
/// buffer holds `buffer` packets, for `secs` seconds.
fn dumbbell(variants: &[&str], buffer: u32, secs: u32, seed: u64) -> String {
    let mut s = format!(
        "seed = {seed}\nname = \"dumbbell\"\nduration = \"{secs}s\"\nhosts = [\"r1\", \"k1\""
    );
    for i in 0..variants.len() {
        s += &format!(", \"s{i}\"");
    }
    s += "]\n[[links]]\nbetween = [\"r1\", \"k1\"]\nrate = \"10Mb\"\ndelay = \"19ms\"\n";
    s += &format!("queue = {{ kind = \"droptail\", limit = \"{buffer}p\" }}\n");
    for (i, v) in variants.iter().enumerate() {
        s += &format!(
            "[[links]]\nbetween = [\"s{i}\", \"r1\"]\nrate = \"100Mb\"\ndelay = \"1ms\"\n"
        );
        let pacing = if v.starts_with("bbr") { "" } else { ", pacing = true" };
        s += &format!("[[flows]]\nname = \"{v}{i}\"\nfrom = \"s{i}\"\nto = \"k1\"\nstart = \"{}ms\"\napp = {{ kind = \"bulk\" }}\ntransport = {{ kind = \"tcp\", variant = \"{v}\", window = 10000, initial_window = 10{pacing} }}\n", 100 * i);
    }
    s
}

/// Retransmissions over data packets sent, all flows.
fn retransmit_rate(r: &nsim_core::Results) -> f64 {
    r.flows.iter().map(|f| f.retransmits).sum::<u64>() as f64
        / r.flows.iter().map(|f| f.sent_pkts).sum::<u64>() as f64
}

#[test]
fn same_seed_same_results_and_every_packet_accounted() {
    let a = common::same_seed_same_results(
        "tcp_bbr3.toml",
        "the seed draws the probe waits and the clock phases",
    );
    assert!(
        a.flows.iter().all(|f| f.dropped_pkts > 0 && f.fast_retransmits > 0),
        "the check must cover loss recovery"
    );
    // The "cc" series carries the model, inflight_hi among it once a probe has lost too much.
    let cc = &a.series.cc;
    for name in ["state", "max_bw_bps", "min_rtt_s", "inflight_hi", "inflight_lo", "pacing_gain"] {
        assert!(cc.variable.contains(&name), "{name} missing from the cc series");
    }
    let hi =
        (0..cc.value.len()).filter(|&i| cc.variable[i] == "inflight_hi" && cc.value[i].is_finite());
    assert!(hi.count() > 0, "no probe set inflight_hi");
}

#[test]
fn bad_parameters_name_their_field() {
    let bad = |transport: &str| {
        common::config_error(&common::one_link(
            "10Mb",
            "20ms",
            "1s",
            "{ kind = \"bulk\" }",
            transport,
        ))
    };
    let e = bad("{ kind = \"tcp\", variant = \"bbr3\", pacing = false }");
    assert!(e.contains("pacing") && e.contains("bbr3"), "{e}");
    let e = bad("{ kind = \"tcp\", variant = \"bbr3\", bbr3 = { beta = 1.5 } }");
    assert!(e.contains("bbr3.beta"), "{e}");
    let e = bad("{ kind = \"tcp\", variant = \"bbr3\", bbr3 = { probe_rtt_interval = \"20s\" } }");
    assert!(e.contains("bbr3.probe_rtt_interval"), "{e}");
}

#[test]
fn on_a_shallow_buffer_bbr3_loses_near_two_percent_where_bbr_v1_loses_several_times_more() {
    // 7 packets of buffer = 0.15 BDP. BBR v1 keeps 2 BDP in flight whatever it loses.
    for (flows, v3_max) in [(2usize, 0.02), (4, 0.04)] {
        let v1 = common::run_balanced(&dumbbell(&vec!["bbr"; flows], 7, 60, 1));
        let v3 = common::run_balanced(&dumbbell(&vec!["bbr3"; flows], 7, 60, 1));
        let (l1, l3) = (retransmit_rate(&v1), retransmit_rate(&v3));
        assert!(l1 > 0.05, "{flows} BBR v1 flows: {l1:.4}");
        assert!(l3 < v3_max, "{flows} BBRv3 flows: {l3:.4}");
        assert!(l1 > 3.0 * l3, "{flows} flows: v1 {l1:.4}, v3 {l3:.4}");
        // ... and keeps the link busy and the flows' shares even.
        assert!(v3.queues[0].utilization > 0.93, "{}", v3.queues[0].utilization);
        let gp: Vec<f64> = v3.flows.iter().map(|f| f.goodput_bps).collect();
        let (lo, hi) =
            (gp.iter().cloned().fold(f64::MAX, f64::min), gp.iter().cloned().fold(0.0, f64::max));
        assert!(lo > 0.75 * hi, "goodputs {gp:?}");
    }
}

#[test]
fn on_a_deep_buffer_one_bbr3_flow_fills_the_pipe_with_a_small_queue() {
    // 480 packets = 10 BDP of buffer: goodput ≥ 90 % of 10 Mb/s, mean queue below 1 BDP (48
    // packets; the draft's objective is ≤ 1.5 BDP queued, §3.2), no loss.
    let r = common::run_balanced(&dumbbell(&["bbr3"], 480, 60, 1));
    assert!(r.flows[0].goodput_bps >= 0.9 * 10e6, "{}", r.flows[0].goodput_bps);
    assert!(r.queues[0].mean_len_pkts < 48.0, "{}", r.queues[0].mean_len_pkts);
    assert_eq!(r.flows[0].retransmits, 0);
}

#[test]
fn cubic_gets_as_much_as_a_bbr3_flow_but_not_a_bbr_v1_flow() {
    // One BBR flow and one paced CUBIC flow, 10 packets of buffer (0.2 BDP), BDP 48 packets.
    for seed in [1, 2] {
        let v3 = common::run_balanced(&dumbbell(&["bbr3", "cubic"], 10, 60, seed));
        let v1 = common::run_balanced(&dumbbell(&["bbr", "cubic"], 10, 60, seed));
        let share = |r: &nsim_core::Results| r.flows[1].goodput_bps / r.flows[0].goodput_bps;
        assert!(share(&v3) > 0.8, "seed {seed}: CUBIC / BBRv3 = {:.2}", share(&v3));
        assert!(share(&v1) < 0.3, "seed {seed}: CUBIC / BBR v1 = {:.2}", share(&v1));
    }
}

#[test]
fn with_ecn_on_a_short_path_the_queue_stays_near_the_marking_threshold() {
    // scenarios/dctcp_step_mark.toml (two flows, 1 Gb/s, 150 µs base RTT, 200-packet buffer
    // marking above K = 20 packets) with BBRv3, 3 s. The min RTT is below Linux v3's 5 ms
    // `bbr_ecn_max_rtt_us`, so with `ecn = true` CE marks cut inflight_lo by α/3 per marked
    // round and end probes marked above 50 %: as DCTCP on this scenario, the queue stays near
    // K with the link full and nothing lost. Without ECN BBRv3 only sees loss: it fills most
    // of the buffer and drops.
    let text = include_str!("../../../../scenarios/dctcp_step_mark.toml")
        .replace("variant = \"dctcp\"", "variant = \"bbr3\"")
        .replace("duration = \"1s\"", "duration = \"3s\"");
    let bn = |r: &nsim_core::Results| {
        r.queues.iter().find(|q| q.rate_bps == 1_000_000_000).expect("bottleneck").clone()
    };
    let with = bn(&common::run_balanced(&text));
    let without = bn(&common::run_balanced(&text.replace("ecn = true, ", "")));
    assert!(
        with.ecn_marks > 0 && with.dropped_pkts == 0,
        "{} marks, {} drops",
        with.ecn_marks,
        with.dropped_pkts
    );
    assert!(with.mean_len_pkts < 2.0 * 20.0, "mean queue {}", with.mean_len_pkts);
    assert!(with.utilization > 0.95, "{}", with.utilization);
    assert!(
        without.dropped_pkts > 0 && without.mean_len_pkts > 2.0 * 20.0,
        "{} drops, mean queue {}",
        without.dropped_pkts,
        without.mean_len_pkts
    );
}
