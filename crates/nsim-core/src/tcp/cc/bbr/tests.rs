//! BBR v1's rules against draft-cardwell-iccrg-bbr-congestion-control-00 and
//! draft-cheng-iccrg-delivery-rate-estimation-00, on hand-made send/ACK sequences: the
//! delivery-rate formula, the filters' windows, STARTUP's exit after three rounds without 25 %
//! growth, DRAIN, the PROBE_BW gain cycle and its random start, PROBE_RTT's entry and exit,
//! and the cwnd rules (target, recovery, timeout).

use super::{Bbr, Mode, GAIN_CYCLE};
use crate::tcp::cc::delivery_rate::{DeliveryRate, RateSample};
use crate::tcp::cc::max_filter::MaxFilter;
use crate::tcp::cc::paced_path::PacedPath;
use crate::tcp::cc::{CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::config::BbrConfig;
use crate::time::{Dur, SimTime};

fn ms(x: f64) -> SimTime {
    SimTime::ZERO + Dur::from_secs_f64(x / 1000.0)
}

#[test]
fn delivery_rate_is_delivered_over_the_longer_of_send_and_ack_intervals() {
    // draft-cheng §3.3: ten packets sent at 0 ms (nothing in flight before the first), ACKed
    // one by one at 100 + i ms: packet i's sample covers i + 1 deliveries since the
    // connection's delivered_time of 0 (send interval 0, ACK interval 100 + i ms).
    let mut d = DeliveryRate::new(20);
    for seq in 0..10 {
        d.on_sent(seq, ms(0.0), seq as u64, false);
    }
    for i in 0..10 {
        let rs = d.on_ack(i, &[], ms(100.0 + i as f64), None).expect("new delivery");
        let want = (i + 1) as f64 / ((100.0 + i as f64) / 1000.0);
        assert!((rs.rate.unwrap() - want).abs() < 1e-6 * want, "ack {i}: {:?} vs {want}", rs.rate);
        assert_eq!((rs.newly_delivered, rs.prior_delivered), (1, 0));
        assert_eq!(rs.rtt, Some(Dur::from_secs_f64((100.0 + i as f64) / 1000.0)));
    }
    // A packet sent after those deliveries samples only what was delivered since: sent at
    // 120 ms (delivered 10 at delivered_time 109 ms, first_sent 0 ms... moved to packet 9's
    // send time, 0 ms), ACKed at 150 ms: 1 packet over max(120 - 0, 150 - 109) ms.
    d.on_sent(10, ms(120.0), 0, false);
    let rs = d.on_ack(10, &[], ms(150.0), None).unwrap();
    assert!((rs.rate.unwrap() - 1.0 / 0.030).abs() < 1e-6, "{:?}", rs.rate);
    // Nothing new: no sample; a sample shorter than the min RTT is discarded.
    assert_eq!(d.on_ack(10, &[], ms(151.0), None), None);
    d.on_sent(11, ms(200.0), 0, false);
    let rs = d.on_ack(11, &[], ms(201.0), Some(Dur::from_millis(40))).unwrap();
    assert_eq!(rs.rate, None);
    // A retransmitted packet gives no RTT sample (Karn).
    d.on_sent(12, ms(210.0), 0, false);
    d.on_sent(12, ms(220.0), 1, true);
    assert_eq!(d.on_ack(12, &[], ms(260.0), None).unwrap().rtt, None);
}

#[test]
fn a_packet_counts_as_delivered_once_when_first_sacked() {
    // Packets 0-4 sent at 0 ms; 0 is lost, 1-4 SACKed at 40-43 ms, 0's retransmission (sent
    // at 45 ms) is ACKed at 85 ms: the cumulative ACK delivers one packet, not five. Its sample
    // is 1 packet over max(send interval 45 - 0 ms since the first_sent_time the SACKs left,
    // ACK interval 85 - 43 ms) = 45 ms, not 5 packets in one round trip.
    let mut d = DeliveryRate::new(20);
    for seq in 0..5 {
        d.on_sent(seq, ms(0.0), seq as u64, false);
    }
    for k in 1..5u64 {
        let rs = d.on_ack(-1, &[(1, k + 1)], ms(39.0 + k as f64), None).expect("SACKed");
        assert_eq!(rs.newly_delivered, 1);
    }
    assert_eq!((d.delivered, d.sacked_out), (4, 4));
    d.on_sent(0, ms(45.0), 4, true);
    let rs = d.on_ack(4, &[], ms(85.0), None).unwrap();
    assert_eq!((rs.newly_delivered, d.delivered, d.sacked_out), (1, 5, 0));
    assert!((rs.rate.unwrap() - 1.0 / 0.045).abs() < 1e-6, "{:?}", rs.rate);
}

#[test]
fn app_limited_marks_packets_until_the_flight_is_delivered() {
    // draft-cheng §3.4: C.app_limited = delivered + in flight; it clears when delivered passes it.
    let mut d = DeliveryRate::new(20);
    d.on_sent(0, ms(0.0), 0, false);
    d.on_sent(1, ms(0.0), 1, false);
    d.mark_app_limited(2);
    d.on_sent(2, ms(1.0), 2, false);
    assert!(!d.on_ack(0, &[], ms(40.0), None).unwrap().app_limited);
    assert!(!d.on_ack(1, &[], ms(41.0), None).unwrap().app_limited);
    // Packet 2 was sent under the mark; its ACK delivers the third packet and clears it.
    assert!(d.on_ack(2, &[], ms(45.0), None).unwrap().app_limited);
    d.on_sent(3, ms(46.0), 0, false);
    assert!(!d.on_ack(3, &[], ms(86.0), None).unwrap().app_limited);
}

#[test]
fn a_lost_retransmission_marked_by_rack_leaves_the_pipe() {
    // Packets 0-9 sent; 0 is lost, 1-9 SACKed: RFC 6675 IsLost marks 0 (pipe 0). Its
    // retransmission counts in flight again (pipe 1). RACK (RFC 8985 §6.2) then finds the
    // retransmission lost too: Linux's tcp_packets_in_flight drops it (pipe 0) and the next
    // sample reports the loss; IsLost alone never marks a segment twice.
    let mut d = DeliveryRate::new(20);
    d.track_losses = true;
    d.loss_thresh = 1.0;
    for seq in 0..10 {
        d.on_sent(seq, ms(0.0), seq as u64, false);
    }
    let rs = d.on_ack(-1, &[(1, 10)], ms(40.0), None).unwrap();
    assert_eq!((rs.newly_lost, d.pipe()), (1, 0));
    d.on_sent(0, ms(41.0), 0, true);
    d.on_sent(10, ms(42.0), 1, false);
    assert_eq!(d.pipe(), 2);
    d.mark_lost_by_sender(0);
    assert_eq!((d.pipe(), d.lost), (1, 2));
    d.mark_lost_by_sender(0);
    assert_eq!(d.lost, 2, "a packet already marked is not counted twice");
    let rs = d.on_ack(-1, &[(1, 11)], ms(82.0), None).unwrap();
    assert_eq!((rs.newly_lost, d.pipe()), (1, 0));
    // Sent again, then cumulatively acknowledged: nothing outstanding is left lost.
    d.on_sent(0, ms(83.0), 0, true);
    assert_eq!(d.pipe(), 1);
    assert_eq!(d.on_ack(10, &[], ms(123.0), None).unwrap().newly_lost, 0);
    assert_eq!(d.pipe(), 0);
}

#[test]
fn app_limited_rounds_keep_the_bandwidth_estimate() {
    // §4.1.1.4 and Linux bbr_update_bw: an app-limited sample below BtlBw does not enter the
    // filter, and the filter ages only when a sample enters it (minmax_running_max), so
    // fifteen app-limited rounds (PROBE_RTT's) leave BtlBw where it was; the next sample that
    // enters, after more than the 10-round window, replaces it.
    let mut p = Path::new(BbrConfig::default(), 1000.0, 50.0, 3);
    p.run(5_000.0);
    let (before, round) = (p.path.cc.btl_bw(), p.path.cc.round_count);
    assert!(before > 900.0, "{before} packets/s");
    let sample = |app_limited| RateSample {
        rate: Some(500.0),
        newly_delivered: 1,
        prior_delivered: u64::MAX,
        app_limited,
        rtt: None,
        delivered: 1,
        tx_in_flight: 0,
        lost: 0,
        newly_lost: 0,
        loss_too_high: None,
    };
    for _ in 0..15 {
        p.path.cc.update_btl_bw(&sample(true));
    }
    assert_eq!((p.path.cc.round_count, p.path.cc.btl_bw()), (round + 15, before));
    p.path.cc.update_btl_bw(&sample(false));
    assert_eq!(p.path.cc.btl_bw(), 500.0);
}

#[test]
fn max_filter_forgets_a_sample_after_its_window_of_rounds() {
    // §4.1.1.4: BtlBw = max over the last 10 rounds.
    let mut f = MaxFilter::new(10);
    f.update(1, 100.0);
    f.update(2, 50.0);
    f.update(5, 80.0);
    assert_eq!(f.get(), 100.0);
    f.update(10, 60.0);
    assert_eq!(f.get(), 100.0, "round 1 is still inside rounds 1..=10");
    f.update(11, 10.0);
    assert_eq!(f.get(), 80.0, "round 1 has left; round 5's 80 is the max of rounds 2..=11");
    f.expire(15);
    assert_eq!(f.get(), 60.0);
    f.expire(20);
    assert_eq!(f.get(), 10.0);
    f.expire(21);
    assert_eq!(f.get(), 0.0);
}

/// BBR over [`PacedPath`], logging (time ms, mode, pacing gain, cwnd, round) after every ACK.
struct Path {
    path: PacedPath<Bbr>,
    log: Vec<(f64, Mode, f64, f64, u64)>,
}

impl Path {
    fn new(cfg: BbrConfig, rate: f64, rtt_ms: f64, seed: u64) -> Path {
        let bbr = Bbr::new(cfg, 10.0, 10, 1e9, 1000, 100_000, crate::rng::stream(seed, "bbr"));
        Path { path: PacedPath::new(bbr, rate, rtt_ms), log: Vec::new() }
    }

    fn run(&mut self, until_ms: f64) {
        let log = &mut self.log;
        self.path.run(until_ms, |b, t| log.push((t, b.mode, b.pacing_gain, b.cwnd, b.round_count)));
    }
}

#[test]
fn startup_fills_the_pipe_drains_and_probes_bandwidth() {
    // 1000 packets/s (8 Mb/s of 1000 B), 50 ms base RTT (+ 1 ms serialization): BDP 51 packets.
    let mut p = Path::new(BbrConfig::default(), 1000.0, 50.0, 1);
    p.run(3000.0);
    let b = &p.path.cc;
    assert!(b.filled_pipe());
    assert!((b.btl_bw() / 1000.0 - 1.0).abs() < 0.02, "BtlBw {} packets/s", b.btl_bw());
    assert_eq!(b.rtprop(), Some(Dur::from_millis(51)));
    // §4.3.2.2: the pipe is full after 3 rounds without 25 % growth; STARTUP's cwnd doubles
    // per round until then, so it leaves within about log2(BDP / 10) + 4 rounds.
    let drain = p.log.iter().position(|e| e.1 == Mode::Drain).expect("DRAIN entered");
    let probe = p.log.iter().position(|e| e.1 == Mode::ProbeBw).expect("PROBE_BW entered");
    // Rounds: about log2(51 / 10) ≈ 2.4 to reach the bandwidth, then 3 without growth.
    assert!(p.log[drain].4 <= 8, "DRAIN in round {}", p.log[drain].4);
    assert!(
        (p.log[drain].2 - std::f64::consts::LN_2 / 2.0).abs() < 1e-12,
        "DRAIN paces at 1/high_gain"
    );
    assert!(drain < probe);
    // §4.3.3: DRAIN ends once in flight <= BBRInflight(1.0) = BDP + 3 quanta.
    assert!(p.log[probe].3 <= b.inflight(2.0) + 1e-9);
    // §4.2.3: in PROBE_BW cwnd settles at cwnd_gain × BDP + 3 quanta (quantum 1: 8 Mb/s is
    // below 24 Mb/s, above 1.2 Mb/s: 2 packets) = 2 × 51 + 6.
    let last = p.log.last().unwrap();
    assert_eq!(last.1, Mode::ProbeBw);
    assert!((last.3 - (2.0 * 51.0 + 6.0)).abs() < 1.5, "cwnd {}", last.3);
}

#[test]
fn probe_bw_cycles_through_its_eight_gains_one_rtprop_each() {
    let mut p = Path::new(BbrConfig::default(), 1000.0, 50.0, 7);
    p.run(6000.0);
    // The pacing gain's changes in PROBE_BW after 1 s: the draft's cycle order, and the 6
    // phases of gain 1 together last 6 RTprop (each "full length": > RTprop).
    let changes: Vec<(f64, f64)> = p
        .log
        .windows(2)
        .filter(|w| {
            w[1].1 == Mode::ProbeBw
                && w[0].1 == Mode::ProbeBw
                && w[1].2 != w[0].2
                && w[1].0 > 1000.0
        })
        .map(|w| (w[1].0, w[1].2))
        .collect();
    assert!(changes.len() >= 9, "{changes:?}");
    for w in changes.windows(2) {
        let i = GAIN_CYCLE.iter().position(|g| *g == w[0].1).unwrap();
        let next = GAIN_CYCLE[(i + 1) % 8];
        // The six unit-gain phases show as one change; after them comes 1.25.
        let want = if w[0].1 == 1.0 { 1.25 } else { next };
        assert_eq!(w[1].1, want, "{changes:?}");
        if w[0].1 == 1.0 {
            let len = w[1].0 - w[0].0;
            assert!(
                len > 6.0 * 51.0 && len < 6.0 * 51.0 + 6.0 * 3.0,
                "6 unit phases lasted {len} ms"
            );
        }
    }
}

#[test]
fn probe_bw_starts_at_a_random_phase_but_never_the_draining_one() {
    // §4.3.4.3: cycle_index = 7 - random(0..=6), then advanced: any phase but 1 (gain 0.75).
    let mut seen = [false; 8];
    for seed in 0..200 {
        let mut b = Bbr::new(
            BbrConfig::default(),
            10.0,
            10,
            1e9,
            1000,
            100,
            crate::rng::stream(seed, "bbr"),
        );
        b.enter_probe_bw(ms(0.0));
        seen[b.cycle_index()] = true;
        assert_eq!(b.pacing_gain(), GAIN_CYCLE[b.cycle_index()]);
    }
    assert_eq!(seen, [true, false, true, true, true, true, true, true]);
}

#[test]
fn probe_rtt_after_ten_seconds_holds_four_packets_for_200_ms_and_a_round() {
    let mut p = Path::new(BbrConfig::default(), 1000.0, 50.0, 3);
    p.run(25_000.0);
    // §4.3.5: RTprop (51 ms, never lower on this path) expires 10 s after it was last set:
    // the last 51 ms sample comes before STARTUP's queue builds (PROBE_BW keeps 3 quanta
    // queued), within its first 300 ms.
    let entries: Vec<usize> = (1..p.log.len())
        .filter(|&i| p.log[i].1 == Mode::ProbeRtt && p.log[i - 1].1 != Mode::ProbeRtt)
        .collect();
    assert!(entries.len() >= 2, "PROBE_RTT entered {} times", entries.len());
    let first = p.log[entries[0]].0;
    assert!(first > 10_000.0 && first < 10_300.0, "first PROBE_RTT at {first} ms");
    for &i in &entries {
        let exit =
            (i..p.log.len()).find(|&j| p.log[j].1 != Mode::ProbeRtt).expect("PROBE_RTT ends");
        assert!(p.log[i..exit].iter().all(|e| e.3 <= 4.0), "cwnd capped at 4 packets");
        let held = p.log[exit].0 - p.log[i].0;
        // The flight drains to 4 packets (about one RTT), then 200 ms and one round.
        assert!((200.0..200.0 + 3.0 * 51.0 + 10.0).contains(&held), "PROBE_RTT lasted {held} ms");
        assert_eq!(p.log[exit].1, Mode::ProbeBw, "a full pipe returns to PROBE_BW");
        assert!(p.log[exit].3 >= 100.0, "cwnd restored: {}", p.log[exit].3);
    }
    // The next one comes 10 s after the exit renewed RTprop's timestamp.
    let gap = p.log[entries[1]].0 - p.log[entries[0]].0;
    assert!(gap > 10_000.0 && gap < 10_600.0, "{gap} ms between PROBE_RTTs");
}

#[test]
fn fast_recovery_conserves_packets_then_restores_the_cwnd() {
    let mut p = Path::new(BbrConfig::default(), 1000.0, 50.0, 5);
    p.run(3000.0);
    let before = p.path.cc.cwnd();
    let in_flight = p.path.cc.in_flight as f64;
    let v = SenderView { win: before, whole_packets: false, now: ms(3000.0) };
    // §4.2.3.4: cwnd = packets in flight + 1 on entering fast recovery.
    p.path.cc.on_congestion(CongestionEvent::FastRetransmit, &v);
    assert_eq!(p.path.cc.cwnd(), in_flight + 1.0);
    assert!(p.path.cc.packet_conservation);
    // ECN is not a congestion signal for BBR v1.
    assert!(p.path.cc.ignores_ecn());
    // Recovery ends when everything outstanding at its start is acknowledged: cwnd back.
    p.run(3500.0);
    assert!(!p.path.cc.recovering);
    assert!(p.path.cc.cwnd() >= before - 1e-9, "{} < {before}", p.path.cc.cwnd());
    // A timeout: cwnd 1, restored once recovery ends.
    p.path.cc.on_rto(RtoKind::Loss, &v);
    assert_eq!(p.path.cc.cwnd(), 1.0);
    p.run(4000.0);
    assert!(p.path.cc.cwnd() >= before - 1e-9);
}

#[test]
fn pacing_rate_is_gain_times_btlbw_and_grows_only_before_the_pipe_is_full() {
    let b = Bbr::new(BbrConfig::default(), 10.0, 10, 1e9, 1000, 100, crate::rng::stream(0, "bbr"));
    // §4.2.1 BBRInitPacingRate: high_gain × 10 packets / 1 ms.
    let want = 2.0 / std::f64::consts::LN_2 * 10.0 * 8000.0 / 1e-3;
    assert!((b.pacing_rate().unwrap() - want).abs() < 1e-3);
    let mut p = Path::new(BbrConfig::default(), 1000.0, 50.0, 2);
    p.run(3000.0);
    let b = &p.path.cc;
    let want = b.pacing_gain() * b.btl_bw() * 8000.0;
    assert!((b.pacing_rate().unwrap() - want).abs() < 1e-6 * want);
}

#[test]
fn send_quantum_follows_the_drafts_tiers_unless_fixed() {
    // §4.2.2 BBRSetSendQuantum with 1000 B packets: 1 packet below 1.2 Mb/s, 2 below 24 Mb/s,
    // else 1 ms of data (400 Mb/s → 50 packets) up to 64 KB (10 Gb/s → 65.536 packets).
    let mut b =
        Bbr::new(BbrConfig::default(), 10.0, 10, 1e9, 1000, 100, crate::rng::stream(0, "bbr"));
    for (bps, want) in [(1e6, 1.0), (8e6, 2.0), (400e6, 50.0), (10e9, 65.536)] {
        b.pacing_rate = bps;
        assert!((b.send_quantum() - want).abs() < 1e-9, "{bps}: {}", b.send_quantum());
    }
    // `send_quantum` (ns-3.37's one segment) replaces the rule at every rate.
    let cfg = BbrConfig { send_quantum: Some(1), ..BbrConfig::default() };
    let mut b = Bbr::new(cfg, 10.0, 10, 1e9, 1000, 100, crate::rng::stream(0, "bbr"));
    for bps in [1e6, 400e6, 10e9] {
        b.pacing_rate = bps;
        assert_eq!(b.send_quantum(), 1.0);
    }
}
