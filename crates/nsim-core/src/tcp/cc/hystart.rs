//! HyStart++ (RFC 9406): slow start that leaves early when the round trip time starts to grow,
//! through a few rounds of Conservative Slow Start (CSS), instead of overshooting until a loss.
//! CUBIC's slow start with `cubic.hystart = true` ([`super::cubic`]); the state is kept apart
//! from the window so that another variant's slow start can take it too.
//!
//! Read first: RFC 9406 §4.1 (summary), §4.2 (algorithm), §4.3 (constants). The rules, each
//! with its section:
//!
//! - Rounds (§4.2): `windowEnd` = SND.NXT; the round ends when an ACK covers the segment
//!   numbered `windowEnd` (ack ≥ windowEnd in nsim's packet numbers; Linux
//!   `after(ack, end_seq)`, as DCTCP's window in [`super::dctcp`]), and the next one starts
//!   with `windowEnd` = SND.NXT, lastRoundMinRTT = currentRoundMinRTT, currentRoundMinRTT = ∞,
//!   rttSampleCount = 0.
//! - Growth (§4.2): per ACK acknowledging N packets, cwnd += min(N, L) in slow start and
//!   min(N, L)/CSS_GROWTH_DIVISOR in CSS, L = 8 (§4.3, a sender without pacing); each RTT
//!   sample lowers currentRoundMinRTT and counts in rttSampleCount.
//! - Delay increase (§4.2): once rttSampleCount ≥ N_RTT_SAMPLE and both round minima are
//!   known, RttThresh = max(MIN_RTT_THRESH, min(lastRoundMinRTT / MIN_RTT_DIVISOR,
//!   MAX_RTT_THRESH)); if currentRoundMinRTT ≥ lastRoundMinRTT + RttThresh, CSS starts with
//!   cssBaselineMinRtt = currentRoundMinRTT.
//! - Spurious exit (§4.2): in CSS, once rttSampleCount ≥ N_RTT_SAMPLE, currentRoundMinRTT <
//!   cssBaselineMinRtt resumes slow start (HyStart++ included).
//! - End of CSS (§4.2): after CSS_ROUNDS rounds (the round CSS began in counts as the first)
//!   ssthresh = cwnd: congestion avoidance.
//! - Loss or ECN (§4.2): the variant's own reduction; HyStart++ is then off for the rest of
//!   the connection (it SHOULD run only in the initial slow start, §4.2), as after a timeout.
//!
//! Constants (§4.3): N_RTT_SAMPLE = 8, MIN_RTT_THRESH = 4 ms, MAX_RTT_THRESH = 16 ms,
//! MIN_RTT_DIVISOR = 8, CSS_GROWTH_DIVISOR = 4, CSS_ROUNDS = 5, L = 8 packets.

use super::AckSample;
use crate::time::Dur;

/// RTT samples a round needs before its minimum is compared (§4.3).
pub const N_RTT_SAMPLE: u32 = 8;
/// Lower clamp of the delay-increase threshold (§4.3).
pub const MIN_RTT_THRESH: Dur = Dur::from_millis(4);
/// Upper clamp of the delay-increase threshold (§4.3).
pub const MAX_RTT_THRESH: Dur = Dur::from_millis(16);
/// The threshold is lastRoundMinRTT divided by this, then clamped (§4.3).
pub const MIN_RTT_DIVISOR: u64 = 8;
/// CSS grows the window this many times slower than slow start (§4.3).
pub const CSS_GROWTH_DIVISOR: f64 = 4.0;
/// Rounds of CSS before congestion avoidance (§4.3).
pub const CSS_ROUNDS: u32 = 5;
/// Most packets one ACK may add, for a sender without pacing (§4.3 "L").
pub const L_NON_PACED: u64 = 8;

/// Where HyStart++ stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Standard slow start, watching the round minima.
    SlowStart,
    /// Conservative Slow Start since `baseline` (cssBaselineMinRtt); `rounds` counts the
    /// rounds spent in it, the one it began in included.
    Css { baseline: Dur, rounds: u32 },
    /// Left for good: congestion avoidance reached, or a loss, ECN mark or timeout seen.
    Off,
}

#[derive(Clone, Debug)]
pub struct HyStartPp {
    phase: Phase,
    /// The segment whose ACK ends the round (`windowEnd`); None before the first ACK.
    window_end: Option<i64>,
    last_round_min: Option<Dur>,
    current_round_min: Option<Dur>,
    samples: u32,
}

impl Default for HyStartPp {
    fn default() -> Self {
        HyStartPp {
            phase: Phase::SlowStart,
            window_end: None,
            last_round_min: None,
            current_round_min: None,
            samples: 0,
        }
    }
}

impl HyStartPp {
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The segment whose ACK ends the current round (`windowEnd`).
    pub fn window_end(&self) -> Option<i64> {
        self.window_end
    }

    /// Whether slow start's ACKs still go through [`Self::on_ack`].
    pub fn active(&self) -> bool {
        self.phase != Phase::Off
    }

    /// A loss, ECN-Echo or timeout: HyStart++ stops (§4.2).
    pub fn stop(&mut self) {
        self.phase = Phase::Off;
    }

    /// RttThresh = max(MIN_RTT_THRESH, min(last / MIN_RTT_DIVISOR, MAX_RTT_THRESH)) (§4.2).
    pub fn rtt_thresh(last_round_min: Dur) -> Dur {
        Dur((last_round_min.0 / MIN_RTT_DIVISOR).clamp(MIN_RTT_THRESH.0, MAX_RTT_THRESH.0))
    }

    /// One new ACK while cwnd < ssthresh: ends the round if it covers `windowEnd`, grows
    /// cwnd, takes the RTT sample and applies the phase's exit test. An ACK that ends the
    /// last of CSS_ROUNDS rounds of CSS sets ssthresh = cwnd and is left to congestion
    /// avoidance: false.
    pub fn on_ack(&mut self, s: &AckSample, cwnd: &mut f64, ssthresh: &mut f64) -> bool {
        if self.window_end.is_none_or(|end| s.ack >= end) {
            if let Phase::Css { rounds, .. } = &mut self.phase {
                if *rounds >= CSS_ROUNDS {
                    *ssthresh = *cwnd;
                    self.phase = Phase::Off;
                    return false;
                }
                *rounds += 1;
            }
            self.window_end = Some(s.snd_nxt);
            self.last_round_min = self.current_round_min.take();
            self.samples = 0;
        }
        let grow = s.acked_pkts.clamp(1, L_NON_PACED) as f64;
        *cwnd +=
            if matches!(self.phase, Phase::Css { .. }) { grow / CSS_GROWTH_DIVISOR } else { grow };
        let Some(rtt) = s.rtt else { return true };
        let current = self.current_round_min.map_or(rtt, |m| m.min(rtt));
        self.current_round_min = Some(current);
        self.samples += 1;
        if self.samples < N_RTT_SAMPLE {
            return true;
        }
        match self.phase {
            Phase::SlowStart => {
                if let Some(last) = self.last_round_min {
                    if current >= last + Self::rtt_thresh(last) {
                        self.phase = Phase::Css { baseline: current, rounds: 1 };
                    }
                }
            }
            Phase::Css { baseline, .. } if current < baseline => self.phase = Phase::SlowStart,
            _ => {}
        }
        true
    }
}

#[cfg(test)]
mod tests;
