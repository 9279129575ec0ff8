//! Congestion control: how the window grows and shrinks, one hook per kind of signal
//! (STYLE.md item 1). Loss *recovery* (what to retransmit, when to leave recovery) is
//! separate, in [`crate::tcp::recovery`].
//!
//! Windows are in packets as `f64`, as in ns-2's one-way TCP (`cwnd_` is a double and the
//! sequence space counts packets). [`AckSample`] still carries the bytes newly acknowledged,
//! so byte-counting algorithms need no other input.

pub mod bbr;
pub mod bbr3;
pub mod binomial;
pub mod cubic;
pub mod dctcp;
pub mod delivery_rate;
pub mod gaimd;
pub mod highspeed;
pub mod hystart;
pub mod max_filter;
#[cfg(test)]
pub mod paced_path;
pub mod reno;
pub mod rule;
pub mod sf_sack;
pub mod tahoe;
pub mod vegas;

use crate::time::{Dur, SimTime};

/// The [`CongestionControl`] window accessors of an algorithm that keeps its window in a
/// [`reno::Reno`] field (`reno_window!(reno)`, or `reno_window!(0)` for a newtype), or in its
/// own `cwnd` and `ssthresh` fields (`reno_window!()`).
macro_rules! reno_window {
    () => {
        fn cwnd(&self) -> f64 {
            self.cwnd
        }
        fn ssthresh(&self) -> f64 {
            self.ssthresh
        }
        fn set_cwnd(&mut self, cwnd: f64) {
            self.cwnd = cwnd;
        }
        fn set_ssthresh(&mut self, ssthresh: f64) {
            self.ssthresh = ssthresh;
        }
    };
    ($field:tt) => {
        fn cwnd(&self) -> f64 {
            self.$field.cwnd
        }
        fn ssthresh(&self) -> f64 {
            self.$field.ssthresh
        }
        fn set_cwnd(&mut self, cwnd: f64) {
            self.$field.cwnd = cwnd;
        }
        fn set_ssthresh(&mut self, ssthresh: f64) {
            self.$field.ssthresh = ssthresh;
        }
    };
}
pub(crate) use reno_window;

/// What a new cumulative ACK tells the congestion control.
#[derive(Clone, Copy, Debug)]
pub struct AckSample {
    pub now: SimTime,
    /// Packets newly acknowledged by this ACK.
    pub acked_pkts: u64,
    /// Payload bytes newly acknowledged.
    pub acked_bytes: u64,
    /// RTT of the segment that triggered this ACK, from its echoed send time (exact, not
    /// tick-rounded; correct for retransmissions too, as with RFC 7323 timestamps). A Vegas
    /// sender with `fine_retransmit` takes ns-2 Vegas' sample instead: the time since the last
    /// segment acknowledged was sent, None if it was sent more than once. The two-way TCP
    /// gives ns-2 FullTcp's one timed segment per round trip, or with `cc = "cubic"` the last
    /// segment newly acknowledged ([`crate::tcp::full::send_times`]).
    pub rtt: Option<Dur>,
    /// Next sequence number to send (ns-2 `t_seqno_`); Vegas ends a round trip when the
    /// segment before it is acknowledged. The two-way TCP counts bytes here and in `ack`.
    pub snd_nxt: i64,
    /// The cumulative ACK (highest in-order sequence number received).
    pub ack: i64,
}

/// Sender state a window reduction is computed from.
#[derive(Clone, Copy, Debug)]
pub struct SenderView {
    /// min(cwnd, receiver window), in packets (ns-2 `windowd()`).
    pub win: f64,
    /// Reduce to whole packets (ns-2 `precisionReduce_ false`): the window is truncated
    /// before halving and the half is truncated too.
    pub whole_packets: bool,
    /// When the signal arrived (SF-SACK's filter spaces its samples by it).
    pub now: SimTime,
}

impl SenderView {
    /// Half the window, the target of a multiplicative decrease.
    pub fn half(&self) -> f64 {
        if self.whole_packets {
            (self.win.floor() / 2.0).floor()
        } else {
            self.win / 2.0
        }
    }
}

/// A congestion signal other than a retransmission timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CongestionEvent {
    /// Enough duplicate ACKs (or SACKed data) to infer a loss.
    FastRetransmit,
    /// An ACK carried ECN-Echo (RFC 3168 §6.1.2), at most once per window.
    EcnEcho,
}

/// Why the retransmission timer expired, for the window response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtoKind {
    /// Data was outstanding and unacknowledged: halve ssthresh, cwnd = 1 (RFC 5681 eq. (4)).
    Loss,
    /// cwnd was already reduced for this window (ECN response, or nothing outstanding):
    /// cwnd = 1 but ssthresh is kept (ns-2 `slowdown(CLOSE_CWND_ONE)`).
    NoNewReduction,
}

/// One congestion-control algorithm.
pub trait CongestionControl {
    /// New data was cumulatively acknowledged (not called while an ECN-Echo was answered).
    fn on_ack(&mut self, s: &AckSample);
    /// A congestion signal.
    fn on_congestion(&mut self, ev: CongestionEvent, v: &SenderView);
    /// The retransmission timer expired.
    fn on_rto(&mut self, kind: RtoKind, v: &SenderView);
    /// Congestion window in packets.
    fn cwnd(&self) -> f64;
    /// Slow-start threshold in packets.
    fn ssthresh(&self) -> f64;
    /// Whether ECN-Echo is ignored (no reduction, ACK counts as ordinary); default false.
    fn ignores_ecn(&self) -> bool {
        false
    }
    /// Whether ns-2's `delay_growth_` initial window is set one ACK late: before the ACK that
    /// follows segment 0's (ns-2 `VegasTcpAgent::recv` tests `last_ack_ == 0` before
    /// `newack`), not after segment 0's ACK (`TcpAgent::recv`). Default false.
    fn initial_window_late(&self) -> bool {
        false
    }
    /// Every new cumulative ACK, before [`CongestionControl::on_ack`] and whether or not it
    /// echoes ECN: `acked_bytes` newly acknowledged, `ece` set if it carried an ECN-Echo the
    /// sender acts on, `snd_nxt` and `ack` as in [`AckSample`]. For algorithms that measure
    /// the fraction of marked data (DCTCP); default: nothing.
    fn observe_ack(&mut self, _acked_bytes: u64, _ece: bool, _snd_nxt: i64, _ack: i64) {}
    /// Overrides cwnd: used by the core for the initial window after the SYN is acknowledged,
    /// and by recovery for window deflation (RFC 6582 §3.2 step 5).
    fn set_cwnd(&mut self, cwnd: f64);
    /// Overrides ssthresh: used by Vegas' recovery, which sets it to 2 when it ends (ns-2
    /// `VegasTcpAgent::recv`).
    fn set_ssthresh(&mut self, ssthresh: f64);
    /// Whether the sender must call [`CongestionControl::on_sent`],
    /// [`CongestionControl::on_ack_arrived`] and [`CongestionControl::on_app_limited`] (for
    /// delivery-rate sampling; asked once when the sender is built). Default false: the
    /// sender skips them with one branch.
    fn samples_delivery(&self) -> bool {
        false
    }
    /// Segment `seq` left at `now` with `in_flight` packets outstanding before it;
    /// `retransmit` if it was sent before.
    fn on_sent(&mut self, _seq: i64, _now: SimTime, _in_flight: u64, _retransmit: bool) {}
    /// An ACK for everything up to `ack` with SACK blocks `sack` arrived at `now` (duplicates
    /// included), before loss recovery sees it; `maxseq` is the highest sequence number sent.
    fn on_ack_arrived(&mut self, _ack: i64, _sack: &[(u64, u64)], _maxseq: i64, _now: SimTime) {}
    /// The sender has nothing more to send with `in_flight` packets outstanding.
    fn on_app_limited(&mut self, _in_flight: u64) {}
    /// The sender's time-based loss detection (RACK-TLP, RFC 8985 §6.2) marked segment `seq`
    /// lost, possibly a retransmission; for algorithms that count the pipe themselves.
    fn on_marked_lost(&mut self, _seq: i64) {}
    /// The pacing rate the algorithm wants, bit/s of wire bytes (None: the sender's default).
    fn pacing_rate(&self) -> Option<f64> {
        None
    }
    /// The algorithm's internal state as named numbers, for the `"cc"` time series (called
    /// only when it is recorded). Default: nothing.
    fn state_values(&self, _out: &mut dyn FnMut(&'static str, f64)) {}
}

#[cfg(test)]
mod tests;
