//! CUBIC congestion control (RFC 9438; Ha, Rhee & Xu, "CUBIC: A New TCP-Friendly High-Speed
//! TCP Variant", ACM SIGOPS OSR 42(5) 2008), on the one-way TCP's packet-counted window.
//!
//! Read first: RFC 9438 §4.1-4.8. The rules, each with its section:
//!
//! - §4.2: after a congestion event the window follows W_cubic(t) = C·(t − K)³ + W_max, with
//!   t the time since the congestion-avoidance stage began (`t_epoch`) and
//!   K = ∛((W_max − cwnd_epoch)/C) (Eq. 2), so that W_cubic(0) = cwnd_epoch and W_cubic(K) =
//!   W_max. Before the first congestion event (or when cwnd_epoch ≥ W_max) K = 0 and W_max =
//!   cwnd_epoch: the curve starts at the plateau and grows convexly (as Linux `bictcp_update`).
//! - §4.4/§4.5 (concave and convex regions): each new ACK adds (target − cwnd)/cwnd, with
//!   target = W_cubic(t + RTT) clamped to [cwnd, 1.5·cwnd]; RTT is the smoothed RTT (kept
//!   here from the ACKs' RTT samples with RFC 6298's gain of 1/8).
//! - §4.3 (Reno-friendly region): W_est starts at cwnd_epoch and grows by α_cubic·(segments
//!   acked)/cwnd per ACK, α_cubic = 3(1 − β)/(1 + β), switching to 1 once W_est ≥ cwnd_prior
//!   (the window before the last reduction). When W_cubic(t) < W_est, cwnd = W_est. With the
//!   default β this gives Reno's average throughput (Mathis et al. 1997) wherever that is the
//!   larger (small BDP); `reno_friendly = false` turns it off (ns-3.37's TcpCubic has no such
//!   region).
//! - §4.6 (multiplicative decrease), on fast retransmit and on ECN-Echo (RFC 3168 via §4.6):
//!   ssthresh = max(β·win, 2) with win = min(cwnd, rwnd) (the flight size of a window-limited
//!   sender, as nsim's Reno, [`super::reno`]); cwnd = ssthresh; a new epoch begins at the next
//!   congestion-avoidance ACK.
//! - §4.7 (fast convergence): if cwnd < W_max at the event, W_max = cwnd·(1 + β)/2, else
//!   W_max = cwnd; `fast_convergence = false` always takes W_max = cwnd.
//! - §4.8 (timeout): ssthresh as §4.6, cwnd = 1 (RFC 5681), and W_max updated as §4.7 (Linux
//!   runs its `ssthresh` hook, which records W_max, for timeouts too). A timeout that follows
//!   an ECN reduction in the same window keeps ssthresh (as nsim's other variants).
//! - Slow start (cwnd < ssthresh): +1 packet per new ACK, as the rest of the one-way TCP family
//!   (RFC 5681 §3.1), or min(N, L) with the sender's `abc` (RFC 3465); with `hystart = true`,
//!   HyStart++ (RFC 9406 §4.1-4.3, [`super::hystart`]) in the initial slow start, off after the
//!   first congestion event or timeout (RFC 9438 §4.10 names it as CUBIC's slow start).
//! - With `abc` (RFC 3465) each congestion-avoidance ACK moves the window N times the
//!   per-ACK step, N the packets it acknowledges (Linux `tcp_cong_avoid_ai` counts them too).
//!
//! Parameters ([`CubicConfig`]): `c` = 0.4 (segments/s³, §5), `beta` = 0.7 (§5),
//! `fast_convergence` = true, `reno_friendly` = true, `hystart` = false.

use super::hystart::HyStartPp;
use super::reno::Reno;
use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::config::CubicConfig;
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Cubic {
    /// cwnd and ssthresh (packets) and slow start; Reno's growth rules are not used above
    /// ssthresh.
    pub reno: Reno,
    cfg: CubicConfig,
    /// W_max in packets: the window before the last reduction, after fast convergence; 0
    /// before the first congestion event.
    w_max: f64,
    /// cwnd before the last reduction (RFC 9438 `cwnd_prior`), for α_cubic's switch.
    cwnd_prior: f64,
    /// Start of the current congestion-avoidance stage (`t_epoch`); None until its first ACK.
    epoch: Option<SimTime>,
    /// K in seconds and the plateau W_cubic tends to (W_max, or cwnd_epoch when above it).
    k: f64,
    origin: f64,
    /// The Reno-friendly estimate W_est (packets) and its current α.
    w_est: f64,
    alpha: f64,
    /// Smoothed RTT in seconds (RFC 6298 §2), None before the first sample.
    srtt: Option<f64>,
    /// HyStart++'s state when `hystart` is on.
    hystart: Option<HyStartPp>,
}

impl Cubic {
    pub fn new(reno: Reno, cfg: CubicConfig) -> Self {
        let alpha = Self::alpha_aimd(cfg.beta);
        let hystart = cfg.hystart.then(HyStartPp::default);
        Cubic {
            reno,
            cfg,
            w_max: 0.0,
            cwnd_prior: 0.0,
            epoch: None,
            k: 0.0,
            origin: 0.0,
            w_est: 0.0,
            alpha,
            srtt: None,
            hystart,
        }
    }

    /// α_cubic = 3(1 − β)/(1 + β) (RFC 9438 §4.3, Eq. 4): AIMD with this α and β has Reno's
    /// average window.
    pub fn alpha_aimd(beta: f64) -> f64 {
        3.0 * (1.0 - beta) / (1.0 + beta)
    }

    /// K = ∛((W_max − cwnd_epoch)/C) in seconds (RFC 9438 §4.2, Eq. 2).
    pub fn k_of(c: f64, w_max: f64, cwnd_epoch: f64) -> f64 {
        ((w_max - cwnd_epoch) / c).cbrt()
    }

    /// W_cubic(t) = C·(t − K)³ + W_max (RFC 9438 §4.2, Eq. 1), packets.
    pub fn w_cubic(c: f64, k: f64, w_max: f64, t: f64) -> f64 {
        c * (t - k).powi(3) + w_max
    }

    /// HyStart++'s state, when on.
    pub fn hystart(&self) -> Option<&HyStartPp> {
        self.hystart.as_ref()
    }

    /// HyStart++ runs in the initial slow start only: a congestion event or timeout ends it
    /// (RFC 9406 §4.2).
    fn stop_hystart(&mut self) {
        if let Some(h) = &mut self.hystart {
            h.stop();
        }
    }

    /// W_max (RFC 9438 §4.7) and the window before the reduction, at a congestion event.
    fn record_w_max(&mut self) {
        let cwnd = self.reno.cwnd;
        self.cwnd_prior = cwnd;
        self.w_max = if self.cfg.fast_convergence && cwnd < self.w_max {
            cwnd * (1.0 + self.cfg.beta) / 2.0
        } else {
            cwnd
        };
        self.epoch = None;
    }

    /// ssthresh = max(β·win, 2) (RFC 9438 §4.6), in whole packets when the sender reduces so.
    fn reduced_ssthresh(&self, v: &SenderView) -> f64 {
        let w = self.cfg.beta * if v.whole_packets { v.win.floor() } else { v.win };
        (if v.whole_packets { w.floor() } else { w }).max(2.0)
    }

    /// The first congestion-avoidance ACK of a stage: t_epoch, K, W_est, α (RFC 9438 §4.2-4.3).
    fn start_epoch(&mut self, now: SimTime) {
        let cwnd = self.reno.cwnd;
        self.epoch = Some(now);
        if self.w_max > cwnd {
            self.k = Self::k_of(self.cfg.c, self.w_max, cwnd);
            self.origin = self.w_max;
        } else {
            self.k = 0.0;
            self.origin = cwnd;
        }
        self.w_est = cwnd;
        self.alpha = Self::alpha_aimd(self.cfg.beta);
    }
}

impl CongestionControl for Cubic {
    fn on_ack(&mut self, s: &AckSample) {
        if let Some(r) = s.rtt {
            let r = r.as_secs_f64();
            self.srtt = Some(self.srtt.map_or(r, |srtt| srtt + (r - srtt) / 8.0));
        }
        let reno = &mut self.reno;
        if reno.cwnd < reno.ssthresh {
            let Some(h) = self.hystart.as_mut().filter(|h| h.active()) else {
                return reno.slow_start(s.acked_pkts);
            };
            if h.on_ack(s, &mut reno.cwnd, &mut reno.ssthresh) {
                return;
            }
        }
        if self.epoch.is_none() {
            self.start_epoch(s.now);
        }
        let t = s.now.since(self.epoch.expect("set above")).as_secs_f64();
        let cwnd = self.reno.cwnd;
        let rtt = self.srtt.unwrap_or(0.0);
        let target =
            Self::w_cubic(self.cfg.c, self.k, self.origin, t + rtt).clamp(cwnd, 1.5 * cwnd);
        let acks = if self.reno.abc > 0 { s.acked_pkts.max(1) as f64 } else { 1.0 };
        let mut next = cwnd + acks * (target - cwnd) / cwnd;
        if self.cfg.reno_friendly {
            self.w_est += self.alpha * s.acked_pkts.max(1) as f64 / cwnd;
            if self.w_est >= self.cwnd_prior {
                self.alpha = 1.0;
            }
            if Self::w_cubic(self.cfg.c, self.k, self.origin, t) < self.w_est {
                next = next.max(self.w_est);
            }
        }
        self.reno.cwnd = next;
    }

    fn on_congestion(&mut self, _ev: CongestionEvent, v: &SenderView) {
        self.stop_hystart();
        self.record_w_max();
        let ssthresh = self.reduced_ssthresh(v);
        self.reno.ssthresh = ssthresh;
        self.reno.cwnd = ssthresh;
        self.reno.reduced();
    }

    fn on_rto(&mut self, kind: RtoKind, v: &SenderView) {
        self.stop_hystart();
        if kind == RtoKind::Loss {
            self.record_w_max();
            self.reno.ssthresh = self.reduced_ssthresh(v);
        }
        self.epoch = None;
        self.reno.cwnd = 1.0;
    }

    fn state_values(&self, out: &mut dyn FnMut(&'static str, f64)) {
        out("w_max_pkts", self.w_max);
    }

    super::reno_window!(reno);
}

#[cfg(test)]
mod tests;
