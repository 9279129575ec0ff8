//! Vegas congestion avoidance (Brakmo, O'Malley & Peterson, SIGCOMM 1994; ns-2
//! `Agent/TCP/Vegas`, tcp/tcp-vegas.cc).
//!
//! Read first: Brakmo et al. 1994 §3.2 (congestion avoidance) and §3.3 (modified slow start).
//!
//! Once per round trip (when the last segment sent before the round began is acknowledged):
//! diff = (Expected - Actual)·BaseRTT = cwnd·(RTT - BaseRTT)/RTT packets, the data this flow
//! keeps queued in the network, with BaseRTT the smallest RTT seen and RTT the mean of the
//! round's samples (as ns-2's `v_sumRTT_ / v_cntRTT_`; per-segment timestamps, not ticks).
//! - Congestion avoidance: diff < alpha: cwnd += 1; diff > beta: cwnd -= 1; else hold.
//! - Slow start: cwnd grows by one per ACK only every other round trip (§3.3); when
//!   diff > gamma, leave slow start with cwnd cut to the expected rate's window + 1.
//!
//! ECN: Reno's response by default; `ignore_ecn` models ns-2.1b8's Vegas, whose `recv()` never
//! read ECN-Echo (seed 004 §5.1.2: "Vegas senders don't respond to packets with the ECN bit
//! set"), so its ECT packets get marked and it does not slow down.
//!
//! Loss response: Reno's (halve on fast retransmit, 1 on timeout). ns-2's Vegas reduces cwnd
//! by a quarter when the loss is in the current window and retransmits on a fine-grained
//! per-segment timeout after one duplicate ACK; nsim does **not** implement those two.

use super::reno::Reno;
use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::config::VegasConfig;
use crate::time::Dur;

#[derive(Clone, Debug)]
pub struct Vegas {
    pub reno: Reno,
    cfg: VegasConfig,
    /// Smallest RTT ever seen (BaseRTT).
    base_rtt: Option<Dur>,
    /// Sum and count of the RTT samples of the current round.
    round_sum: Dur,
    round_cnt: u32,
    /// The round ends when this sequence number is acknowledged.
    round_end: i64,
    /// Slow start grows only on every other round (Brakmo §3.3).
    grow_this_round: bool,
}

impl Vegas {
    pub fn new(reno: Reno, cfg: VegasConfig) -> Self {
        Vegas { reno, cfg, base_rtt: None, round_sum: Dur::ZERO, round_cnt: 0, round_end: 0, grow_this_round: true }
    }

    /// Packets this flow keeps queued, from the last round (None without samples).
    fn diff(&self) -> Option<f64> {
        let base = self.base_rtt?.as_secs_f64();
        let rtt = self.round_sum.as_secs_f64() / self.round_cnt as f64;
        (self.round_cnt > 0 && rtt > 0.0).then(|| self.reno.cwnd * (rtt - base) / rtt)
    }

    /// Starts a new round trip ending once everything sent before `snd_nxt` is acknowledged.
    fn new_round(&mut self, snd_nxt: i64) {
        self.round_sum = Dur::ZERO;
        self.round_cnt = 0;
        self.round_end = snd_nxt - 1;
    }

    fn end_round(&mut self, s: &AckSample) {
        let in_slow_start = self.reno.cwnd < self.reno.ssthresh;
        if let Some(diff) = self.diff() {
            if in_slow_start {
                if diff > self.cfg.gamma {
                    let target = self.reno.cwnd - diff;
                    self.reno.cwnd = (target + 1.0).min(self.reno.cwnd).max(2.0);
                    self.reno.ssthresh = self.reno.cwnd.min(self.reno.ssthresh - 1.0).max(2.0);
                }
            } else if diff < self.cfg.alpha {
                self.reno.cwnd += 1.0;
            } else if diff > self.cfg.beta {
                self.reno.cwnd = (self.reno.cwnd - 1.0).max(2.0);
            }
        }
        self.grow_this_round = !self.grow_this_round;
        self.new_round(s.snd_nxt);
    }
}

impl CongestionControl for Vegas {
    fn on_ack(&mut self, s: &AckSample) {
        if let Some(rtt) = s.rtt {
            self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
            self.round_sum = self.round_sum + rtt;
            self.round_cnt += 1;
        }
        if self.reno.cwnd < self.reno.ssthresh && self.grow_this_round {
            self.reno.cwnd += 1.0;
        }
        if s.ack >= self.round_end {
            self.end_round(s);
        }
    }

    fn on_congestion(&mut self, ev: CongestionEvent, v: &SenderView) {
        self.reno.on_congestion(ev, v);
    }

    /// After a timeout the sender goes back to the first unacknowledged segment: restart the
    /// round bookkeeping from there, growing in the first round.
    fn on_rto(&mut self, kind: RtoKind, v: &SenderView) {
        self.reno.on_rto(kind, v);
        self.new_round(0);
        self.grow_this_round = true;
    }

    fn ignores_ecn(&self) -> bool {
        self.cfg.ignore_ecn
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
