//! General AIMD (Yang & Lam, "General AIMD Congestion Control", ICNP 2000; ns-2 `Agent/TCP`
//! with `increase_num_` = alpha and `decrease_num_` = beta, `windowOption_ 1`): congestion
//! avoidance adds alpha/cwnd per ACK (alpha packets per round trip), a loss multiplies the
//! window by beta. TCP-friendly when alpha = 4(1 - beta²)/3 (Yang & Lam §3), e.g. (0.31, 7/8);
//! Reno is (1, 1/2).
//!
//! As ns-2's `slowdown`, the first reduction of a connection and any in slow start halve the
//! window whatever beta (`first_decrease_`), and ssthresh right after a timeout is half the
//! window; see [`super::reno::Reno::reduce`].

use super::reno::Reno;
use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::config::GaimdConfig;

#[derive(Clone, Debug)]
pub struct Gaimd {
    pub reno: Reno,
    alpha: f64,
    beta: f64,
}

impl Gaimd {
    pub fn new(reno: Reno, cfg: &GaimdConfig) -> Self {
        Gaimd { reno, alpha: cfg.alpha(), beta: cfg.beta }
    }

    /// The window after a reduction from `v` (ns-2 `decreasewin = decrease_num_ * win`).
    pub fn decreasewin(&self, v: &SenderView) -> f64 {
        if v.whole_packets {
            (self.beta * v.win.floor()).floor()
        } else {
            self.beta * v.win
        }
    }
}

impl CongestionControl for Gaimd {
    fn on_ack(&mut self, _s: &AckSample) {
        let inc = self.alpha / self.reno.cwnd;
        self.reno.open_by(inc);
    }

    fn on_congestion(&mut self, _ev: CongestionEvent, v: &SenderView) {
        let dw = self.decreasewin(v);
        self.reno.reduce(v, dw, self.beta == 0.5);
    }

    fn on_rto(&mut self, kind: RtoKind, v: &SenderView) {
        let dw = self.decreasewin(v);
        self.reno.timed_out(kind, v, dw);
    }

    fn cwnd(&self) -> f64 {
        self.reno.cwnd
    }
    fn ssthresh(&self) -> f64 {
        self.reno.ssthresh
    }
    fn set_cwnd(&mut self, cwnd: f64) {
        self.reno.cwnd = cwnd;
    }
}
