//! Reno congestion control (AIMD), as ns-2 `TcpAgent::opencwnd` (`windowOption_ 1`) and
//! `TcpAgent::slowdown`. Used by Reno, NewReno, Sack1 and FACK; Tahoe differs only in its
//! response to fast retransmit ([`super::tahoe`]).
//!
//! Read first: RFC 5681 §3.1 (slow start, congestion avoidance) and §3.2 (halving).
//!
//! - Slow start, cwnd < ssthresh: cwnd += 1 per new ACK (RFC 5681 eq. (2) with N = SMSS;
//!   ns-2 counts ACKs, not bytes: no Appropriate Byte Counting, RFC 3465).
//! - Congestion avoidance: cwnd += 1/cwnd per new ACK (RFC 5681 eq. (3)).
//! - Fast retransmit and ECN: ssthresh = max(2, floor(win/2)), cwnd = win/2, where win =
//!   min(cwnd, rwnd). RFC 5681 eq. (4) uses FlightSize/2; ns-2 uses the window (the two agree
//!   for a window-limited bulk sender). ns-2 keeps cwnd fractional (`precisionReduce_ true`).
//! - Timeout: ssthresh as above, cwnd = 1 (RFC 5681 §3.1 "LW").

use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};

#[derive(Clone, Debug)]
pub struct Reno {
    pub cwnd: f64,
    pub ssthresh: f64,
}

impl Reno {
    /// ns-2 starts with ssthresh = `window_` (effectively "arbitrarily high", RFC 5681 §3.1).
    pub fn new(cwnd: f64, ssthresh: f64) -> Self {
        Reno { cwnd, ssthresh }
    }

    /// One ACK's worth of growth (ns-2 `opencwnd`).
    pub fn open(&mut self) {
        if self.cwnd < self.ssthresh {
            self.cwnd += 1.0;
        } else {
            self.cwnd += 1.0 / self.cwnd;
        }
    }

    /// ssthresh = max(2, floor(win / 2)) (ns-2 `CLOSE_SSTHRESH_HALF`).
    pub fn halve_ssthresh(&mut self, v: &SenderView) {
        self.ssthresh = (v.win / 2.0).floor().max(2.0);
    }
}

impl CongestionControl for Reno {
    fn on_ack(&mut self, _s: &AckSample) {
        self.open();
    }

    fn on_congestion(&mut self, _ev: CongestionEvent, v: &SenderView) {
        self.halve_ssthresh(v);
        self.cwnd = v.win / 2.0;
    }

    fn on_rto(&mut self, kind: RtoKind, v: &SenderView) {
        if kind == RtoKind::Loss {
            self.halve_ssthresh(v);
        }
        self.cwnd = 1.0;
    }

    fn cwnd(&self) -> f64 {
        self.cwnd
    }
    fn ssthresh(&self) -> f64 {
        self.ssthresh
    }
    fn set_cwnd(&mut self, cwnd: f64) {
        self.cwnd = cwnd;
    }
}
