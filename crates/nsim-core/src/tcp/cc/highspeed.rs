//! HighSpeed TCP (RFC 3649; ns-2 `Agent/TCP/Sack1` with `windowOption_ 8`, `TcpAgent::
//! increase_param`/`decrease_param`): above `low_window` packets the window grows by a(w)/w
//! per ACK and shrinks by b(w)·w on a loss, so that in steady state w = 0.12/p^0.835 instead
//! of Reno's 1.2/sqrt(p).
//!
//! Read first: RFC 3649 §5 (response function) and Appendix B (the a(w), b(w) table);
//! RFC 3742 (limited slow start, `max_ssthresh`, in [`super::reno::Reno::open_by`]).
//!
//! - b(w) = 0.5 + (high_decrease - 0.5)·(log w - log low_window)/(log high_window - log
//!   low_window) (RFC 3649 §5, linear in log w).
//! - p(w): the loss rate at which the response function gives window w. `p_model = "ns2"`
//!   (default): log-log interpolation from (low_window, 1.5/low_window²) to (high_window,
//!   high_p), as ns-2; `"rfc3649"`: p(w) = 0.078/w^1.2, RFC 3649 §5's closed form, which is
//!   what generates the Appendix B table (ns-2's low end, 1.5/38² = 0.00104 rather than
//!   0.078/38^1.2 = 0.00099, makes its a(w) about 4 % larger).
//! - a(w) = w²·p(w)·2·b(w)/(2 - b(w)) (RFC 3649 §5); at or below `low_window`, Reno (a = 1,
//!   b = 0.5).
//! - A reduction above `low_window` sets cwnd = w - b(w)·w and ssthresh likewise, after ns-2's
//!   first-decrease and slow-start exceptions ([`super::reno::Reno::reduce`]). Like ns-2, the
//!   last b(w) used stays in force as `decrease_num_`: a later reduction at or below
//!   `low_window` reduces to `decrease_num_`·w, not w/2 (ns-2 `slowdown`, `decrease_num_ =
//!   decrease`); `ns2_sticky_decrease = false` halves there, as RFC 3649 says.

use super::rule::WindowRule;
use super::SenderView;
use crate::tcp::config::{HighSpeedConfig, PModel};

/// Built as [`super::rule::Ruled`]`<HighSpeed>`.
#[derive(Clone, Debug)]
pub struct HighSpeed {
    cfg: HighSpeedConfig,
    /// ns-2 `decrease_num_` (0.5 until the first reduction above `low_window`).
    decrease_num: f64,
}

impl HighSpeed {
    pub fn new(cfg: HighSpeedConfig) -> Self {
        HighSpeed { cfg, decrease_num: 0.5 }
    }

    /// Position of `w` between low_window and high_window on a log scale (0 at low_window).
    fn frac(&self, w: f64) -> f64 {
        (w.ln() - self.cfg.low_window.ln()) / (self.cfg.high_window.ln() - self.cfg.low_window.ln())
    }

    /// Multiplicative decrease b(w) (RFC 3649 §5).
    pub fn b(&self, w: f64) -> f64 {
        0.5 + (self.cfg.high_decrease - 0.5) * self.frac(w)
    }

    /// Loss rate p(w) of the response function at window `w`.
    pub fn p(&self, w: f64) -> f64 {
        match self.cfg.p_model {
            PModel::Ns2 => {
                let low_p = 1.5 / (self.cfg.low_window * self.cfg.low_window);
                (low_p.ln() + (self.cfg.high_p.ln() - low_p.ln()) * self.frac(w)).exp()
            }
            PModel::Rfc3649 => 0.078 / w.powf(1.2),
        }
    }

    /// Additive increase a(w) in packets per round trip (RFC 3649 §5); 1 up to low_window.
    pub fn a(&self, w: f64) -> f64 {
        if w <= self.cfg.low_window {
            return 1.0;
        }
        let b = self.b(w);
        w * w * self.p(w) * 2.0 * b / (2.0 - b)
    }
}

impl WindowRule for HighSpeed {
    fn increment(&self, cwnd: f64) -> f64 {
        self.a(cwnd) / cwnd
    }

    /// Above low_window w - b(w)·w, remembering b(w) as ns-2's `decrease_num_`; at or below
    /// it `decrease_num_`·w (or half, RFC 3649, without `ns2_sticky_decrease`).
    fn decreasewin(&mut self, cwnd: f64, v: &SenderView) -> (f64, bool) {
        if cwnd > self.cfg.low_window {
            let b = self.b(cwnd);
            self.decrease_num = b;
            let w = v.win - b * v.win;
            return (if v.whole_packets { w.floor() } else { w }, false);
        }
        if !self.cfg.ns2_sticky_decrease {
            return (v.half(), true);
        }
        let win = if v.whole_packets { v.win.floor() } else { v.win };
        let w = self.decrease_num * win;
        (if v.whole_packets { w.floor() } else { w }, self.decrease_num == 0.5)
    }
}
