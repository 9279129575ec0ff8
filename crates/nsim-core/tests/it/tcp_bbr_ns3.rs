//! BBR v1 beside ns-3.37's TcpBbr on one dumbbell (reference/ns3/bbr: our ns-3 program, its
//! reduced outputs and nsim's twin scenarios): 10 Mb/s, 40 ms, 60 s, and 1 Gb/s, 100 µs, 12 s,
//! measured as reference/ns3/bbr/reduce.py measures ns-3's runs.
//!
//! No ns-3 run compared loses a packet, so ns-3.37's known collapse after a timeout (fixed in
//! 3.41) cannot enter: ns-3's summaries record 0 recoveries and 0 timeouts. With four flows and
//! bbr/'s 100-packet buffer the flows overflow it and ns-3's collapse shows
//! (reference/ns3/bbr/four_q100): that case is evidence of the bug, not compared.

use crate::common;
use std::collections::HashMap;

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (n, s) = v.fold((0usize, 0.0), |(n, s), x| (n + 1, s + x));
    s / n as f64
}

/// reduce.py's figures for one nsim run over `t0`-`t1`.
fn measure(r: &nsim_core::Results, t0: f64, t1: f64) -> HashMap<&'static str, f64> {
    let in_window = |t: f64| (t0..t1).contains(&t);
    let flows = r.flows.len() as u32;
    // Goodput: in-order payload delivered to each application between t0 and t1.
    let g = &r.series.goodput;
    let at = |f: u32, t: f64| {
        (0..g.time_s.len())
            .rfind(|&i| g.flow[i] == f && g.time_s[i] <= t + 1e-9)
            .map_or(0, |i| g.goodput_bytes[i])
    };
    let goodputs: Vec<f64> =
        (0..flows).map(|f| (at(f, t1) - at(f, t0)) as f64 * 8.0 / (t1 - t0) / 1e6).collect();
    let goodput: f64 = goodputs.iter().sum();
    // Gain cycle: a flow's pacing rate falls by more than 30 % once per cycle (1.25 -> 0.75).
    let cc = &r.series.cc;
    let mut cycles = Vec::new();
    for f in 0..flows {
        let pace: Vec<(f64, f64)> = (0..cc.time_s.len())
            .filter(|&i| cc.flow[i] == f && cc.variable[i] == "pacing_rate_bps")
            .map(|i| (cc.time_s[i], cc.value[i]))
            .collect();
        let falls: Vec<f64> = pace
            .windows(2)
            .filter(|w| in_window(w[1].0) && w[1].1 < 0.7 * w[0].1)
            .map(|w| w[1].0)
            .collect();
        cycles.extend(falls.windows(2).map(|w| w[1] - w[0]));
    }
    cycles.sort_by(f64::total_cmp);
    // Flight of all flows (packets) and the bottleneck queue (r -> d), sampled every 1 ms.
    let s = &r.series.tcp;
    let mut flight: Vec<(f64, f64)> = Vec::new();
    for i in (0..s.time_s.len()).filter(|&i| in_window(s.time_s[i])) {
        match flight.last_mut() {
            Some((t, n)) if *t == s.time_s[i] => *n += s.in_flight_pkts[i] as f64,
            _ => flight.push((s.time_s[i], s.in_flight_pkts[i] as f64)),
        }
    }
    // Fast recoveries entered within the window (a flow's sampled state turning to "recovery").
    let entered: usize = (0..flows)
        .map(|f| {
            let states: Vec<&str> = (0..s.time_s.len())
                .filter(|&i| s.flow[i] == f && in_window(s.time_s[i]))
                .map(|i| s.state[i])
                .collect();
            states.windows(2).filter(|w| w[1] == "recovery" && w[0] != "recovery").count()
        })
        .sum();
    let link = r.queues.iter().find(|q| q.from == "r" && q.to == "d").expect("bottleneck").link;
    let q = &r.series.queue;
    HashMap::from([
        ("goodput", goodput),
        (
            "jain",
            goodput * goodput
                / (goodputs.len() as f64 * goodputs.iter().map(|x| x * x).sum::<f64>()),
        ),
        ("share_min", goodputs.iter().copied().fold(f64::MAX, f64::min) / goodput),
        ("share_max", goodputs.iter().copied().fold(0.0, f64::max) / goodput),
        ("cycle_median_s", cycles[cycles.len() / 2]),
        ("cycles", cycles.len() as f64),
        ("recoveries_in_window", entered as f64),
        ("inflight_mean_pkts", mean(flight.iter().map(|f| f.1))),
        (
            "probe_rtt_episodes",
            flight.windows(2).filter(|w| w[0].1 > 4.0 && w[1].1 <= 4.0).count() as f64,
        ),
        (
            "queue_mean_pkts",
            mean(
                (0..q.time_s.len())
                    .filter(|&i| q.link[i] == link && in_window(q.time_s[i]))
                    .map(|i| q.len_pkts[i] as f64),
            ),
        ),
        ("recoveries", r.flows.iter().map(|f| f.fast_retransmits).sum::<u64>() as f64),
        ("timeouts", r.flows.iter().map(|f| f.timeouts).sum::<u64>() as f64),
        ("dropped", r.flows.iter().map(|f| f.dropped_pkts).sum::<u64>() as f64),
    ])
}

/// The twin scenario reference/ns3/bbr/`scenario`, run.
fn run_twin(scenario: &str) -> nsim_core::Results {
    let path = format!("{}/../../reference/ns3/bbr/{scenario}", env!("CARGO_MANIFEST_DIR"));
    let r = common::run(&std::fs::read_to_string(path).expect("scenario"));
    assert!(r.accounting.balanced());
    r
}

/// nsim's figures for the twin `scenario` over `t0`-`t1` beside ns-3's reduced `case`; ns-3's
/// run may not lose a packet there (so its collapse after a timeout cannot enter).
fn beside(
    r: &nsim_core::Results,
    t0: f64,
    t1: f64,
    case: &str,
) -> (HashMap<&'static str, f64>, HashMap<String, f64>) {
    let (m, ns3) = (measure(r, t0, t1), common::ns3_summary(case));
    println!("nsim: {m:?}\nns-3: {ns3:?}");
    assert_eq!((ns3["recoveries"], ns3["timeouts"]), (0.0, 0.0));
    (m, ns3)
}

/// As `beside` over `t0`-60 s, where nsim may not lose a packet either.
fn compare(
    scenario: &str,
    t0: f64,
    case: &str,
) -> (HashMap<&'static str, f64>, HashMap<String, f64>) {
    let (m, ns3) = beside(&run_twin(scenario), t0, 60.0, case);
    assert_eq!((m["recoveries"], m["timeouts"], m["dropped"]), (0.0, 0.0, 0.0));
    (m, ns3)
}

/// One flow, DropTail 100 packets: goodput, gain-cycle period, mean flight / BDP, mean queue,
/// PROBE_RTT episodes over 10-60 s.
#[test]
fn bbr_matches_ns3_tcpbbr_on_the_dumbbell() {
    let (m, ns3) = compare("scenario.toml", 10.0, "bbr");
    let close = |k: &str, ns3k: &str, tol: f64| {
        assert!((m[k] / ns3[ns3k] - 1.0).abs() <= tol, "{k} {} vs {}", m[k], ns3[ns3k])
    };
    close("goodput", "goodput_mbps_10_60", 0.02);
    close("cycle_median_s", "cycle_median_s", 0.03);
    close("inflight_mean_pkts", "inflight_mean_pkts", 0.08);
    assert!(
        (m["queue_mean_pkts"] - ns3["queue_mean_pkts"]).abs() <= 3.0,
        "queue {} vs {}",
        m["queue_mean_pkts"],
        ns3["queue_mean_pkts"]
    );
    assert!(
        (m["probe_rtt_episodes"] - ns3["probe_rtt_episodes"]).abs() <= 1.0,
        "PROBE_RTT {} vs {}",
        m["probe_rtt_episodes"],
        ns3["probe_rtt_episodes"]
    );
}

/// Four flows starting 1 s apart, DropTail 1000 packets (no loss in either), over 30-60 s:
/// flows that join behind a standing queue take its delay into their minimum RTT, so both
/// simulators first hold several hundred packets queued until the flows' PROBE_RTT phases
/// drain it (nsim by 15 s, ns-3 by 30 s: the steady state is compared after that). Then the
/// flows are cwnd-limited: the draft's cap (§4.2.3.2, cwnd_gain 2 × each flow's BDP estimate)
/// holds about 2 BDP in flight in nsim (its minimum RTTs are the path's 41 ms), 2.4 in ns-3,
/// and the queue near one BDP. ns-3's flows share the link equally (Jain 1.00); nsim's
/// bandwidth estimates spread more (shares 14-34 %, Jain 0.91).
#[test]
fn four_bbr_flows_match_ns3_tcpbbr() {
    let (m, ns3) = compare("four/scenario.toml", 30.0, "bbr/four");
    let close = |k: &str, ns3k: &str, tol: f64| {
        assert!((m[k] / ns3[ns3k] - 1.0).abs() <= tol, "{k} {} vs {}", m[k], ns3[ns3k])
    };
    close("goodput", "goodput_mbps_30_60", 0.02);
    close("cycle_median_s", "cycle_median_s", 0.10);
    close("inflight_mean_pkts", "inflight_mean_pkts", 0.20);
    let bdp = 50.0;
    assert!(
        (1.9..=2.25).contains(&(m["inflight_mean_pkts"] / bdp)),
        "flight {} against the 2 BDP cap",
        m["inflight_mean_pkts"]
    );
    assert!(
        (m["queue_mean_pkts"] - ns3["queue_mean_pkts"]).abs() <= 20.0,
        "queue {} vs {}",
        m["queue_mean_pkts"],
        ns3["queue_mean_pkts"]
    );
    assert!(m["jain"] >= 0.85 && ns3["jain"] >= 0.85, "Jain {} vs {}", m["jain"], ns3["jain"]);
}

/// One flow on dctcp/'s 1 Gb/s, 100 µs path (RTprop 0.23 ms, BDP 27.5 packets) with a DropTail
/// buffer of 100 packets, 12 s, compared over 0.5-10 s (before the first PROBE_RTT): both fill
/// the link. ns-3.37's `TcpBbr::SetSendQuantum` fixes the send quantum at one segment (the
/// draft's rule is commented out there: ns-3 has no TSO); nsim's is the draft's (§4.2.2, as
/// Linux's `bbr_tso_segs_goal`): 1 ms of data, 63 packets here. The 1.25 phase lasts until the
/// flight reaches BBRInflight(1.25) = 1.25 BDP + 3 quanta or a packet is lost (§4.3.4.4): in
/// ns-3 37 packets, a cycle of about 8 RTprop without loss; in nsim 223, beyond BDP + buffer,
/// so each of nsim's probes ends in a drop and a fast recovery and its cycle, flight and queue
/// are longer. Over 10-12 s both enter PROBE_RTT at 10 s; ns-3's bandwidth estimate then decays
/// from 960 to 3 Mb/s (its PROBE_RTT samples enter the bandwidth filter, where the draft
/// (§4.3.5) marks them application-limited, and 200 ms is some 900 of this path's rounds
/// against the filter's 10), and its goodput falls to 3 Mb/s; nsim's recovers. With ns-3's
/// one-segment quantum the two match (`bbr_with_ns3s_send_quantum_...` below).
#[test]
fn bbr_on_the_1g_100us_path_beside_ns3_tcpbbr() {
    let r = run_twin("dc_1g/scenario.toml");
    let (m, ns3) = beside(&r, 0.5, 10.0, "bbr/dc_1g");
    assert!(
        (m["goodput"] / ns3["goodput_mbps_0.5_10"] - 1.0).abs() <= 0.02,
        "goodput {} vs {}",
        m["goodput"],
        ns3["goodput_mbps_0.5_10"]
    );
    assert_eq!(
        (ns3["probe_rtt_episodes"], m["probe_rtt_episodes"], m["timeouts"]),
        (0.0, 0.0, 0.0)
    );
    // ns-3: a loss-free cycle of 8 phases of about one RTprop (0.2 ms) each.
    assert!(
        (0.0017..=0.0019).contains(&ns3["cycle_median_s"]),
        "ns-3 cycle {}",
        ns3["cycle_median_s"]
    );
    // nsim: every probe ends in a fast recovery (one per cycle) and stretches the cycle.
    assert!(
        (m["recoveries_in_window"] / m["cycles"] - 1.0).abs() <= 0.05,
        "{} recoveries in {} cycles",
        m["recoveries_in_window"],
        m["cycles"]
    );
    assert!(
        m["cycle_median_s"] >= 2.0 * ns3["cycle_median_s"],
        "cycle {} vs {}",
        m["cycle_median_s"],
        ns3["cycle_median_s"]
    );
    assert!(
        m["queue_mean_pkts"] >= ns3["queue_mean_pkts"] + 30.0,
        "queue {} vs {}",
        m["queue_mean_pkts"],
        ns3["queue_mean_pkts"]
    );
    // The first PROBE_RTT (10 s after the last new RTprop), and what follows it.
    let (after, ns3_after) = beside(&r, 10.0, 12.0, "bbr/dc_1g/probe_rtt");
    assert_eq!((after["probe_rtt_episodes"], ns3_after["probe_rtt_episodes"]), (1.0, 1.0));
    assert!(
        ns3_after["goodput_mbps_10_12"] < 10.0,
        "ns-3 after PROBE_RTT {}",
        ns3_after["goodput_mbps_10_12"]
    );
    assert!(
        after["goodput"] >= 0.8 * m["goodput"],
        "nsim after PROBE_RTT {} of {}",
        after["goodput"],
        m["goodput"]
    );
}

/// Four flows starting together on the same 1 Gb/s, 100 µs path (DropTail 100 packets), 10 s,
/// over 0.5-10 s (ns-3's flows enter their first PROBE_RTT at 10.016 s, after which their
/// bandwidth estimates collapse as in dc_1g/probe_rtt). ns-3's start-up overflows the buffer (5
/// fast recoveries in the first 8 ms; its summary's `recoveries` counts the whole run), then
/// nothing is lost: its flows share the link equally (Jain 1.00) with 2.85 BDP in flight and
/// 51 packets queued. nsim's differ, for the send quantum (dc_1g above, docs/models/tcp_ns3.md):
/// each flow adds 3 quanta of up to 63 packets (1 ms at its pacing rate, at most 64 KB) in its
/// 1.25 phase, where ns-3's add 3 packets, so the flows' probes keep the 100-packet buffer
/// overflowing (4 % of the packets sent are dropped), lost retransmissions end in timeouts
/// (54 in 10 s, none in ns-3) and one flow, backing its timer off, keeps 0.03 % of the link
/// (Jain 0.59); the link carries 15 % less. Not a like-for-like comparison: with ns-3's
/// one-segment quantum (the test below) nothing is lost and no flow starves.
#[test]
fn four_bbr_flows_on_the_1g_100us_path_beside_ns3_tcpbbr() {
    let r = run_twin("dc_1g_four/scenario.toml");
    let (m, ns3) = (measure(&r, 0.5, 10.0), common::ns3_summary("bbr/dc_1g_four"));
    println!("nsim: {m:?}\nns-3: {ns3:?}");
    assert_eq!(
        (ns3["timeouts"], ns3["probe_rtt_episodes"], m["probe_rtt_episodes"]),
        (0.0, 0.0, 0.0)
    );
    assert!(
        ns3["jain"] >= 0.99 && (ns3["goodput_mbps_0.5_10"] / 959.7 - 1.0).abs() <= 0.001,
        "ns-3 {ns3:?}"
    );
    assert!(
        (2.7..=3.0).contains(&ns3["inflight_over_bdp"]),
        "ns-3 flight {} BDP",
        ns3["inflight_over_bdp"]
    );
    // nsim: the quanta's losses, timeouts, an unequal share and a link no longer full.
    let sent: u64 = r.flows.iter().map(|f| f.sent_pkts).sum();
    println!("nsim dropped {} of {sent} sent", m["dropped"]);
    assert!(m["dropped"] / sent as f64 >= 0.02, "nsim dropped {} of {sent}", m["dropped"]);
    assert!(
        m["timeouts"] >= 20.0 && m["jain"] <= 0.8,
        "nsim timeouts {}, Jain {}",
        m["timeouts"],
        m["jain"]
    );
    assert!(
        m["goodput"] <= 0.9 * ns3["goodput_mbps_0.5_10"],
        "goodput {} vs {}",
        m["goodput"],
        ns3["goodput_mbps_0.5_10"]
    );
}

/// Like for like on the 1 Gb/s 100 µs path: dc_1g's twin with BBR's send quantum fixed at one
/// segment (`bbr.send_quantum = 1`), as ns-3.37's `TcpBbr::SetSendQuantum`. Over 0.5-10 s both
/// lose nothing and cycle alike: goodput 961.5 vs 959.7 Mb/s, gain cycle 1.80 vs 1.80 ms (5285
/// vs 5275 cycles), flight 30.7 vs 34.7 packets; nsim's queue is 3.1 packets against ns-3's
/// 7.2 (4 packets, 32 µs at 1 Gb/s, are within a phase's worth of a 27.6-packet BDP). After the
/// first PROBE_RTT ns-3's estimate collapses (its bug, dc_1g above) and nsim's does not.
#[test]
fn bbr_with_ns3s_send_quantum_on_the_1g_100us_path_matches_ns3_tcpbbr() {
    let r = run_twin("dc_1g/scenario_quantum1.toml");
    let (m, ns3) = beside(&r, 0.5, 10.0, "bbr/dc_1g");
    assert_eq!(
        (m["recoveries"], m["timeouts"], m["dropped"], m["probe_rtt_episodes"]),
        (0.0, 0.0, 0.0, 0.0)
    );
    let close = |k: &str, ns3k: &str, tol: f64| {
        assert!((m[k] / ns3[ns3k] - 1.0).abs() <= tol, "{k} {} vs {}", m[k], ns3[ns3k])
    };
    close("goodput", "goodput_mbps_0.5_10", 0.01);
    close("cycle_median_s", "cycle_median_s", 0.05);
    close("cycles", "cycles", 0.02);
    close("inflight_mean_pkts", "inflight_mean_pkts", 0.15);
    assert!(
        (m["queue_mean_pkts"] - ns3["queue_mean_pkts"]).abs() <= 5.0,
        "queue {} vs {}",
        m["queue_mean_pkts"],
        ns3["queue_mean_pkts"]
    );
    let (after, ns3_after) = beside(&r, 10.0, 12.0, "bbr/dc_1g/probe_rtt");
    assert!(
        ns3_after["goodput_mbps_10_12"] < 10.0 && after["goodput"] >= 0.8 * m["goodput"],
        "after PROBE_RTT: nsim {}, ns-3 {}",
        after["goodput"],
        ns3_after["goodput_mbps_10_12"]
    );
}

/// Four flows, like for like (dc_1g_four's twin with `bbr.send_quantum = 1`), over 0.5-10 s:
/// nothing lost and no timeout in either after the start (ns-3's start-up overflows the buffer
/// once, its 5 recoveries), the link full (961.5 vs 959.7 Mb/s), gain cycles of 1.90 vs 1.91 ms.
/// The flows are cwnd-limited at 2 × BtlBw × RTprop each, and the max filter keeps each flow's
/// best rounds: nsim's four estimates sum to 1.13 × the link, so 57 packets are in flight and
/// 30 queued; ns-3 keeps 78 in flight and 51 queued, likely from the ACK-aggregation allowance
/// ns-3.37 adds to its cwnd target (`TcpBbr::AckAggregationCwnd`, Linux's, not in the 2017
/// draft; not traced). Shares: Jain 0.98 (smallest 19 %) against 1.00.
/// The draft's quantum (the test above) is what starved a flow there, not BBR's other rules.
#[test]
fn four_bbr_flows_with_ns3s_send_quantum_on_the_1g_100us_path_match_ns3_tcpbbr() {
    let r = run_twin("dc_1g_four/scenario_quantum1.toml");
    let (m, ns3) = (measure(&r, 0.5, 10.0), common::ns3_summary("bbr/dc_1g_four"));
    println!("nsim: {m:?}\nns-3: {ns3:?}");
    assert_eq!(
        (m["recoveries"], m["timeouts"], m["dropped"], ns3["timeouts"]),
        (0.0, 0.0, 0.0, 0.0)
    );
    assert!(
        (m["goodput"] / ns3["goodput_mbps_0.5_10"] - 1.0).abs() <= 0.01,
        "goodput {} vs {}",
        m["goodput"],
        ns3["goodput_mbps_0.5_10"]
    );
    assert!(
        (m["cycle_median_s"] / ns3["cycle_median_s"] - 1.0).abs() <= 0.05,
        "cycle {} vs {}",
        m["cycle_median_s"],
        ns3["cycle_median_s"]
    );
    assert!(m["jain"] >= 0.95 && ns3["jain"] >= 0.99, "Jain {} vs {}", m["jain"], ns3["jain"]);
    // Flight between 2 and 3 BDP (27.6 packets) in both; nsim's below ns-3's (see above).
    let bdp = ns3["inflight_mean_pkts"] / ns3["inflight_over_bdp"];
    assert!(
        (2.0..=3.0).contains(&(m["inflight_mean_pkts"] / bdp))
            && m["inflight_mean_pkts"] < ns3["inflight_mean_pkts"],
        "flight {} vs {} (BDP {bdp})",
        m["inflight_mean_pkts"],
        ns3["inflight_mean_pkts"]
    );
}
