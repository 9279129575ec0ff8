//! RED in a whole run against what Floyd & Jacobson's formulas predict for non-responsive
//! traffic.

use nsim_core::{build, RunOptions, Scenario};

#[test]
fn gentle_red_settles_where_its_drop_curve_matches_the_excess_load() {
    let scn = Scenario::from_toml(
        include_str!("../../../../scenarios/red_gentle_satellite.toml"),
        "t.toml",
    )
    .unwrap();
    let r = build(&scn, &RunOptions::default()).unwrap().run(&mut |_| true).unwrap();
    assert!(r.accounting.balanced());
    let bn = &r.queues[2];
    assert_eq!((bn.from.as_str(), bn.to.as_str()), ("r0", "r1"));
    let early = bn.drops.get("red_early").copied().unwrap_or(0) as f64;
    let all = bn.dropped_pkts as f64;
    // Load 1.2: a sixth of the arrivals must go, and RED (not the buffer) drops them.
    let frac = all / bn.arrivals as f64;
    assert!((frac - 1.0 / 6.0).abs() < 0.01, "{frac}");
    assert!(early / all > 0.9, "{:?}", bn.drops);
    // The average, sampled every 100 ms after a 20 s warm-up, sits near the predicted 37.3
    // packets (p_b = 0.25 in the gentle segment, since `wait` drops on average (2/3) p_b).
    let q = &r.series.queue;
    let avgs: Vec<f64> = (0..q.time_s.len())
        .filter(|&i| q.link[i] == 2 && q.time_s[i] > 20.0)
        .map(|i| q.avg_len[i].unwrap())
        .collect();
    let mean = avgs.iter().sum::<f64>() / avgs.len() as f64;
    assert!((mean - 37.3).abs() < 2.0, "{mean}");
    assert!(bn.avg_len.is_some());
}

#[test]
fn red_with_setbit_marks_ecn_tcp_instead_of_dropping() {
    let scn = Scenario::from_toml(include_str!("../../../../scenarios/red_ecn_tcp.toml"), "t.toml")
        .unwrap();
    let r = build(&scn, &RunOptions::default()).unwrap().run(&mut |_| true).unwrap();
    assert!(r.accounting.balanced());
    let bn = &r.queues[0];
    assert_eq!((bn.from.as_str(), bn.to.as_str()), ("r0", "r1"));
    assert!(bn.ecn_marks > 50, "{}", bn.ecn_marks);
    // Every early action was a mark (p_b stayed under mark_p); the only losses are buffer
    // overflows while the slow average (w_q 0.002) lags the start-up slow starts.
    assert_eq!(bn.drops.get("red_early"), None, "{:?}", bn.drops);
    assert_eq!(bn.drops.get("red_forced"), None, "{:?}", bn.drops);
    assert!(bn.dropped_pkts < bn.ecn_marks / 2, "drops {:?} vs marks {}", bn.drops, bn.ecn_marks);
    assert!(bn.utilization > 0.9, "{}", bn.utilization);
    let avg = bn.avg_len.unwrap();
    assert!((5.0..75.0).contains(&avg), "{avg}");
}

/// F&J 1993 §6 / ns-2 `REDQueue::enque`: after the link has been idle for t, the first arrival
/// sees the average decayed as if m = t·(link packets per second) empty-queue arrivals had
/// happened: avg · (1 - w)^m. The link has no event while idle, so this checks that the idle
/// period is still shown to the discipline.
#[test]
fn red_average_decays_over_an_idle_link() {
    let scn = Scenario::from_toml(
        r#"
        duration = "10.5s"
        hosts = ["a", "b"]
        [[links]]
        between = ["a", "b"]
        rate = "1Mb"
        delay = "1ms"
        queue = { kind = "red", limit = "100p", min_th = 30, max_th = 90, q_weight = 0.002, mean_pktsize = 1000, bytes = false, queue_in_bytes = false }
        [[flows]]
        name = "burst"
        from = "a"
        to = "b"
        stop = "3s"
        app = { kind = "cbr", rate = "2Mb", size = "1000B" }
        [[flows]]
        name = "probe"
        from = "a"
        to = "b"
        start = "10s"
        app = { kind = "cbr", interval = "1s", size = "1000B" }
        [record]
        series = ["queue"]
        interval = "10ms"
        "#,
        "t.toml",
    )
    .unwrap();
    let r = build(&scn, &RunOptions::default()).unwrap().run(&mut |_| true).unwrap();
    let q = &r.series.queue;
    let avg_at = |t: f64| {
        (0..q.time_s.len())
            .find(|&i| q.link[i] == 0 && (q.time_s[i] - t).abs() < 1e-9)
            .and_then(|i| q.avg_len[i])
            .unwrap()
    };
    let before = avg_at(3.0);
    let after = avg_at(10.01);
    assert!(before > 10.0, "the burst builds an average: {before}");
    // The queue drains by ~3.4 s; 6.6 s idle at 125 packets/s is m ≈ 825, (1 - 0.002)^825 ≈ 0.19.
    assert!(
        after < 0.3 * before && after > 0.05 * before,
        "before {before}, after the idle period {after}"
    );
}
