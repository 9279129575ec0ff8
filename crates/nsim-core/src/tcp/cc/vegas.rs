//! Vegas congestion avoidance as ns-2.35's `Agent/TCP/Vegas` (tcp/tcp-vegas.cc, Ted Kuo's
//! port of USC's NetBSD Vegas; Brakmo, O'Malley & Peterson, SIGCOMM 1994 §3.2-3.3). Its loss
//! recovery (§3.1, the fine-grained retransmission) is [`crate::tcp::recovery::vegas`], with
//! the per-segment send log ([`send_log`]) and timeout ([`fine_rto`]) kept here.
//!
//! Read first: Brakmo et al. 1994 §3.2 (congestion avoidance) and §3.3 (modified slow start),
//! then ns-2.35 `VegasTcpAgent::recv`, whose rules nsim follows (checked cwnd for cwnd against
//! ns-2.35 in reference/ns2/vegas, test `tests/it/tcp_vegas_ns2.rs`):
//!
//! - A round trip ends at the first new ACK at or above `begseq`, the next sequence number
//!   to send when the previous round ended. Its RTT is the mean of the round's per-segment
//!   samples (ns-2 `v_sumRTT_ / v_cntRTT_`: the last segment an ACK covers, if it was sent
//!   once, from the send log), or the time since the round began without one.
//!   BaseRTT is the smallest RTT seen, starting from the first ACK's RTT. ns-2's Vegas sends
//!   no header-only SYN (its segment 0 is data); with nsim's `syn = true` the SYN's ACK only
//!   starts the first round. An ns-2 twin uses `syn = false` and the whole packet as size.
//! - delta = round((Expected - Actual)·BaseRTT) packets, with Expected = (snd_nxt -
//!   ack)/BaseRTT and Actual = (segments sent in the round)/RTT (ns-2 rounds with `int(x +
//!   0.5)`).
//! - Congestion avoidance: delta > beta: cwnd -= 1 at once; delta < alpha: cwnd += 1/cwnd per
//!   ACK for the next round; else hold.
//! - Slow start (cwnd < ssthresh): every other round cwnd += 1 per ACK; in a growing round
//!   with delta > gamma, leave slow start: ssthresh = 2, cwnd -= cwnd/8 (at least 2).
//! - Growth only while the sender keeps up: cwnd - (snd_nxt - ack) <= 2.
//! - Timeout: ssthresh = half the window, cwnd = 2 (ns-2 `v_slowstart_`). Loss recovery sets
//!   the window itself; with `vegas.fine_retransmit = false` (Reno's recovery) a fast
//!   retransmit gives cwnd = 3/4 of the whole-packet window (2 if it is at most 3) and
//!   ssthresh = 2 at once.
//!
//! ECN: ns-2's Vegas sends no ECT data (`vegas.ect = false`, resolved in the config: its
//! `output()` lacks `TcpAgent::output`'s ECT line), so a marking queue drops its packets and
//! Bakthavachalu 2004 (§5.1.2) finds it "almost insensitive to ECN"; with `vegas.ect` it is
//! ECN-capable and takes Reno's response to ECN-Echo (ns-2 `TcpAgent::ecn`).

pub mod fine_rto;
pub mod send_log;

use super::reno::Reno;
use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::config::VegasConfig;
use crate::time::{Dur, SimTime};

#[derive(Clone, Debug)]
pub struct Vegas {
    pub reno: Reno,
    cfg: VegasConfig,
    /// Smallest RTT seen in seconds (BaseRTT); None before the first ACK.
    base_rtt: Option<f64>,
    /// Sum and count of the per-segment RTT samples of the current round.
    round_sum: Dur,
    round_cnt: u32,
    /// The round ends when an ACK reaches this sequence number (ns-2 `v_begseq_`).
    begseq: i64,
    /// When the round began (ns-2 `v_begtime_`).
    begtime: SimTime,
    /// Slow start grows in this round (ns-2 `v_inc_flag_`, toggled each round).
    grow_this_round: bool,
    /// Increase per ACK decided at the last round's end (ns-2 `v_incr_`).
    incr: f64,
}

impl Vegas {
    pub fn new(reno: Reno, cfg: VegasConfig) -> Self {
        Vegas {
            reno,
            cfg,
            base_rtt: None,
            round_sum: Dur::ZERO,
            round_cnt: 0,
            begseq: 0,
            begtime: SimTime::ZERO,
            grow_this_round: true,
            incr: 0.0,
        }
    }

    /// ns-2's delta: packets queued, rounded to the nearest integer, for a round of `rtt`
    /// seconds in which `sent` segments left, with `outstanding` = snd_nxt - ack.
    pub(crate) fn delta(base: f64, rtt: f64, sent: i64, outstanding: i64) -> i64 {
        let expect = outstanding as f64 / base;
        let actual = sent as f64 / rtt;
        ((expect - actual) * base + 0.5) as i64
    }

    /// Once per round trip: decide this round's increase (or decrease now).
    fn end_round(&mut self, s: &AckSample) {
        let rtt = if self.round_cnt > 0 {
            self.round_sum.as_secs_f64() / self.round_cnt as f64
        } else {
            s.now.since(self.begtime).as_secs_f64()
        };
        self.round_sum = Dur::ZERO;
        self.round_cnt = 0;
        let sent = s.snd_nxt - self.begseq;
        if rtt > 0.0 {
            // With a single segment in flight the round's RTT is the path's (ns-2).
            let base = match self.base_rtt {
                Some(b) if rtt >= b && sent > 1 => b,
                _ => rtt,
            };
            self.base_rtt = Some(base);
            let delta = Self::delta(base, rtt, sent, s.snd_nxt - s.ack) as f64;
            let r = &mut self.reno;
            if r.cwnd < r.ssthresh {
                self.grow_this_round = !self.grow_this_round;
                self.incr = 0.0;
                if self.grow_this_round {
                    if delta > self.cfg.gamma {
                        r.ssthresh = 2.0;
                        r.cwnd = (r.cwnd - r.cwnd / 8.0).max(2.0);
                    } else {
                        self.incr = 1.0;
                    }
                }
            } else if delta > self.cfg.beta {
                r.cwnd = (r.cwnd - 1.0).max(2.0);
                self.incr = 0.0;
            } else if delta < self.cfg.alpha {
                self.incr = 1.0 / r.cwnd;
            } else {
                self.incr = 0.0;
            }
        }
        self.begseq = s.snd_nxt;
        self.begtime = s.now;
    }
}

impl CongestionControl for Vegas {
    fn on_ack(&mut self, s: &AckSample) {
        let first = self.base_rtt.is_none();
        if first && s.rtt.is_none() {
            // The ACK of a header-only SYN (ns-2's Vegas sends none): the first round starts.
            self.begseq = s.snd_nxt;
            self.begtime = s.now;
            return;
        }
        if first {
            // ns-2 `firstrecv_`: BaseRTT starts as the first ACK's RTT, which is also the
            // first round's (it began with the first transmission).
            if let Some(rtt) = s.rtt {
                self.base_rtt = Some(rtt.as_secs_f64());
                self.round_sum = rtt;
                self.round_cnt = 1;
            }
        }
        if s.ack >= self.begseq {
            self.end_round(s);
        }
        if self.incr == 1.0 && self.reno.cwnd >= self.reno.ssthresh {
            self.incr = 0.0;
        }
        if self.incr > 0.0 && self.reno.cwnd - (s.snd_nxt - s.ack) as f64 <= 2.0 {
            self.reno.cwnd += self.incr;
        }
        // ns-2 takes no sample from the very first segment (its send time is 0).
        if let (Some(rtt), false) = (s.rtt, first) {
            self.round_sum = self.round_sum + rtt;
            self.round_cnt += 1;
            let secs = rtt.as_secs_f64();
            self.base_rtt = Some(self.base_rtt.map_or(secs, |b| b.min(secs)));
        }
    }

    fn on_congestion(&mut self, ev: CongestionEvent, v: &SenderView) {
        match ev {
            CongestionEvent::FastRetransmit => {
                let win = v.win.floor();
                let r = &mut self.reno;
                r.cwnd = if win <= 3.0 { 2.0 } else { win - (win / 4.0).floor() };
                r.ssthresh = 2.0;
                r.reduced();
            }
            CongestionEvent::EcnEcho => self.reno.on_congestion(ev, v),
        }
    }

    /// ns-2 `VegasTcpAgent::timeout`: Reno's ssthresh, then cwnd = 2 (`v_slowstart_`).
    fn on_rto(&mut self, kind: RtoKind, v: &SenderView) {
        self.reno.on_rto(kind, v);
        self.reno.cwnd = 2.0;
    }

    fn initial_window_late(&self) -> bool {
        true
    }

    super::reno_window!(reno);
}
