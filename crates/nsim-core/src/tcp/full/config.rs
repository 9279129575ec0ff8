//! Configuration of a full (two-way, byte-sequenced) TCP connection: the TOML table
//! `transport = { kind = "tcp_full", ... }` and its resolved parameters. Defaults are ns-2.35's
//! `Agent/TCP/FullTcp` ones (tcl/lib/ns-default.tcl), so a scenario without options behaves
//! like an ns-2 FullTcp pair.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{CResult, ConfigError};
use crate::tcp::cc::bbr3::config::Bbr3Config;
use crate::tcp::config::{
    bbr_pacing_source, pacing_params, rack_params, BbrConfig, CubicConfig, LossDetection,
    PacingParams, PrrBound, RackParams,
};
use crate::tcp::profile::{Profile, ProfileSettings};
use crate::time::Dur;
use crate::units::{SizeSpec, TimeSpec};

/// Loss recovery of a full TCP connection (ns-2 `Agent/TCP/FullTcp` family).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FullVariant {
    /// Fast retransmit, then slow start from one segment (ns-2 `FullTcp/Tahoe`).
    Tahoe,
    /// Fast retransmit and fast recovery (ns-2 `FullTcp`, RFC 5681 §3.2).
    #[default]
    Reno,
    /// Reno plus partial-ACK retransmission (ns-2 `FullTcp/Newreno`, RFC 6582).
    Newreno,
    /// SACK blocks on ACKs (RFC 2018) and pipe-controlled recovery that fills holes first
    /// (ns-2 `FullTcp/Sack`; both ends must use it, as in ns-2).
    Sack,
}

/// The window rules of a full TCP connection, chosen apart from its loss recovery (`variant`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FullCc {
    /// ns-2 FullTcp's own windows (default): Reno's slow start, congestion avoidance and
    /// halving (RFC 5681), Tahoe's restart from one segment with `variant = "tahoe"`.
    #[default]
    Reno,
    /// CUBIC (RFC 9438; [`crate::tcp::cc::cubic`]) with the `cubic` table's parameters, and
    /// HyStart++ (RFC 9406) as its slow start with `cubic.hystart`; `variant` is then the
    /// recovery only: "reno", "newreno" or "sack".
    Cubic,
    /// BBR v1 (draft-cardwell-iccrg-bbr-congestion-control-00; [`crate::tcp::cc::bbr`]) with
    /// the `bbr` table's parameters, always paced; recovery ("reno", "newreno" or "sack")
    /// chooses what to retransmit and leaves cwnd to BBR.
    Bbr,
    /// BBRv3 (draft-ietf-ccwg-bbr-06; [`crate::tcp::cc::bbr3`]) with the `bbr3` table's
    /// parameters, as `Bbr` otherwise (tcp_full has no ECN, so BBRv3's ECN rules stay idle).
    Bbr3,
}

/// Which fast-recovery details to follow where ns-2 FullTcp and the RFCs differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryRules {
    /// ns-2 FullTcp (default): a second fast retransmit in the same window after a fast
    /// retransmit; duplicate ACKs past the threshold inflate cwnd also outside recovery;
    /// a NewReno partial ACK sets cwnd = ssthresh; SACK blocks are reported in ns-2's order
    /// (tcp/rq.cc: by creation, an extended block keeps its place).
    #[default]
    Ns2,
    /// The RFCs: no fast retransmit for data sent before the last one (RFC 6582 §3.2 step 1);
    /// inflation only in fast recovery (RFC 5681 §3.2 step 4); a partial ACK deflates cwnd by
    /// the data it acknowledges and adds back one segment (RFC 6582 §3.2 step 5); the first
    /// SACK block holds the most recently received segment (RFC 2018 §4); SACK recovery
    /// follows RFC 6675.
    Rfc,
}

/// How a delayed ACK is timed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DelackClock {
    /// A periodic clock: pending ACKs leave at the next multiple of `delack_interval` (BSD's
    /// 200 ms fast timer, so the delay averages 100 ms; ns-2 FullTcp's `interval_` timer,
    /// which reschedules itself every 100 ms from time 0).
    #[default]
    Tick,
    /// A per-connection timer armed when the first unacknowledged segment arrives (Linux-like).
    Timer,
}

/// `transport = { kind = "tcp_full", ... }`. See `docs/models/tcp_full.md`.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FullTcpConfig {
    /// Loss recovery: "tahoe", "reno" (default), "newreno" or "sack".
    #[serde(default)]
    pub variant: FullVariant,
    /// Congestion control: "reno" (default: ns-2 FullTcp's, Tahoe's with `variant = "tahoe"`),
    /// "cubic" (RFC 9438), "bbr" (BBR v1, paced) or "bbr3" (BBRv3, paced), independent of the
    /// recovery `variant`.
    #[serde(default)]
    pub cc: FullCc,
    /// CUBIC options, as the one-way TCP's `cubic` table (`c`, `beta`, `fast_convergence`,
    /// `reno_friendly`, `hystart`); only with `cc = "cubic"`.
    pub cubic: Option<CubicConfig>,
    /// BBR v1 options, as the one-way TCP's `bbr` table (`high_gain`, `cwnd_gain`,
    /// `bw_window_rounds`, `min_rtt_window`, `probe_rtt_time`, `min_cwnd`, `full_bw_growth`,
    /// `full_bw_rounds`, `cwnd_quanta`); only with `cc = "bbr"`.
    pub bbr: Option<BbrConfig>,
    /// BBRv3 options, as the one-way TCP's `bbr3` table; only with `cc = "bbr3"`.
    pub bbr3: Option<Bbr3Config>,
    /// Pace data segments at the sender, as the one-way TCP's `pacing` ([`crate::tcp::pacing`]):
    /// `pacing_quantum` segments back to back, then a wait until they would have left at the
    /// pacing rate. Default false, always true with `cc = "bbr"` / `"bbr3"`.
    pub pacing: Option<bool>,
    /// A fixed pacing rate (bit/s of wire bytes). Default: BBR's, or for the others Linux's
    /// `tcp_update_pacing_rate` (2 × cwnd / srtt in slow start, 1.2 × after).
    pub pacing_rate: Option<crate::units::RateSpec>,
    /// Segments released back to back per pacing interval. Default 1.
    pub pacing_quantum: Option<u32>,
    /// Whose defaults the unset keys take: "ns2" (default) or "linux" (initial window 10,
    /// initial RTO 1 s, delayed ACKs on a 40 ms per-connection timer;
    /// [`crate::tcp::profile`]). Keys set here override the profile.
    pub profile: Option<Profile>,
    /// Maximum segment payload. Default 536 B (ns-2 `segsize_`, RFC 1122 default MSS).
    pub mss: Option<SizeSpec>,
    /// TCP/IP header bytes of every segment (a pure ACK or SYN is exactly this). Default 40 B.
    pub header_size: Option<SizeSpec>,
    /// Cap on the congestion window in segments (ns-2 `window_`). Default 20.
    pub window: Option<u32>,
    /// Congestion window when the connection is established, segments. Default 2 (ns-2
    /// `windowInit_`; profile "linux" 10, RFC 6928).
    pub initial_window: Option<u32>,
    /// Receive buffer: the largest window this end advertises. Default `window` x `mss`.
    pub rcv_buffer: Option<SizeSpec>,
    /// Send buffer: application bytes written but not yet acknowledged; a full buffer holds
    /// the application back. Default unbounded.
    pub snd_buffer: Option<SizeSpec>,
    /// The listener's application reads received data at this rate (a slow reader); unread
    /// data fills the receive buffer and closes the window. Default: it reads at once.
    pub read_rate: Option<crate::units::RateSpec>,
    /// RFC 7323 window scaling, used when both ends set it. Default false: windows above
    /// 65535 B are cut to 65535 B.
    #[serde(default)]
    pub window_scale: bool,
    /// Delayed ACKs (RFC 1122 §4.2.3.2): ACK every second full-sized segment, or when the
    /// delayed-ACK clock fires. Default false (ns-2 FullTcp `segsperack_ 1`; profile "linux"
    /// true).
    pub delayed_ack: Option<bool>,
    /// ns-2.35 FullTcp's ACK rule (tcp-full.cc `need_send`): an in-order segment is ACKed at
    /// once when the bytes received since the last ACK reach 1 (2 with `delayed_ack`) times
    /// the MSS, else at the delayed-ACK clock; so a short segment waits for the clock even
    /// without `delayed_ack`. Default false: full-sized segments are counted, and without
    /// `delayed_ack` every segment is ACKed at once.
    #[serde(default)]
    pub delack_by_bytes: bool,
    /// Delayed-ACK tick (or timeout). Default 100 ms (ns-2 `interval_`); BSD uses 200 ms;
    /// profile "linux" 40 ms (Linux `TCP_DELACK_MIN`).
    pub delack_interval: Option<TimeSpec>,
    /// "tick" (default: BSD's fast timer and ns-2 FullTcp's periodic timer) or "timer"
    /// (profile "linux").
    pub delack_clock: Option<DelackClock>,
    /// Phase of the delayed-ACK tick in [0, delack_interval). Default: drawn per end (each
    /// host's clock has its own phase; ns-2 runs every agent's from time 0, i.e. "0ms").
    pub delack_phase: Option<TimeSpec>,
    /// Nagle's algorithm (RFC 896, RFC 1122 §4.2.3.4). Default true (ns-2 `nodelay_ false`).
    pub nagle: Option<bool>,
    /// Minshall's Nagle variant: hold a short segment only while an earlier short segment is
    /// unacknowledged. Default false.
    #[serde(default)]
    pub minshall: bool,
    /// "ns2" (default) or "rfc": where ns-2 FullTcp's recovery differs from RFC 5681/6582.
    #[serde(default)]
    pub recovery_rules: RecoveryRules,
    /// Proportional Rate Reduction (RFC 6937) in RFC 6675 SACK recovery (`variant = "sack"`,
    /// `recovery_rules = "rfc"`): how much each ACK in recovery releases, "ssrb" (slow-start
    /// reduction bound, RFC 6937's recommendation) or "crb" (conservative), as the one-way
    /// TCP's `sack1.prr`; [`super::prr`]. Default: none (RFC 6675's cwnd - pipe).
    pub prr: Option<PrrBound>,
    /// How losses are detected in RFC 6675 SACK recovery: "dupthresh" (default: `dupthresh`
    /// duplicate ACKs, RFC 6675 IsLost()) or "rack" (RFC 8985 RACK-TLP, as the one-way TCP's
    /// `loss_detection`; [`super::conn::rack_tlp`]); "rack" needs `variant = "sack"` and
    /// `recovery_rules = "rfc"`.
    pub loss_detection: Option<LossDetection>,
    /// With `loss_detection = "rack"`: the tail loss probe (RFC 8985 §7). Default true.
    pub tlp: Option<bool>,
    /// The receiver's worst-case delayed-ACK time the probe timeout adds when one segment is
    /// in flight (RFC 8985 §7.2 WCDelAckT). Default 200 ms.
    pub tlp_max_ack_delay: Option<TimeSpec>,
    /// Duplicate ACKs that trigger fast retransmit. Default 3.
    pub dupthresh: Option<u32>,
    /// Limited Transmit (RFC 3042 §2): on each of the first `dupthresh - 1` duplicate ACKs
    /// send one new segment, if the peer's window allows it and no more than cwnd plus that
    /// many segments are then outstanding; cwnd does not change. Default false: ns-2 FullTcp
    /// has none (the one-way TCP's `limited_transmit`, ns-2 `singledup_`, defaults to true).
    pub limited_transmit: Option<bool>,
    /// Most segments sent in reply to one event, 0 = no limit (ns-2 `maxburst_`). Default 0.
    pub maxburst: Option<u32>,
    /// Most segments sent in reply to one event after a NewReno partial ACK, until an ACK
    /// that is not partial; 0 = no limit. Default 2 (ns-2 `Agent/TCP/FullTcp/Newreno
    /// recov_maxburst_`). Only `variant = "newreno"` with `recovery_rules = "ns2"` uses it.
    pub recov_maxburst: Option<u32>,
    /// RTO clock granularity. Default 10 ms (ns-2 `tcpTick_`).
    pub tick: Option<TimeSpec>,
    /// Phase of the RTO clock in [0, tick). Default: drawn per connection (ns-2 `boot_time_`).
    pub clock_offset: Option<TimeSpec>,
    /// Default 200 ms (ns-2 `minrto_`; Linux `TCP_RTO_MIN`).
    pub min_rto: Option<TimeSpec>,
    /// RTO before the first sample (also of the SYN). Default 3 s (ns-2.35 `rtxcur_init_`,
    /// RFC 2988); profile "linux" 1 s (RFC 6298 (2.1), Linux `TCP_TIMEOUT_INIT`).
    pub initial_rto: Option<TimeSpec>,
    /// Default 60 s.
    pub max_rto: Option<TimeSpec>,
    /// How long the active closer stays in TIME-WAIT (2 MSL). Default 0 (ns-2 closes at once).
    pub time_wait: Option<TimeSpec>,
    /// Simultaneous open (RFC 793 §3.4 Figure 8): the destination also sends a SYN at the
    /// flow's start instead of listening. Default false.
    #[serde(default)]
    pub simultaneous_open: bool,
}

/// Resolved parameters (bytes, segments, durations).
#[derive(Clone, Debug)]
pub struct FullParams {
    pub variant: FullVariant,
    /// CUBIC's parameters with `cc = "cubic"`; None: Reno's (or Tahoe's) windows.
    pub cubic: Option<CubicConfig>,
    /// BBR's parameters with `cc = "bbr"`; None: another congestion control.
    pub bbr: Option<BbrConfig>,
    /// BBRv3's parameters with `cc = "bbr3"`; None: another congestion control.
    pub bbr3: Option<Bbr3Config>,
    /// Pacing, None: unpaced (BBR and BBRv3 always pace).
    pub pacing: Option<PacingParams>,
    /// Seed of BBR's (or BBRv3's) own random stream (PROBE_BW's start phase, BBRv3's probe
    /// waits), drawn from the flow's stream when the flow is built; 0 until then and without.
    pub bbr_seed: u64,
    /// The profile the table named, None when it named none.
    pub profile: Option<Profile>,
    pub mss: u64,
    pub header: u64,
    pub window: u32,
    pub initial_window: u32,
    pub rcv_buffer: u64,
    pub snd_buffer: Option<u64>,
    pub read_rate: Option<crate::units::BitsPerSec>,
    pub window_scale: bool,
    pub delayed_ack: bool,
    pub delack_by_bytes: bool,
    pub delack_interval: Dur,
    pub delack_clock: DelackClock,
    /// None: drawn per end when the flow is built.
    pub delack_phase: Option<Dur>,
    pub nagle: bool,
    pub minshall: bool,
    pub recovery_rules: RecoveryRules,
    /// RFC 6937's reduction bound with PRR; None: RFC 6675's own sending rule.
    pub prr: Option<PrrBound>,
    /// RACK-TLP's parameters with `loss_detection = "rack"`; None: duplicate ACKs.
    pub rack: Option<RackParams>,
    pub dupthresh: u32,
    pub limited_transmit: bool,
    pub maxburst: u32,
    pub recov_maxburst: u32,
    pub tick: Dur,
    pub clock_offset: Option<Dur>,
    pub min_rto: Dur,
    pub initial_rto: Dur,
    pub max_rto: Dur,
    pub time_wait: Dur,
    pub simultaneous_open: bool,
}

impl Default for FullParams {
    fn default() -> Self {
        FullTcpConfig::default().resolve("transport").expect("defaults are valid")
    }
}

impl FullParams {
    /// BBR or BBRv3: a congestion control that paces, samples the delivery rate and draws
    /// from its own random stream.
    pub fn bbr_family(&self) -> bool {
        self.bbr.is_some() || self.bbr3.is_some()
    }

    /// The resolved settings a profile governs, for a connection that named one (SACK as the
    /// variant chooses it; no byte counting).
    pub fn profile_settings(&self) -> Option<ProfileSettings> {
        let (window, rtos, delack) = (
            self.initial_window,
            (self.min_rto, self.initial_rto),
            (self.delayed_ack, self.delack_interval),
        );
        Some(ProfileSettings::new(
            self.profile?,
            window,
            rtos,
            delack,
            self.variant == FullVariant::Sack,
            0,
        ))
    }
}

impl FullTcpConfig {
    /// Applies defaults and checks ranges; `path` prefixes error field paths.
    pub fn resolve(&self, path: &str) -> CResult<FullParams> {
        let err = |field: &str, why: String| ConfigError::new(format!("{path}.{field}"), why);
        let dur = |t: Option<TimeSpec>, ms: u64| t.map_or(Dur::from_millis(ms), |t| t.0);
        let mss = self.mss.map_or(536, |s| s.0 .0);
        if mss == 0 || mss > 65_495 {
            return Err(err("mss", format!("{mss} B is not in 1..=65495 B")));
        }
        let header = self.header_size.map_or(40, |s| s.0 .0);
        if header == 0 || header > 1000 {
            return Err(err("header_size", format!("{header} B is not in 1..=1000 B")));
        }
        let window = self.window.unwrap_or(20);
        if window == 0 {
            return Err(err("window", "must be at least 1 segment".into()));
        }
        let rcv_buffer = self.rcv_buffer.map_or(window as u64 * mss, |s| s.0 .0);
        if rcv_buffer == 0 || rcv_buffer > 1 << 30 {
            return Err(err(
                "rcv_buffer",
                format!("{rcv_buffer} B is not in 1 B..=1 GiB (RFC 7323 §2.3)"),
            ));
        }
        if self.snd_buffer.is_some_and(|s| s.0 .0 == 0) {
            return Err(err("snd_buffer", "must be at least 1 byte".into()));
        }
        let cubic = self.cc_table(FullCc::Cubic, "cubic", &self.cubic, |c| {
            c.validate().map_err(|why| ("cubic".into(), why.into()))
        });
        let cubic = cubic.map_err(|(field, why)| err(&field, why))?;
        let bbr = self.cc_table(FullCc::Bbr, "bbr", &self.bbr, |c| {
            c.validate().map_err(|(f, why)| (format!("bbr.{f}"), why.into()))
        });
        let bbr = bbr.map_err(|(field, why)| err(&field, why))?;
        let bbr3 = self.cc_table(FullCc::Bbr3, "bbr3", &self.bbr3, |c| {
            c.validate().map_err(|(f, why)| (format!("bbr3.{f}"), why.into()))
        });
        let bbr3 = bbr3.map_err(|(field, why)| err(&field, why))?;
        let paced_by = match self.cc {
            FullCc::Bbr => Some(("cc 'bbr'".to_string(), bbr_pacing_source(true))),
            FullCc::Bbr3 => Some(("cc 'bbr3'".to_string(), bbr_pacing_source(false))),
            FullCc::Reno | FullCc::Cubic => None,
        };
        let pacing = pacing_params(paced_by, self.pacing, self.pacing_rate, self.pacing_quantum)
            .map_err(|(field, why)| err(field, why))?;
        let d = self.profile.unwrap_or_default().defaults();
        let p = FullParams {
            variant: self.variant,
            cubic,
            bbr,
            bbr3,
            pacing,
            bbr_seed: 0,
            profile: self.profile,
            mss,
            header,
            window,
            initial_window: self.initial_window.unwrap_or(d.initial_window),
            rcv_buffer,
            snd_buffer: self.snd_buffer.map(|s| s.0 .0),
            read_rate: self.read_rate.map(|r| r.0),
            window_scale: self.window_scale,
            delayed_ack: self.delayed_ack.unwrap_or(d.delayed_ack),
            delack_by_bytes: self.delack_by_bytes,
            delack_interval: self.delack_interval.map_or(d.delack_interval, |t| t.0),
            delack_clock: self.delack_clock.unwrap_or(if d.delack_timer {
                DelackClock::Timer
            } else {
                DelackClock::Tick
            }),
            delack_phase: self.delack_phase.map(|t| t.0),
            nagle: self.nagle.unwrap_or(true),
            minshall: self.minshall,
            recovery_rules: self.recovery_rules,
            prr: self.prr,
            rack: rack_params(self.loss_detection, self.tlp, self.tlp_max_ack_delay)
                .map_err(|(field, why)| err(field, why))?,
            dupthresh: self.dupthresh.unwrap_or(3),
            limited_transmit: self.limited_transmit.unwrap_or(false),
            maxburst: self.maxburst.unwrap_or(0),
            recov_maxburst: self.recov_maxburst.unwrap_or(2),
            tick: dur(self.tick, 10),
            clock_offset: self.clock_offset.map(|t| t.0),
            min_rto: self.min_rto.map_or(d.min_rto, |t| t.0),
            initial_rto: self.initial_rto.map_or(d.initial_rto, |t| t.0),
            max_rto: dur(self.max_rto, 60_000),
            time_wait: dur(self.time_wait, 0),
            simultaneous_open: self.simultaneous_open,
        };
        if p.initial_window == 0 {
            return Err(err("initial_window", "must be at least 1 segment".into()));
        }
        if p.dupthresh == 0 {
            return Err(err("dupthresh", "must be at least 1".into()));
        }
        if p.delack_interval == Dur::ZERO {
            return Err(err("delack_interval", "must be positive".into()));
        }
        if p.delack_phase.is_some_and(|o| o >= p.delack_interval) {
            return Err(err(
                "delack_phase",
                "must be less than delack_interval (it is a phase in [0, delack_interval))".into(),
            ));
        }
        crate::tcp::config::check_rto_clock(p.tick, p.clock_offset, p.min_rto, p.max_rto)
            .map_err(|(field, why)| err(field, why.into()))?;
        if p.minshall && !p.nagle {
            return Err(err(
                "minshall",
                "is a variant of Nagle's algorithm: it needs nagle = true".into(),
            ));
        }
        self.check_sack_recovery_options().map_err(|(field, why)| err(field, why))?;
        Ok(p)
    }

    /// PRR and RACK run in RFC 6675 SACK recovery, as the one-way TCP's (which asks for
    /// `sack1.algorithm = "rfc6675"`; here `recovery_rules = "rfc"`), and with a congestion
    /// control that lets recovery set cwnd and does not pace (not BBR). On error: the field and
    /// why.
    fn check_sack_recovery_options(&self) -> Result<(), (&'static str, String)> {
        let rack = self.loss_detection.unwrap_or_default() == LossDetection::Rack;
        for (field, what, on) in
            [("prr", "PRR", self.prr.is_some()), ("loss_detection", "RACK", rack)]
        {
            if !on {
                continue;
            }
            if self.variant != FullVariant::Sack {
                return Err((
                    field,
                    format!("{what} runs in SACK recovery: set variant = \"sack\""),
                ));
            }
            if self.recovery_rules != RecoveryRules::Rfc {
                return Err((
                    field,
                    format!(
                        "{what} needs RFC 6675's scoreboard and pipe: set recovery_rules = \"rfc\""
                    ),
                ));
            }
            if matches!(self.cc, FullCc::Bbr | FullCc::Bbr3) {
                return Err((field, format!("BBR paces and sets cwnd itself in recovery: {what} needs cc \"reno\" or \"cubic\"")));
            }
        }
        Ok(())
    }

    /// The table `key` of congestion control `cc` when the connection uses it (defaults for
    /// the keys not set), checked by `check` as the one-way TCP checks it; the table without
    /// `cc = key`, or Tahoe's recovery with it, is an error.
    fn cc_table<T: Clone + Default>(
        &self,
        cc: FullCc,
        key: &str,
        table: &Option<T>,
        check: impl Fn(&T) -> Result<(), (String, String)>,
    ) -> Result<Option<T>, (String, String)> {
        if self.cc != cc {
            return match table {
                Some(_) => Err((key.into(), format!("the `{key}` table needs cc = \"{key}\""))),
                None => Ok(None),
            };
        }
        if self.variant == FullVariant::Tahoe {
            let why = format!("cc \"{key}\" keeps its own window through fast recovery: variant \"tahoe\" restarts from one segment after every loss (a window rule of its own); use \"reno\", \"newreno\" or \"sack\"");
            return Err(("variant".into(), why));
        }
        let c = table.clone().unwrap_or_default();
        check(&c)?;
        Ok(Some(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(toml: &str) -> CResult<FullParams> {
        let c: FullTcpConfig = toml::from_str(toml).expect("parses");
        c.resolve("flows[0].transport")
    }

    /// ns-2.35 `Agent/TCP/FullTcp` defaults (tcl/lib/ns-default.tcl).
    #[test]
    fn defaults_are_ns2_fulltcp() {
        let p = FullParams::default();
        assert_eq!((p.mss, p.header, p.window, p.initial_window), (536, 40, 20, 2));
        assert!(p.nagle && !p.delayed_ack && !p.minshall);
        assert_eq!(p.delack_interval, Dur::from_millis(100));
        assert_eq!(p.rcv_buffer, 20 * 536);
        assert!(p.cubic.is_none(), "Reno's windows unless cc = \"cubic\"");
    }

    /// cc = "cubic" takes the one-way TCP's CUBIC defaults (RFC 9438 §5: C = 0.4, β = 0.7)
    /// and its table, with any recovery but Tahoe's.
    #[test]
    fn cubic_takes_the_one_way_tables_defaults_and_keys() {
        let c = resolve("cc = \"cubic\"").expect("valid").cubic.expect("cubic");
        assert_eq!(
            (c.c, c.beta, c.fast_convergence, c.reno_friendly, c.hystart),
            (0.4, 0.7, true, true, false)
        );
        let p =
            resolve("cc = \"cubic\"\nvariant = \"sack\"\ncubic = { beta = 0.5, hystart = true }")
                .expect("valid");
        let c = p.cubic.expect("cubic");
        assert_eq!((p.variant, c.beta, c.hystart), (FullVariant::Sack, 0.5, true));
    }

    /// cc = "bbr" takes the one-way TCP's BBR defaults (the draft's §4 constants) and its table,
    /// with any recovery but Tahoe's.
    #[test]
    fn bbr_takes_the_one_way_tables_defaults_and_keys() {
        let c = resolve("cc = \"bbr\"").expect("valid").bbr.expect("bbr");
        assert_eq!(
            (c.high_gain, c.cwnd_gain, c.bw_window_rounds, c.min_cwnd, c.full_bw_rounds),
            (2.0 / std::f64::consts::LN_2, 2.0, 10, 4, 3)
        );
        let p = resolve("cc = \"bbr\"\nvariant = \"sack\"\nbbr = { cwnd_gain = 3.0, cwnd_quanta = \"probe_up\" }").expect("valid");
        let c = p.bbr.expect("bbr");
        assert_eq!((p.variant, c.cwnd_gain), (FullVariant::Sack, 3.0));
        assert!(p.cubic.is_none() && resolve("").expect("valid").bbr.is_none());
    }

    /// profile = "linux": RFC 6928's initial window, RFC 6298's 1 s initial RTO, Linux's
    /// 40 ms delayed-ACK timer armed per connection; keys given win.
    #[test]
    fn the_linux_profile_sets_linux_defaults_and_keys_win() {
        let p = resolve("profile = \"linux\"").expect("valid");
        assert_eq!(
            (p.initial_window, p.initial_rto, p.min_rto),
            (10, Dur::from_secs(1), Dur::from_millis(200))
        );
        assert_eq!(
            (p.delayed_ack, p.delack_interval, p.delack_clock),
            (true, Dur::from_millis(40), DelackClock::Timer)
        );
        let p = resolve(
            "profile = \"linux\"\ninitial_window = 3\ndelayed_ack = false\ndelack_clock = \"tick\"",
        )
        .expect("valid");
        assert_eq!(
            (p.initial_window, p.delayed_ack, p.delack_clock),
            (3, false, DelackClock::Tick)
        );
        let p = resolve("profile = \"ns2\"").expect("valid");
        assert_eq!((p.initial_window, p.initial_rto, p.delayed_ack), (2, Dur::from_secs(3), false));
        assert!(resolve("").expect("valid").profile_settings().is_none());
    }

    #[test]
    fn bad_values_name_the_field() {
        for (text, field) in [
            ("mss = \"0B\"", "mss"),
            ("window = 0", "window"),
            ("minshall = true\nnagle = false", "minshall"),
            ("delack_interval = \"200ms\"\ndelack_phase = \"200ms\"", "delack_phase"),
            ("rcv_buffer = \"2GB\"", "rcv_buffer"),
            ("cc = \"cubic\"\ncubic = { beta = 1.0 }", "cubic"),
            ("cc = \"cubic\"\ncubic = { c = 0.0 }", "cubic"),
            ("cubic = { hystart = true }", "cubic"),
            ("cc = \"cubic\"\nvariant = \"tahoe\"", "variant"),
            ("bbr = { min_cwnd = 4 }", "bbr"),
            ("cc = \"bbr\"\nvariant = \"tahoe\"", "variant"),
            ("cc = \"bbr\"\nbbr = { high_gain = 1.0 }", "bbr.high_gain"),
            ("cc = \"bbr\"\nbbr = { min_cwnd = 0 }", "bbr.min_cwnd"),
            ("cc = \"bbr\"\ncubic = { beta = 0.5 }", "cubic"),
            ("cc = \"bbr3\"\nvariant = \"tahoe\"", "variant"),
            ("cc = \"bbr3\"\nbbr = { min_cwnd = 4 }", "bbr"),
            ("bbr3 = { beta = 0.5 }", "bbr3"),
            ("cc = \"bbr3\"\nbbr3 = { beta = 1.5 }", "bbr3.beta"),
            ("prr = \"ssrb\"", "prr"),
            ("prr = \"ssrb\"\nvariant = \"sack\"", "prr"),
            ("prr = \"crb\"\nvariant = \"newreno\"\nrecovery_rules = \"rfc\"", "prr"),
            ("prr = \"ssrb\"\nvariant = \"sack\"\nrecovery_rules = \"rfc\"\ncc = \"bbr\"", "prr"),
            ("loss_detection = \"rack\"", "loss_detection"),
            ("loss_detection = \"rack\"\nvariant = \"sack\"", "loss_detection"),
            ("tlp = true\nvariant = \"sack\"\nrecovery_rules = \"rfc\"", "tlp"),
            ("loss_detection = \"rack\"\ntlp = false\ntlp_max_ack_delay = \"100ms\"\nvariant = \"sack\"\nrecovery_rules = \"rfc\"", "tlp_max_ack_delay"),
        ] {
            let e = resolve(text).expect_err(text);
            assert_eq!(e.path, format!("flows[0].transport.{field}"), "{text}: {e}");
        }
        assert!(
            toml::from_str::<FullTcpConfig>("nodelay = true").is_err(),
            "unknown keys are errors"
        );
        assert!(
            toml::from_str::<FullTcpConfig>("cc = \"vegas\"").is_err(),
            "unknown congestion controls are errors"
        );
        assert!(
            toml::from_str::<FullTcpConfig>("cc = \"bbr\"\nbbr = { gain = 2.0 }").is_err(),
            "unknown BBR keys are errors"
        );
        assert!(
            toml::from_str::<FullTcpConfig>("cc = \"cubic\"\ncubic = { hystrat = true }").is_err(),
            "unknown CUBIC keys are errors"
        );
        assert!(
            toml::from_str::<FullTcpConfig>("prr = true").is_err(),
            "prr names its bound, as the one-way sack1.prr"
        );
    }
}
