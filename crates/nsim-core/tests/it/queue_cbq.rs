//! CBQ in whole runs: Holl 2003's two-class CBQ and CBQ+RED, and classic link sharing.

use crate::common::run;

fn cbr_losses(r: &nsim_core::Results) -> u64 {
    r.flows.iter().filter(|f| f.name.starts_with("call")).map(|f| f.dropped_pkts).sum()
}

#[test]
fn seed_000_cbq_gives_cbr_zero_loss() {
    let r = run(include_str!("../../../../scenarios/cbq_voice_over_be.toml"));
    assert!(r.accounting.balanced());
    assert_eq!(cbr_losses(&r), 0);
    let be = r.classes.iter().find(|c| c.class == "be" && c.link == 4).unwrap();
    assert!(be.dropped_pkts > 0);
    assert!(r.queues[4].utilization > 0.99);
}

#[test]
fn seed_000_cbq_red_gives_cbr_zero_loss_and_red_drops_best_effort() {
    let r = run(include_str!("../../../../scenarios/cbq_red_voice_over_be.toml"));
    assert_eq!(cbr_losses(&r), 0);
    let be = r.classes.iter().find(|c| c.class == "be" && c.link == 4).unwrap();
    let red = be.drops.get("red_early").copied().unwrap_or(0)
        + be.drops.get("red_forced").copied().unwrap_or(0);
    assert!(red > 0, "{be:?}");
    // The RED leaf's average is reported per class, within the buffer.
    let avg = be.avg_len.expect("RED leaf average");
    assert!((0.0..64.0).contains(&avg), "{avg}");
    assert_eq!(r.classes.iter().find(|c| c.class == "cbr" && c.link == 4).unwrap().avg_len, None);
}

#[test]
fn link_sharing_holds_a_non_borrowing_class_to_its_share() {
    let r = run(include_str!("../../../../scenarios/cbq_link_sharing.toml"));
    assert!(r.accounting.balanced());
    let ft = &r.series.flow_throughput;
    // Mean throughput of flow `f` over whole seconds [from, to).
    let mean = |f: u32, from: f64, to: f64| {
        let v: Vec<f64> = (0..ft.time_s.len())
            .filter(|&i| ft.flow[i] == f && ft.time_s[i] > from + 0.5 && ft.time_s[i] <= to + 0.5)
            .map(|i| ft.throughput_bps[i])
            .collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    for (from, to) in [(2.0, 10.0), (11.0, 20.0), (22.0, 30.0)] {
        let a = mean(0, from, to);
        assert!((a / 300_000.0 - 1.0).abs() < 0.02, "A in [{from}, {to}): {a}");
    }
    let b = mean(1, 11.0, 20.0);
    assert!((b / 700_000.0 - 1.0).abs() < 0.02, "B: {b}");
}

#[test]
fn seed_000_with_tcp_best_effort_only_cbq_protects_the_calls() {
    let text = include_str!("../../../../scenarios/cbq_satellite_tcp.toml");
    let loss = |r: &nsim_core::Results| {
        let calls: Vec<_> = r.flows.iter().filter(|f| f.name.starts_with("call")).collect();
        let sent: u64 = calls.iter().map(|f| f.sent_pkts).sum();
        calls.iter().map(|f| f.dropped_pkts).sum::<u64>() as f64 / sent as f64
    };
    let r = run(text);
    assert!(r.accounting.balanced());
    assert_eq!(loss(&r), 0.0);
    let be: f64 = r.flows.iter().filter(|f| f.name.starts_with("be")).map(|f| f.goodput_bps).sum();
    assert!(be > 0.0);
    let sat = r.queues.iter().find(|q| q.from == "r0" && q.to == "r1").unwrap();
    assert!(sat.utilization > 0.95, "{}", sat.utilization);
    // Holl 2003's Drop-Tail router: the calls lose packets to the TCP load.
    let start = text.find("queue = { kind = \"cbq\"").unwrap();
    let end = start + text[start..].find("\n] }").unwrap() + 4;
    let dt = run(&format!(
        "{}queue = {{ kind = \"droptail\", limit = 64 }}{}",
        &text[..start],
        &text[end..]
    ));
    assert!(loss(&dt) > 0.01, "{}", loss(&dt));
}
