//! SF-SACK against external references: the analytic first-order response of 1/(1 + τs), the
//! exact frequency response of its Tustin discretisation (Åström & Wittenmark, "Computer-
//! Controlled Systems", §8.2: H_d(e^{jωh}) = H(j·(2/h)·tan(ωh/2))), and the thesis' worked
//! pseudocode (Bakthavachalu 2004 §3.2-3.3).

use super::*;
use crate::tcp::config::{SfSackConfig, SfSackTimeout};

const TAU: f64 = 0.1;

fn view(win: f64, now_s: f64) -> SenderView {
    SenderView { win, whole_packets: false, now: SimTime(Dur::from_secs_f64(now_s).0) }
}

fn ack_at(cc: &mut SfSack, now_s: f64) {
    let s = AckSample {
        now: SimTime(Dur::from_secs_f64(now_s).0),
        acked_pkts: 1,
        acked_bytes: 1000,
        rtt: None,
        snd_nxt: 0,
        ack: 0,
    };
    cc.on_ack(&s);
}

fn sf(cfg: SfSackConfig, cwnd: f64) -> SfSack {
    let mut reno = Reno::new(cwnd, 1000.0);
    reno.ssthresh = 1.0; // congestion avoidance: growth is slow and easy to follow
    SfSack::new(reno, cfg)
}

/// With a fine step the filter's step response is the continuous 1 − e^(−t/τ).
#[test]
fn fine_step_response_is_the_analytic_first_order_response() {
    let h = TAU / 1000.0;
    let mut f = TustinLowPass::new(TAU, 0.0);
    let mut worst: f64 = 0.0;
    for k in 1..=5000 {
        let y = f.step(1.0, h);
        let t = k as f64 * h;
        // Tustin averages the input over the step, so the step enters half a step late.
        worst = worst.max((y - (1.0 - (-(t - h / 2.0) / TAU).exp())).abs());
    }
    assert!(worst < 1e-6, "largest deviation {worst}");
}

/// At the thesis' sampling period τ/2 the step response is 1 − (2τ/(2τ+h))·a^k, a = 3/5: the
/// pole of the bilinear map of s = −1/τ, (1 − h/2τ)/(1 + h/2τ); it reaches 1 − 1/e within one
/// sample of t = τ and has unit DC gain.
#[test]
fn step_response_at_half_tau_follows_the_bilinear_pole() {
    let h = TAU / 2.0;
    let a = (1.0 - h / (2.0 * TAU)) / (1.0 + h / (2.0 * TAU));
    assert!((a - 0.6).abs() < 1e-12);
    let mut f = TustinLowPass::new(TAU, 0.0);
    let mut crossed = None;
    for k in 0..60 {
        let y = f.step(1.0, h);
        let expected = 1.0 - (2.0 * TAU / (2.0 * TAU + h)) * a.powi(k);
        assert!((y - expected).abs() < 1e-12, "k {k}: {y} vs {expected}");
        if crossed.is_none() && y >= 1.0 - (-1.0f64).exp() {
            crossed = Some(k as f64 * h); // y_0 is the sample at t = 0
        }
    }
    assert!((crossed.unwrap() - TAU).abs() <= h, "63 % point at {crossed:?}");
    assert!((f.estimate() - 1.0).abs() < 1e-12, "DC gain");
}

/// Steady-state gain for a sampled sinusoid equals |1/(1 + jτω_a)| at the prewarped frequency
/// ω_a = (2/h)·tan(ωh/2).
#[test]
fn sinusoid_gain_matches_the_prewarped_continuous_gain() {
    let h = TAU / 2.0;
    for freq_hz in [0.5, 1.0, 2.0, 4.0] {
        let w = 2.0 * std::f64::consts::PI * freq_hz;
        let mut f = TustinLowPass::new(TAU, 0.0);
        let mut peak: f64 = 0.0;
        let n = (40.0 / h) as usize;
        for k in 0..n {
            let y = f.step((w * k as f64 * h).sin(), h);
            if k > n / 2 {
                peak = peak.max(y.abs());
            }
        }
        let wa = 2.0 / h * (w * h / 2.0).tan();
        let gain = 1.0 / (1.0 + (TAU * wa).powi(2)).sqrt();
        // The peak of samples underestimates the amplitude by at most 1 − cos(ωh/2).
        let slack = 1.0 - (w * h / 2.0).cos();
        assert!(
            peak <= gain + 1e-9 && peak >= gain * (1.0 - slack) - 1e-9,
            "{freq_hz} Hz: {peak} vs {gain}"
        );
    }
}

/// Thesis pseudocode: the first reduction is Reno's halving and starts the filter there.
#[test]
fn first_loss_halves_like_reno() {
    let mut cc = sf(SfSackConfig::default(), 40.0);
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(40.0, 1.0));
    assert_eq!((cc.cwnd(), cc.ssthresh(), cc.estimate()), (20.0, 20.0, Some(20.0)));
}

/// The thesis' Case I arithmetic: a loss τ/2 after a tick, with the estimate and the ticked
/// window both W, gives 0.6·W + 0.2·(W/2 + W) = 0.9·W, a 10 % reduction instead of 50 %.
#[test]
fn loss_half_tau_after_a_settled_tick_keeps_nine_tenths() {
    let mut cc = sf(SfSackConfig { scheduler: false, ..SfSackConfig::default() }, 40.0);
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(40.0, 1.0));
    cc.filter = Some(TustinLowPass::new(TAU, 30.0));
    cc.reno.cwnd = 30.0;
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(30.0, 1.05));
    assert!((cc.cwnd() - 27.0).abs() < 1e-9, "{}", cc.cwnd());
    assert_eq!(cc.ssthresh(), 27.0);
}

/// The scheduler replayed at ACK times equals stepping the filter every τ/2 by hand with the
/// window in force at each tick.
#[test]
fn replayed_ticks_equal_a_real_half_tau_timer() {
    let mut cc = sf(SfSackConfig::default(), 40.0);
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(40.0, 1.0));
    let mut f = TustinLowPass::new(TAU, 20.0);
    let mut cwnd = 20.0;
    let mut next_tick = 1.05;
    // ACKs every 7 ms for 1 s: the window grows between ticks.
    for i in 1..=143 {
        let t = 1.0 + i as f64 * 0.007;
        while next_tick < t - 1e-12 {
            f.step(cwnd, 0.05);
            next_tick += 0.05;
        }
        ack_at(&mut cc, t);
        cwnd += 1.0 / cwnd;
    }
    assert!(
        (cc.estimate().unwrap() - f.estimate()).abs() < 1e-9,
        "{:?} vs {}",
        cc.estimate(),
        f.estimate()
    );
}

/// A loss right after another (Δt → 0) barely moves the estimate, so cwnd barely drops.
#[test]
fn back_to_back_losses_keep_the_estimate() {
    let mut cc = sf(SfSackConfig::default(), 40.0);
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(40.0, 1.0));
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(20.0, 1.0));
    assert_eq!(cc.cwnd(), 20.0);
}

/// Without the scheduler, a loss Δt ≫ τ after the last update makes the coefficient
/// (2τ/Δt − 1)/(2τ/Δt + 1) ≈ −1: an estimate left above the samples pushes the new one below
/// them (here below zero, so cwnd = 1), the oscillation the thesis' τ/2 scheduler prevents.
#[test]
fn without_the_scheduler_a_sparse_loss_overshoots_below_the_samples() {
    let mut cwnd_after = [0.0; 2];
    for (k, scheduler) in [false, true].into_iter().enumerate() {
        let mut cc = sf(SfSackConfig { scheduler, ..SfSackConfig::default() }, 40.0);
        cc.on_congestion(CongestionEvent::FastRetransmit, &view(40.0, 1.0));
        // Settled high after a burst of growth; the last loss sampled 15.
        cc.filter = Some(TustinLowPass { tau: TAU, estimate: 40.0, last_sample: 15.0 });
        cc.reno.cwnd = 30.0;
        cc.on_congestion(CongestionEvent::FastRetransmit, &view(30.0, 3.0));
        if !scheduler {
            assert!(cc.estimate().unwrap() < 0.0, "{:?}", cc.estimate());
        }
        cwnd_after[k] = cc.cwnd();
    }
    assert_eq!(cwnd_after[0], 1.0);
    assert!((cwnd_after[1] - 27.0).abs() < 0.01, "with ticks: {}", cwnd_after[1]);
}

#[test]
fn timeout_restarts_from_one_up_to_the_estimate() {
    for (mode, cwnd) in [(SfSackTimeout::Restart, 1.0), (SfSackTimeout::Estimate, f64::NAN)] {
        let mut cc = sf(
            SfSackConfig { on_timeout: mode, scheduler: false, ..SfSackConfig::default() },
            40.0,
        );
        cc.on_congestion(CongestionEvent::FastRetransmit, &view(40.0, 1.0));
        cc.reno.cwnd = 30.0;
        cc.on_rto(RtoKind::Loss, &view(30.0, 1.05));
        // est = 0.6·20 + 0.2·(1 + 20) = 16.2
        assert_eq!(cc.ssthresh(), 16.0);
        let want = if cwnd.is_nan() { 16.2 } else { cwnd };
        assert!((cc.cwnd() - want).abs() < 1e-9, "{mode:?}: {}", cc.cwnd());
    }
}
