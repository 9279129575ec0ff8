//! SF-SACK, "Smooth Friendly" SACK (Bakthavachalu, M.S. thesis, Univ. of South Florida 2004,
//! ch. 3): ns-2 Sack1 whose window *decrease* is taken from a low-pass filter of past window
//! samples instead of halving; growth is Reno's (slow start, +1 per round trip).
//!
//! The filter is the first-order low pass H(s) = 1/(1 + τs) discretised with Tustin's
//! (bilinear) rule over uneven steps Δt_k (thesis Eq. 3.1, the TCP Westwood filter):
//!
//! ```text
//! ĉ_k = ĉ_{k-1}·(2τ/Δt_k − 1)/(2τ/Δt_k + 1) + (c_k + c_{k-1})/(2τ/Δt_k + 1)
//! ```
//!
//! Samples c_k (thesis pseudocode `estimate_new_cwnd`): cwnd/2 at a fast retransmit (or ECN
//! echo), 1 at a timeout, the current cwnd at a scheduler tick. The scheduler runs every τ/2
//! (Nyquist for cut-off 1/τ; Eq. 3.2) so Δt ≤ τ/2 and the coefficient stays in (0, 1). The
//! first reduction halves as Reno and starts the filter at ĉ = c = cwnd/2.
//!
//! Decisions the thesis leaves open (see docs/models/tcp_sf_sack.md, one option each where it
//! matters): ticks only update the estimate (the text: "to update the estimate"); every update
//! (tick or loss) restarts the τ/2 period; at a loss cwnd = min(ĉ, window) (a decrease never
//! grows the window) and ssthresh = max(2, ⌊ĉ⌋); at a timeout cwnd = 1 and slow start up to
//! ssthresh = ĉ (Fig. 3.1 marks "cwnd_ = 1" at the timeout), or cwnd = ĉ
//! ([`SfSackTimeout::Estimate`]).
//!
//! Ticks are not timer events: cwnd only changes at ACKs and congestion signals, so before
//! each of those the ticks that fell since the last update are replayed with the (unchanged)
//! cwnd, in closed form, which is exactly what a τ/2 timer would have computed.

use super::reno::Reno;
use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::config::{SfSackConfig, SfSackTimeout};
use crate::time::{Dur, SimTime};

/// H(s) = 1/(1 + τs) discretised with Tustin's rule, one step per sample at any spacing.
#[derive(Clone, Debug)]
pub struct TustinLowPass {
    /// Time constant τ, seconds.
    tau: f64,
    estimate: f64,
    last_sample: f64,
}

impl TustinLowPass {
    /// A filter at rest at `value` (estimate and previous sample both `value`).
    pub fn new(tau: f64, value: f64) -> Self {
        TustinLowPass { tau, estimate: value, last_sample: value }
    }

    /// Feeds `sample`, taken `dt` seconds after the previous one, and returns the estimate.
    /// `dt = 0` keeps the estimate (the limit of Eq. 3.1 as Δt → 0).
    pub fn step(&mut self, sample: f64, dt: f64) -> f64 {
        if dt > 0.0 {
            let r = 2.0 * self.tau / dt;
            self.estimate =
                self.estimate * (r - 1.0) / (r + 1.0) + (sample + self.last_sample) / (r + 1.0);
        }
        self.last_sample = sample;
        self.estimate
    }

    /// `n` steps of spacing `dt` with the same `sample`: one step, then the closed form
    /// ĉ − c ← a^(n−1)·(ĉ − c), a = (2τ − Δt)/(2τ + Δt), since (c + c)/(r + 1) = (1 − a)·c.
    pub fn hold(&mut self, sample: f64, dt: f64, n: u64) -> f64 {
        if n == 0 {
            return self.estimate;
        }
        self.step(sample, dt);
        let a = (2.0 * self.tau - dt) / (2.0 * self.tau + dt);
        self.estimate = sample + (self.estimate - sample) * a.powf((n - 1) as f64);
        self.estimate
    }

    pub fn estimate(&self) -> f64 {
        self.estimate
    }
}

/// SF-SACK's congestion control: Reno growth, filtered decrease.
#[derive(Clone, Debug)]
pub struct SfSack {
    pub reno: Reno,
    cfg: SfSackConfig,
    /// None until the first reduction (the filter has no state before it).
    filter: Option<TustinLowPass>,
    /// Time of the last filter update (loss or tick).
    last_update: SimTime,
}

impl SfSack {
    pub fn new(reno: Reno, cfg: SfSackConfig) -> Self {
        SfSack { reno, cfg, filter: None, last_update: SimTime::ZERO }
    }

    /// The filter's current estimate of the window, packets (None before the first loss).
    pub fn estimate(&self) -> Option<f64> {
        self.filter.as_ref().map(TustinLowPass::estimate)
    }

    /// Replays the scheduler ticks strictly before `now`, each sampling the current cwnd.
    fn catch_up(&mut self, now: SimTime) {
        let Some(f) = self.filter.as_mut() else { return };
        let period = self.cfg.period();
        if !self.cfg.scheduler || period == Dur::ZERO || now.0 <= self.last_update.0 {
            return;
        }
        let ticks = (now.0 - self.last_update.0 - 1) / period.0;
        f.hold(self.reno.cwnd, period.as_secs_f64(), ticks);
        self.last_update = SimTime(self.last_update.0 + ticks * period.0);
    }

    /// One loss update with `sample`; starts the filter (at `first`) on the first loss and
    /// returns None then, as that reduction is Reno's.
    fn filter_loss(&mut self, now: SimTime, sample: f64, first: f64) -> Option<f64> {
        self.catch_up(now);
        let dt = now.since(self.last_update).as_secs_f64();
        self.last_update = now;
        match self.filter.as_mut() {
            None => {
                self.filter = Some(TustinLowPass::new(self.cfg.tau().as_secs_f64(), first));
                None
            }
            Some(f) => Some(f.step(sample, dt)),
        }
    }

    /// The window a reduction to estimate `est` leaves: whole packets if asked, at most the
    /// current window, at least 1.
    fn reduced_window(est: f64, v: &SenderView) -> f64 {
        let w = if v.whole_packets { est.floor() } else { est };
        w.min(v.win).max(1.0)
    }
}

impl CongestionControl for SfSack {
    fn on_ack(&mut self, s: &AckSample) {
        self.catch_up(s.now);
        self.reno.open();
    }

    fn on_congestion(&mut self, _ev: CongestionEvent, v: &SenderView) {
        match self.filter_loss(v.now, v.half(), v.half()) {
            None => self.reno.reduce(v, v.half(), true),
            Some(est) => {
                self.reno.cwnd = Self::reduced_window(est, v);
                self.reno.ssthresh = est.floor().max(2.0);
                self.reno.reduced();
            }
        }
    }

    fn on_rto(&mut self, kind: RtoKind, v: &SenderView) {
        if kind == RtoKind::NoNewReduction {
            self.catch_up(v.now);
            self.reno.timed_out(kind, v);
            return;
        }
        match self.filter_loss(v.now, 1.0, v.half()) {
            None => self.reno.timed_out(kind, v),
            Some(est) => {
                self.reno.timed_out(RtoKind::NoNewReduction, v);
                self.reno.ssthresh = est.floor().max(2.0);
                if self.cfg.on_timeout == SfSackTimeout::Estimate {
                    self.reno.cwnd = Self::reduced_window(est, v);
                }
            }
        }
    }

    super::reno_window!(reno);
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod rules;
