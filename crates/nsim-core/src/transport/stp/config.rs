//! Typed STP configuration (`transport = { kind = "stp", ... }`). STP is not in ns-2 and
//! Holl 2003 gives none of Henderson's settings; the parts of Henderson's design sources
//! reachable here (the WOSBIS 1997 and JSAC 1999 abstracts, tomh.org/stp) give none either.
//! So each field says whether it comes from SSCOP (ITU-T Q.2110, the protocol STP adapts),
//! or is a documented choice (often nsim's TCP default, so STP and TCP compare like for
//! like). `docs/models/stp.md` lists them with the reasons.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{CResult, ConfigError};
use crate::time::Dur;
use crate::units::{SizeSpec, TimeSpec};

/// SSCOP MaxPD as SSCOP equipment ships it (e.g. Bay/Avaya "Max PD Before Poll", default 25).
const DEFAULT_MAX_PD: u32 = 25;

/// STP transport options. Unknown keys are errors.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StpConfig {
    /// Receiver buffer in packets: at most this many packets outstanding (SSCOP's receive
    /// window N(MR) - N(R)), so the sending window is min(cwnd, window). Default 20, the same
    /// as nsim's TCP (ns-2 `window_`), so comparisons differ only in the protocol.
    pub window: Option<u32>,
    /// Payload per data (SD) packet. Default 1000 B (as nsim's TCP).
    pub packet_size: Option<SizeSpec>,
    /// Header bytes of every STP packet (SD, POLL, STAT, USTAT): Default 40 B, TCP/IP's size,
    /// so a STAT without gaps is as large as a TCP ACK and reverse loads compare directly.
    pub header_size: Option<SizeSpec>,
    /// Time between POLLs while data is outstanding (SSCOP Timer_POLL). Default: one
    /// smoothed round-trip time, a choice (Henderson's value is not in the sources reachable
    /// here); before the first RTT sample, `initial_rto`.
    pub poll_interval: Option<TimeSpec>,
    /// Also POLL after this many SD packets (new or resent) since the last POLL (SSCOP MaxPD,
    /// ITU-T Q.2110 VT(PD)); the POLL restarts the poll timer. Default 25 (the usual SSCOP
    /// setting); 0 turns it off. Only fast flows (over 25 packets per poll interval) reach it.
    pub poll_after_packets: Option<u32>,
    /// Whether a gap reported by a STAT or USTAT halves the window (once per window of data),
    /// as TCP halves on a loss. Default true (a choice: Henderson's rule is not in the
    /// reachable sources). false: a gap is only resent, as in SSCOP, which has no congestion
    /// window; cwnd then falls only on a no-response timeout. With false STP takes the CBR
    /// calls' bandwidth as Holl 2003 reports (docs/models/stp.md).
    pub gap_cuts_window: Option<bool>,
    /// Initial slow-start threshold in packets. Default: `window` (as TCP's ssthresh starts at
    /// the receiver window in ns-2).
    pub initial_ssthresh: Option<u32>,
    /// Initial congestion window in packets. Default 2 (nsim TCP / ns-2.35 `windowInit_`).
    pub initial_window: Option<u32>,
    /// Lower bound of the no-response timeout, after which cwnd falls to 1 (SSCOP
    /// Timer_NO-RESPONSE, sized like TCP's RTO: RFC 6298 estimator over POLL->STAT round
    /// trips). Default 1 s (RFC 6298 (2.4)).
    pub min_rto: Option<TimeSpec>,
    /// Timeout before the first RTT sample. Default 3 s (ns-2 `rtxcur_init_`, RFC 2988).
    pub initial_rto: Option<TimeSpec>,
}

/// Resolved parameters.
#[derive(Clone, Debug)]
pub struct StpParams {
    pub window: u32,
    pub payload: u32,
    pub header: u32,
    /// None: one smoothed RTT.
    pub poll_interval: Option<Dur>,
    /// SSCOP MaxPD; None: no POLL by packet count.
    pub poll_after_packets: Option<u32>,
    pub gap_cuts_window: bool,
    pub initial_ssthresh: f64,
    pub initial_window: f64,
    pub min_rto: Dur,
    pub initial_rto: Dur,
}

impl Default for StpParams {
    fn default() -> Self {
        StpConfig::default().resolve("transport").expect("defaults are valid")
    }
}

impl StpConfig {
    /// Applies defaults and checks ranges; `path` prefixes error field paths.
    pub fn resolve(&self, path: &str) -> CResult<StpParams> {
        let err = |field: &str, why: String| ConfigError::new(format!("{path}.{field}"), why);
        let window = self.window.unwrap_or(20);
        if window == 0 {
            return Err(err("window", "must be at least 1 packet".into()));
        }
        let payload = self.packet_size.map_or(1000, |s| s.0 .0);
        if payload == 0 || payload > 65_535 {
            return Err(err("packet_size", format!("{payload} B is not in 1..=65535 B")));
        }
        let header = self.header_size.map_or(40, |s| s.0 .0);
        if header == 0 || header > 1000 {
            return Err(err("header_size", format!("{header} B is not in 1..=1000 B")));
        }
        if let Some(t) = self.poll_interval {
            if t.0 == Dur::ZERO {
                return Err(err("poll_interval", "must be positive".into()));
            }
        }
        let initial_window = self.initial_window.unwrap_or(2);
        if initial_window == 0 {
            return Err(err("initial_window", "must be at least 1 packet".into()));
        }
        let ssthresh = self.initial_ssthresh.unwrap_or(window);
        if ssthresh < 2 {
            return Err(err("initial_ssthresh", "must be at least 2 packets".into()));
        }
        let p = StpParams {
            window,
            payload: payload as u32,
            header: header as u32,
            poll_interval: self.poll_interval.map(|t| t.0),
            gap_cuts_window: self.gap_cuts_window.unwrap_or(true),
            poll_after_packets: Some(self.poll_after_packets.unwrap_or(DEFAULT_MAX_PD))
                .filter(|&n| n > 0),
            initial_ssthresh: ssthresh as f64,
            initial_window: initial_window as f64,
            min_rto: self.min_rto.map_or(Dur::from_secs(1), |t| t.0),
            initial_rto: self.initial_rto.map_or(Dur::from_secs(3), |t| t.0),
        };
        if p.min_rto == Dur::ZERO || p.initial_rto == Dur::ZERO {
            return Err(err("min_rto", "timeouts must be positive".into()));
        }
        Ok(p)
    }
}
