//! Typed TFRC configuration (`transport = { kind = "tfrc", ... }`). Protocol rules follow
//! RFC 5348 (RFC 3448 as an option); sizes and the rates ns-2 names follow ns-2.35's
//! `Agent/TFRC` / `Agent/TFRCSink` defaults (`tcl/lib/ns-default.tcl`, read back from the
//! installed `ns`). Every difference from ns-2 is listed in `docs/models/tfrc.md`.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{CResult, ConfigError};
use crate::time::Dur;
use crate::units::{RateSpec, SizeSpec, TimeSpec};

/// Which specification's sender rules to follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TfrcSpec {
    /// RFC 5348: initial window W_init = min(4s, max(2s, 4380 B)) per RTT, receive limit from
    /// the X_recv values of the last two RTTs, no-feedback halving of the limits.
    #[default]
    Rfc5348,
    /// RFC 3448: after the first feedback slow start from s/R, receive limit 2·X_recv (latest
    /// report only), no-feedback X_recv = X_calc/4 when not receive-limited.
    Rfc3448,
    /// ns-2.35 `Agent/TFRC` (tcp/tfrc.cc): additive increase, decrease to the equation's rate,
    /// t_RTO from a TCP-style tick estimator, no-feedback timer at max(2R, 2s/X), ns-2's slow
    /// start; with it `rtt_weight`, `ndupack` and `oscillation_prevention` default to ns-2's
    /// (0.95, 1, on). See `ns2_sender.rs`.
    Ns2,
}

/// TFRC transport options. Unknown keys are errors.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TfrcConfig {
    /// "rfc5348" (default), "rfc3448" or "ns2" sender rules.
    #[serde(default)]
    pub spec: TfrcSpec,
    /// Segment size s: payload bytes per packet, used in the equation. Default 1000 B (ns-2
    /// `packetSize_`).
    pub packet_size: Option<SizeSpec>,
    /// Header bytes added on the wire. Default 32 B (ns-2 `headersize_` with `useHeaders_
    /// true`: 1032 B packets in ns-2.35 traces).
    pub header_size: Option<SizeSpec>,
    /// Feedback packet size on the wire. Default 40 B (ns-2 `Agent/TFRCSink packetSize_`).
    pub feedback_size: Option<SizeSpec>,
    /// Sending rate before the first feedback. Default 2400 b/s = 300 B/s (ns-2 `InitRate_
    /// 300`); RFC 5348 §4.2 says one packet per second.
    pub initial_rate: Option<RateSpec>,
    /// Weight q of the old RTT estimate in R = q·R + (1-q)·R_sample. Default 0.9 (RFC 5348
    /// §4.3); with `spec = "ns2"` 0.95 (ns-2 `df_`). Range [0, 1).
    pub rtt_weight: Option<f64>,
    /// Rate multiplier per RTT in slow start. Default 2 (ns-2 `ssmult_`; RFC 5348 §4.3
    /// doubles). Range > 1.
    pub ssmult: Option<f64>,
    /// Maximum backoff interval t_mbi: the rate never falls below s/t_mbi. Default 64 s (RFC
    /// 5348 §4.3).
    pub t_mbi: Option<TimeSpec>,
    /// Packets that must arrive after a missing one before it counts as lost. Default 3 (RFC
    /// 5348 §5.1 NDUPACK); with `spec = "ns2"` 1 (ns-2 `numPkts_`).
    pub ndupack: Option<u32>,
    /// History discounting (RFC 5348 §5.5). Default true (ns-2 `discount_ 1`).
    pub history_discounting: Option<bool>,
    /// Oscillation prevention (RFC 5348 §4.5): scale the inter-packet interval by
    /// sqrt(R_sample)/R_sqmean. Default false (RFC 5348: optional); with `spec = "ns2"` true
    /// (ns-2 `ca_ 1`).
    pub oscillation_prevention: Option<bool>,
    /// `spec = "ns2"` only: the tick of the TCP-style estimator that gives t_RTO for the
    /// equation. Default 100 ms (ns-2 `tcp_tick_`).
    pub rto_tick: Option<TimeSpec>,
    /// `spec = "ns2"` only: the least t_RTO in the equation. Default 0 (ns-2 `minrto_`).
    pub min_rto: Option<TimeSpec>,
    /// Send ECN-capable packets; the receiver counts CE marks as losses (RFC 5348 §5; RFC
    /// 3168). Default false (ns-2 `ecn_ 0`).
    #[serde(default)]
    pub ecn: bool,
}

/// Resolved parameters (units typed, defaults applied).
#[derive(Clone, Debug)]
pub struct TfrcParams {
    pub spec: TfrcSpec,
    /// Payload bytes per packet (s).
    pub s: u32,
    pub header: u32,
    pub feedback_size: u32,
    /// Bytes per second before the first feedback.
    pub initial_rate: f64,
    pub q: f64,
    pub ssmult: f64,
    pub t_mbi: Dur,
    pub ndupack: u32,
    pub discounting: bool,
    pub oscillation_prevention: bool,
    pub ecn: bool,
    pub rto_tick: Dur,
    pub min_rto: Dur,
}

impl Default for TfrcParams {
    fn default() -> Self {
        TfrcConfig::default().resolve("transport").expect("defaults are valid")
    }
}

impl TfrcConfig {
    /// Applies defaults and checks ranges; `path` prefixes error field paths.
    pub fn resolve(&self, path: &str) -> CResult<TfrcParams> {
        let err = |field: &str, why: String| ConfigError::new(format!("{path}.{field}"), why);
        let size = |v: Option<SizeSpec>, d: u64, field: &str, min: u64| -> CResult<u32> {
            let b = v.map_or(d, |s| s.0 .0);
            if b < min || b > 65_535 {
                return Err(err(field, format!("{b} B is not in {min}..=65535 B")));
            }
            Ok(b as u32)
        };
        let ns2 = self.spec == TfrcSpec::Ns2;
        if !ns2 && (self.rto_tick.is_some() || self.min_rto.is_some()) {
            let field = if self.rto_tick.is_some() { "rto_tick" } else { "min_rto" };
            return Err(err(
                field,
                "only spec = \"ns2\" takes t_RTO from a tick estimator (RFC 5348 uses 4R)".into(),
            ));
        }
        let p = TfrcParams {
            spec: self.spec,
            s: size(self.packet_size, 1000, "packet_size", 1)?,
            header: size(self.header_size, 32, "header_size", 0)?,
            feedback_size: size(self.feedback_size, 40, "feedback_size", 1)?,
            initial_rate: self.initial_rate.map_or(2400.0, |r| r.0 .0 as f64) / 8.0,
            q: self.rtt_weight.unwrap_or(if ns2 { 0.95 } else { 0.9 }),
            ssmult: self.ssmult.unwrap_or(2.0),
            t_mbi: self.t_mbi.map_or(Dur::from_secs(64), |t| t.0),
            ndupack: self.ndupack.unwrap_or(if ns2 { 1 } else { 3 }),
            discounting: self.history_discounting.unwrap_or(true),
            oscillation_prevention: self.oscillation_prevention.unwrap_or(ns2),
            ecn: self.ecn,
            rto_tick: self.rto_tick.map_or(Dur::from_millis(100), |t| t.0),
            min_rto: self.min_rto.map_or(Dur::ZERO, |t| t.0),
        };
        if p.initial_rate.is_nan() || p.initial_rate <= 0.0 {
            return Err(err("initial_rate", "must be positive".into()));
        }
        if !(0.0..1.0).contains(&p.q) {
            return Err(err("rtt_weight", format!("{} is not in [0, 1)", p.q)));
        }
        if !(p.ssmult > 1.0 && p.ssmult.is_finite()) {
            return Err(err("ssmult", format!("{} must be a finite number > 1", p.ssmult)));
        }
        if p.t_mbi == Dur::ZERO {
            return Err(err("t_mbi", "must be positive".into()));
        }
        if p.rto_tick == Dur::ZERO {
            return Err(err("rto_tick", "must be positive".into()));
        }
        if p.ndupack == 0 {
            return Err(err("ndupack", "must be at least 1".into()));
        }
        Ok(p)
    }
}
