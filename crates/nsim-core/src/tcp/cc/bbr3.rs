//! BBRv3 congestion control (Cardwell, Swett & Beshay, draft-ietf-ccwg-bbr-06, 2026; every §
//! below is that draft's), on the one-way TCP with Sack1 recovery, always paced. Google's
//! BBRv3 (`net/ipv4/tcp_bbr.c`, github.com/google/bbr branch v3) only where the draft leaves a
//! choice open (ECN, the loss-event count in Startup).
//!
//! Unlike BBR v1 ([`super::bbr`]) it reacts to loss (and ECN): a long-term bound
//! inflight_longterm (Linux's inflight_hi) set when a bandwidth probe loses more than 2 % of
//! its flight, and short-term bounds bw_shortterm / inflight_shortterm (bw_lo / inflight_lo)
//! cut by β = 0.7 per lossy round while not probing. The rules, each with its section:
//!
//! - §4.1 delivery-rate samples and loss marking: [`super::delivery_rate`] (RFC 6675 `IsLost`
//!   from the SACK scoreboard, all outstanding on a timeout).
//! - §5.5.1 rounds; §5.5.5-5.5.6 BBR.max_bw: max of the samples over the last 2 ProbeBW cycles
//!   (the cycle count advances one round after ProbeBW_UP ends); app-limited samples only if
//!   they raise it. §5.3.4.3 BBR.min_rtt (10 s window) and probe_rtt_min_delay (5 s).
//! - §5.5.9 extra_acked: max over 10 rounds (1 in Startup) of the data ACKed beyond bw × time.
//! - §5.3.1 Startup: pacing gain 4 ln 2, cwnd gain 2; §5.3.1.2 full bandwidth after 3 rounds
//!   with < 25 % growth of the delivery rate; §5.3.1.3 exit on loss: in fast recovery, at the
//!   end of a round with ≥ 6 lossy ACKs (Linux `bbr_check_loss_too_high_in_startup` counts an
//!   ACK that marks losses as one discontiguous range) and RS.lost > 2 % of RS.tx_in_flight;
//!   then inflight_longterm = max(BDP, inflight_latest). On ECN (Linux v3): 2 rounds in a row
//!   with CE on ≥ 50 % of the deliveries.
//! - §5.3.2 Drain: pacing gain 0.5 until in flight ≤ BDP (or 3 rounds).
//! - §5.3.3 ProbeBW: DOWN (0.9) until in flight ≤ BDP and ≤ inflight_longterm × (1 − 0.15);
//!   CRUISE (1.0) until the probe wait has passed (2 s + uniform 0-1 s from the flow's own
//!   stream, or min(BDP, cwnd, 63) round trips counted from 0 or 1); REFILL (1.0) for one
//!   round, short-term bounds reset; UP (1.25, cwnd gain 2.25) until the delivery rate stops
//!   growing (or, after a probe that went too high, in flight reaches inflight_longterm:
//!   §5.3.3.6 precautionary probing), with inflight_longterm growing 1, 2, 4 ... packets per
//!   round while cwnd-limited by it (§5.3.3.9).
//! - §5.5.10.2 a loss rate above 2 % on a probe sample: inflight_longterm = max(inflight at
//!   which the rate crossed 2 % (`InflightAtLoss`), β × min(BDP, cwnd)), UP → DOWN.
//!   §5.5.10.3 once per lossy round outside probing: bw_shortterm = max(bw_latest, β ×
//!   bw_shortterm), inflight_shortterm = max(inflight_latest, β × inflight_shortterm).
//! - §5.3.4 ProbeRTT when probe_rtt_min_delay is 5 s old: cwnd gain 0.5 (cwnd ≥ 4), 200 ms
//!   and a round, then ProbeBW_CRUISE (or Startup).
//! - §5.6.2 pacing rate = gain × bw × 0.99; §5.6.3 send quantum = 1 ms of data in [2 packets,
//!   64 KB]; §5.6.4.2 max_inflight = cwnd_gain × BDP + extra_acked, at least 3 quanta and 4
//!   packets (+2 in UP); §5.6.4.6 cwnd grows by the data delivered up to max_inflight;
//!   §5.6.4.7 bounded by inflight_longterm (× 0.85 in CRUISE and ProbeRTT) and
//!   inflight_shortterm; §5.6.4.4 a timeout sets cwnd = in flight + 1, the cwnd before
//!   recovery (fast or timeout) is restored when it ends; §5.6.4.5 ProbeRTT caps cwnd.
//! - ECN (not in the draft, §3.7; Linux v3, used only if `ecn = true` and min RTT ≤ 5 ms; the
//!   sink echoes each segment's CE as for DCTCP): per round, α ← (1 − 1/16) α + 1/16 × CE
//!   fraction; a round with marks outside probing cuts inflight_shortterm by α/3; a CE
//!   fraction above 0.5 on probe samples is "too high" as loss is.
//!
//! Not modelled: undo after spurious recovery (§5.5.11: the sender does not detect it), the
//! send quantum as a release size (the pacer's is `pacing_quantum`), restart-from-idle's
//! ProbeRTT check. Windows are in packets, rates in packets/s (bit/s when reported).

pub mod config;

use super::delivery_rate::{DeliveryRate, LostPacket, RateSample};
use super::max_filter::MaxFilter;
use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::rng::SimRng;
use crate::time::{Dur, SimTime};
use config::Bbr3Config;
use rand::RngExt;

/// ProbeBW pacing gains (§5.3.3.1-5.3.3.5) and ProbeBW_UP's cwnd gain (§5.3.3.5).
pub const DOWN_GAIN: f64 = 0.9;
pub const UP_GAIN: f64 = 1.25;
pub const UP_CWND_GAIN: f64 = 2.25;
/// §5.3.1.2: growth below this factor ...
pub const FULL_BW_GROWTH: f64 = 1.25;
/// ... for this many rounds fills the pipe.
pub const FULL_BW_ROUNDS: u32 = 3;
/// §2.11 BBR.MaxBwFilterLen (ProbeBW cycles) and §2.12 BBR.ExtraAckedFilterLen (rounds).
const MAX_BW_FILTER_CYCLES: u32 = 2;
const EXTRA_ACKED_ROUNDS: u32 = 10;
/// §5.6.2 InitPacingRate's RTT before any sample.
const NOMINAL_RTT: Dur = Dur::from_millis(1);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Startup,
    Drain,
    ProbeBwDown,
    ProbeBwCruise,
    ProbeBwRefill,
    ProbeBwUp,
    ProbeRtt,
}

impl State {
    /// The number recorded in the `"cc"` series' `state` (docs/models/tcp_bbr3.md).
    pub fn code(self) -> f64 {
        self as u8 as f64
    }

    fn probe_bw(self) -> bool {
        matches!(
            self,
            State::ProbeBwDown | State::ProbeBwCruise | State::ProbeBwRefill | State::ProbeBwUp
        )
    }

    /// §5.3.3.9 IsProbingBW.
    fn probing(self) -> bool {
        matches!(self, State::Startup | State::ProbeBwRefill | State::ProbeBwUp)
    }
}

/// §2.14 BBR.ack_phase: what the ACKs say about bandwidth probing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AckPhase {
    Init,
    Refilling,
    ProbeStarting,
    ProbeFeedback,
    ProbeStopping,
}

#[derive(Clone, Debug)]
pub struct Bbr3 {
    cfg: Bbr3Config,
    /// Bits of one full segment on the wire.
    packet_bits: f64,
    initial_cwnd: f64,
    /// Reported as ssthresh (BBR has none): the sender's initial ssthresh.
    ssthresh: f64,
    rate: DeliveryRate,
    rng: SimRng,
    /// The time of the event being handled.
    now: SimTime,
    state: State,
    pacing_gain: f64,
    cwnd_gain: f64,
    /// bit/s.
    pacing_rate: f64,
    seen_rtt: bool,
    cwnd: f64,
    prior_cwnd: f64,
    // Model (§2.9-2.12), rates in packets/s, volumes in packets; INFINITY = unset.
    max_bw: MaxFilter,
    cycle_count: u64,
    bw_shortterm: f64,
    bw: f64,
    inflight_longterm: f64,
    inflight_shortterm: f64,
    bw_latest: f64,
    inflight_latest: f64,
    extra_acked: MaxFilter,
    extra_acked_start: SimTime,
    extra_acked_delivered: f64,
    min_rtt: Option<Dur>,
    min_rtt_stamp: SimTime,
    probe_rtt_min_delay: Option<Dur>,
    probe_rtt_min_stamp: SimTime,
    probe_rtt_expired: bool,
    probe_rtt_done: Option<SimTime>,
    probe_rtt_round_done: bool,
    // Rounds (§5.5.1) and loss rounds (§5.5.10.3).
    round_count: u64,
    next_round_delivered: u64,
    round_start: bool,
    rounds_since_probe_up: u64,
    loss_round_delivered: u64,
    loss_round_start: bool,
    is_loss_in_round: bool,
    loss_events_in_round: u32,
    // Startup and Drain (§2.13, §2.7).
    full_bw_reached: bool,
    full_bw_now: bool,
    full_bw: f64,
    full_bw_count: u32,
    drain_start_round: u64,
    // ProbeBW (§2.14).
    ack_phase: AckPhase,
    is_bw_probe_sample: bool,
    bw_probe_up_acked: f64,
    probe_up_acked_per_inc: f64,
    bw_probe_up_rounds: u32,
    bw_probe_wait: Dur,
    cycle_stamp: SimTime,
    prev_probe_too_high: bool,
    prev_probe_precautionary: bool,
    idle_restart: bool,
    // Sender state seen through the hooks.
    in_flight: u64,
    recovering: bool,
    recover: i64,
    maxseq: i64,
    cwnd_limited_now: bool,
    cwnd_limited_prev: bool,
    // ECN (Linux v3).
    newly_delivered: u64,
    delivered_ce: u64,
    alpha_last_delivered: u64,
    alpha_last_delivered_ce: u64,
    ecn_alpha: f64,
    ecn_in_round: bool,
    ecn_eligible: bool,
    startup_ecn_rounds: u32,
}

impl Bbr3 {
    /// A BBRv3 sender starting at `cwnd` packets whose initial window is `initial_window`, for
    /// segments of `packet_bytes` on the wire and a flight of at most `window` packets.
    pub fn new(
        cfg: Bbr3Config,
        cwnd: f64,
        initial_window: u32,
        ssthresh: f64,
        packet_bytes: u64,
        window: u32,
        rng: SimRng,
    ) -> Self {
        let packet_bits = packet_bytes as f64 * 8.0;
        let initial_cwnd = initial_window as f64;
        let mut rate = DeliveryRate::new(window);
        rate.track_losses = true;
        rate.loss_thresh = cfg.loss_thresh;
        Bbr3 {
            pacing_rate: cfg.startup_pacing_gain * initial_cwnd * packet_bits
                / NOMINAL_RTT.as_secs_f64(),
            pacing_gain: cfg.startup_pacing_gain,
            cwnd_gain: cfg.cwnd_gain,
            cfg,
            packet_bits,
            initial_cwnd,
            ssthresh,
            rate,
            rng,
            now: SimTime::ZERO,
            state: State::Startup,
            seen_rtt: false,
            cwnd,
            prior_cwnd: 0.0,
            max_bw: MaxFilter::new(MAX_BW_FILTER_CYCLES),
            cycle_count: 0,
            bw_shortterm: f64::INFINITY,
            bw: 0.0,
            inflight_longterm: f64::INFINITY,
            inflight_shortterm: f64::INFINITY,
            bw_latest: 0.0,
            inflight_latest: 0.0,
            extra_acked: MaxFilter::new(1),
            extra_acked_start: SimTime::ZERO,
            extra_acked_delivered: 0.0,
            min_rtt: None,
            min_rtt_stamp: SimTime::ZERO,
            probe_rtt_min_delay: None,
            probe_rtt_min_stamp: SimTime::ZERO,
            probe_rtt_expired: false,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            round_count: 0,
            next_round_delivered: 0,
            round_start: false,
            rounds_since_probe_up: 0,
            loss_round_delivered: 0,
            loss_round_start: false,
            is_loss_in_round: false,
            loss_events_in_round: 0,
            full_bw_reached: false,
            full_bw_now: false,
            full_bw: 0.0,
            full_bw_count: 0,
            drain_start_round: 0,
            ack_phase: AckPhase::Init,
            is_bw_probe_sample: false,
            bw_probe_up_acked: 0.0,
            probe_up_acked_per_inc: f64::INFINITY,
            bw_probe_up_rounds: 0,
            bw_probe_wait: Dur::ZERO,
            cycle_stamp: SimTime::ZERO,
            prev_probe_too_high: false,
            prev_probe_precautionary: false,
            idle_restart: false,
            in_flight: 0,
            recovering: false,
            recover: -1,
            maxseq: -1,
            cwnd_limited_now: false,
            cwnd_limited_prev: false,
            newly_delivered: 0,
            delivered_ce: 0,
            alpha_last_delivered: 0,
            alpha_last_delivered_ce: 0,
            ecn_alpha: 1.0,
            ecn_in_round: false,
            ecn_eligible: false,
            startup_ecn_rounds: 0,
        }
    }

    pub fn state(&self) -> State {
        self.state
    }

    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }

    pub fn cwnd_gain(&self) -> f64 {
        self.cwnd_gain
    }

    /// BBR.max_bw and BBR.bw, packets per second.
    pub fn max_bw(&self) -> f64 {
        self.max_bw.get()
    }

    pub fn bw(&self) -> f64 {
        self.bw
    }

    pub fn min_rtt(&self) -> Option<Dur> {
        self.min_rtt
    }

    /// inflight_longterm and inflight_shortterm, packets (infinite when unset).
    pub fn inflight_longterm(&self) -> f64 {
        self.inflight_longterm
    }

    pub fn inflight_shortterm(&self) -> f64 {
        self.inflight_shortterm
    }

    pub fn bw_shortterm(&self) -> f64 {
        self.bw_shortterm
    }

    pub fn full_bw_reached(&self) -> bool {
        self.full_bw_reached
    }

    /// The probe wait drawn when ProbeBW_DOWN last started (§5.3.3.8.3 PickProbeWait).
    pub fn bw_probe_wait(&self) -> Dur {
        self.bw_probe_wait
    }

    fn is_cwnd_limited(&self) -> bool {
        self.cwnd_limited_now || self.cwnd_limited_prev
    }

    // ---- Model: rounds, bandwidth, RTT (§5.5) ----

    /// §5.5.1 StartRound.
    fn start_round(&mut self) {
        self.next_round_delivered = self.rate.delivered;
    }

    /// §5.5.1 UpdateRound.
    fn update_round(&mut self, rs: &RateSample) {
        self.round_start = rs.prior_delivered >= self.next_round_delivered;
        if self.round_start {
            self.start_round();
            self.round_count += 1;
            self.rounds_since_probe_up += 1;
            self.cwnd_limited_prev = self.cwnd_limited_now;
            self.cwnd_limited_now = false;
        }
    }

    /// §5.5.5 UpdateMaxBw.
    fn update_max_bw(&mut self, rs: &RateSample) {
        self.update_round(rs);
        if let Some(r) = rs.rate.filter(|&r| r > 0.0) {
            if r >= self.max_bw() || !rs.app_limited {
                self.max_bw.update(self.cycle_count, r);
            }
        }
    }

    /// §5.5.6 AdvanceMaxBwFilter.
    fn advance_max_bw_filter(&mut self) {
        self.cycle_count += 1;
        self.max_bw.expire(self.cycle_count);
    }

    /// §5.3.4.3 UpdateMinRTT.
    fn update_min_rtt(&mut self, now: SimTime, rtt: Option<Dur>) {
        self.probe_rtt_expired = now > self.probe_rtt_min_stamp + self.cfg.probe_rtt_interval.0;
        if let Some(r) = rtt {
            if self.probe_rtt_min_delay.is_none_or(|m| r < m) || self.probe_rtt_expired {
                self.probe_rtt_min_delay = Some(r);
                self.probe_rtt_min_stamp = now;
            }
        }
        let expired = now > self.min_rtt_stamp + self.cfg.min_rtt_window.0;
        if let Some(d) = self.probe_rtt_min_delay {
            if self.min_rtt.is_none_or(|m| d < m) || expired {
                self.min_rtt = Some(d);
                self.min_rtt_stamp = self.probe_rtt_min_stamp;
            }
        }
    }

    /// §5.5.9 UpdateACKAggregation.
    fn update_ack_aggregation(&mut self, now: SimTime, newly: u64) {
        let interval = now.since(self.extra_acked_start).as_secs_f64();
        let mut expected = self.bw * interval;
        if self.extra_acked_delivered <= expected {
            self.extra_acked_delivered = 0.0;
            self.extra_acked_start = now;
            expected = 0.0;
        }
        self.extra_acked_delivered += newly as f64;
        let extra = (self.extra_acked_delivered - expected).min(self.cwnd);
        self.extra_acked.set_window(if self.full_bw_reached { EXTRA_ACKED_ROUNDS } else { 1 });
        self.extra_acked.update(self.round_count, extra);
    }

    // ---- Congestion signals (§5.5.10) ----

    /// §5.5.10.3 UpdateLatestDeliverySignals.
    fn update_latest_delivery_signals(&mut self, rs: &RateSample) {
        self.loss_round_start = false;
        self.bw_latest = self.bw_latest.max(rs.rate.unwrap_or(0.0));
        self.inflight_latest = self.inflight_latest.max(rs.delivered as f64);
        if rs.prior_delivered >= self.loss_round_delivered {
            self.loss_round_delivered = self.rate.delivered;
            self.loss_round_start = true;
        }
    }

    /// §5.5.10.3 AdvanceLatestDeliverySignals.
    fn advance_latest_delivery_signals(&mut self, rs: &RateSample) {
        if self.loss_round_start {
            self.bw_latest = rs.rate.unwrap_or(0.0);
            self.inflight_latest = rs.delivered as f64;
        }
    }

    /// §5.3.3.9 ResetCongestionSignals.
    fn reset_congestion_signals(&mut self) {
        self.is_loss_in_round = false;
        self.ecn_in_round = false;
        self.bw_latest = 0.0;
        self.inflight_latest = 0.0;
    }

    /// §5.5.10.3 UpdateCongestionSignals, with Linux v3's per-round ECN update.
    fn update_congestion_signals(&mut self, rs: &RateSample) {
        self.update_max_bw(rs);
        if self.round_start {
            self.update_ecn(rs);
        }
        if !self.loss_round_start {
            return;
        }
        self.adapt_lower_bounds_from_congestion();
        self.is_loss_in_round = false;
        self.ecn_in_round = false;
    }

    /// §5.5.10.3 AdaptLowerBoundsFromCongestion (InitLowerBounds, LossLowerBounds), plus
    /// Linux v3's ECN cut (`bbr_ecn_lower_bounds`).
    fn adapt_lower_bounds_from_congestion(&mut self) {
        if self.state.probing() {
            return;
        }
        let mut ecn_inflight = f64::INFINITY;
        if self.ecn_in_round {
            if self.inflight_shortterm.is_infinite() {
                self.inflight_shortterm = self.cwnd;
            }
            ecn_inflight = self.inflight_shortterm * (1.0 - self.ecn_alpha * self.cfg.ecn_factor);
        }
        if self.is_loss_in_round {
            if self.bw_shortterm.is_infinite() {
                self.bw_shortterm = self.max_bw();
            }
            if self.inflight_shortterm.is_infinite() {
                self.inflight_shortterm = self.cwnd;
            }
            self.bw_shortterm = self.bw_latest.max(self.cfg.beta * self.bw_shortterm);
            self.inflight_shortterm =
                self.inflight_latest.max(self.cfg.beta * self.inflight_shortterm);
        }
        self.inflight_shortterm = self.inflight_shortterm.min(ecn_inflight);
    }

    /// §5.5.10.3 ResetShortTermModel.
    fn reset_short_term_model(&mut self) {
        self.bw_shortterm = f64::INFINITY;
        self.inflight_shortterm = f64::INFINITY;
    }

    /// §5.5.10.3 BoundBWForModel.
    fn bound_bw_for_model(&mut self) {
        self.bw = self.max_bw().min(self.bw_shortterm);
    }

    /// §5.5.10.2 HandleLostPacket for the packets one ACK (or a timeout) marked lost: NoteLoss,
    /// then the too-high response if a probe sample crossed the threshold.
    fn handle_losses(&mut self, too_high: Option<LostPacket>) {
        if !self.is_loss_in_round {
            self.loss_round_delivered = self.rate.delivered;
        }
        self.is_loss_in_round = true;
        if let (true, Some(p)) = (self.is_bw_probe_sample, too_high) {
            let tx = self.inflight_at_loss(p);
            self.handle_inflight_too_high(tx, p.app_limited);
        }
    }

    /// §5.5.10.2 InflightAtLoss: the flight at which the loss rate crossed the threshold,
    /// within packet `p` (one packet here).
    pub fn inflight_at_loss(&self, p: LostPacket) -> f64 {
        let thresh = self.cfg.loss_thresh;
        let inflight_prev = p.tx_in_flight as f64 - 1.0;
        let lost_prev = p.lost as f64 - 1.0;
        let lost_prefix = ((thresh * inflight_prev - lost_prev) / (1.0 - thresh)).max(0.0);
        inflight_prev + lost_prefix
    }

    /// §5.5.10.2 IsInflightTooHigh on this ACK's sample (loss part).
    fn is_inflight_too_high(&self, rs: &RateSample) -> bool {
        rs.lost as f64 > rs.tx_in_flight as f64 * self.cfg.loss_thresh
    }

    /// §5.5.10.2 HandleInflightTooHigh.
    fn handle_inflight_too_high(&mut self, tx_in_flight: f64, app_limited: bool) {
        self.prev_probe_too_high = true;
        self.is_bw_probe_sample = false;
        if !app_limited {
            self.inflight_longterm = tx_in_flight.max(self.target_inflight() * self.cfg.beta);
        }
        if self.state == State::ProbeBwUp {
            self.start_probe_bw_down();
        }
    }

    /// Linux v3 `bbr_update_ecn_alpha` once per round, on ECN-eligible paths: α, the
    /// round's marks, Startup's exit on ECN and the too-high check on probe samples.
    fn update_ecn(&mut self, rs: &RateSample) {
        if !self.ecn_eligible {
            return;
        }
        let delivered = self.rate.delivered - self.alpha_last_delivered;
        if delivered == 0 {
            return;
        }
        let ce_ratio = (self.delivered_ce - self.alpha_last_delivered_ce) as f64 / delivered as f64;
        let g = self.cfg.ecn_alpha_gain;
        self.ecn_alpha = ((1.0 - g) * self.ecn_alpha + g * ce_ratio).min(1.0);
        self.alpha_last_delivered = self.rate.delivered;
        self.alpha_last_delivered_ce = self.delivered_ce;
        self.ecn_in_round = ce_ratio > 0.0;
        if !self.full_bw_reached {
            self.startup_ecn_rounds =
                if ce_ratio >= self.cfg.ecn_thresh { self.startup_ecn_rounds + 1 } else { 0 };
            if self.startup_ecn_rounds >= self.cfg.startup_full_ecn_rounds {
                self.handle_queue_too_high_in_startup();
            }
        } else if self.is_bw_probe_sample && ce_ratio > self.cfg.ecn_thresh {
            self.handle_inflight_too_high(rs.tx_in_flight as f64, rs.app_limited);
        }
    }

    // ---- Startup and Drain (§5.3.1, §5.3.2) ----

    fn enter_startup(&mut self) {
        self.state = State::Startup;
        self.pacing_gain = self.cfg.startup_pacing_gain;
        self.cwnd_gain = self.cfg.cwnd_gain;
    }

    /// §5.3.1.2 ResetFullBW.
    fn reset_full_bw(&mut self) {
        self.full_bw = 0.0;
        self.full_bw_count = 0;
        self.full_bw_now = false;
    }

    /// §5.3.1.2 CheckFullBWReached.
    fn check_full_bw_reached(&mut self, rs: &RateSample) {
        let Some(r) = rs.rate else { return };
        if self.full_bw_now || !self.round_start || rs.app_limited {
            return;
        }
        if r >= self.full_bw * FULL_BW_GROWTH {
            self.reset_full_bw();
            self.full_bw = r;
            return;
        }
        self.full_bw_count += 1;
        self.full_bw_now = self.full_bw_count >= FULL_BW_ROUNDS;
        if self.full_bw_now {
            self.full_bw_reached = true;
        }
    }

    /// §5.3.1.3 CheckStartupHighLoss (Linux v3 `bbr_check_loss_too_high_in_startup`).
    fn check_startup_high_loss(&mut self, rs: &RateSample) {
        if self.full_bw_reached {
            return;
        }
        if rs.newly_lost > 0 {
            self.loss_events_in_round += 1;
        }
        if self.loss_round_start
            && self.recovering
            && self.loss_events_in_round >= self.cfg.startup_full_loss_count
            && self.is_inflight_too_high(rs)
        {
            self.handle_queue_too_high_in_startup();
        }
        if self.loss_round_start {
            self.loss_events_in_round = 0;
        }
    }

    /// §5.3.1.3: the pipe is full; inflight_longterm = max(BDP, inflight_latest).
    fn handle_queue_too_high_in_startup(&mut self) {
        self.full_bw_reached = true;
        self.inflight_longterm = self.bdp_multiple(self.bw, 1.0).max(self.inflight_latest);
    }

    /// §5.3.1.1 CheckStartupDone.
    fn check_startup_done(&mut self, rs: &RateSample) {
        self.check_startup_high_loss(rs);
        if self.state == State::Startup && self.full_bw_reached {
            self.enter_drain();
        }
    }

    /// §5.3.2 EnterDrain.
    fn enter_drain(&mut self) {
        self.state = State::Drain;
        self.pacing_gain = self.cfg.drain_pacing_gain;
        self.cwnd_gain = self.cfg.cwnd_gain;
        self.drain_start_round = self.round_count;
    }

    /// §5.3.2 CheckDrainDone.
    fn check_drain_done(&mut self) {
        if self.state == State::Drain
            && (self.in_flight as f64 <= self.inflight(self.bw, 1.0)
                || self.round_count > self.drain_start_round + 3)
        {
            self.enter_probe_bw();
        }
    }

    // ---- ProbeBW (§5.3.3) ----

    /// §5.3.3.9 EnterProbeBW.
    fn enter_probe_bw(&mut self) {
        self.cwnd_gain = self.cfg.cwnd_gain;
        self.start_probe_bw_down();
    }

    /// §5.3.3.9 StartProbeBW_DOWN.
    fn start_probe_bw_down(&mut self) {
        self.reset_congestion_signals();
        self.probe_up_acked_per_inc = f64::INFINITY;
        self.pick_probe_wait();
        self.cycle_stamp = self.now;
        self.ack_phase = AckPhase::ProbeStopping;
        self.start_round();
        self.state = State::ProbeBwDown;
        self.pacing_gain = DOWN_GAIN;
        self.cwnd_gain = self.cfg.cwnd_gain;
    }

    /// §5.3.3.9 StartProbeBW_CRUISE.
    fn start_probe_bw_cruise(&mut self) {
        self.state = State::ProbeBwCruise;
        self.pacing_gain = 1.0;
    }

    /// §5.3.3.9 StartProbeBW_REFILL.
    fn start_probe_bw_refill(&mut self) {
        self.reset_short_term_model();
        self.bw_probe_up_rounds = 0;
        self.bw_probe_up_acked = 0.0;
        self.prev_probe_precautionary = false;
        self.ack_phase = AckPhase::Refilling;
        self.start_round();
        self.state = State::ProbeBwRefill;
        self.pacing_gain = 1.0;
    }

    /// §5.3.3.9 StartProbeBW_UP.
    fn start_probe_bw_up(&mut self, rs: &RateSample) {
        self.ack_phase = AckPhase::ProbeStarting;
        self.start_round();
        self.reset_full_bw();
        self.full_bw = rs.rate.unwrap_or(0.0);
        self.state = State::ProbeBwUp;
        self.pacing_gain = UP_GAIN;
        self.cwnd_gain = UP_CWND_GAIN;
        self.raise_inflight_longterm_slope();
    }

    /// §5.3.3.8.3 PickProbeWait: 0 or 1 rounds already counted, 2 s + U[0, 1) s.
    fn pick_probe_wait(&mut self) {
        self.rounds_since_probe_up = self.rng.random_range(0..2u64);
        let rand = self.cfg.probe_wait_rand.0.as_secs_f64() * self.rng.random::<f64>();
        self.bw_probe_wait = self.cfg.probe_wait_base.0 + Dur::from_secs_f64(rand);
    }

    /// §5.3.3.8.3 TargetInflight.
    fn target_inflight(&self) -> f64 {
        self.bdp_multiple(self.bw, 1.0).min(self.cwnd)
    }

    /// §5.3.3.8.3 IsTimeToProbeBW (with IsRenoCoexistenceProbeTime).
    fn is_time_to_probe_bw(&mut self, now: SimTime) -> bool {
        let reno_rounds = self.target_inflight().min(self.cfg.reno_rounds_max as f64);
        if now > self.cycle_stamp + self.bw_probe_wait
            || self.rounds_since_probe_up as f64 >= reno_rounds
        {
            self.start_probe_bw_refill();
            return true;
        }
        false
    }

    /// §5.3.3.9 IsTimeToCruise.
    fn is_time_to_cruise(&self) -> bool {
        let inflight = self.in_flight as f64;
        inflight <= self.inflight_with_headroom() && inflight <= self.inflight(self.max_bw(), 1.0)
    }

    /// §5.3.3.9 IsTimeToGoDown.
    fn is_time_to_go_down(&mut self, rs: &RateSample) -> bool {
        if self.prev_probe_too_high && self.in_flight as f64 >= self.inflight_longterm {
            self.prev_probe_precautionary = true;
            return true;
        }
        if self.is_cwnd_limited() && self.cwnd >= self.inflight_longterm {
            self.reset_full_bw();
            self.full_bw = rs.rate.unwrap_or(0.0);
        } else if self.full_bw_now {
            return true;
        }
        false
    }

    /// §5.3.3.9 InflightWithHeadroom.
    fn inflight_with_headroom(&self) -> f64 {
        if self.inflight_longterm.is_infinite() {
            return f64::INFINITY;
        }
        let headroom = (self.cfg.headroom * self.inflight_longterm).max(1.0);
        (self.inflight_longterm - headroom).max(self.cfg.min_cwnd as f64)
    }

    /// §5.3.3.9 RaiseInflightLongtermSlope.
    fn raise_inflight_longterm_slope(&mut self) {
        let growth_this_round = (1u64 << self.bw_probe_up_rounds) as f64;
        self.bw_probe_up_rounds = (self.bw_probe_up_rounds + 1).min(30);
        self.probe_up_acked_per_inc = (self.cwnd / growth_this_round).max(1.0);
    }

    /// §5.3.3.9 ProbeInflightLongtermUpward.
    fn probe_inflight_longterm_upward(&mut self, rs: &RateSample) {
        if !self.is_cwnd_limited() || self.cwnd < self.inflight_longterm {
            return;
        }
        self.bw_probe_up_acked += rs.newly_delivered as f64;
        if self.bw_probe_up_acked >= self.probe_up_acked_per_inc {
            let delta = (self.bw_probe_up_acked / self.probe_up_acked_per_inc).floor();
            self.bw_probe_up_acked -= delta * self.probe_up_acked_per_inc;
            self.inflight_longterm += delta;
        }
        if self.round_start {
            self.raise_inflight_longterm_slope();
        }
    }

    /// §5.3.3.9 AdaptLongTermModel; true if it decided a state transition.
    fn adapt_long_term_model(&mut self, rs: &RateSample) -> bool {
        if self.ack_phase == AckPhase::ProbeStarting && self.round_start {
            self.ack_phase = AckPhase::ProbeFeedback;
        }
        if self.ack_phase == AckPhase::ProbeStopping && self.round_start {
            self.is_bw_probe_sample = false;
            self.ack_phase = AckPhase::Init;
            if self.state.probe_bw() && !rs.app_limited {
                self.advance_max_bw_filter();
            }
            if self.state.probe_bw() && self.prev_probe_precautionary && !self.prev_probe_too_high {
                self.start_probe_bw_refill();
                return true;
            }
        }
        if !self.is_inflight_too_high(rs) {
            if self.inflight_longterm.is_infinite() {
                return false;
            }
            self.inflight_longterm = self.inflight_longterm.max(rs.tx_in_flight as f64);
            if self.state == State::ProbeBwUp {
                self.probe_inflight_longterm_upward(rs);
            }
        }
        false
    }

    /// §5.3.3.9 UpdateProbeBWCyclePhase.
    fn update_probe_bw_cycle_phase(&mut self, rs: &RateSample, now: SimTime) {
        if !self.full_bw_reached || self.adapt_long_term_model(rs) || !self.state.probe_bw() {
            return;
        }
        match self.state {
            State::ProbeBwDown | State::ProbeBwCruise => {
                let refill = self.is_time_to_probe_bw(now);
                if !refill && self.state == State::ProbeBwDown && self.is_time_to_cruise() {
                    self.start_probe_bw_cruise();
                }
            }
            State::ProbeBwRefill if self.round_start => {
                self.is_bw_probe_sample = true;
                self.start_probe_bw_up(rs);
            }
            State::ProbeBwUp => {
                let down = self.is_time_to_go_down(rs);
                if down {
                    self.prev_probe_too_high = false;
                    self.start_probe_bw_down();
                }
            }
            _ => {}
        }
    }

    // ---- ProbeRTT (§5.3.4) ----

    /// §5.3.4.3 CheckProbeRTT.
    fn check_probe_rtt(&mut self, now: SimTime, rs: &RateSample) {
        if self.state != State::ProbeRtt && self.probe_rtt_expired && !self.idle_restart {
            self.state = State::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = self.cfg.probe_rtt_cwnd_gain;
            self.save_cwnd();
            self.probe_rtt_done = None;
            self.ack_phase = AckPhase::ProbeStopping;
            self.start_round();
        }
        if self.state == State::ProbeRtt {
            self.handle_probe_rtt(now);
        }
        if rs.delivered > 0 {
            self.idle_restart = false;
        }
    }

    /// §5.3.4.3 HandleProbeRTT.
    fn handle_probe_rtt(&mut self, now: SimTime) {
        self.rate.mark_app_limited(self.in_flight);
        match self.probe_rtt_done {
            None if self.in_flight as f64 <= self.probe_rtt_cwnd() => {
                self.probe_rtt_done = Some(now + self.cfg.probe_rtt_time.0);
                self.probe_rtt_round_done = false;
                self.start_round();
            }
            None => {}
            Some(_) => {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done {
                    self.check_probe_rtt_done(now);
                }
            }
        }
    }

    /// §5.3.4.3 CheckProbeRTTDone and §5.3.4.4 ExitProbeRTT.
    fn check_probe_rtt_done(&mut self, now: SimTime) {
        if self.probe_rtt_done.is_none_or(|d| now <= d) {
            return;
        }
        self.probe_rtt_min_stamp = now;
        self.restore_cwnd();
        self.reset_short_term_model();
        if self.full_bw_reached {
            self.cwnd_gain = self.cfg.cwnd_gain;
            self.start_probe_bw_down();
            self.start_probe_bw_cruise();
        } else {
            self.enter_startup();
        }
    }

    /// §5.6.4.5 ProbeRTTCwnd.
    fn probe_rtt_cwnd(&self) -> f64 {
        self.bdp_multiple(self.bw, self.cfg.probe_rtt_cwnd_gain).max(self.cfg.min_cwnd as f64)
    }

    // ---- Control parameters (§5.6) ----

    /// §5.6.4.2 BDPMultiple: gain × bw × min_rtt, the initial window before an RTT sample.
    fn bdp_multiple(&self, bw: f64, gain: f64) -> f64 {
        match self.min_rtt {
            Some(rt) => gain * bw * rt.as_secs_f64(),
            None => self.initial_cwnd,
        }
    }

    /// §5.6.3 SetSendQuantum, packets: 1 ms at the pacing rate, within [2 packets, 64 KB].
    fn send_quantum(&self) -> f64 {
        (self.pacing_rate * 1e-3 / self.packet_bits).min(65536.0 * 8.0 / self.packet_bits).max(2.0)
    }

    /// §5.6.4.2 QuantizationBudget (TCP offload budget 3 quanta, §5.5.8.1).
    fn quantization_budget(&self, cap: f64) -> f64 {
        let cap = cap.max(3.0 * self.send_quantum()).max(self.cfg.min_cwnd as f64);
        if self.state == State::ProbeBwUp {
            cap + 2.0
        } else {
            cap
        }
    }

    /// §5.6.4.2 Inflight(bw, gain).
    pub fn inflight(&self, bw: f64, gain: f64) -> f64 {
        self.quantization_budget(self.bdp_multiple(bw, gain))
    }

    /// §5.6.4.2 UpdateMaxInflight.
    pub fn max_inflight(&self) -> f64 {
        self.quantization_budget(
            self.bdp_multiple(self.bw, self.cwnd_gain) + self.extra_acked.get(),
        )
    }

    /// §5.6.2 SetPacingRateWithGain, after InitPacingRate from the first RTT sample.
    fn set_pacing_rate_with_gain(&mut self, gain: f64) {
        if let (false, Some(rt)) = (self.seen_rtt, self.min_rtt) {
            self.seen_rtt = true;
            self.pacing_rate = self.cfg.startup_pacing_gain * self.initial_cwnd * self.packet_bits
                / rt.as_secs_f64();
        }
        let rate = gain * self.bw * self.packet_bits * (1.0 - self.cfg.pacing_margin);
        if rate > 0.0 && (self.full_bw_reached || rate > self.pacing_rate) {
            self.pacing_rate = rate;
        }
    }

    /// §5.6.4.6 SetCwnd with §5.6.4.5 BoundCwndForProbeRTT and §5.6.4.7 BoundCwndForModel.
    fn set_cwnd(&mut self, newly: u64) {
        let max_inflight = self.max_inflight();
        let newly = newly as f64;
        if self.full_bw_reached {
            self.cwnd = (self.cwnd + newly).min(max_inflight);
        } else if self.cwnd < max_inflight || (self.rate.delivered as f64) < self.initial_cwnd {
            self.cwnd += newly;
        }
        self.cwnd = self.cwnd.max(self.cfg.min_cwnd as f64);
        if self.state == State::ProbeRtt {
            self.cwnd = self.cwnd.min(self.probe_rtt_cwnd());
        }
        self.bound_cwnd_for_model();
    }

    /// §5.6.4.7 BoundCwndForModel.
    fn bound_cwnd_for_model(&mut self) {
        let cap = match self.state {
            State::ProbeBwCruise | State::ProbeRtt => self.inflight_with_headroom(),
            s if s.probe_bw() => self.inflight_longterm,
            _ => f64::INFINITY,
        };
        let cap = cap.min(self.inflight_shortterm).max(self.cfg.min_cwnd as f64);
        self.cwnd = self.cwnd.min(cap);
    }

    /// §5.6.4.4 SaveCwnd.
    fn save_cwnd(&mut self) {
        self.prior_cwnd = if !self.recovering && self.state != State::ProbeRtt {
            self.cwnd
        } else {
            self.prior_cwnd.max(self.cwnd)
        };
    }

    /// §5.6.4.4 RestoreCwnd.
    fn restore_cwnd(&mut self) {
        self.cwnd = self.cwnd.max(self.prior_cwnd);
    }
}

impl CongestionControl for Bbr3 {
    fn samples_delivery(&self) -> bool {
        true
    }

    /// §5.2.2 OnTransmit (§5.4.1 HandleRestartFromIdle) and the cwnd-limited mark.
    fn on_sent(&mut self, seq: i64, now: SimTime, in_flight: u64, retransmit: bool) {
        if in_flight == 0 && self.rate.app_limited() {
            self.idle_restart = true;
            self.extra_acked_start = now;
            if self.state.probe_bw() {
                self.set_pacing_rate_with_gain(1.0);
            }
        }
        self.rate.on_sent(seq, now, in_flight, retransmit);
        self.maxseq = self.maxseq.max(seq);
        self.in_flight = self.rate.pipe();
        if (in_flight + u64::from(!retransmit)) as f64 >= self.cwnd.floor() {
            self.cwnd_limited_now = true;
        }
    }

    fn on_app_limited(&mut self, in_flight: u64) {
        self.rate.mark_app_limited(in_flight);
    }

    fn on_marked_lost(&mut self, seq: i64) {
        self.rate.mark_lost_by_sender(seq);
    }

    /// §5.2.4 per-loss steps, then §5.2.3 UpdateOnACK.
    fn on_ack_arrived(&mut self, ack: i64, sack: &[(u64, u64)], maxseq: i64, now: SimTime) {
        self.newly_delivered = 0;
        let Some(rs) = self.rate.on_ack(ack, sack, now, self.min_rtt) else { return };
        self.now = now;
        self.maxseq = maxseq;
        self.in_flight = self.rate.pipe();
        self.newly_delivered = rs.newly_delivered;
        if rs.newly_lost > 0 {
            self.handle_losses(rs.loss_too_high);
        }
        if self.recovering && ack >= self.recover {
            self.recovering = false;
            self.restore_cwnd();
        }
        self.update_latest_delivery_signals(&rs);
        self.update_congestion_signals(&rs);
        self.update_ack_aggregation(now, rs.newly_delivered);
        self.check_full_bw_reached(&rs);
        self.check_startup_done(&rs);
        self.check_drain_done();
        self.update_probe_bw_cycle_phase(&rs, now);
        self.update_min_rtt(now, rs.rtt);
        if !self.ecn_eligible && self.min_rtt.is_some_and(|m| m <= self.cfg.ecn_max_rtt.0) {
            self.ecn_eligible = true;
        }
        self.check_probe_rtt(now, &rs);
        self.advance_latest_delivery_signals(&rs);
        self.bound_bw_for_model();
        self.set_pacing_rate_with_gain(self.pacing_gain);
        self.set_cwnd(rs.newly_delivered);
    }

    /// Everything happens in [`CongestionControl::on_ack_arrived`].
    fn on_ack(&mut self, _s: &AckSample) {}

    /// CE marks of the data this ACK delivered (the sink echoes each segment's CE).
    fn observe_ack(&mut self, _acked_bytes: u64, ece: bool, _snd_nxt: i64, _ack: i64) {
        if ece {
            self.delivered_ce += self.newly_delivered;
        }
    }

    /// §5.6.4.4 OnEnterFastRecovery: the cwnd is saved; the loss response is the model's.
    fn on_congestion(&mut self, ev: CongestionEvent, _v: &SenderView) {
        if ev != CongestionEvent::FastRetransmit || self.recovering {
            return;
        }
        self.save_cwnd();
        self.recovering = true;
        self.recover = self.maxseq;
    }

    /// §5.6.4.4 OnEnterRTO: every outstanding packet is lost, cwnd = in flight + 1.
    fn on_rto(&mut self, _kind: RtoKind, v: &SenderView) {
        self.now = v.now;
        self.save_cwnd();
        let losses = self.rate.mark_outstanding_lost();
        if losses.newly_lost > 0 {
            self.handle_losses(losses.too_high);
        }
        self.in_flight = self.rate.pipe();
        self.recovering = true;
        self.recover = self.maxseq;
        self.cwnd = self.in_flight as f64 + 1.0;
    }

    fn pacing_rate(&self) -> Option<f64> {
        Some(self.pacing_rate)
    }

    fn state_values(&self, out: &mut dyn FnMut(&'static str, f64)) {
        let finite_or_nan = |x: f64| if x.is_finite() { x } else { f64::NAN };
        out("state", self.state.code());
        out("pacing_gain", self.pacing_gain);
        out("cwnd_gain", self.cwnd_gain);
        out("max_bw_bps", self.max_bw() * self.packet_bits);
        out("bw_bps", self.bw * self.packet_bits);
        out("bw_lo_bps", finite_or_nan(self.bw_shortterm * self.packet_bits));
        out("min_rtt_s", self.min_rtt.map_or(f64::NAN, |r| r.as_secs_f64()));
        out("inflight_hi", finite_or_nan(self.inflight_longterm));
        out("inflight_lo", finite_or_nan(self.inflight_shortterm));
        out("ecn_alpha", self.ecn_alpha);
    }

    super::reno_window!();
}

#[cfg(test)]
mod tests;
