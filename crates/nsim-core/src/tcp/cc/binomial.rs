//! Binomial congestion control (Bansal & Balakrishnan, "Binomial Congestion Control
//! Algorithms", INFOCOM 2001; ns-2 `Agent/TCP` with `windowOption_ 6`, `k_parameter_`,
//! `l_parameter_`, `increase_num_` = alpha, `decrease_num_` = 1 - beta): in congestion
//! avoidance w += alpha/w^k per round trip (ns-2: cwnd += alpha/(cwnd·cwnd^k) per ACK), and a
//! loss takes w -= beta·w^l. k = 0, l = 1 is AIMD; SQRT is k = l = 1/2, IIAD k = 1, l = 0;
//! TCP-compatible when k + l = 1 (B&B §3). Defaults: SQRT with the authors' alpha = 1.5,
//! beta = 1 (the parameters of Bakthavachalu 2004, Table 5.9).
//!
//! ns-2's `slowdown` rules apply ([`super::reno::Reno::reduce`]): the first reduction and any
//! in slow start halve; and while `decrease_num_` = 1 - beta is exactly 0.5, cwnd is always
//! halved (ns-2 tests `decrease_num_ == 0.5` for that), with ssthresh still w - beta·w^l.
//! Limited slow start does not apply (ns-2's `windowOption_ 6` branch has none). Built as
//! [`super::rule::Ruled`]`<Binomial>`.

use super::rule::WindowRule;
use super::SenderView;
use crate::tcp::config::BinomialConfig;

#[derive(Clone, Debug)]
pub struct Binomial {
    cfg: BinomialConfig,
}

impl Binomial {
    pub fn new(cfg: BinomialConfig) -> Self {
        Binomial { cfg }
    }

    /// Increase per round trip at window `w`: alpha/w^k.
    pub fn increase_per_rtt(&self, w: f64) -> f64 {
        self.cfg.alpha / w.powf(self.cfg.k)
    }

    /// The window a loss at window `w` leads to: w - beta·w^l (ns-2 `decreasewin`; whole
    /// packets: truncated, from the truncated window).
    pub fn decreased(&self, w: f64, whole_packets: bool) -> f64 {
        if whole_packets {
            let w = w.floor();
            (w - self.cfg.beta * w.powf(self.cfg.l)).floor()
        } else {
            w - self.cfg.beta * w.powf(self.cfg.l)
        }
    }
}

impl WindowRule for Binomial {
    /// ns-2: cwnd += alpha/(cwnd·cwnd^k) per ACK.
    fn increment(&self, cwnd: f64) -> f64 {
        self.increase_per_rtt(cwnd) / cwnd
    }

    fn decreasewin(&mut self, _cwnd: f64, v: &SenderView) -> (f64, bool) {
        (self.decreased(v.win, v.whole_packets), self.cfg.beta == 0.5)
    }

    fn limited_slow_start(&self) -> bool {
        false
    }
}
