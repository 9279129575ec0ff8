//! Reno congestion control (AIMD), as ns-2 `TcpAgent::opencwnd` (`windowOption_ 1`) and
//! `TcpAgent::slowdown`. Used by Reno, NewReno, Sack1 and FACK; Tahoe differs only in its
//! response to fast retransmit ([`super::tahoe`]).
//!
//! Read first: RFC 5681 §3.1 (slow start, congestion avoidance) and §3.2 (halving).
//!
//! - Slow start, cwnd < ssthresh: cwnd += 1 per new ACK (RFC 5681 eq. (2) with N = SMSS;
//!   ns-2 counts ACKs, not bytes). With `abc` = L > 0, Appropriate Byte Counting (RFC 3465
//!   §2.2): cwnd += min(N, L) for an ACK of N new packets.
//! - Congestion avoidance: cwnd += 1/cwnd per new ACK (RFC 5681 eq. (3)); with `abc`, N/cwnd
//!   (RFC 3465 §2.1: one packet per window of data acknowledged, in ns-2's floating point).
//! - Fast retransmit and ECN: ssthresh = max(2, floor(win/2)), cwnd = win/2, where win =
//!   min(cwnd, rwnd). RFC 5681 eq. (4) uses FlightSize/2; ns-2 uses the window (the two agree
//!   for a window-limited bulk sender). ns-2 keeps cwnd fractional (`precisionReduce_ true`,
//!   nsim `whole_packet_reduction = false`), or reduces to whole packets.
//! - Timeout: ssthresh as above, cwnd = 1 (RFC 5681 §3.1 "LW"); for every window rule, as
//!   ns-2 does (see [`Reno::timed_out`]).
//!
//! The ns-2 machinery other window rules build on lives here too: [`Reno::open_by`] (ns-2
//! `opencwnd` with any congestion-avoidance increment and RFC 3742 limited slow start) and
//! [`Reno::reduce`] (ns-2 `slowdown` with any `decreasewin`, including `first_decrease_`).

use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::config::CaIncrease;

/// The last window action as growth and reductions see it (ns-2 `last_cwnd_action_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    /// No reduction yet.
    None,
    /// Fast retransmit or ECN reduction.
    Reduced,
    Timeout,
}

#[derive(Clone, Debug)]
pub struct Reno {
    pub cwnd: f64,
    pub ssthresh: f64,
    /// RFC 3742 limited slow start threshold in packets, 0 = off (ns-2 `max_ssthresh_`).
    pub max_ssthresh: f64,
    last: Last,
    /// No reduction has happened yet: the first one halves whatever the variant's decrease
    /// (ns-2 `first_decrease_`).
    first_decrease: bool,
    /// Some: congestion avoidance in integer bytes Goyal-Jain 1997 (§7.2); None: ns-2's floating
    /// 1/cwnd packets per ACK.
    pub byte_increase: Option<ByteIncrease>,
    /// RFC 3465 Appropriate Byte Counting's limit L in packets, 0 = off (ns-2 counts ACKs).
    pub abc: u32,
}

/// Congestion avoidance on a byte-counted cwnd in integer arithmetic Goyal-Jain 1997 (§7.2): each
/// new ACK is worth MSS·MSS/cwnd bytes, truncated. Without ACK counting that is zero once
/// cwnd > MSS² bytes and the window stalls; with it the sender waits for the N-th ACK such
/// that N·MSS·MSS > cwnd and then adds ⌊N·MSS·MSS/cwnd⌋ bytes.
#[derive(Clone, Debug)]
pub struct ByteIncrease {
    mss: u64,
    ack_counting: bool,
    /// ACKs counted since the last increase (ACK counting).
    acks: u64,
}

impl ByteIncrease {
    /// The byte arithmetic of `mode` for segments of `mss` bytes; None for floating point.
    pub fn new(mode: CaIncrease, mss: u64) -> Option<Self> {
        match mode {
            CaIncrease::Float => None,
            CaIncrease::Integer => Some(ByteIncrease { mss, ack_counting: false, acks: 0 }),
            CaIncrease::AckCounting => Some(ByteIncrease { mss, ack_counting: true, acks: 0 }),
        }
    }

    /// The increase (packets) one new ACK earns at `cwnd` packets.
    fn per_ack(&mut self, cwnd: f64) -> f64 {
        let cwnd_bytes = ((cwnd * self.mss as f64).floor() as u64).max(1);
        let n = if self.ack_counting {
            self.acks += 1;
            if self.acks * self.mss * self.mss <= cwnd_bytes {
                return 0.0;
            }
            std::mem::take(&mut self.acks)
        } else {
            1
        };
        (n * self.mss * self.mss / cwnd_bytes) as f64 / self.mss as f64
    }
}

impl Reno {
    /// ns-2 starts with ssthresh = `window_` (effectively "arbitrarily high", RFC 5681 §3.1).
    pub fn new(cwnd: f64, ssthresh: f64) -> Self {
        Reno {
            cwnd,
            ssthresh,
            max_ssthresh: 0.0,
            last: Last::None,
            first_decrease: true,
            byte_increase: None,
            abc: 0,
        }
    }

    /// One ACK's worth of growth (ns-2 `opencwnd`, `windowOption_ 1`).
    pub fn open(&mut self) {
        let (cwnd, in_ca) = (self.cwnd, self.cwnd >= self.ssthresh);
        let inc = match &mut self.byte_increase {
            // Only congestion-avoidance ACKs count (slow start adds a packet per ACK).
            Some(b) if in_ca => b.per_ack(cwnd),
            _ => 1.0 / cwnd,
        };
        self.open_by(inc);
    }

    /// One new ACK acknowledging `acked` packets: [`Self::open`], or with `abc` RFC 3465's
    /// byte counting (+min(acked, L) in slow start, +acked/cwnd above ssthresh).
    pub fn open_acked(&mut self, acked: u64) {
        if self.abc == 0 {
            return self.open();
        }
        if self.cwnd < self.ssthresh {
            self.slow_start(acked);
        } else {
            self.open_by(acked.max(1) as f64 / self.cwnd);
        }
    }

    /// Slow start's growth for an ACK of `acked` new packets: +1 per ACK, or min(acked, L)
    /// with `abc` (RFC 3465 §2.2).
    pub fn slow_start(&mut self, acked: u64) {
        self.cwnd += if self.abc == 0 { 1.0 } else { acked.clamp(1, self.abc as u64) as f64 };
    }

    /// Slow start (+1 per ACK) below ssthresh, else `ca_increment`; until the first
    /// fast-retransmit or ECN reduction (and again after a timeout) the increment is at least
    /// RFC 3742's 1/K, K = floor(cwnd / (max_ssthresh/2)), when `max_ssthresh` is set. This is
    /// ns-2's placement of limited slow start (`opencwnd` with `max_ssthresh_`, in the
    /// congestion-avoidance branch), which equals RFC 3742 when ssthresh = max_ssthresh.
    pub fn open_by(&mut self, ca_increment: f64) {
        if self.cwnd < self.ssthresh {
            self.cwnd += 1.0;
            return;
        }
        let mut inc = ca_increment;
        if self.max_ssthresh > 0.0 && self.last != Last::Reduced {
            let k = (self.cwnd / (self.max_ssthresh / 2.0)).floor();
            if k > 0.0 {
                inc = inc.max(1.0 / k);
            }
        }
        self.cwnd += inc;
    }

    /// ssthresh = max(2, floor(win / 2)) (ns-2 `CLOSE_SSTHRESH_HALF` with `decrease_num_ 0.5`).
    pub fn halve_ssthresh(&mut self, v: &SenderView) {
        self.reduce_ssthresh(v, v.half());
    }

    /// ns-2 `slowdown(CLOSE_SSTHRESH_HALF)` for a variant whose reduced window is
    /// `decreasewin`: the first reduction ever and one in slow start halve instead; at least
    /// 2. (ns-2's third exception, `last_cwnd_action_ == CWND_ACTION_TIMEOUT`, never holds
    /// here: ns-2 sets the action to DUPACK or ECN before calling `slowdown`, so it applies
    /// only to the timeout itself, [`Self::timed_out`]; reference/ns2/rto_ssthresh.)
    pub fn reduce_ssthresh(&mut self, v: &SenderView, decreasewin: f64) {
        let halve = self.first_decrease || self.cwnd < self.ssthresh;
        self.ssthresh = if halve { v.half() } else { decreasewin }.floor().max(2.0);
    }

    /// ns-2 `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF)`: ssthresh as
    /// [`Self::reduce_ssthresh`]; cwnd = `decreasewin`, except that the first reduction, one
    /// in slow start, and any while `halves` (ns-2 `decrease_num_ == 0.5`) set cwnd to half.
    pub fn reduce(&mut self, v: &SenderView, decreasewin: f64, halves: bool) {
        let halve = halves || self.first_decrease || self.cwnd < self.ssthresh;
        self.reduce_ssthresh(v, decreasewin);
        self.cwnd = if halve { v.half() } else { decreasewin }.max(1.0);
        self.reduced();
    }

    /// Records a fast-retransmit or ECN reduction (ends limited slow start).
    pub fn reduced(&mut self) {
        self.first_decrease = false;
        self.last = Last::Reduced;
    }

    /// ns-2 `timeout`: on a loss ssthresh = max(2, half the window) whatever the variant's
    /// decrease, cwnd = 1. ns-2.35 sets `last_cwnd_action_ = CWND_ACTION_TIMEOUT` *before*
    /// calling `slowdown`, whose `decreasewin` exception for a timeout then always applies
    /// (checked against ns-2.35: reference/ns2/rto_ssthresh).
    pub fn timed_out(&mut self, kind: RtoKind, v: &SenderView) {
        if kind == RtoKind::Loss {
            self.ssthresh = v.half().floor().max(2.0);
        }
        self.cwnd = 1.0;
        self.first_decrease = false;
        self.last = Last::Timeout;
    }
}

impl CongestionControl for Reno {
    fn on_ack(&mut self, s: &AckSample) {
        self.open_acked(s.acked_pkts);
    }

    fn on_congestion(&mut self, _ev: CongestionEvent, v: &SenderView) {
        self.reduce(v, v.half(), true);
    }

    fn on_rto(&mut self, kind: RtoKind, v: &SenderView) {
        self.timed_out(kind, v);
    }

    super::reno_window!();
}
