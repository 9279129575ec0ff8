//! BBRv3 parameters (`transport.bbr3`): the constants of draft-ietf-ccwg-bbr-06 that a study
//! may want to vary, each with its default and section; unset keys take the draft's value.
//! The ECN response is not in the draft (§3.7 leaves it open); its parameters are Google's
//! BBRv3 (`net/ipv4/tcp_bbr.c`, github.com/google/bbr branch v3).

use schemars::JsonSchema;
use serde::Deserialize;

use crate::time::Dur;
use crate::units::TimeSpec;

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Bbr3Config {
    /// Startup's pacing gain. Default 4 ln 2 ≈ 2.77 (§2.5 BBR.StartupPacingGain).
    pub startup_pacing_gain: f64,
    /// Drain's pacing gain. Default 0.5 (§2.5 BBR.DrainPacingGain; Linux's v3 uses 1/2.885).
    pub drain_pacing_gain: f64,
    /// cwnd gain in every state but ProbeBW_UP (2.25) and ProbeRTT. Default 2 (§2.6
    /// BBR.DefaultCwndGain).
    pub cwnd_gain: f64,
    /// Loss rate per round trip above which a bandwidth probe went too high. Default 0.02
    /// (§2.8 BBR.LossThresh).
    pub loss_thresh: f64,
    /// Multiplicative decrease per lossy round. Default 0.7 (§2.8 BBR.Beta).
    pub beta: f64,
    /// Fraction of inflight_longterm left free in ProbeBW_CRUISE and ProbeRTT. Default 0.15
    /// (§2.8 BBR.Headroom).
    pub headroom: f64,
    /// The smallest cwnd, packets. Default 4 (§2.8 BBR.MinPipeCwnd).
    pub min_cwnd: u32,
    /// Lossy ACKs in a round that, with a loss rate above `loss_thresh`, end Startup. Default 6
    /// (§5.3.1.3 BBRStartupFullLossCnt).
    pub startup_full_loss_count: u32,
    /// Pacing rate = gain × bw × (1 − margin). Default 0.01 (§2.5 BBR.PacingMarginPercent 1 %).
    pub pacing_margin: f64,
    /// Length of the min filter on the RTT. Default 10 s (§2.16.1 BBR.MinRTTFilterLen).
    pub min_rtt_window: TimeSpec,
    /// ProbeRTT is entered when no lower RTT was seen for this long. Default 5 s (§2.16.2
    /// BBR.ProbeRTTInterval).
    pub probe_rtt_interval: TimeSpec,
    /// ProbeRTT holds the flight down this long (and one round). Default 200 ms (§2.16.2
    /// BBR.ProbeRTTDuration).
    pub probe_rtt_time: TimeSpec,
    /// ProbeRTT's cwnd as a fraction of the BDP. Default 0.5 (§2.16.2 BBR.ProbeRTTCwndGain).
    pub probe_rtt_cwnd_gain: f64,
    /// Wall-clock wait between bandwidth probes: `probe_wait_base` plus a uniform draw in
    /// [0, `probe_wait_rand`). Defaults 2 s and 1 s (§5.3.3.8.2 T_bbr).
    pub probe_wait_base: TimeSpec,
    pub probe_wait_rand: TimeSpec,
    /// The Reno-coexistence bound on that wait, round trips. Default 63 (§5.3.3.8.2 T_reno).
    pub reno_rounds_max: u32,
    /// ECN (Google's v3, not the draft): CE fraction of a round's deliveries above which a
    /// probe went too high, and which ends Startup after `startup_full_ecn_rounds` rounds.
    /// Default 0.5 (`bbr_ecn_thresh`).
    pub ecn_thresh: f64,
    /// EWMA gain of the CE fraction (α). Default 1/16 (`bbr_ecn_alpha_gain`).
    pub ecn_alpha_gain: f64,
    /// A round with CE marks cuts inflight_shortterm by α × this. Default 1/3 (`bbr_ecn_factor`).
    pub ecn_factor: f64,
    /// ECN is used only on paths whose min RTT is at most this. Default 5 ms
    /// (`bbr_ecn_max_rtt_us`).
    pub ecn_max_rtt: TimeSpec,
    /// Rounds in a row above `ecn_thresh` that end Startup. Default 2 (`bbr_full_ecn_cnt`).
    pub startup_full_ecn_rounds: u32,
}

impl Default for Bbr3Config {
    fn default() -> Self {
        Bbr3Config {
            startup_pacing_gain: 4.0 * std::f64::consts::LN_2,
            drain_pacing_gain: 0.5,
            cwnd_gain: 2.0,
            loss_thresh: 0.02,
            beta: 0.7,
            headroom: 0.15,
            min_cwnd: 4,
            startup_full_loss_count: 6,
            pacing_margin: 0.01,
            min_rtt_window: TimeSpec(Dur::from_millis(10_000)),
            probe_rtt_interval: TimeSpec(Dur::from_millis(5_000)),
            probe_rtt_time: TimeSpec(Dur::from_millis(200)),
            probe_rtt_cwnd_gain: 0.5,
            probe_wait_base: TimeSpec(Dur::from_millis(2_000)),
            probe_wait_rand: TimeSpec(Dur::from_millis(1_000)),
            reno_rounds_max: 63,
            ecn_thresh: 0.5,
            ecn_alpha_gain: 1.0 / 16.0,
            ecn_factor: 1.0 / 3.0,
            ecn_max_rtt: TimeSpec(Dur::from_millis(5)),
            startup_full_ecn_rounds: 2,
        }
    }
}

impl Bbr3Config {
    /// On error: the field and why.
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        let fraction = |x: f64| x > 0.0 && x < 1.0;
        if !(self.startup_pacing_gain > 1.0 && self.startup_pacing_gain.is_finite()) {
            return Err(("startup_pacing_gain", "must be above 1 (Startup must grow the rate)"));
        }
        if !fraction(self.drain_pacing_gain) {
            return Err(("drain_pacing_gain", "must be between 0 and 1 (Drain must slow down)"));
        }
        if !(self.cwnd_gain >= 1.0 && self.cwnd_gain.is_finite()) {
            return Err((
                "cwnd_gain",
                "must be at least 1 (cwnd below one BDP cannot fill the pipe)",
            ));
        }
        let fractions = [
            ("loss_thresh", self.loss_thresh),
            ("beta", self.beta),
            ("headroom", self.headroom),
            ("probe_rtt_cwnd_gain", self.probe_rtt_cwnd_gain),
            ("ecn_thresh", self.ecn_thresh),
            ("ecn_alpha_gain", self.ecn_alpha_gain),
            ("ecn_factor", self.ecn_factor),
        ];
        if let Some((field, _)) = fractions.iter().find(|(_, x)| !fraction(*x)) {
            return Err((field, "must be between 0 and 1 (exclusive)"));
        }
        if !(0.0..1.0).contains(&self.pacing_margin) {
            return Err(("pacing_margin", "must be in [0, 1)"));
        }
        if self.min_cwnd == 0 {
            return Err(("min_cwnd", "must be at least 1 packet"));
        }
        if self.min_rtt_window.0 < self.probe_rtt_interval.0
            || self.probe_rtt_interval.0 == Dur::ZERO
        {
            return Err((
                "probe_rtt_interval",
                "must be positive and at most min_rtt_window (§5.3.4.2)",
            ));
        }
        if self.probe_wait_base.0 == Dur::ZERO {
            return Err(("probe_wait_base", "must be positive"));
        }
        let counts = [
            ("reno_rounds_max", self.reno_rounds_max),
            ("startup_full_loss_count", self.startup_full_loss_count),
            ("startup_full_ecn_rounds", self.startup_full_ecn_rounds),
        ];
        if let Some((field, _)) = counts.iter().find(|(_, n)| *n == 0) {
            return Err((field, "must be at least 1"));
        }
        Ok(())
    }
}
