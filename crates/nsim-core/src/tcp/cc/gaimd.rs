//! General AIMD (Yang & Lam, "General AIMD Congestion Control", ICNP 2000; ns-2 `Agent/TCP`
//! with `increase_num_` = alpha and `decrease_num_` = beta, `windowOption_ 1`): congestion
//! avoidance adds alpha/cwnd per ACK (alpha packets per round trip), a loss multiplies the
//! window by beta. TCP-friendly when alpha = 4(1 - beta²)/3 (Yang & Lam §3), e.g. (0.31, 7/8);
//! Reno is (1, 1/2).
//!
//! As ns-2's `slowdown`, the first reduction of a connection and any in slow start halve the
//! window whatever beta (`first_decrease_`), and ssthresh at a timeout is half the
//! window; see [`super::reno::Reno::reduce`]. Built as [`super::rule::Ruled`]`<Gaimd>`.

use super::rule::WindowRule;
use super::SenderView;
use crate::tcp::config::GaimdConfig;

#[derive(Clone, Debug)]
pub struct Gaimd {
    alpha: f64,
    beta: f64,
}

impl Gaimd {
    pub fn new(cfg: &GaimdConfig) -> Self {
        Gaimd { alpha: cfg.alpha(), beta: cfg.beta }
    }
}

impl WindowRule for Gaimd {
    fn increment(&self, cwnd: f64) -> f64 {
        self.alpha / cwnd
    }

    /// ns-2 `decreasewin = decrease_num_ * win` (whole packets: of the truncated window).
    fn decreasewin(&mut self, _cwnd: f64, v: &SenderView) -> (f64, bool) {
        let w =
            if v.whole_packets { (self.beta * v.win.floor()).floor() } else { self.beta * v.win };
        (w, self.beta == 0.5)
    }
}
