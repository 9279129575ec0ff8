//! BBRv3's rules against draft-ietf-ccwg-bbr-06 (and Google's v3 for ECN), one test per rule:
//! the gains of each state (§5.6.1's table), the loss marking the sampler does for it (RFC 6675
//! §4), Startup's exits on a bandwidth plateau (§5.3.1.2) and on loss (§5.3.1.3), Drain,
//! ProbeBW's DOWN → CRUISE → REFILL → UP cycle and its probe wait (§5.3.3), the loss response
//! (§5.5.10), the cwnd bounds (§5.6.4), ProbeRTT (§5.3.4) and the ECN response.

use super::config::Bbr3Config;
use super::{Bbr3, State, DOWN_GAIN, UP_CWND_GAIN, UP_GAIN};
use crate::tcp::cc::delivery_rate::{DeliveryRate, LostPacket, RateSample};
use crate::tcp::cc::paced_path::{ms, PacedPath};
use crate::tcp::cc::{CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::time::Dur;

fn bbr3(seed: u64) -> Bbr3 {
    Bbr3::new(Bbr3Config::default(), 10.0, 10, 1e9, 1000, 100_000, crate::rng::stream(seed, "bbr3"))
}

/// A rate sample of one packet at 10 packets/s.
fn sample() -> RateSample {
    RateSample {
        rate: Some(10.0),
        newly_delivered: 1,
        prior_delivered: 0,
        app_limited: false,
        rtt: None,
        delivered: 1,
        tx_in_flight: 1,
        lost: 0,
        newly_lost: 0,
        loss_too_high: None,
    }
}

/// A BBRv3 whose model says `bw` packets/s over `min_rtt_ms`, past Startup.
fn steady(bw: f64, min_rtt_ms: u64) -> Bbr3 {
    let mut b = bbr3(1);
    b.max_bw.update(0, bw);
    b.bw = bw;
    b.min_rtt = Some(Dur::from_millis(min_rtt_ms));
    b.full_bw_reached = true;
    b
}

#[test]
fn each_state_has_the_drafts_pacing_and_cwnd_gains() {
    // §5.6.1's table: Startup 2.77 / 2, Drain 0.5 / 2, DOWN 0.9 / 2, CRUISE 1 / 2, REFILL 1 / 2,
    // UP 1.25 / 2.25, ProbeRTT 1 / 0.5.
    let mut b = bbr3(1);
    assert_eq!(b.state(), State::Startup);
    assert!(
        (b.pacing_gain() - 2.77).abs() < 0.003
            && (b.pacing_gain() - 4.0 * std::f64::consts::LN_2).abs() < 1e-12
    );
    assert_eq!(b.cwnd_gain(), 2.0);
    b.enter_drain();
    assert_eq!((b.state(), b.pacing_gain(), b.cwnd_gain()), (State::Drain, 0.5, 2.0));
    b.enter_probe_bw();
    assert_eq!((b.state(), b.pacing_gain(), b.cwnd_gain()), (State::ProbeBwDown, DOWN_GAIN, 2.0));
    assert_eq!(DOWN_GAIN, 0.9);
    b.start_probe_bw_cruise();
    assert_eq!((b.state(), b.pacing_gain(), b.cwnd_gain()), (State::ProbeBwCruise, 1.0, 2.0));
    b.start_probe_bw_refill();
    assert_eq!((b.state(), b.pacing_gain(), b.cwnd_gain()), (State::ProbeBwRefill, 1.0, 2.0));
    b.start_probe_bw_up(&sample());
    assert_eq!(
        (b.state(), b.pacing_gain(), b.cwnd_gain()),
        (State::ProbeBwUp, UP_GAIN, UP_CWND_GAIN)
    );
    assert_eq!((UP_GAIN, UP_CWND_GAIN), (1.25, 2.25));
    b.probe_rtt_expired = true;
    b.in_flight = 1000;
    b.check_probe_rtt(ms(1.0), &sample());
    assert_eq!((b.state(), b.pacing_gain(), b.cwnd_gain()), (State::ProbeRtt, 1.0, 0.5));
}

#[test]
fn pacing_rate_is_gain_times_bw_less_one_percent_and_starts_from_the_initial_window() {
    // §5.6.2 InitPacingRate: 2.77 × 10 packets / 1 ms; SetPacingRateWithGain: gain × bw × 0.99.
    let mut b = bbr3(1);
    let want = 4.0 * std::f64::consts::LN_2 * 10.0 * 8000.0 / 1e-3;
    assert!((b.pacing_rate().unwrap() - want).abs() < 1e-3);
    let mut b2 = steady(1000.0, 50);
    b2.seen_rtt = true;
    b2.set_pacing_rate_with_gain(1.25);
    assert!((b2.pacing_rate().unwrap() - 1.25 * 1000.0 * 8000.0 * 0.99).abs() < 1e-6);
    // Before the pipe is full it only grows.
    b.seen_rtt = true;
    b.bw = 10.0;
    b.set_pacing_rate_with_gain(2.77);
    assert!((b.pacing_rate().unwrap() - want).abs() < 1e-3);
}

#[test]
fn send_quantum_is_a_millisecond_of_data_within_two_packets_and_64_kb() {
    // §5.6.3: 8 Mb/s → 1 packet per ms → floor of 2; 400 Mb/s → 50 packets; 10 Gb/s → 64 KB.
    let mut b = bbr3(1);
    for (bps, want) in [(8e6, 2.0), (400e6, 50.0), (10e9, 65536.0 / 1000.0)] {
        b.pacing_rate = bps;
        assert!((b.send_quantum() - want).abs() < 1e-9, "{bps}: {}", b.send_quantum());
    }
}

#[test]
fn the_sampler_marks_a_hole_lost_once_three_segments_above_it_are_sacked() {
    // RFC 6675 §4 IsLost with DupThresh 3: 0-9 sent, 2 lost; SACKs of 3, 4 do not mark it,
    // the SACK of 5 does; P.tx_in_flight is the pipe after each send (1 ... 10), RS.lost the
    // losses while the sampled packet was out.
    let mut d = DeliveryRate::new(64);
    d.track_losses = true;
    d.loss_thresh = 0.02;
    for seq in 0..10 {
        d.on_sent(seq, ms(0.0), seq as u64, false);
    }
    assert_eq!(d.pipe(), 10);
    d.on_ack(1, &[], ms(50.0), None).unwrap();
    for (k, lost) in [(4u64, 0u64), (5, 0), (6, 1)] {
        let rs = d.on_ack(1, &[(3, k)], ms(51.0), None).unwrap();
        assert_eq!(rs.newly_lost, lost, "SACK [3, {k})");
    }
    assert_eq!((d.lost, d.pipe()), (1, 10 - 2 - 3 - 1));
    // Packet 6 was sent with 7 in flight and saw the loss of 2.
    let rs = d.on_ack(1, &[(3, 7)], ms(52.0), None).unwrap();
    assert_eq!((rs.tx_in_flight, rs.lost), (7, 1));
    // Sending 2 again takes it out of the lost count in the pipe; its ACK delivers it.
    d.on_sent(2, ms(53.0), 8, true);
    assert_eq!(d.pipe(), 10 - 2 - 4);
    // A timeout marks everything outstanding and not SACKed (7, 8, 9; 2 again since resent).
    let l = d.mark_outstanding_lost();
    assert_eq!((l.newly_lost, d.lost, d.pipe()), (4, 5, 0));
    // The first one reported as too high: packet 2's resend saw 1 loss (itself) at flight 4.
    assert_eq!(l.too_high, Some(LostPacket { tx_in_flight: 4, lost: 1, app_limited: false }));
}

/// BBRv3 over [`PacedPath`], logging an [`Entry`] after every ACK.
struct Path {
    path: PacedPath<Bbr3>,
    log: Vec<Entry>,
}

/// (time ms, state, pacing gain, cwnd, round, in flight).
type Entry = (f64, State, f64, f64, u64, u64);

impl Path {
    fn new(rate: f64, rtt_ms: f64, seed: u64) -> Path {
        Path { path: PacedPath::new(bbr3(seed), rate, rtt_ms), log: Vec::new() }
    }

    fn run(&mut self, until_ms: f64) {
        let log = &mut self.log;
        self.path.run(until_ms, |b, t| {
            log.push((t, b.state, b.pacing_gain, b.cwnd, b.round_count, b.in_flight))
        });
    }

    /// Log indices where the state becomes `s`.
    fn entries(&self, s: State) -> Vec<usize> {
        (1..self.log.len()).filter(|&i| self.log[i].1 == s && self.log[i - 1].1 != s).collect()
    }
}

#[test]
fn startup_ends_on_a_bandwidth_plateau_then_drain_empties_the_queue() {
    // 1000 packets/s, 50 ms (+ 1 ms serialization): BDP 51 packets, no loss.
    let mut p = Path::new(1000.0, 50.0, 1);
    p.run(2000.0);
    assert!(p.path.cc.full_bw_reached());
    assert!((p.path.cc.max_bw() / 1000.0 - 1.0).abs() < 0.02, "max_bw {}", p.path.cc.max_bw());
    assert_eq!(p.path.cc.min_rtt(), Some(Dur::from_millis(51)));
    // §5.3.1.2: the delivery rate doubles per round until it reaches 1000/s (≈ log2(51/10)
    // rounds), then 3 rounds without 25 % growth.
    let drain = p.entries(State::Drain)[0];
    assert!(p.log[drain].4 <= 8, "Drain in round {}", p.log[drain].4);
    // §5.3.2: Drain ends once in flight ≤ Inflight(1.0) = BDP (≥ 3 quanta of 2 packets), into
    // ProbeBW_DOWN, which moves on to CRUISE on the same ACK since in flight ≤ BDP already.
    let out = (drain..p.log.len()).find(|&j| p.log[j].1 != State::Drain).expect("Drain ends");
    assert!(
        matches!(p.log[out].1, State::ProbeBwDown | State::ProbeBwCruise),
        "{:?}",
        p.log[out].1
    );
    assert!(p.log[out].5 as f64 <= 51.0 + 1.0, "in flight {} leaving Drain", p.log[out].5);
    assert!(p.log[out].4 <= p.log[drain].4 + 4, "Drain lasts at most 3 rounds");
}

#[test]
fn probe_bw_cycles_down_cruise_refill_up_every_two_to_three_seconds() {
    let mut p = Path::new(1000.0, 50.0, 7);
    p.run(12_000.0);
    let (cruise, refill, up) = (
        p.entries(State::ProbeBwCruise),
        p.entries(State::ProbeBwRefill),
        p.entries(State::ProbeBwUp),
    );
    // Cycles start at DOWN (after Drain and UP; after ProbeRTT DOWN passes on to CRUISE at once).
    let mut starts = p.entries(State::ProbeBwDown);
    starts.extend(cruise.iter().filter(|&&c| p.log[c - 1].1 != State::ProbeBwDown));
    starts.sort();
    // Probes at about 3.3 s and 7.9 s; ProbeRTT (5 s, 10.3 s) restarts the cycle's clock.
    assert!(up.len() >= 2, "UP entered {} times", up.len());
    for &r in &refill {
        // §5.3.3.3: REFILL lasts one round, then UP.
        let next = (r..p.log.len()).find(|&j| p.log[j].1 != State::ProbeBwRefill).unwrap();
        assert_eq!(p.log[next].1, State::ProbeBwUp);
        assert!(
            p.log[next].4 - p.log[r].4 <= 1,
            "REFILL lasted {} rounds",
            p.log[next].4 - p.log[r].4
        );
        // REFILL comes from CRUISE (or DOWN), never from UP.
        assert!(matches!(p.log[r - 1].1, State::ProbeBwCruise | State::ProbeBwDown));
    }
    // §5.3.3.1: DOWN → CRUISE once in flight ≤ BDP (no inflight_longterm on a lossless path).
    for &c in cruise.iter().filter(|&&c| p.log[c - 1].1 == State::ProbeBwDown) {
        assert!(p.log[c].5 as f64 <= p.path.cc.inflight(p.path.cc.max_bw(), 1.0) + 1e-9);
    }
    // §5.3.3.8: the time from DOWN's start to the next REFILL is the random wall-clock wait
    // (2-3 s) or min(BDP, cwnd, 63) = 51 round trips (2.6 s), whichever is first.
    for w in starts.windows(2) {
        let Some(&r) = refill.iter().find(|&&r| r > w[0] && r < w[1]) else { continue };
        let wait = p.log[r].0 - p.log[w[0]].0;
        assert!((2000.0..3000.0 + 60.0).contains(&wait), "probe wait {wait} ms");
    }
    // UP ends (back to DOWN) when the delivery rate stops growing: 3 rounds at most a few more.
    for &u in &up {
        let next =
            (u..p.log.len()).find(|&j| p.log[j].1 != State::ProbeBwUp).unwrap_or(p.log.len() - 1);
        assert!(p.log[next].4 - p.log[u].4 <= 6, "UP lasted {} rounds", p.log[next].4 - p.log[u].4);
    }
}

#[test]
fn the_probe_wait_is_drawn_from_the_flows_stream() {
    // §5.3.3.8.3 PickProbeWait: 2 s + U[0, 1) s and 0 or 1 rounds; the same seed draws the same.
    let draw = |seed: u64| {
        let mut b = bbr3(seed);
        b.pick_probe_wait();
        (b.bw_probe_wait(), b.rounds_since_probe_up)
    };
    let mut rounds = [false; 2];
    let mut waits = Vec::new();
    for seed in 0..100 {
        let (w, r) = draw(seed);
        assert_eq!((w, r), draw(seed));
        assert!(w >= Dur::from_millis(2000) && w < Dur::from_millis(3000), "{w:?}");
        rounds[r as usize] = true;
        waits.push(w.as_secs_f64());
    }
    assert_eq!(rounds, [true, true]);
    let mean = waits.iter().sum::<f64>() / waits.len() as f64;
    assert!((mean - 2.5).abs() < 0.1, "mean wait {mean} s");
}

#[test]
fn down_cruises_only_with_headroom_below_inflight_longterm_and_at_most_a_bdp_in_flight() {
    // §5.3.3.1 and IsTimeToCruise: inflight_longterm 100 leaves 15 free: cruise at ≤ 85.
    let mut b = steady(1000.0, 100); // BDP 100 packets
    b.inflight_longterm = 100.0;
    assert_eq!(b.inflight_with_headroom(), 85.0);
    b.in_flight = 86;
    assert!(!b.is_time_to_cruise());
    b.in_flight = 85;
    assert!(b.is_time_to_cruise());
    // Without inflight_longterm only the BDP (100, above 3 quanta and 4 packets) counts.
    b.inflight_longterm = f64::INFINITY;
    b.in_flight = 100;
    assert!(b.is_time_to_cruise());
    b.in_flight = 101;
    assert!(!b.is_time_to_cruise());
    // The headroom is at least one packet and leaves at least MinPipeCwnd.
    b.inflight_longterm = 5.0;
    assert_eq!(b.inflight_with_headroom(), 4.0);
}

#[test]
fn a_probe_losing_over_two_percent_sets_inflight_longterm_and_goes_down() {
    // §5.5.10.2: InflightAtLoss = inflight_prev + (0.02 inflight_prev − lost_prev) / 0.98 for a
    // packet sent with 160 in flight that saw 4 losses: 159 + (3.18 − 3) / 0.98.
    let p = LostPacket { tx_in_flight: 160, lost: 4, app_limited: false };
    let mut b = steady(1000.0, 100);
    let at_loss = 159.0 + 0.18 / 0.98;
    assert!((b.inflight_at_loss(p) - at_loss).abs() < 1e-9);
    // inflight_longterm = max(that, β × min(BDP, cwnd)): with BDP 100, cwnd 250 → 159.18.
    b.cwnd = 250.0;
    b.state = State::ProbeBwUp;
    b.is_bw_probe_sample = true;
    b.handle_losses(Some(p));
    assert!((b.inflight_longterm() - at_loss).abs() < 1e-9);
    assert_eq!(b.state(), State::ProbeBwDown);
    assert!(b.prev_probe_too_high && !b.is_bw_probe_sample);
    // With BDP 300: β × 300 = 210 wins.
    let mut b = steady(1000.0, 300);
    b.cwnd = 400.0;
    b.state = State::ProbeBwUp;
    b.is_bw_probe_sample = true;
    b.handle_losses(Some(p));
    assert!((b.inflight_longterm() - 0.7 * 300.0).abs() < 1e-9);
    // Not a probe sample (or not too high): no change, only the loss round noted.
    let mut b = steady(1000.0, 100);
    b.state = State::ProbeBwCruise;
    b.handle_losses(Some(p));
    assert!(b.inflight_longterm().is_infinite() && b.is_loss_in_round);
}

#[test]
fn a_lossy_round_outside_probing_cuts_the_short_term_bounds_by_beta() {
    // §5.5.10.3: bw_shortterm = max(bw_latest, 0.7 bw_shortterm), inflight_shortterm =
    // max(inflight_latest, 0.7 inflight_shortterm); first initialised to max_bw and cwnd.
    let mut b = steady(1000.0, 100);
    b.state = State::ProbeBwCruise;
    b.cwnd = 200.0;
    b.is_loss_in_round = true;
    b.bw_latest = 500.0;
    b.inflight_latest = 100.0;
    b.adapt_lower_bounds_from_congestion();
    assert_eq!((b.bw_shortterm(), b.inflight_shortterm()), (700.0, 140.0));
    b.bw_latest = 600.0;
    b.inflight_latest = 120.0;
    b.adapt_lower_bounds_from_congestion();
    assert!(
        (b.bw_shortterm() - 600.0).abs() < 1e-9 && (b.inflight_shortterm() - 120.0).abs() < 1e-9
    );
    // BBR.bw = min(max_bw, bw_shortterm); cwnd ≤ inflight_shortterm.
    b.bound_bw_for_model();
    assert_eq!(b.bw(), 600.0);
    b.bound_cwnd_for_model();
    assert_eq!(b.cwnd(), 120.0);
    // While probing (UP) the bounds are left alone; REFILL resets them.
    b.state = State::ProbeBwUp;
    b.adapt_lower_bounds_from_congestion();
    assert_eq!(b.bw_shortterm(), 600.0);
    b.start_probe_bw_refill();
    assert!(b.bw_shortterm().is_infinite() && b.inflight_shortterm().is_infinite());
}

#[test]
fn cwnd_is_capped_by_inflight_longterm_with_headroom_in_cruise_and_probe_rtt() {
    // §5.6.4.7 BoundCwndForModel.
    let mut b = steady(1000.0, 100);
    b.inflight_longterm = 100.0;
    for (s, cap) in [
        (State::ProbeBwUp, 100.0),
        (State::ProbeBwDown, 100.0),
        (State::ProbeBwCruise, 85.0),
        (State::ProbeRtt, 85.0),
        (State::Startup, 500.0),
    ] {
        b.state = s;
        b.cwnd = 500.0;
        b.bound_cwnd_for_model();
        assert_eq!(b.cwnd(), cap, "{s:?}");
    }
    // §5.6.4.2: max_inflight = 2 BDP + extra_acked, ≥ 3 quanta, ≥ 4, + 2 in UP.
    b.state = State::ProbeBwCruise;
    assert_eq!(b.max_inflight(), 200.0);
    b.state = State::ProbeBwUp;
    b.cwnd_gain = UP_CWND_GAIN;
    assert_eq!(b.max_inflight(), 227.0);
}

#[test]
fn startup_ends_on_loss_rate_over_two_percent_with_six_lossy_acks_in_a_round() {
    // §5.3.1.3. 100 packets leave at 0 ms; 0-9 are ACKed at 50 ms (min RTT 50 ms); then holes
    // at 10, 20, ..., 10 × `holes` are revealed by SACKs one packet at a time; packet 100 is
    // sent just after the first hole is marked lost and SACKed last, ending the loss round.
    let run = |holes: i64, first_burst: i64| {
        let mut b = bbr3(1);
        for seq in 0..first_burst {
            b.on_sent(seq, ms(0.0), seq as u64, false);
        }
        for seq in 0..10 {
            b.on_ack_arrived(seq, &[], first_burst - 1, ms(50.0));
        }
        let mut blocks: Vec<(u64, u64)> = Vec::new();
        let mut sent_100 = false;
        for seq in 11..first_burst {
            if seq % 10 == 0 && seq / 10 <= holes {
                continue;
            }
            match blocks.last_mut() {
                Some(last) if last.1 == seq as u64 => last.1 += 1,
                _ => blocks.push((seq as u64, seq as u64 + 1)),
            }
            let sack: Vec<(u64, u64)> = blocks.iter().rev().take(3).copied().collect();
            b.on_ack_arrived(9, &sack, first_burst - 1, ms(51.0));
            if b.rate.lost == 1 && !sent_100 {
                let v = SenderView { win: b.cwnd, whole_packets: false, now: ms(51.0) };
                b.on_congestion(CongestionEvent::FastRetransmit, &v);
                b.on_sent(first_burst, ms(51.0), first_burst as u64, false);
                sent_100 = true;
            }
        }
        assert_eq!(b.state(), State::Startup, "no exit before the loss round ends");
        b.on_ack_arrived(
            9,
            &[(first_burst as u64, first_burst as u64 + 1)],
            first_burst,
            ms(101.0),
        );
        b
    };
    // 7 holes among ~100 in flight: 6 lost while packet 100 was out (> 2 % of its flight).
    // Drain is entered (and left at once: the flight left is below a BDP).
    let b = run(7, 100);
    assert!(b.full_bw_reached() && b.state() != State::Startup);
    assert_eq!(b.drain_start_round, b.round_count);
    // inflight_longterm = max(BDP, inflight_latest): set.
    assert!(b.inflight_longterm().is_finite());
    // 5 holes: only 5 lossy ACKs (< 6): Startup goes on.
    let b = run(5, 100);
    assert_eq!(b.state(), State::Startup);
    assert!(b.inflight_longterm().is_infinite());
    // 7 holes among 400 in flight: 6 / 390 < 2 %: Startup goes on.
    assert_eq!(run(7, 400).state(), State::Startup);
}

#[test]
fn probe_rtt_comes_after_five_seconds_and_holds_half_a_bdp_for_200_ms_and_a_round() {
    // §5.3.4: probe_rtt_min_delay (51 ms) expires 5 s after it was last refreshed.
    let mut p = Path::new(1000.0, 50.0, 3);
    p.run(12_000.0);
    let entries = p.entries(State::ProbeRtt);
    assert!(entries.len() >= 2, "ProbeRTT entered {} times", entries.len());
    let first = p.log[entries[0]].0;
    assert!(first > 5000.0 && first < 5400.0, "first ProbeRTT at {first} ms");
    for &i in &entries {
        let exit =
            (i..p.log.len()).find(|&j| p.log[j].1 != State::ProbeRtt).expect("ProbeRTT ends");
        // §5.6.4.5: cwnd ≤ max(0.5 × BDP, 4) = 25.5 packets.
        assert!(
            p.log[i..exit].iter().all(|e| e.3 <= 0.5 * 1000.0 * 0.051 + 1e-9),
            "cwnd capped at half a BDP"
        );
        let held = p.log[exit].0 - p.log[i].0;
        assert!((200.0..200.0 + 3.0 * 51.0 + 10.0).contains(&held), "ProbeRTT lasted {held} ms");
        // §5.3.4.4: a full pipe resumes in ProbeBW_CRUISE.
        assert_eq!(p.log[exit].1, State::ProbeBwCruise);
    }
    let gap = p.log[entries[1]].0 - p.log[entries[0]].0;
    assert!(gap > 5000.0 && gap < 5600.0, "{gap} ms between ProbeRTTs");
    assert_eq!(bbr3(1).cfg.probe_rtt_cwnd_gain, 0.5);
    let b = steady(1000.0, 4);
    assert_eq!(b.probe_rtt_cwnd(), 4.0, "never below MinPipeCwnd");
}

#[test]
fn recovery_saves_the_cwnd_and_restores_it_a_timeout_leaves_one_packet() {
    let mut p = Path::new(1000.0, 50.0, 5);
    p.run(3000.0);
    let before = p.path.cc.cwnd();
    let v = SenderView { win: before, whole_packets: false, now: ms(3000.0) };
    // §5.6.4.4 OnEnterFastRecovery: the cwnd is saved, not cut.
    p.path.cc.on_congestion(CongestionEvent::FastRetransmit, &v);
    assert_eq!(p.path.cc.cwnd(), before);
    assert_eq!(p.path.cc.prior_cwnd, before);
    // OnEnterRTO: all outstanding lost, cwnd = in flight (0) + 1; restored when recovery ends.
    p.path.cc.on_rto(RtoKind::Loss, &v);
    assert_eq!(p.path.cc.cwnd(), 1.0);
    p.path.cc.recover = p.path.next_seq - 1;
    p.run(4000.0);
    assert!(!p.path.cc.recovering);
    // Restored, then bounded by the model (§5.6.4.4: BoundCwndForModel after RestoreCwnd).
    let bound = before.min(p.path.cc.inflight_shortterm()).min(p.path.cc.max_inflight());
    assert!(p.path.cc.cwnd() >= bound - 1e-9, "{} vs {bound}", p.path.cc.cwnd());
}

#[test]
fn ecn_alpha_is_an_ewma_of_the_marked_fraction_and_ends_startup_after_two_rounds() {
    // Linux v3 bbr_update_ecn_alpha: α ← (1 − 1/16) α + 1/16 × CE fraction, α starts at 1;
    // 2 rounds with ≥ 50 % marked end Startup (bbr_full_ecn_cnt).
    let mut b = bbr3(1);
    b.ecn_eligible = true;
    let rs = sample();
    b.rate.delivered = 100;
    b.delivered_ce = 0;
    b.update_ecn(&rs);
    assert!((b.ecn_alpha - 15.0 / 16.0).abs() < 1e-12 && !b.ecn_in_round);
    b.rate.delivered = 200;
    b.delivered_ce = 60;
    b.update_ecn(&rs);
    assert!(
        (b.ecn_alpha - (15.0 / 16.0 * 15.0 / 16.0 + 0.6 / 16.0)).abs() < 1e-12 && b.ecn_in_round
    );
    assert!(!b.full_bw_reached());
    b.rate.delivered = 300;
    b.delivered_ce = 120;
    b.update_ecn(&rs);
    assert!(b.full_bw_reached(), "two rounds at 60 % marked");
    // Outside probing a marked round cuts inflight_shortterm by α/3.
    let mut b = steady(1000.0, 1);
    b.state = State::ProbeBwCruise;
    b.cwnd = 90.0;
    b.ecn_in_round = true;
    b.ecn_alpha = 0.3;
    b.adapt_lower_bounds_from_congestion();
    assert!((b.inflight_shortterm() - 90.0 * 0.9).abs() < 1e-9);
}
