//! BBR v1 on the two-way TCP (`tcp_full`, `cc = "bbr"`), one flow over ns-3's BBR dumbbell
//! (reference/ns3/bbr/scenario.toml: s -(100 Mb/s, 1 ms)- r -(10 Mb/s, 19 ms, DropTail 100
//! packets)- d, 60 s, 1000 B segments, SACK, an ACK per segment, initial window 10), recorded
//! every millisecond. BDP = 10 Mb/s × 40.9 ms ≈ 49 packets of 1040 B.
//!
//! 1. The draft's rules (draft-cardwell-iccrg-bbr-congestion-control-00 §4.3): STARTUP ends
//!    once BtlBw has grown by less than 25 % for 3 round trips, at the link rate; PROBE_BW
//!    cycles its 8 gains in order (1.25, 0.75, 1 × 6), one phase per min RTT, so a cycle lasts
//!    about 8 min RTTs; the flight stays near one BDP and below cwnd_gain (2) × BDP + 3 quanta;
//!    PROBE_RTT comes when the min RTT is 10 s old and lasts at least 200 ms.
//! 2. The one-way BBR agent (the same `Bbr`, fed by the one-way sender) on the same path.
//! 3. ns-3.37's TcpBbr on the same path (reference/ns3/bbr/summary.csv, measured by reduce.py:
//!    goodput over 10-60 s, median gain-cycle period, mean flight, mean queue, PROBE_RTT
//!    episodes); ns-3's TCP is two-way with a handshake, as tcp_full.

use crate::common;

/// 10 Mb/s in wire bits and the path's minimum RTT: 2 × 20 ms plus a 1040 B segment at
/// 100 and 10 Mb/s and a 40 B ACK at 10 and 100 Mb/s.
const LINK_BPS: f64 = 10e6;
const MIN_RTT: f64 =
    0.040 + 1040.0 * 8.0 * (1.0 / 100e6 + 1.0 / 10e6) + 40.0 * 8.0 * (1.0 / 10e6 + 1.0 / 100e6);
const BDP_PKTS: f64 = LINK_BPS * MIN_RTT / (1040.0 * 8.0);

const FULL: &str = r#"{ kind = "tcp_full", cc = "bbr", variant = "sack", mss = "1000B", window = 100000, window_scale = true, initial_window = 10, min_rto = "200ms", bbr = { cwnd_quanta = "probe_up" } }"#;
const ONE_WAY: &str = r#"{ kind = "tcp", variant = "bbr", window = 100000, initial_window = 10, min_rto = "200ms", bbr = { cwnd_quanta = "probe_up" } }"#;

/// ns-3's twin scenario with `transport` for the flow.
pub fn dumbbell(transport: &str) -> String {
    let path = format!("{}/../../reference/ns3/bbr/scenario.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("scenario");
    let line = text.lines().find(|l| l.starts_with("transport = ")).expect("transport line");
    text.replace(line, &format!("transport = {transport}"))
}

/// One flow's run, as time series of the `cc` values and the sender's flight.
struct Run {
    r: nsim_core::Results,
}

impl Run {
    fn of(transport: &str) -> Run {
        let r = common::run_balanced(&dumbbell(transport));
        Run { r }
    }

    /// (time, value) of the `cc` variable `name`.
    fn cc(&self, name: &str) -> Vec<(f64, f64)> {
        let c = &self.r.series.cc;
        (0..c.time_s.len())
            .filter(|&i| c.variable[i] == name)
            .map(|i| (c.time_s[i], c.value[i]))
            .collect()
    }

    /// Times at which BBR's state changed, with the new state (0 STARTUP ... 3 PROBE_RTT).
    fn state_changes(&self) -> Vec<(f64, f64)> {
        let s = self.cc("state");
        s.windows(2).filter(|w| w[1].1 != w[0].1).map(|w| w[1]).collect()
    }

    /// The value of `name` at time `t` (the last sample at or before it).
    fn at(&self, name: &str, t: f64) -> f64 {
        self.cc(name).iter().take_while(|p| p.0 <= t + 1e-9).last().expect("sampled").1
    }

    /// Start times of PROBE_BW's 1.25 phase after `t0`.
    fn cycle_starts(&self, t0: f64) -> Vec<f64> {
        let g = self.cc("pacing_gain");
        g.windows(2)
            .filter(|w| w[1].0 >= t0 && w[1].1 == 1.25 && w[0].1 != 1.25)
            .map(|w| w[1].0)
            .collect()
    }

    fn median_cycle(&self, t0: f64) -> f64 {
        let starts = self.cycle_starts(t0);
        let mut d: Vec<f64> = starts.windows(2).map(|w| w[1] - w[0]).collect();
        d.sort_by(f64::total_cmp);
        d[d.len() / 2]
    }

    /// Mean packets in flight over [t0, 60 s).
    fn mean_flight(&self, t0: f64) -> f64 {
        let s = &self.r.series.tcp;
        let v: Vec<f64> = (0..s.time_s.len())
            .filter(|&i| s.time_s[i] >= t0)
            .map(|i| s.in_flight_pkts[i] as f64)
            .collect();
        v.iter().sum::<f64>() / v.len() as f64
    }

    /// Bytes delivered in order to the receiving application by time `t`.
    fn received(&self, t: f64) -> u64 {
        let g = &self.r.series.goodput;
        g.time_s
            .partition_point(|&x| x <= t + 1e-9)
            .checked_sub(1)
            .map_or(0, |i| g.goodput_bytes[i])
    }

    /// Goodput over [t0, 60 s), Mb/s.
    fn goodput(&self, t0: f64) -> f64 {
        (self.received(60.0) - self.received(t0)) as f64 * 8.0 / (60.0 - t0) / 1e6
    }

    /// Mean bottleneck queue over [t0, 60 s), packets.
    fn mean_queue(&self, t0: f64) -> f64 {
        let link =
            self.r.queues.iter().find(|q| q.from == "r" && q.to == "d").expect("bottleneck").link;
        let q = &self.r.series.queue;
        let v: Vec<f64> = (0..q.time_s.len())
            .filter(|&i| q.link[i] == link && q.time_s[i] >= t0)
            .map(|i| q.len_pkts[i] as f64)
            .collect();
        v.iter().sum::<f64>() / v.len() as f64
    }

    /// Starts of the sender's round trips until `t_end`: the first when data first flows, each
    /// next once the receiver has the bytes that were in flight at the previous start.
    fn round_starts(&self, t_end: f64) -> Vec<f64> {
        let s = &self.r.series.tcp;
        let got = |t: f64| self.received(t);
        let mut starts =
            vec![s.time_s[(0..s.time_s.len()).find(|&i| s.in_flight_pkts[i] > 0).expect("data")]];
        let mut target = got(starts[0]) + 1;
        for i in 0..s.time_s.len() {
            let t = s.time_s[i];
            if t > *starts.last().expect("one") && t <= t_end && got(t) >= target {
                starts.push(t);
                target = got(t) + s.in_flight_pkts[i] * 1000;
            }
        }
        starts
    }

    /// (start, length) of each PROBE_RTT episode.
    fn probe_rtts(&self) -> Vec<(f64, f64)> {
        let ch = self.state_changes();
        ch.iter()
            .enumerate()
            .filter(|(_, c)| c.1 == 3.0)
            .map(|(i, c)| (c.0, ch.get(i + 1).map_or(60.0, |n| n.0) - c.0))
            .collect()
    }
}

/// §4.3.2.2 replayed on BtlBw at each round start (a round ends once the data in flight when
/// it began has reached the receiver): STARTUP ends in the round the rule names, give or take
/// the one the 1 ms sampling of the replay may shift it by, at the link rate.
#[test]
fn startup_ends_after_three_rounds_without_25_percent_growth() {
    let run = Run::of(FULL);
    let f = &run.r.flows[0];
    assert_eq!(
        (f.fast_retransmits, f.timeouts, f.dropped_pkts),
        (0, 0, 0),
        "the path loses nothing: {f:?}"
    );
    let ch = run.state_changes();
    assert_eq!((ch[0].1, ch[1].1), (1.0, 2.0), "STARTUP, then DRAIN, then PROBE_BW: {ch:?}");
    let exit = ch[0].0;
    let bw = run.at("btl_bw_bps", exit);
    let rounds = run.round_starts(exit + 0.2);
    let (mut full_bw, mut count, mut predicted) = (0.0, 0, None);
    for &t in &rounds {
        let bw_t = run.at("btl_bw_bps", t);
        if bw_t >= full_bw * 1.25 {
            (full_bw, count) = (bw_t, 0);
        } else {
            count += 1;
            if count == 3 {
                predicted = Some(t);
                break;
            }
        }
    }
    let predicted = predicted.expect("the rule ends STARTUP");
    let round = |t: f64| rounds.iter().filter(|&&r| r <= t + 1e-9).count() as i64;
    println!("STARTUP ends {exit:.3} s (round {}) at BtlBw {bw:.0} b/s; the rule replayed: {predicted:.3} s (round {})", round(exit), round(predicted));
    assert!((0.95..=1.0 + 1e-9).contains(&(bw / LINK_BPS)), "BtlBw {bw} b/s at the end of STARTUP");
    assert!(
        (round(exit) - round(predicted)).abs() <= 1,
        "ends at {exit:.3} s, the rule says {predicted:.3} s"
    );
}

/// §4.3.4: after DRAIN the gains follow the cycle's order (1.25, 0.75, then 1); each phase
/// ends at the first ACK after one min RTT, up to one packet time (0.83 ms, 2 %) late, so a
/// cycle lasts 8.0-8.3 min RTTs. §4.2.3: the flight is one BDP plus the queue the 1.25 phase
/// builds (Little's law: BDP + mean queue, within 2 packets, PROBE_RTT's dips included) and
/// never above cwnd_gain × BDP + 3 send quanta (2 packets each at 10 Mb/s, §4.2.2).
#[test]
fn probe_bw_cycles_eight_min_rtts_with_about_one_bdp_in_flight() {
    let run = Run::of(FULL);
    // Gain changes within PROBE_BW (PROBE_RTT's gain 1 and the random phase PROBE_BW
    // resumes at are not steps of the cycle).
    let (gain, state) = (run.cc("pacing_gain"), run.cc("state"));
    let steps: Vec<(f64, f64)> = gain
        .windows(2)
        .zip(state.windows(2))
        .filter(|(g, s)| s[0].1 == 2.0 && s[1].1 == 2.0 && g[0].1 != g[1].1)
        .map(|(g, _)| (g[0].1, g[1].1))
        .collect();
    assert!(steps.len() > 400, "{} gain changes", steps.len());
    for (a, b) in steps {
        assert!(matches!((a, b), (1.25, 0.75) | (0.75, 1.0) | (1.0, 1.25)), "gain {a} then {b}");
    }
    let cycle = run.median_cycle(10.0);
    let (flight, queue) = (run.mean_flight(10.0), run.mean_queue(10.0));
    let s = &run.r.series.tcp;
    let max_flight = (0..s.time_s.len())
        .filter(|&i| s.time_s[i] >= 10.0)
        .map(|i| s.in_flight_pkts[i])
        .max()
        .expect("sampled") as f64;
    println!("cycle {cycle:.4} s = {:.2} min RTTs; flight {flight:.2} (max {max_flight}), BDP {BDP_PKTS:.1}, queue {queue:.2}", cycle / MIN_RTT);
    assert!((8.0..=8.3).contains(&(cycle / MIN_RTT)), "cycle {cycle} s");
    assert!(
        (flight - (BDP_PKTS + queue)).abs() <= 2.0,
        "flight {flight} vs BDP + queue {}",
        BDP_PKTS + queue
    );
    assert!(max_flight <= 2.0 * BDP_PKTS + 3.0 * 2.0, "flight {max_flight} above 2 BDP + 3 quanta");
}

/// §4.3.5: PROBE_RTT once the min RTT is 10 s old (the last was renewed when the previous
/// PROBE_RTT ended; nothing on this path lowers it), for 200 ms at 4 packets plus the drain to
/// them and one round: 5 episodes in 60 s, each 200-300 ms.
#[test]
fn probe_rtt_every_ten_seconds_for_at_least_200_ms() {
    let run = Run::of(FULL);
    let p = run.probe_rtts();
    println!("PROBE_RTT (start, length): {p:?}");
    assert_eq!(p.len(), 5);
    assert!(p[0].0 >= 10.0);
    for w in p.windows(2) {
        let gap = w[1].0 - (w[0].0 + w[0].1);
        assert!((10.0..=10.5).contains(&gap), "{gap} s from the end of one PROBE_RTT to the next");
    }
    assert!(p.iter().all(|e| (0.2..=0.3).contains(&e.1)), "{p:?}");
}

/// The same `Bbr` fed by the one-way sender on the same path. They differ by the handshake
/// (tcp_full's data starts one RTT later, so its PROBE_RTTs come up to 0.2 s later) and the
/// ACK stream's timing; over 10-60 s goodput within 0.5 %, the BtlBw estimate at 30 s within
/// 1 %, the median cycle within 2 %, the mean flight within 3 %, the mean queue within one
/// packet, and as many PROBE_RTTs.
#[test]
fn full_bbr_matches_the_one_way_bbr_agent() {
    let (full, one) = (Run::of(FULL), Run::of(ONE_WAY));
    let figures = |r: &Run| {
        [
            r.goodput(10.0),
            r.at("btl_bw_bps", 30.0),
            r.median_cycle(10.0),
            r.mean_flight(10.0),
            r.mean_queue(10.0),
            r.probe_rtts().len() as f64,
        ]
    };
    let (a, b) = (figures(&full), figures(&one));
    println!("goodput, BtlBw, cycle, flight, queue, PROBE_RTTs\ntcp_full {a:?}\ntcp      {b:?}");
    for (k, tol) in [(0, 0.005), (1, 0.01), (2, 0.02), (3, 0.03)] {
        assert!((a[k] / b[k] - 1.0).abs() <= tol, "figure {k}: {} vs {}", a[k], b[k]);
    }
    assert!(
        (a[4] - b[4]).abs() <= 1.0 && a[5] == b[5],
        "queue {} vs {}, PROBE_RTTs {} vs {}",
        a[4],
        b[4],
        a[5],
        b[5]
    );
}

/// ns-3.37's TcpBbr (reference/ns3/bbr/summary.csv) on the same path, with the one-way agent's
/// tolerances (tcp_bbr_ns3.rs): goodput 2 %, gain-cycle period 3 %, mean flight 8 %, mean
/// queue 3 packets, PROBE_RTT episodes ±1. ns-3's run and this one lose nothing.
#[test]
fn full_bbr_matches_ns3_tcpbbr() {
    let run = Run::of(FULL);
    let ns3 = common::ns3_summary("bbr");
    let m = [
        run.goodput(10.0),
        run.median_cycle(10.0),
        run.mean_flight(10.0),
        run.mean_queue(10.0),
        run.probe_rtts().len() as f64,
    ];
    println!("tcp_full: goodput, cycle, flight, queue, PROBE_RTTs {m:?}\nns-3: {ns3:?}");
    assert_eq!((ns3["recoveries"], ns3["timeouts"]), (0.0, 0.0));
    for (k, key, tol) in [
        (0, "goodput_mbps_10_60", 0.02),
        (1, "cycle_median_s", 0.03),
        (2, "inflight_mean_pkts", 0.08),
    ] {
        assert!((m[k] / ns3[key] - 1.0).abs() <= tol, "{key}: {} vs {}", m[k], ns3[key]);
    }
    assert!(
        (m[3] - ns3["queue_mean_pkts"]).abs() <= 3.0,
        "queue {} vs {}",
        m[3],
        ns3["queue_mean_pkts"]
    );
    assert!(
        (m[4] - ns3["probe_rtt_episodes"]).abs() <= 1.0,
        "PROBE_RTT {} vs {}",
        m[4],
        ns3["probe_rtt_episodes"]
    );
}

/// One flow over 2 × 50 ms at 1 Gb/s losing its 300th data packet in STARTUP, cwnd changes
/// recorded: (cwnd just before the fast retransmit, the smallest cwnd in recovery, cwnd when
/// recovery ends), with one fast retransmit and no timeout.
fn one_loss(transport: &str) -> (f64, f64, f64) {
    let first_link = "error = { kind = \"drop_list\", packets = [300], flow = \"flow0\" }";
    let r = common::run_balanced(
        &(common::lossy_path_of(first_link, 3.0, transport) + "[record]\nseries = [\"cwnd\"]\n"),
    );
    assert_eq!((r.flows[0].fast_retransmits, r.flows[0].timeouts), (1, 0), "{transport}");
    let c = &r.series.cwnd;
    let start = (0..c.time_s.len()).find(|&i| c.state[i] == "recovery").expect("recovery");
    let end = (start..c.time_s.len()).find(|&i| c.state[i] == "open").expect("recovery ends");
    let low = c.cwnd_pkts[start..end].iter().copied().fold(f64::MAX, f64::min);
    (c.cwnd_pkts[start - 1], low, c.cwnd_pkts[end])
}

/// §4.2.3.4: recovery leaves cwnd to BBR: packet conservation from the flight at the loss (no
/// Reno halving to ssthresh + 3, no inflation, no deflation), then the cwnd from before the
/// loss restored when recovery ends; with SACK and with NewReno recovery. Reno's windows on
/// the same path end recovery at half the window.
#[test]
fn recovery_leaves_cwnd_to_bbr() {
    for variant in ["sack", "newreno"] {
        let t = format!(
            r#"{{ kind = "tcp_full", cc = "bbr", variant = "{variant}", mss = "1000B", window = 100000, window_scale = true, initial_window = 10 }}"#
        );
        let (before, low, after) = one_loss(&t);
        println!("{variant}: cwnd {before:.1} before the loss, {low:.1} at least in recovery, {after:.1} after");
        assert!(low >= 0.5 * before, "{variant}: cwnd fell to {low} from {before}");
        assert!(after >= before, "{variant}: cwnd {after} after recovery, {before} before");
    }
    let (before, _, after) = one_loss(
        r#"{ kind = "tcp_full", variant = "sack", mss = "1000B", window = 100000, window_scale = true, initial_window = 10 }"#,
    );
    assert!(after <= 0.5 * before + 1.0, "Reno: {after} after, {before} before");
}

/// scenarios/fulltcp_bbr.toml (BBR with SACK and with NewReno beside CUBIC, losses for both,
/// an idle request/response BBR end): the same seed gives bit-identical results, another seed
/// another PROBE_BW start phase and clock phases, and every packet is delivered, dropped with
/// a reason, or still queued or in flight.
#[test]
fn the_example_is_deterministic_and_balanced() {
    let r = common::same_seed_same_results(
        "fulltcp_bbr.toml",
        "the seed draws BBR's start phases and the clock phases",
    );
    let (bbr, requests) = (&r.flows[0], &r.flows[2]);
    println!("{bbr:?}\n{requests:?}");
    assert!(
        bbr.dropped_pkts > 0 && bbr.fast_retransmits > 0,
        "the check must cover BBR's recovery: {bbr:?}"
    );
}

/// Bad BBR settings on a full connection name the field and say why, as on the one-way TCP.
#[test]
fn bad_bbr_settings_name_the_field() {
    common::assert_transport_errors(&[
        (
            r#"{ kind = "tcp_full", cc = "bbr", variant = "tahoe" }"#,
            "flows[0].transport.variant",
            "tahoe",
        ),
        (
            r#"{ kind = "tcp_full", cc = "bbr", bbr = { cwnd_gain = 0.5 } }"#,
            "flows[0].transport.bbr.cwnd_gain",
            "at least 1",
        ),
        (
            r#"{ kind = "tcp_full", bbr = { min_cwnd = 4 } }"#,
            "flows[0].transport.bbr",
            "cc = \"bbr\"",
        ),
    ]);
}
