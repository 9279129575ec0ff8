//! BBR v1 beside ns-3.37's TcpBbr on one dumbbell (reference/ns3/bbr: our ns-3 program, its
//! reduced output and nsim's twin scenario): one flow, 10 Mb/s, 40 ms, DropTail 100 packets,
//! 60 s, measured over 10-60 s as reference/ns3/bbr/reduce.py measures ns-3's run.
//!
//! Neither run loses a packet (the buffer exceeds STARTUP's overshoot, 2/ln 2 × BDP ≈ 145 <
//! BDP + 100 packets), so ns-3.37's known collapse after a timeout (fixed in 3.41) cannot
//! enter: ns-3's summary records 0 recoveries and 0 timeouts, and so must nsim's.

use crate::common;

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (n, s) = v.fold((0usize, 0.0), |(n, s), x| (n + 1, s + x));
    s / n as f64
}

#[test]
fn bbr_matches_ns3_tcpbbr_on_the_dumbbell() {
    let path = format!("{}/../../reference/ns3/bbr/scenario.toml", env!("CARGO_MANIFEST_DIR"));
    let r = common::run(&std::fs::read_to_string(path).expect("scenario"));
    assert!(r.accounting.balanced());
    let (t0, t1) = (10.0, 60.0);
    let in_window = |t: f64| (t0..t1).contains(&t);
    // Goodput: in-order payload delivered to the application between 10 and 60 s.
    let g = &r.series.goodput;
    let at = |t: f64| g.time_s.iter().zip(&g.goodput_bytes).filter(|(ts, _)| **ts <= t + 1e-9).last().map_or(0, |(_, b)| *b);
    let goodput = (at(t1) - at(t0)) as f64 * 8.0 / (t1 - t0) / 1e6;
    // Gain cycle: the pacing rate falls by more than 30 % once per cycle (1.25 -> 0.75).
    let cc = &r.series.cc;
    let pace: Vec<(f64, f64)> = (0..cc.time_s.len()).filter(|&i| cc.variable[i] == "pacing_rate_bps").map(|i| (cc.time_s[i], cc.value[i])).collect();
    let falls: Vec<f64> = pace.windows(2).filter(|w| in_window(w[1].0) && w[1].1 < 0.7 * w[0].1).map(|w| w[1].0).collect();
    let mut cycles: Vec<f64> = falls.windows(2).map(|w| w[1] - w[0]).collect();
    cycles.sort_by(f64::total_cmp);
    let cycle = cycles[cycles.len() / 2];
    // Flight (packets) and the bottleneck queue (r -> d), sampled every 1 ms.
    let s = &r.series.tcp;
    let flight: Vec<f64> = (0..s.time_s.len()).filter(|&i| in_window(s.time_s[i])).map(|i| s.in_flight_pkts[i] as f64).collect();
    let inflight = mean(flight.iter().copied());
    let probe_rtt = flight.windows(2).filter(|w| w[0] > 4.0 && w[1] <= 4.0).count() as f64;
    let link = r.queues.iter().find(|q| q.from == "r" && q.to == "d").expect("bottleneck").link;
    let q = &r.series.queue;
    let queue = mean((0..q.time_s.len()).filter(|&i| q.link[i] == link && in_window(q.time_s[i])).map(|i| q.len_pkts[i] as f64));
    let f = &r.flows[0];
    let ns3 = common::ns3_summary("bbr");
    println!(
        "nsim: goodput {goodput:.3} Mb/s, cycle {cycle:.4} s ({} cycles), inflight {inflight:.2} pkts ({:.3} BDP), queue {queue:.2}, \
         {probe_rtt} PROBE_RTT, {} fast retransmits, {} timeouts; ns-3: {ns3:?}",
        cycles.len(),
        inflight / 50.0,
        f.fast_retransmits,
        f.timeouts
    );
    assert_eq!((ns3["recoveries"], ns3["timeouts"]), (0.0, 0.0));
    assert_eq!((f.fast_retransmits, f.timeouts, f.dropped_pkts), (0, 0, 0));
    let close = |a: f64, b: f64, tol: f64| (a / b - 1.0).abs() <= tol;
    assert!(close(goodput, ns3["goodput_mbps_10_60"], 0.02), "goodput {goodput:.3} vs {}", ns3["goodput_mbps_10_60"]);
    assert!(close(cycle, ns3["cycle_median_s"], 0.03), "cycle {cycle:.4} vs {}", ns3["cycle_median_s"]);
    assert!(close(inflight, ns3["inflight_mean_pkts"], 0.08), "inflight {inflight:.2} vs {}", ns3["inflight_mean_pkts"]);
    assert!((queue - ns3["queue_mean_pkts"]).abs() <= 3.0, "queue {queue:.2} vs {}", ns3["queue_mean_pkts"]);
    assert!((probe_rtt - ns3["probe_rtt_episodes"]).abs() <= 1.0, "PROBE_RTT {probe_rtt} vs {}", ns3["probe_rtt_episodes"]);
}
