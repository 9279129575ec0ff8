//! CUBIC's rules against RFC 9438's equations, with the expected numbers worked out by hand
//! (not from the code): K and W_cubic (§4.2), the window's path after a loss (§4.4-4.5), the
//! Reno-friendly region's α_cubic and its switch to 1 (§4.3), multiplicative decrease (§4.6),
//! fast convergence (§4.7) and the timeout (§4.8).

use super::Cubic;
use crate::tcp::cc::reno::Reno;
use crate::tcp::cc::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::config::CubicConfig;
use crate::time::{Dur, SimTime};

fn at(t: f64) -> SimTime {
    SimTime::ZERO + Dur::from_secs_f64(t)
}

fn view(win: f64) -> SenderView {
    SenderView { win, whole_packets: false, now: SimTime::ZERO }
}

/// A CUBIC sender in congestion avoidance at `cwnd` packets.
fn cubic(cwnd: f64, reno_friendly: bool, fast_convergence: bool) -> Cubic {
    Cubic::new(
        Reno::new(cwnd, 2.0),
        CubicConfig { reno_friendly, fast_convergence, ..CubicConfig::default() },
    )
}

/// ACKs of a window-limited sender: one ACK per packet of cwnd per round trip, evenly spaced,
/// each carrying an RTT sample of `rtt`, from `t0` until `t1` seconds. Returns the time reached.
fn drive(cc: &mut Cubic, t0: f64, t1: f64, rtt: f64) -> f64 {
    let mut t = t0;
    let mut seq = 0;
    while t < t1 {
        seq += 1;
        cc.on_ack(&AckSample {
            now: at(t),
            acked_pkts: 1,
            acked_bytes: 1000,
            rtt: Some(Dur::from_secs_f64(rtt)),
            snd_nxt: seq + 100,
            ack: seq,
        });
        t += rtt / cc.cwnd();
    }
    t
}

#[test]
fn k_and_w_cubic_are_rfc9438_equations_1_and_2() {
    // W_max 100, cwnd_epoch 70 (β 0.7), C 0.4: K = ∛(30 / 0.4) = ∛75 = 4.2171633 s.
    let k = Cubic::k_of(0.4, 100.0, 70.0);
    assert!((k - 4.2171633).abs() < 1e-6, "{k}");
    assert!((Cubic::w_cubic(0.4, k, 100.0, 0.0) - 70.0).abs() < 1e-9);
    assert!((Cubic::w_cubic(0.4, k, 100.0, k) - 100.0).abs() < 1e-9);
    // One second after K: 100 + 0.4 · 1³.
    assert!((Cubic::w_cubic(0.4, k, 100.0, k + 1.0) - 100.4).abs() < 1e-9);
    // α_cubic = 3 · 0.3 / 1.7 = 0.5294118 (Eq. 4).
    assert!((Cubic::alpha_aimd(0.7) - 0.5294118).abs() < 1e-7);
}

#[test]
fn a_loss_keeps_beta_of_the_window_and_ecn_does_the_same() {
    let mut cc = cubic(100.0, true, true);
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(100.0));
    assert_eq!((cc.cwnd(), cc.ssthresh()), (70.0, 70.0));
    let mut cc = cubic(100.0, true, true);
    cc.on_congestion(CongestionEvent::EcnEcho, &view(100.0));
    assert_eq!((cc.cwnd(), cc.ssthresh()), (70.0, 70.0));
    // Whole-packet reduction: ⌊0.7 · ⌊101.7⌋⌋ = ⌊70.7⌋ = 70; and never below 2.
    let mut cc = cubic(101.7, true, true);
    cc.on_congestion(
        CongestionEvent::FastRetransmit,
        &SenderView { win: 101.7, whole_packets: true, now: SimTime::ZERO },
    );
    assert_eq!(cc.ssthresh(), 70.0);
    let mut cc = cubic(2.0, true, true);
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(2.0));
    assert_eq!(cc.ssthresh(), 2.0);
}

#[test]
fn after_a_loss_the_window_follows_w_cubic_through_the_plateau() {
    // RTT 100 ms; W_max 100 -> cwnd 70, K = 4.217 s. Between ACKs cwnd moves toward
    // W_cubic(t + RTT), so it tracks W_cubic(t) within a round trip's growth.
    let mut cc = cubic(100.0, false, true);
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(100.0));
    let k: f64 = 4.2171633;
    let mut t = 0.0;
    for (at_t, expect) in [
        (k / 2.0, 100.0 - 0.4 * (k / 2.0).powi(3)),
        (k, 100.0),
        (k + 2.0, 100.0 + 0.4 * 8.0),
        (k + 4.0, 100.0 + 0.4 * 64.0),
    ] {
        t = drive(&mut cc, t, at_t, 0.1);
        let w = cc.cwnd();
        assert!(
            (w - expect).abs() / expect < 0.02,
            "t = {at_t:.2}: cwnd {w:.2}, W_cubic {expect:.2}"
        );
    }
}

#[test]
fn fast_convergence_lowers_w_max_when_the_window_shrinks() {
    // Second loss at 90 < W_max 100: W_max = 90 · 1.7 / 2 = 76.5, cwnd 63, K = ∛(13.5 / 0.4) =
    // 3.2317 s; without fast convergence W_max = 90, K = ∛(27 / 0.4) = 4.0716 s.
    for (fc, w_max, k) in [(true, 76.5, 3.2317), (false, 90.0, 4.0716)] {
        let mut cc = cubic(100.0, false, fc);
        cc.on_congestion(CongestionEvent::FastRetransmit, &view(100.0));
        cc.set_cwnd(90.0);
        cc.on_congestion(CongestionEvent::FastRetransmit, &view(90.0));
        assert!((cc.cwnd() - 63.0).abs() < 1e-9);
        drive(&mut cc, 0.0, k, 0.1);
        assert!(
            (cc.cwnd() - w_max).abs() / w_max < 0.02,
            "fast convergence {fc}: cwnd {:.2} at K, W_max {w_max}",
            cc.cwnd()
        );
    }
}

#[test]
fn the_reno_friendly_region_grows_by_alpha_then_by_one_per_round_trip() {
    // RTT 10 ms, W_max 20 -> cwnd 14, K = ∛(6 / 0.4) = 2.466 s: W_cubic barely moves in the
    // first 0.3 s, so W_est sets the window. α = 0.5294 per RTT until W_est reaches
    // cwnd_prior = 20, i.e. after (20 - 14) / 0.5294 = 11.33 RTTs; then 1 per RTT.
    let mut cc = cubic(20.0, true, true);
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(20.0));
    let t = drive(&mut cc, 0.0, 0.1, 0.01);
    assert!((cc.cwnd() - (14.0 + 10.0 * 0.5294)).abs() < 0.4, "after 10 RTTs: {:.2}", cc.cwnd());
    drive(&mut cc, t, 0.3, 0.01);
    let expect = 20.0 + (30.0 - 11.33);
    assert!(
        (cc.cwnd() - expect).abs() < 1.0,
        "after 30 RTTs: {:.2}, expected {expect:.2}",
        cc.cwnd()
    );
    // Without the region the window is W_cubic's: about W_cubic(0.31 s) = 20 - 0.4 · 2.156³ = 16.0.
    let mut cc = cubic(20.0, false, true);
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(20.0));
    drive(&mut cc, 0.0, 0.3, 0.01);
    assert!((cc.cwnd() - 16.0).abs() < 0.3, "without the Reno-friendly region: {:.2}", cc.cwnd());
}

#[test]
fn a_timeout_restarts_at_one_with_ssthresh_beta_times_the_window() {
    let mut cc = cubic(50.0, true, true);
    cc.on_rto(RtoKind::Loss, &view(50.0));
    assert_eq!((cc.cwnd(), cc.ssthresh()), (1.0, 35.0));
    // A timeout after an ECN reduction in the same window keeps ssthresh.
    cc.on_rto(RtoKind::NoNewReduction, &view(1.0));
    assert_eq!((cc.cwnd(), cc.ssthresh()), (1.0, 35.0));
}

#[test]
fn slow_start_adds_one_packet_per_ack_below_ssthresh() {
    let mut cc = Cubic::new(Reno::new(2.0, 20.0), CubicConfig::default());
    for seq in 1..=2 {
        cc.on_ack(&AckSample {
            now: at(0.1),
            acked_pkts: 1,
            acked_bytes: 1000,
            rtt: Some(Dur::from_millis(100)),
            snd_nxt: 4,
            ack: seq,
        });
    }
    assert_eq!(cc.cwnd(), 4.0);
}
