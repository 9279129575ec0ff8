//! Reno-family window rules (ns-2 `windowOption_`, `increase_num_`, `decrease_num_`): a rule
//! gives the congestion-avoidance increment and the window a reduction leads to; [`Ruled`]
//! applies it with Reno's slow start, RFC 3742 limited slow start, ns-2's `slowdown` exceptions
//! and the timeout response ([`Reno::open_by`], [`Reno::reduce`], [`Reno::timed_out`]).

use super::reno::Reno;
use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};

/// One window rule: GAIMD, binomial, HighSpeed.
pub trait WindowRule {
    /// Congestion-avoidance increment per ACK at window `cwnd`, packets.
    fn increment(&self, cwnd: f64) -> f64;
    /// The window after a reduction from `v` at congestion window `cwnd` (ns-2 `decreasewin`),
    /// and whether cwnd is set to half instead (ns-2 tests `decrease_num_ == 0.5`).
    fn decreasewin(&mut self, cwnd: f64, v: &SenderView) -> (f64, bool);
    /// Whether RFC 3742 limited slow start (`max_ssthresh`) applies (ns-2: not to binomial).
    fn limited_slow_start(&self) -> bool {
        true
    }
}

/// A [`WindowRule`] on top of Reno's state.
#[derive(Clone, Debug)]
pub struct Ruled<R> {
    pub reno: Reno,
    pub rule: R,
}

impl<R: WindowRule> Ruled<R> {
    pub fn new(mut reno: Reno, rule: R) -> Self {
        if !rule.limited_slow_start() {
            reno.max_ssthresh = 0.0;
        }
        Ruled { reno, rule }
    }
}

impl<R: WindowRule> CongestionControl for Ruled<R> {
    fn on_ack(&mut self, _s: &AckSample) {
        let inc = self.rule.increment(self.reno.cwnd);
        self.reno.open_by(inc);
    }

    fn on_congestion(&mut self, _ev: CongestionEvent, v: &SenderView) {
        let (dw, halves) = self.rule.decreasewin(self.reno.cwnd, v);
        self.reno.reduce(v, dw, halves);
    }

    /// ns-2: a timeout halves ssthresh whatever the rule ([`Reno::timed_out`]); its
    /// `slowdown` still computes `decreasewin`, which HighSpeed remembers as `decrease_num_`.
    fn on_rto(&mut self, kind: RtoKind, v: &SenderView) {
        self.rule.decreasewin(self.reno.cwnd, v);
        self.reno.timed_out(kind, v);
    }

    super::reno_window!(reno);
}
