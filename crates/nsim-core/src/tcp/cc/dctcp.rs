//! DCTCP congestion control (RFC 8257; Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM
//! 2010), on the one-way TCP with Reno's growth.
//!
//! Read first: RFC 8257 §3.2 (the receiver's ECN-Echo, in [`crate::tcp::sink`]) and §3.3 (the
//! sender). The sender's rules, each with its step of §3.3:
//!
//! - Steps 1-4: per observation window of about one round trip (from when `snd_nxt` was
//!   `window_end` until that sequence is acknowledged) count the payload bytes acknowledged
//!   and those acknowledged by ACKs carrying ECN-Echo ([`CongestionControl::observe_ack`]).
//! - Steps 5-7: at the window's end F = marked / acknowledged and
//!   α ← (1 − g)·α + g·F; the counters restart and the next window ends at the current
//!   `snd_nxt`.
//! - Step 9 (reaction, at most once per window as RFC 3168, by the core's ECN rule):
//!   cwnd ← cwnd·(1 − α/2), ssthresh ← the same (at least 2 packets; RFC 8257 §3.3 keeps a
//!   window of at least one segment, nsim's Reno floor of 2 for ssthresh is kept).
//! - §3.4: a loss (fast retransmit, timeout) is answered as Reno does (halve, or cwnd 1).
//! - Growth: Reno's (RFC 5681) on ACKs without ECN-Echo, as nsim's other ECN senders (ns-2
//!   does not grow the window on an ACK that echoes congestion).
//!
//! Parameters ([`crate::tcp::config::DctcpConfig`]): `g` = 1/16 (RFC 8257 §4.2, "a good
//! choice"; Alizadeh et al. §3.4) and `initial_alpha` = 1 (RFC 8257 §3.3: α starts at 1, so
//! the first reaction halves as standard ECN would).

use super::reno::Reno;
use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::config::DctcpConfig;

#[derive(Clone, Debug)]
pub struct Dctcp {
    pub reno: Reno,
    g: f64,
    /// The estimate of the fraction of marked bytes (DCTCP.Alpha).
    alpha: f64,
    /// Bytes acknowledged, and of those by ECN-Echo ACKs, in the current window.
    acked: u64,
    marked: u64,
    /// The window ends when this sequence number is acknowledged (DCTCP.WindowEnd).
    window_end: i64,
}

impl Dctcp {
    pub fn new(reno: Reno, cfg: &DctcpConfig) -> Self {
        Dctcp { reno, g: cfg.g, alpha: cfg.initial_alpha, acked: 0, marked: 0, window_end: 0 }
    }

    /// The current α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
}

impl CongestionControl for Dctcp {
    fn observe_ack(&mut self, acked_bytes: u64, ece: bool, snd_nxt: i64, ack: i64) {
        self.acked += acked_bytes;
        if ece {
            self.marked += acked_bytes;
        }
        if ack >= self.window_end {
            if self.acked > 0 {
                let f = self.marked as f64 / self.acked as f64;
                self.alpha = (1.0 - self.g) * self.alpha + self.g * f;
            }
            self.acked = 0;
            self.marked = 0;
            self.window_end = snd_nxt;
        }
    }

    fn on_ack(&mut self, s: &AckSample) {
        self.reno.open_acked(s.acked_pkts);
    }

    fn on_congestion(&mut self, ev: CongestionEvent, v: &SenderView) {
        match ev {
            CongestionEvent::EcnEcho => {
                let w = v.win * (1.0 - self.alpha / 2.0);
                let w = if v.whole_packets { w.floor() } else { w };
                self.reno.ssthresh = w.floor().max(2.0);
                self.reno.cwnd = w.max(1.0);
                self.reno.reduced();
            }
            CongestionEvent::FastRetransmit => self.reno.on_congestion(ev, v),
        }
    }

    fn on_rto(&mut self, kind: RtoKind, v: &SenderView) {
        self.reno.timed_out(kind, v);
    }

    fn state_values(&self, out: &mut dyn FnMut(&'static str, f64)) {
        out("alpha", self.alpha);
    }

    super::reno_window!(reno);
}

#[cfg(test)]
mod tests;
