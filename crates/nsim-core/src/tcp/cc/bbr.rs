//! BBR v1 congestion control (Cardwell, Cheng, Gunn, Hassas Yeganeh & Jacobson, "BBR:
//! Congestion-Based Congestion Control", ACM Queue 14(5) 2016; draft-cardwell-iccrg-bbr-
//! congestion-control-00, 2017), on the one-way TCP with Sack1 recovery, always paced.
//!
//! Read first: the draft §4 (every § below is that draft's) and
//! [`super::delivery_rate`] (its rate samples). The rules, each with its section:
//!
//! - §4.1.1 BtlBw: the max of the delivery-rate samples over the last `bw_window_rounds` (10)
//!   round trips ([`super::max_filter`]); a sample taken while application-limited enters only if it
//!   raises the max. Old samples leave the window only when a sample enters it (the draft's
//!   `update_windowed_max_filter`, Linux `minmax_running_max`), so application-limited rounds
//!   (PROBE_RTT) keep the estimate. A round trip ends when a packet sent after the previous round's end is
//!   acknowledged (`next_round_delivered`, §4.1.1.3).
//! - §4.1.2 RTprop: the smallest RTT sample, replaced by the current sample once it is older
//!   than `min_rtt_window` (10 s).
//! - §4.2.1 pacing rate = pacing_gain × BtlBw; before the pipe is full it only grows. At start:
//!   high_gain × initial window / (SRTT, or 1 ms before any sample); as Linux
//!   (`bbr_init_pacing_rate_from_rtt`) and ns-3, the first RTT sample (the SYN's) sets it again
//!   from that RTT, so STARTUP's first round is paced.
//! - §4.2.2 send quantum: 1 packet below 1.2 Mb/s, 2 below 24 Mb/s, else 1 ms of data (at most
//!   64 KB), or `send_quantum` packets when set (ns-3.37: 1); it enters cwnd as 3 quanta (with
//!   `cwnd_quanta = "probe_up"` only in PROBE_BW's 1.25 phase, as ns-3.37; the draft and Linux
//!   add them always).
//! - §4.2.3 cwnd: target = cwnd_gain × BDP + 3 × quantum (BDP = BtlBw × RTprop); with a full
//!   pipe cwnd = min(cwnd + delivered, target), before it cwnd grows by every packet delivered;
//!   never below `min_cwnd` (4). On entering fast recovery cwnd = in flight + 1 and packet
//!   conservation (cwnd ≥ in flight + delivered) holds for one round; on a timeout cwnd = 1;
//!   when recovery ends the cwnd before it is restored (§4.2.3.4). Not modelled: §4.2.3.4's
//!   "cwnd − losses" on each ACK (Linux `bbr_set_cwnd_to_recover_or_restore`); with it, at
//!   15 % random loss nsim's BBR leaves STARTUP at 3 Mb/s of 100 (docs/models/tcp_bbr.md).
//! - §4.3.2 STARTUP: pacing and cwnd gain high_gain = 2/ln 2; the pipe is full once BtlBw has
//!   grown by less than `full_bw_growth` (25 %) for `full_bw_rounds` (3) rounds in a row.
//! - §4.3.3 DRAIN: pacing gain 1/high_gain, cwnd gain high_gain, until in flight ≤ BDP.
//! - §4.3.4 PROBE_BW: cwnd gain 2 and the pacing gain cycles through 1.25, 0.75, 1 × 6, one
//!   phase per RTprop; the 1.25 phase lasts until in flight reaches 1.25 × BDP too, the 0.75
//!   phase ends early once in flight ≤ BDP. It starts at a random phase other than 0.75, drawn
//!   from the flow's own stream of the run's seed.
//! - §4.3.5 PROBE_RTT: when RTprop expires, cwnd = `min_cwnd` (4) until `probe_rtt_time`
//!   (200 ms) and one round have passed with that flight; then RTprop's timestamp is renewed,
//!   the cwnd restored, and PROBE_BW (or STARTUP, pipe not yet full) resumes.
//! - ECN is ignored (BBR v1 has no ECN response).
//!
//! Parameters ([`BbrConfig`]): `high_gain` 2/ln 2, `cwnd_gain` 2, `bw_window_rounds` 10,
//! `min_rtt_window` 10 s, `probe_rtt_time` 200 ms, `min_cwnd` 4 packets, `full_bw_growth`
//! 1.25, `full_bw_rounds` 3, `cwnd_quanta` "always", `send_quantum` the draft's rule. Windows are in packets, rates in bit/s of wire bytes.

use super::delivery_rate::{DeliveryRate, RateSample};
use super::max_filter::MaxFilter;
use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::rng::SimRng;
use crate::tcp::config::{BbrConfig, BbrQuanta};
use crate::time::{Dur, SimTime};
use rand::RngExt;

/// PROBE_BW's pacing gains, one phase per RTprop (§4.3.4.3).
pub const GAIN_CYCLE: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];

/// The draft's nominal RTT before any sample (§4.2.1 BBRInitPacingRate).
const NOMINAL_RTT: Dur = Dur::from_millis(1);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

impl Mode {
    /// The number recorded in the `"cc"` series' `state` (docs/models/tcp_bbr.md).
    pub fn code(self) -> f64 {
        match self {
            Mode::Startup => 0.0,
            Mode::Drain => 1.0,
            Mode::ProbeBw => 2.0,
            Mode::ProbeRtt => 3.0,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Bbr {
    cfg: BbrConfig,
    /// Bits of one full segment on the wire (rates in packets/s × this = bit/s).
    packet_bits: f64,
    initial_cwnd: f64,
    /// Reported as ssthresh (BBR has none): the sender's initial ssthresh.
    ssthresh: f64,
    rate: DeliveryRate,
    btl_bw: MaxFilter,
    /// RTprop and when it was last set; None before the first sample.
    rtprop: Option<Dur>,
    rtprop_stamp: SimTime,
    rtprop_expired: bool,
    /// An RTT sample has set the initial pacing rate.
    seen_rtt: bool,
    round_count: u64,
    next_round_delivered: u64,
    round_start: bool,
    mode: Mode,
    pacing_gain: f64,
    cwnd_gain: f64,
    /// bit/s.
    pacing_rate: f64,
    cwnd: f64,
    prior_cwnd: f64,
    filled_pipe: bool,
    full_bw: f64,
    full_bw_count: u32,
    cycle_index: usize,
    cycle_stamp: SimTime,
    probe_rtt_done: Option<SimTime>,
    probe_rtt_round_done: bool,
    packet_conservation: bool,
    /// In fast recovery or after a timeout until `recover` is acknowledged.
    recovering: bool,
    recover: i64,
    maxseq: i64,
    in_flight: u64,
    rng: SimRng,
}

impl Bbr {
    /// A BBR sender starting at `cwnd` packets whose initial window is `initial_window`, for
    /// segments of `packet_bytes` on the wire and a flight of at most `window` packets.
    pub fn new(
        cfg: BbrConfig,
        cwnd: f64,
        initial_window: u32,
        ssthresh: f64,
        packet_bytes: u64,
        window: u32,
        rng: SimRng,
    ) -> Self {
        let packet_bits = packet_bytes as f64 * 8.0;
        let initial_cwnd = initial_window as f64;
        Bbr {
            pacing_rate: cfg.high_gain * initial_cwnd * packet_bits / NOMINAL_RTT.as_secs_f64(),
            btl_bw: MaxFilter::new(cfg.bw_window_rounds),
            pacing_gain: cfg.high_gain,
            cwnd_gain: cfg.high_gain,
            cfg,
            packet_bits,
            initial_cwnd,
            ssthresh,
            rate: {
                // Linux's BBR counts in flight as RFC 6675's pipe (tcp_packets_in_flight: lost
                // packets excluded), so the sampler marks losses for v1 too.
                let mut rate = DeliveryRate::new(window);
                rate.track_losses = true;
                rate
            },
            rtprop: None,
            rtprop_stamp: SimTime::ZERO,
            rtprop_expired: false,
            seen_rtt: false,
            round_count: 0,
            next_round_delivered: 0,
            round_start: false,
            mode: Mode::Startup,
            cwnd,
            prior_cwnd: 0.0,
            filled_pipe: false,
            full_bw: 0.0,
            full_bw_count: 0,
            cycle_index: 0,
            cycle_stamp: SimTime::ZERO,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            packet_conservation: false,
            recovering: false,
            recover: -1,
            maxseq: -1,
            in_flight: 0,
            rng,
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// BtlBw in packets per second.
    pub fn btl_bw(&self) -> f64 {
        self.btl_bw.get()
    }

    pub fn rtprop(&self) -> Option<Dur> {
        self.rtprop
    }

    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }

    pub fn cycle_index(&self) -> usize {
        self.cycle_index
    }

    pub fn filled_pipe(&self) -> bool {
        self.filled_pipe
    }

    /// The send quantum in packets (§4.2.2), or the fixed `send_quantum`.
    fn send_quantum(&self) -> f64 {
        let bps = self.pacing_rate;
        if let Some(packets) = self.cfg.send_quantum {
            packets as f64
        } else if bps < 1.2e6 {
            1.0
        } else if bps < 24e6 {
            2.0
        } else {
            (bps * 1e-3 / self.packet_bits).min(65536.0 * 8.0 / self.packet_bits).max(1.0)
        }
    }

    /// BBRInflight(gain) = gain × BDP + 3 quanta, packets (§4.2.3.2); the initial window
    /// before any RTT sample.
    pub fn inflight(&self, gain: f64) -> f64 {
        let probe_up = self.mode == Mode::ProbeBw && self.cycle_index == 0;
        let quanta = match self.cfg.cwnd_quanta {
            BbrQuanta::Always => 3.0 * self.send_quantum(),
            BbrQuanta::ProbeUp if probe_up => 3.0 * self.send_quantum(),
            BbrQuanta::ProbeUp => 0.0,
        };
        match self.rtprop {
            Some(rt) => gain * self.btl_bw() * rt.as_secs_f64() + quanta,
            None => self.initial_cwnd,
        }
    }

    fn update_round(&mut self, rs: &RateSample) {
        self.round_start = rs.prior_delivered >= self.next_round_delivered;
        if self.round_start {
            self.next_round_delivered = self.rate.delivered;
            self.round_count += 1;
            self.packet_conservation = false;
        }
    }

    /// §4.1.1.4: app-limited samples count only if they raise the estimate.
    fn update_btl_bw(&mut self, rs: &RateSample) {
        self.update_round(rs);
        if let Some(r) = rs.rate {
            if r >= self.btl_bw() || !rs.app_limited {
                self.btl_bw.update(self.round_count, r);
            }
        }
    }

    /// §4.3.4.4 BBRIsNextCyclePhase / BBRAdvanceCyclePhase.
    fn check_cycle_phase(&mut self, now: SimTime, prior_inflight: u64) {
        if self.mode != Mode::ProbeBw {
            return;
        }
        let full_length = self.rtprop.is_some_and(|rt| now.since(self.cycle_stamp) > rt);
        let prior = prior_inflight as f64;
        let next = if self.pacing_gain == 1.0 {
            full_length
        } else if self.pacing_gain > 1.0 {
            full_length && prior >= self.inflight(self.pacing_gain)
        } else {
            full_length || prior <= self.inflight(1.0)
        };
        if next {
            self.advance_cycle_phase(now);
        }
    }

    fn advance_cycle_phase(&mut self, now: SimTime) {
        self.cycle_stamp = now;
        self.cycle_index = (self.cycle_index + 1) % GAIN_CYCLE.len();
        self.pacing_gain = GAIN_CYCLE[self.cycle_index];
    }

    /// §4.3.2.2 BBRCheckFullPipe.
    fn check_full_pipe(&mut self, rs: &RateSample) {
        if self.filled_pipe || !self.round_start || rs.app_limited {
            return;
        }
        if self.btl_bw() >= self.full_bw * self.cfg.full_bw_growth {
            self.full_bw = self.btl_bw();
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        if self.full_bw_count >= self.cfg.full_bw_rounds {
            self.filled_pipe = true;
        }
    }

    /// §4.3.3 BBRCheckDrain.
    fn check_drain(&mut self, now: SimTime) {
        if self.mode == Mode::Startup && self.filled_pipe {
            self.mode = Mode::Drain;
            self.pacing_gain = 1.0 / self.cfg.high_gain;
            self.cwnd_gain = self.cfg.high_gain;
        }
        if self.mode == Mode::Drain && self.in_flight as f64 <= self.inflight(1.0) {
            self.enter_probe_bw(now);
        }
    }

    /// §4.3.4.3 BBREnterProbeBW: a random phase other than the 0.75 one.
    fn enter_probe_bw(&mut self, now: SimTime) {
        self.mode = Mode::ProbeBw;
        self.pacing_gain = 1.0;
        self.cwnd_gain = self.cfg.cwnd_gain;
        self.cycle_index = GAIN_CYCLE.len() - 1 - self.rng.random_range(0..GAIN_CYCLE.len() - 1);
        self.advance_cycle_phase(now);
    }

    fn enter_startup(&mut self) {
        self.mode = Mode::Startup;
        self.pacing_gain = self.cfg.high_gain;
        self.cwnd_gain = self.cfg.high_gain;
    }

    /// §4.1.2.3 BBRUpdateRTprop.
    fn update_rtprop(&mut self, now: SimTime, rtt: Option<Dur>) {
        self.rtprop_expired =
            self.rtprop.is_some() && now > self.rtprop_stamp + self.cfg.min_rtt_window.0;
        if let Some(r) = rtt {
            if self.rtprop.is_none_or(|m| r <= m) || self.rtprop_expired {
                self.rtprop = Some(r);
                self.rtprop_stamp = now;
            }
        }
    }

    /// §4.3.5 BBRCheckProbeRTT / BBRHandleProbeRTT.
    fn check_probe_rtt(&mut self, now: SimTime) {
        if self.mode != Mode::ProbeRtt && self.rtprop_expired {
            self.mode = Mode::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = 1.0;
            self.prior_cwnd = self.saved_cwnd();
            self.probe_rtt_done = None;
        }
        if self.mode != Mode::ProbeRtt {
            return;
        }
        self.rate.mark_app_limited(self.in_flight);
        match self.probe_rtt_done {
            None if self.in_flight as f64 <= self.cfg.min_cwnd as f64 => {
                self.probe_rtt_done = Some(now + self.cfg.probe_rtt_time.0);
                self.probe_rtt_round_done = false;
                self.next_round_delivered = self.rate.delivered;
            }
            None => {}
            Some(done) => {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done && now > done {
                    self.rtprop_stamp = now;
                    self.cwnd = self.cwnd.max(self.prior_cwnd);
                    if self.filled_pipe {
                        self.enter_probe_bw(now);
                    } else {
                        self.enter_startup();
                    }
                }
            }
        }
    }

    /// §4.2.3.4 BBRSaveCwnd.
    fn saved_cwnd(&self) -> f64 {
        if !self.recovering && self.mode != Mode::ProbeRtt {
            self.cwnd
        } else {
            self.prior_cwnd.max(self.cwnd)
        }
    }

    /// §4.2.1 BBRSetPacingRateWithGain, after BBRInitPacingRate from the first RTT sample.
    fn set_pacing_rate(&mut self) {
        if let (false, Some(rt)) = (self.seen_rtt, self.rtprop) {
            self.seen_rtt = true;
            self.pacing_rate =
                self.cfg.high_gain * self.initial_cwnd * self.packet_bits / rt.as_secs_f64();
        }
        let rate = self.pacing_gain * self.btl_bw() * self.packet_bits;
        if rate > 0.0 && (self.filled_pipe || rate > self.pacing_rate) {
            self.pacing_rate = rate;
        }
    }

    /// §4.2.3 BBRSetCwnd.
    fn set_cwnd(&mut self, delivered: u64) {
        let target = self.inflight(self.cwnd_gain);
        let delivered = delivered as f64;
        if self.packet_conservation {
            self.cwnd = self.cwnd.max(self.in_flight as f64 + delivered);
        } else if self.filled_pipe {
            self.cwnd = (self.cwnd + delivered).min(target);
        } else if self.cwnd < target || (self.rate.delivered as f64) < self.initial_cwnd {
            self.cwnd += delivered;
        }
        self.cwnd = self.cwnd.max(self.cfg.min_cwnd as f64);
        if self.mode == Mode::ProbeRtt {
            self.cwnd = self.cwnd.min(self.cfg.min_cwnd as f64);
        }
    }
}

impl CongestionControl for Bbr {
    fn samples_delivery(&self) -> bool {
        true
    }

    fn on_sent(&mut self, seq: i64, now: SimTime, in_flight: u64, retransmit: bool) {
        self.rate.on_sent(seq, now, in_flight, retransmit);
        self.maxseq = self.maxseq.max(seq);
        self.in_flight = in_flight + u64::from(!retransmit);
    }

    fn on_app_limited(&mut self, in_flight: u64) {
        self.rate.mark_app_limited(in_flight);
    }

    fn on_marked_lost(&mut self, seq: i64) {
        self.rate.mark_lost_by_sender(seq);
    }

    /// §4 BBRUpdateOnACK: the model, the state machine, then pacing rate and cwnd.
    fn on_ack_arrived(&mut self, ack: i64, sack: &[(u64, u64)], maxseq: i64, now: SimTime) {
        let prior_inflight = self.in_flight;
        let Some(rs) = self.rate.on_ack(ack, sack, now, self.rtprop) else { return };
        self.maxseq = maxseq;
        self.in_flight = self.rate.pipe();
        if self.recovering && ack >= self.recover {
            self.recovering = false;
            self.packet_conservation = false;
            self.cwnd = self.cwnd.max(self.prior_cwnd);
        }
        self.update_btl_bw(&rs);
        self.check_cycle_phase(now, prior_inflight);
        self.check_full_pipe(&rs);
        self.check_drain(now);
        self.update_rtprop(now, rs.rtt);
        self.check_probe_rtt(now);
        self.set_pacing_rate();
        self.set_cwnd(rs.newly_delivered);
    }

    /// Everything happens in [`CongestionControl::on_ack_arrived`].
    fn on_ack(&mut self, _s: &AckSample) {}

    /// §4.2.3.4: fast recovery starts with cwnd = in flight + 1 and a round of packet
    /// conservation.
    fn on_congestion(&mut self, ev: CongestionEvent, _v: &SenderView) {
        if ev != CongestionEvent::FastRetransmit {
            return;
        }
        self.prior_cwnd = self.saved_cwnd();
        self.recovering = true;
        self.recover = self.maxseq;
        self.cwnd = self.in_flight as f64 + 1.0;
        self.packet_conservation = true;
        self.next_round_delivered = self.rate.delivered;
    }

    /// §4.2.3.4: a timeout leaves one packet in flight; the cwnd returns when recovery ends.
    /// Every outstanding packet not SACKed is lost (Linux `tcp_enter_loss`), so none counts
    /// in flight until it is sent again.
    fn on_rto(&mut self, _kind: RtoKind, _v: &SenderView) {
        self.rate.mark_outstanding_lost();
        self.in_flight = self.rate.pipe();
        self.prior_cwnd = self.saved_cwnd();
        self.recovering = true;
        self.recover = self.maxseq;
        self.cwnd = 1.0;
        self.packet_conservation = false;
    }

    fn ignores_ecn(&self) -> bool {
        true
    }

    fn pacing_rate(&self) -> Option<f64> {
        Some(self.pacing_rate)
    }

    fn state_values(&self, out: &mut dyn FnMut(&'static str, f64)) {
        out("state", self.mode.code());
        out("pacing_gain", self.pacing_gain);
        out("cwnd_gain", self.cwnd_gain);
        out("btl_bw_bps", self.btl_bw() * self.packet_bits);
        out("min_rtt_s", self.rtprop.map_or(f64::NAN, |r| r.as_secs_f64()));
    }

    super::reno_window!();
}

#[cfg(test)]
mod tests;
