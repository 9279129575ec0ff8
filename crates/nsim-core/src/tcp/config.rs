//! Typed TCP configuration (`transport = { kind = "tcp", ... }`): one struct per concern, every
//! field with its default, unit and source. Defaults are ns-2.35's (`tcl/lib/ns-default.tcl`),
//! because ns-2 is nsim's reference for the classic variants (DESIGN.md "Model decisions");
//! where the RFC says otherwise the field doc quotes both.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{CResult, ConfigError};
use crate::tcp::cc::bbr3::config::Bbr3Config;
use crate::tcp::profile::{Profile, ProfileSettings};
use crate::time::Dur;
use crate::units::Bytes;
use crate::units::{SizeSpec, TimeSpec};

/// The classic variants as (congestion control, loss recovery) pairs; see `docs/models/tcp.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// ns-2 `Agent/TCP`: slow start + congestion avoidance, fast retransmit, then slow start.
    Tahoe,
    /// Tahoe without fast retransmit: every loss costs a timeout (ns-2 `Agent/TCP` with
    /// `noFastRetrans_ true`; Goyal-Jain 1997's "Vanilla TCP").
    Vanilla,
    /// ns-2 `Agent/TCP/Reno`: fast retransmit + fast recovery (RFC 5681 §3.2).
    Reno,
    /// ns-2 `Agent/TCP/Newreno`: Reno + partial-ACK handling (RFC 6582).
    Newreno,
    /// ns-2 `Agent/TCP/Sack1`: SACK scoreboard + pipe-based recovery (Fall & Floyd 1996).
    Sack1,
    /// ns-2 `Agent/TCP/Fack`: forward acknowledgement (Mathis & Mahdavi 1996).
    Fack,
    /// ns-2 `Agent/TCP/Vegas` congestion avoidance (Brakmo et al. 1994) with Reno recovery.
    Vegas,
    /// HighSpeed TCP (RFC 3649) with Sack1 recovery (ns-2 `Agent/TCP/Sack1`, `windowOption_ 8`).
    Highspeed,
    /// General AIMD (Yang & Lam 2000) with Sack1 recovery (ns-2 `increase_num_`, `decrease_num_`).
    Gaimd,
    /// Binomial congestion control (Bansal & Balakrishnan 2001) with Sack1 recovery (ns-2
    /// `windowOption_ 6`).
    Binomial,
    /// SF-SACK (Bakthavachalu 2004 ch. 3): Sack1 whose window decrease comes from a Tustin
    /// low-pass filter of past windows.
    SfSack,
    /// CUBIC (RFC 9438) with Sack1 recovery (or `recovery` = "reno" / "newreno").
    Cubic,
    /// DCTCP (RFC 8257): ECN marks scale the window reduction; needs `ecn = true`. Sack1
    /// recovery (or `recovery` = "reno" / "newreno"); the sink echoes each segment's CE state.
    Dctcp,
    /// BBR v1 (Cardwell et al. 2016; draft-cardwell-iccrg-bbr-congestion-control-00): a model
    /// of bottleneck bandwidth and round-trip propagation time sets a paced rate and a cwnd.
    /// Always paced; Sack1 recovery (Reno's and NewReno's window deflation would undo its cwnd).
    Bbr,
    /// BBRv3 (draft-ietf-ccwg-bbr-06): BBR's model plus loss (and ECN) bounds on the flight
    /// and the ProbeBW DOWN / CRUISE / REFILL / UP cycle. Always paced; Sack1 recovery.
    Bbr3,
}

impl Variant {
    /// Whether the variant's sender reads SACK blocks (and so needs a SACK sink).
    pub fn uses_sack(self) -> bool {
        matches!(
            self,
            Variant::Sack1
                | Variant::Fack
                | Variant::Highspeed
                | Variant::Gaimd
                | Variant::Binomial
                | Variant::SfSack
                | Variant::Cubic
                | Variant::Dctcp
                | Variant::Bbr
                | Variant::Bbr3
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Variant::Tahoe => "tahoe",
            Variant::Vanilla => "vanilla",
            Variant::Reno => "reno",
            Variant::Newreno => "newreno",
            Variant::Sack1 => "sack1",
            Variant::Fack => "fack",
            Variant::Vegas => "vegas",
            Variant::Highspeed => "highspeed",
            Variant::Gaimd => "gaimd",
            Variant::Binomial => "binomial",
            Variant::SfSack => "sf_sack",
            Variant::Cubic => "cubic",
            Variant::Dctcp => "dctcp",
            Variant::Bbr => "bbr",
            Variant::Bbr3 => "bbr3",
        }
    }

    /// Whether the variant sets its sending rate by pacing (and so cannot run unpaced).
    pub fn paced(self) -> bool {
        matches!(self, Variant::Bbr | Variant::Bbr3)
    }
}

/// TCP transport options. Unknown keys are errors.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpConfig {
    /// Which variant. Default "newreno".
    #[serde(default = "default_variant")]
    pub variant: Variant,
    /// Whose defaults the unset keys take: "ns2" (default, ns-2.35) or "linux" (initial window
    /// 10, initial RTO 1 s, delayed ACKs at 40 ms, SACK, byte counting L = 2;
    /// [`crate::tcp::profile`]). Keys set here override the profile.
    pub profile: Option<Profile>,
    /// Maximum window in packets: the receiver's advertised window, so the sending window is
    /// min(cwnd, window). Default 20 (ns-2 `window_`).
    pub window: Option<u32>,
    /// Application payload per segment. Default 1000 B (ns-2 `packetSize_`). A data packet is
    /// `packet_size + header_size` on the wire (1040 B), as in ns-2.35 with `useHeaders_ true`.
    pub packet_size: Option<SizeSpec>,
    /// TCP/IP header bytes added to each segment; an ACK is exactly this size. Default 40 B
    /// (ns-2 `tcpip_base_hdr_size_`).
    pub header_size: Option<SizeSpec>,
    /// Initial congestion window in packets. Default 2 (ns-2.35 `windowInit_`; RFC 5681 §3.1
    /// allows 2-4, RFC 6928 10; profile "linux" 10).
    pub initial_window: Option<u32>,
    /// Model ns-2's one-way SYN: sequence 0 is a header-only packet and the initial window
    /// applies only once it is acknowledged. Default true (ns-2 `syn_ true`, `delay_growth_ true`).
    pub syn: Option<bool>,
    /// Delay the window's growth until the first segment is acknowledged: that ACK resets cwnd
    /// to the initial window (ns-2 `delay_growth_`, checked in `TcpAgent::recv`; default true
    /// as ns-2.35). With false the first ACK opens the window as any other, one round trip
    /// earlier. ns-2's `Agent/TCP/Fack` ignores it, and so does nsim's `fack`.
    pub delay_growth: Option<bool>,
    /// Maximum packets sent in response to one ACK; 0 = unlimited. Default 0 (ns-2 `maxburst_`).
    pub maxburst: Option<u32>,
    /// Window reductions in whole packets: truncate the window before and after halving
    /// (ns-2 `precisionReduce_ false`, the pre-2006 default used by ns-2's test suites).
    /// Default false (ns-2.35 `precisionReduce_ true`: cwnd may become e.g. 7.5).
    #[serde(default)]
    pub whole_packet_reduction: bool,
    /// Arithmetic of the congestion-avoidance increase: "float" (default, ns-2's 1/cwnd
    /// packets per ACK), "integer" (byte-counted cwnd, ⌊MSS·MSS/cwnd⌋ bytes per ACK: Goyal-Jain 1997
    /// §7.2's stall above MSS² bytes) or "ack_counting" Goyal-Jain 1997 (§7.2's fix). Reno-growth
    /// variants only.
    #[serde(default)]
    pub ca_increase: CaIncrease,
    /// Duplicate ACKs that trigger fast retransmit. Default 3 (ns-2 `numdupacks_`, RFC 5681).
    pub dupthresh: Option<u32>,
    /// How losses are detected: "dupthresh" (default, ns-2: `dupthresh` duplicate ACKs, or RFC
    /// 6675 IsLost(): `dupthresh` SACKed packets above a hole) or "rack" (RFC 8985 RACK: a
    /// packet is lost once a packet sent a reordering window after it is delivered;
    /// `crate::tcp::recovery::rack_tlp`). "rack" needs RFC 6675 SACK recovery (`sack1.algorithm
    /// = "rfc6675"`, with or without `sack1.prr`).
    pub loss_detection: Option<LossDetection>,
    /// With `loss_detection = "rack"`: the tail loss probe (RFC 8985 §7), one probe two smoothed
    /// RTTs after the last send so that a tail loss is repaired without an RTO. Default true.
    pub tlp: Option<bool>,
    /// The receiver's worst-case delayed-ACK time the probe timeout adds when one packet is in
    /// flight (RFC 8985 §7.2 WCDelAckT). Default 200 ms (the RFC's value).
    pub tlp_max_ack_delay: Option<TimeSpec>,
    /// Limited transmit (RFC 3042): send a new segment on each of the first two duplicate ACKs.
    /// Default true (ns-2.35 `singledup_ 1`).
    pub limited_transmit: Option<bool>,
    /// No new fast retransmit for a loss in data sent before the last fast retransmit or
    /// timeout, i.e. while the highest ACK is at or below `recover` (ns-2 `bugFix_`, tcp.cc /
    /// tcp-reno.cc `dupack_action`; RFC 6582 §3.2 step 1 "careful" variant). Default true
    /// (ns-2.35 `bugFix_ true`). false is 4.3BSD-Reno and ns-2's `bugFix_ false`: three
    /// losses in one window give two fast retransmits, each halving the window, then a
    /// timeout with ssthresh at one eighth of it (Goyal-Jain 1997 §2.3, Fig. 2).
    pub bugfix: Option<bool>,
    /// Sink delays ACKs: every second segment or after `delack_interval` (ns-2 `DelAckSink`).
    /// Default false (ns-2 `TCPSink` acks every segment; profile "linux" true).
    pub delayed_ack: Option<bool>,
    /// Delayed-ACK timer. Default 100 ms (ns-2 `Agent/TCPSink/DelAck interval_`; RFC 1122
    /// §4.2.3.2 requires < 500 ms, RFC 5681 §4.2 recommends ACKing every second segment;
    /// profile "linux" 40 ms, Linux `TCP_DELACK_MIN`).
    pub delack_interval: Option<TimeSpec>,
    /// Which timestamp an ACK echoes (ns-2 `Agent/TCPSink ts_echo_bugfix_`, tcp-sink.cc). Default
    /// true (ns-2.35, the default since 2003/08/13 in tcl/lib/ns-default.tcl): the timestamp of the
    /// latest segment at or below the last ACK sent plus one (RFC 7323 §4.3 TS.Recent), so ACKs
    /// of out-of-order segments echo the segment before the hole. false: the segment that
    /// triggered the ACK (ns-2 before 2003/08/13). Matters to FACK's RTT samples (one per ACK)
    /// and to the RTT a congestion control reads from the echo (cubic, HyStart).
    pub ts_echo_bugfix: Option<bool>,
    /// Loss recovery of a window-rule variant (highspeed, gaimd, binomial), cubic or dctcp: "sack1"
    /// (default, as ns-2's `Agent/TCP/Sack1` with the rule's variables, or RFC 6675 with
    /// `sack1.algorithm = "rfc6675"`), "reno" or "newreno" (the rule on `Agent/TCP/Reno` or
    /// `Agent/TCP/Newreno`). Other variants have their own recovery.
    pub recovery: Option<RuleRecovery>,
    /// Sink sends SACK blocks (RFC 2018). Default: true for the variants that read them
    /// (sack1, fack, the window rules, cubic, dctcp; profile "linux": every variant), false
    /// otherwise; those variants require it.
    pub sack: Option<bool>,
    /// ECN-capable transport (RFC 3168): data is ECT, the sink echoes CE as ECE until CWR, and
    /// the sender halves cwnd at most once per window. Default false (ns-2 `ecn_ 0`).
    #[serde(default)]
    pub ecn: bool,
    /// RTO clock granularity G. Default 10 ms (ns-2.35 `tcpTick_ 0.01`; RFC 6298 leaves G to
    /// the implementation, BSD used 500 ms).
    pub tick: Option<TimeSpec>,
    /// Which clock expires the retransmission timer: "per_connection" (default, ns-2: RTO
    /// after arming) or "global" (4.4BSD `tcp_slowtimo`: on the n-th tick, n = ⌈RTO / tick⌉,
    /// of one clock every sender shares; Goyal-Jain 1997 §2.1 "typically 500 ms"). With
    /// "global" the default `clock_offset` is 0 for every sender: one clock.
    #[serde(default)]
    pub rto_clock: RtoClock,
    /// Phase of the sender's RTO clock, in [0, tick): RTT samples count the ticks of a clock
    /// that ticks at `clock_offset + k·tick`. Default: drawn uniformly in [0, tick) for each
    /// sender from its own random stream (`flow/<name>/tcp_clock`) of the run's seed, as ns-2
    /// draws `boot_time_ = Random::uniform(tcpTick_)` for every agent; set it to fix the phase
    /// (e.g. to reproduce a given ns-2 run, or "0s" for nsim's old fixed phase).
    pub clock_offset: Option<TimeSpec>,
    /// Lower bound of the RTO. Default 200 ms (ns-2.35 `minrto_ 0.2`; Linux `TCP_RTO_MIN`);
    /// RFC 6298 (2.4) says "rounded up to 1 second" (ns-2 classic test suites use 1 s).
    pub min_rto: Option<TimeSpec>,
    /// RTO before the first RTT sample. Default 3 s (ns-2.35 `rtxcur_init_ 3.0`); RFC 6298
    /// (2.1) says 1 s (RFC 2988 said 3 s; profile "linux" 1 s, Linux `TCP_TIMEOUT_INIT`).
    pub initial_rto: Option<TimeSpec>,
    /// Upper bound of the backed-off RTO. Default 60 s (ns-2 `maxrto_ 60`; RFC 6298 (2.5) "at
    /// least 60 seconds").
    pub max_rto: Option<TimeSpec>,
    /// RFC 3742 limited slow start: once cwnd >= ssthresh, until the first fast retransmit or
    /// ECN reduction (and again after a timeout), cwnd grows by at least 1/K per ACK, K =
    /// floor(cwnd / (max_ssthresh/2)), i.e. by at most max_ssthresh/2 packets per round trip.
    /// Default 0 = off (ns-2 `max_ssthresh_ 0`); RFC 3742 suggests 100. ns-2 applies it from
    /// ssthresh on: set `initial_ssthresh = max_ssthresh` for RFC 3742's behaviour.
    pub max_ssthresh: Option<u32>,
    /// Appropriate Byte Counting (RFC 3465): an ACK of N new packets grows cwnd by min(N, abc)
    /// in slow start and N/cwnd in congestion avoidance (CUBIC: N times its per-ACK step).
    /// 0 = off, ns-2's ACK counting. Default 0 (profile "linux" 2, RFC 3465 §2.2's L). The
    /// Reno family (tahoe, vanilla, reno, newreno, sack1, fack), cubic and dctcp only.
    pub abc: Option<u32>,
    /// Slow-start threshold before the first loss, packets. Default: `window` (ns-2
    /// `ssthresh_ 0`, which means `window_`; RFC 5681 §3.1 "arbitrarily high"). Range >= 1.
    pub initial_ssthresh: Option<u32>,
    /// NewReno partial-ACK options.
    #[serde(default)]
    pub newreno: NewRenoConfig,
    /// SACK (sack1) options.
    #[serde(default)]
    pub sack1: Sack1Config,
    /// FACK options.
    #[serde(default)]
    pub fack: FackConfig,
    /// Vegas options.
    #[serde(default)]
    pub vegas: VegasConfig,
    /// HighSpeed TCP options.
    #[serde(default)]
    pub highspeed: HighSpeedConfig,
    /// GAIMD options.
    #[serde(default)]
    pub gaimd: GaimdConfig,
    /// Binomial options.
    #[serde(default)]
    pub binomial: BinomialConfig,
    /// SF-SACK options.
    #[serde(default)]
    pub sf_sack: SfSackConfig,
    /// CUBIC options.
    #[serde(default)]
    pub cubic: CubicConfig,
    /// DCTCP options.
    #[serde(default)]
    pub dctcp: DctcpConfig,
    /// BBR options.
    #[serde(default)]
    pub bbr: BbrConfig,
    /// BBRv3 options.
    #[serde(default)]
    pub bbr3: Bbr3Config,
    /// Pace new segments at the sender (`crate::tcp::pacing`): release `pacing_quantum`
    /// packets back to back, then wait until they would have left at the pacing rate. Default
    /// false (ns-2 does not pace), always true for "bbr" and "bbr3" (their drafts' pacing rate
    /// controls the rate).
    pub pacing: Option<bool>,
    /// A fixed pacing rate. Default: the congestion control's (BBR's pacing_gain × BtlBw) or,
    /// for the others, Linux's `tcp_update_pacing_rate`: 2 × cwnd / srtt in slow start (below
    /// half of ssthresh), 1.2 × cwnd / srtt after, no pacing before the first RTT sample.
    pub pacing_rate: Option<crate::units::RateSpec>,
    /// Packets released back to back per pacing interval. Default 1 (ns-3's per-segment
    /// pacing; Linux fq's quantum is 2 MTU, its TSO autosizing about 1 ms of data).
    pub pacing_quantum: Option<u32>,
    /// TCP-DS marking of data segments (and ACKs) by the sender's state Noureddine 2002 (§4.6.1;
    /// `crate::tcp::marking`). Default none: segments carry the flow's `prio`.
    pub tcp_ds: Option<crate::tcp::marking::TcpDsConfig>,
}

/// How losses are detected (`loss_detection`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LossDetection {
    /// Duplicate-ACK / SACK counting against `dupthresh` (ns-2, RFC 5681, RFC 6675).
    #[default]
    Dupthresh,
    /// RACK-TLP (RFC 8985): send-time ordered loss detection, with the tail loss probe.
    Rack,
}

/// Resolved RACK-TLP parameters (`loss_detection = "rack"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RackParams {
    /// Send tail loss probes (RFC 8985 §7).
    pub tlp: bool,
    /// RFC 8985 §7.2 WCDelAckT.
    pub max_ack_delay: Dur,
}

/// RACK-TLP on or off and its probe settings from the keys `loss_detection`, `tlp` and
/// `tlp_max_ack_delay` (the one-way and the full TCP's); the probe keys need RACK. On error:
/// the field and why.
pub(crate) fn rack_params(
    loss_detection: Option<LossDetection>,
    tlp: Option<bool>,
    tlp_max_ack_delay: Option<TimeSpec>,
) -> Result<Option<RackParams>, (&'static str, String)> {
    if loss_detection.unwrap_or_default() == LossDetection::Dupthresh {
        if tlp.is_some() || tlp_max_ack_delay.is_some() {
            let field = if tlp.is_some() { "tlp" } else { "tlp_max_ack_delay" };
            return Err((
                field,
                "the tail loss probe is part of RACK-TLP: set loss_detection = \"rack\"".into(),
            ));
        }
        return Ok(None);
    }
    let tlp = tlp.unwrap_or(true);
    if !tlp && tlp_max_ack_delay.is_some() {
        return Err(("tlp_max_ack_delay", "has no effect with tlp = false".into()));
    }
    Ok(Some(RackParams {
        tlp,
        max_ack_delay: tlp_max_ack_delay.map_or(Dur::from_millis(200), |t| t.0),
    }))
}

/// The RTO clock's constraints, shared by the one-way and the full TCP configs: a positive
/// tick (ns-2 `tcpTick_`), a phase inside it, and `min_rto <= max_rto`. On error: the field
/// and why.
pub(crate) fn check_rto_clock(
    tick: Dur,
    clock_offset: Option<Dur>,
    min_rto: Dur,
    max_rto: Dur,
) -> Result<(), (&'static str, &'static str)> {
    if tick == Dur::ZERO {
        return Err(("tick", "the RTO clock granularity must be positive"));
    }
    if clock_offset.is_some_and(|o| o >= tick) {
        return Err(("clock_offset", "must be less than tick (it is a phase in [0, tick))"));
    }
    if min_rto > max_rto {
        return Err(("min_rto", "must not exceed max_rto"));
    }
    Ok(())
}

fn default_variant() -> Variant {
    Variant::Newreno
}

/// NewReno partial-ACK behaviour (ns-2 `Agent/TCP/Newreno`).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewRenoConfig {
    /// Deflate the window by the data a partial ACK acknowledges, then add one segment (RFC
    /// 6582 §3.2 step 5). Default true (ns-2.35 `partial_window_deflation_ 1`).
    #[serde(default = "yes")]
    pub partial_window_deflation: bool,
    /// Reset the retransmit timer only on the first partial ACK ("impatient" variant, RFC 6582
    /// §4), instead of on every one ("slow-but-steady"). Default true (ns-2.35
    /// `newreno_changes1_ 1`).
    #[serde(default = "yes")]
    pub reset_timer_first_partial_only: bool,
}

impl Default for NewRenoConfig {
    fn default() -> Self {
        NewRenoConfig { partial_window_deflation: true, reset_timer_first_partial_only: true }
    }
}

/// SACK recovery options (variant "sack1").
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sack1Config {
    /// Which SACK recovery: "ns2" (default, ns-2 `Agent/TCP/Sack1`) or "rfc6675".
    #[serde(default)]
    pub algorithm: SackAlgorithm,
    /// ns2 algorithm only: send two segments on each partial ACK during recovery (ns-2
    /// `partial_ack_`). Default false (ns-2.35).
    #[serde(default)]
    pub partial_ack: bool,
    /// ns2 algorithm only: pipe at the start of fast recovery. Default "outstanding".
    #[serde(default)]
    pub pipe_start: PipeStart,
    /// rfc6675 algorithm only: Proportional Rate Reduction (RFC 6937) decides how many packets
    /// each ACK in recovery releases, "ssrb" (slow-start reduction bound, RFC 6937's
    /// recommendation) or "crb" (conservative). Default: none (RFC 6675's cwnd - pipe).
    pub prr: Option<PrrBound>,
}

/// RFC 6937 §3's reduction bound, used once pipe falls to ssthresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PrrBound {
    /// PRR-SSRB: at most one packet more than delivered per ACK (slow start in recovery).
    Ssrb,
    /// PRR-CRB: never more sent than delivered (strong packet conservation).
    Crb,
}

/// Where Sack1's `pipe` starts at a fast retransmit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PipeStart {
    /// Packets outstanding minus `dupthresh` (ns-2 `Sack1TcpAgent`, `LimTransmitFix_ false`).
    #[default]
    Outstanding,
    /// cwnd before halving minus `dupthresh` Goyal-Jain 1997 (§4.2: "sets PIPE to CWND − 3, and
    /// sets CWND to CWND/2"); differs from "outstanding" when the receiver window or the
    /// application limits the flight below cwnd.
    Cwnd,
}

/// Arithmetic of the congestion-avoidance increase Goyal-Jain 1997 (§7.2, Goyal et al. 1997).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaIncrease {
    /// cwnd += 1/cwnd packets per new ACK in floating point (ns-2 `opencwnd`, RFC 5681 (3)).
    #[default]
    Float,
    /// cwnd in bytes, += ⌊MSS·MSS/cwnd⌋ bytes per new ACK in integer arithmetic: zero, so
    /// congestion avoidance stalls, once cwnd > MSS² bytes (more than MSS packets).
    Integer,
    /// Goyal-Jain 1997 §7.2's "ACK counting option": wait for the N-th ACK with N·MSS·MSS > cwnd,
    /// then add ⌊N·MSS·MSS/cwnd⌋ bytes and start counting again (the remainder is dropped).
    AckCounting,
}

/// Which clock expires the retransmission timer (`rto_clock`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RtoClock {
    /// A timer of its own, expiring RTO after it is armed (ns-2 `rtx_timer_`).
    #[default]
    PerConnection,
    /// 4.4BSD's slow timer (`tcp_slowtimo`, TCP/IP Illustrated vol. 2 ch. 25): the timer holds
    /// ⌈RTO / tick⌉ ticks and one clock shared by every connection counts them down, so it
    /// fires on the n-th clock tick after it is armed, and timers armed within the same tick
    /// expire together.
    Global,
}

/// Loss recovery paired with a window rule (`recovery`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RuleRecovery {
    #[default]
    Sack1,
    Reno,
    Newreno,
}

/// SACK-based loss recovery algorithms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SackAlgorithm {
    /// ns-2 `Agent/TCP/Sack1` (Fall & Floyd 1996): pipe decremented per ACK.
    #[default]
    Ns2,
    /// RFC 6675: pipe recomputed from the scoreboard, IsLost() after `dupthresh` SACKs.
    Rfc6675,
}

/// FACK options (ns-2 `Agent/TCP/Fack`).
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FackConfig {
    /// Rampdown: spread the window reduction over the recovery (Mathis & Mahdavi §4.3).
    /// Default false (ns-2 `rampdown_ 0`).
    #[serde(default)]
    pub rampdown: bool,
}

/// DCTCP parameters (RFC 8257 §3.3, §4.2; `crate::tcp::cc::dctcp`).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DctcpConfig {
    /// g, the gain of the marked-fraction estimate α. Default 1/16 (RFC 8257 §4.2).
    #[serde(default = "dctcp_g")]
    pub g: f64,
    /// α before the first window ends. Default 1 (RFC 8257 §3.3).
    #[serde(default = "one")]
    pub initial_alpha: f64,
}

impl Default for DctcpConfig {
    fn default() -> Self {
        DctcpConfig { g: dctcp_g(), initial_alpha: 1.0 }
    }
}

fn dctcp_g() -> f64 {
    1.0 / 16.0
}

/// CUBIC parameters (RFC 9438 §4-§5; `crate::tcp::cc::cubic`).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CubicConfig {
    /// C, the cubic function's scale, in segments per second cubed. Default 0.4 (RFC 9438 §5,
    /// Linux `bic_scale`).
    #[serde(default = "cubic_c")]
    pub c: f64,
    /// β_cubic, the window kept on a congestion event. Default 0.7 (RFC 9438 §4.6).
    #[serde(default = "cubic_beta")]
    pub beta: f64,
    /// Fast convergence (RFC 9438 §4.7): release bandwidth sooner when W_max falls. Default true.
    #[serde(default = "yes")]
    pub fast_convergence: bool,
    /// The Reno-friendly region (RFC 9438 §4.3): never below an AIMD flow with Reno's average
    /// window. Default true (ns-3.37's TcpCubic lacks it: false to compare with it).
    #[serde(default = "yes")]
    pub reno_friendly: bool,
    /// HyStart++ (RFC 9406) as the initial slow start: leave it when the round trip time
    /// grows, through Conservative Slow Start (`crate::tcp::cc::hystart`). Default false
    /// (standard slow start, RFC 5681).
    #[serde(default)]
    pub hystart: bool,
}

impl Default for CubicConfig {
    fn default() -> Self {
        CubicConfig {
            c: cubic_c(),
            beta: cubic_beta(),
            fast_convergence: true,
            reno_friendly: true,
            hystart: false,
        }
    }
}

impl CubicConfig {
    /// The ranges RFC 9438 allows (the one-way and the two-way TCP check the same).
    pub fn validate(&self) -> Result<(), &'static str> {
        if self.c > 0.0 && self.c.is_finite() && self.beta > 0.0 && self.beta < 1.0 {
            Ok(())
        } else {
            Err("needs c > 0 and 0 < beta < 1")
        }
    }
}

fn cubic_c() -> f64 {
    0.4
}

fn cubic_beta() -> f64 {
    0.7
}

/// Vegas thresholds, in packets of extra data queued in the network (Brakmo et al. 1994 §3.2).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VegasConfig {
    /// Increase cwnd linearly while diff < alpha. Default 1 (ns-2 `v_alpha_`).
    #[serde(default = "one")]
    pub alpha: f64,
    /// Decrease cwnd linearly while diff > beta. Default 3 (ns-2 `v_beta_`).
    #[serde(default = "three")]
    pub beta: f64,
    /// Leave slow start when diff > gamma. Default 1 (ns-2 `v_gamma_`).
    #[serde(default = "one")]
    pub gamma: f64,
    /// ECN-capable data packets when the flow has `ecn = true`. Default false, as ns-2: its
    /// `VegasTcpAgent::output` (tcp/tcp-vegas.cc, ns-2.35 and the releases before) replaces
    /// `TcpAgent::output` without its `if (ecn_) ect() = 1`, so a marking queue (RED
    /// `setbit`) drops Vegas' packets where it marks the other flows', and no ECN-Echo ever
    /// comes back: Vegas is "almost insensitive to ECN" (Bakthavachalu 2004 §5.1.2). true:
    /// RFC 3168 ECT data and Reno's response to ECN-Echo (halve once per window, ns-2
    /// `TcpAgent::ecn`, which ns-2.35's `VegasTcpAgent::recv` calls).
    #[serde(default)]
    pub ect: bool,
    /// Vegas' own retransmission (Brakmo et al. 1994 §3.1, ns-2.35): retransmit on a duplicate
    /// ACK, or on one of the two new ACKs after a retransmission, once the segment's
    /// fine-grained timeout has expired; reduce the window to 3/4, or 1/2 for a segment
    /// already retransmitted, once per loss. Default true (ns-2.35). false: Reno's fast
    /// retransmit and recovery with the 3/4 reduction (nsim's Vegas before this model; Vegas
    /// without §3.1).
    #[serde(default = "yes")]
    pub fine_retransmit: bool,
    /// Packets as ns-2's Vegas sends them: `VegasTcpAgent::output` (tcp/tcp-vegas.cc) neither
    /// adds the header to `packetSize_` nor makes segment 0 a header-only SYN, so each data
    /// packet is `packet_size` bytes on the wire (payload `packet_size - header_size`) and
    /// segment 0 carries data. Default true (ns-2.35, and the ns-2 the seed studies ran);
    /// false: packets as nsim's other variants (payload `packet_size`, SYN per `syn`).
    #[serde(default = "yes")]
    pub ns2_sizes: bool,
}

impl Default for VegasConfig {
    fn default() -> Self {
        VegasConfig {
            alpha: 1.0,
            beta: 3.0,
            gamma: 1.0,
            ect: false,
            fine_retransmit: true,
            ns2_sizes: true,
        }
    }
}

/// HighSpeed TCP parameters (RFC 3649 §5; ns-2 `Agent/TCP` variables of `windowOption_ 8`).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HighSpeedConfig {
    /// Window in packets up to which HighSpeed behaves as Reno. Default 38 (RFC 3649
    /// Low_Window; ns-2 `low_window_`). Range > 1.
    #[serde(default = "low_window")]
    pub low_window: f64,
    /// Window in packets reached at loss rate `high_p`. Default 83000 (RFC 3649 High_Window;
    /// ns-2 `high_window_`). Range > low_window.
    #[serde(default = "high_window")]
    pub high_window: f64,
    /// Loss rate at which the window is `high_window`. Default 1e-7 (RFC 3649 High_P; ns-2
    /// `high_p_`). Range (0, 1).
    #[serde(default = "high_p")]
    pub high_p: f64,
    /// Decrease factor b at `high_window`. Default 0.1 (RFC 3649 High_Decrease; ns-2
    /// `high_decrease_`). Range (0, 0.5].
    #[serde(default = "high_decrease")]
    pub high_decrease: f64,
    /// How p(w), and so a(w), is computed: "ns2" (default, ns-2's log-log interpolation from
    /// 1.5/low_window² at low_window) or "rfc3649" (p = 0.078/w^1.2, which generates RFC 3649
    /// Appendix B).
    #[serde(default)]
    pub p_model: PModel,
    /// Keep the last b(w) as the decrease for reductions at or below low_window, as ns-2 does
    /// (`decrease_num_` is overwritten). Default true; false halves there (RFC 3649).
    #[serde(default = "yes")]
    pub ns2_sticky_decrease: bool,
}

impl Default for HighSpeedConfig {
    fn default() -> Self {
        HighSpeedConfig {
            low_window: low_window(),
            high_window: high_window(),
            high_p: high_p(),
            high_decrease: high_decrease(),
            p_model: PModel::Ns2,
            ns2_sticky_decrease: true,
        }
    }
}

/// The loss rate p(w) of HighSpeed TCP's response function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PModel {
    /// ns-2 `increase_param`: log-log line from (low_window, 1.5/low_window²) to
    /// (high_window, high_p).
    #[default]
    Ns2,
    /// RFC 3649 §5: p(w) = 0.078/w^1.2 (the default parameters only).
    Rfc3649,
}

/// GAIMD parameters (Yang & Lam 2000; ns-2 `increase_num_`, `decrease_num_`).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GaimdConfig {
    /// Window kept after a loss, w <- beta·w. Default 0.875 (Yang & Lam's 7/8; ns-2
    /// `decrease_num_`, 0.5 for Reno). Range (0, 1). Bakthavachalu 2004's "GAIMD(1, 0.125)" is
    /// alpha = 1, beta = 0.875.
    #[serde(default = "seven_eighths")]
    pub beta: f64,
    /// Packets added per round trip in congestion avoidance. Default 4(1 - beta²)/3, the
    /// TCP-friendly value (Yang & Lam §3; 0.3125 for beta = 7/8) (ns-2 `increase_num_`).
    /// Range > 0.
    pub alpha: Option<f64>,
}

impl GaimdConfig {
    /// alpha, or the TCP-friendly 4(1 - beta²)/3.
    pub fn alpha(&self) -> f64 {
        self.alpha.unwrap_or(4.0 * (1.0 - self.beta * self.beta) / 3.0)
    }
}

impl Default for GaimdConfig {
    fn default() -> Self {
        GaimdConfig { beta: seven_eighths(), alpha: None }
    }
}

/// SF-SACK filter options (Bakthavachalu 2004 ch. 3; docs/models/tcp_sf_sack.md).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SfSackConfig {
    /// Filter time constant τ (cut-off 1/τ). Default 100 ms, the thesis' optimum (§6.1).
    pub tau: Option<TimeSpec>,
    /// Period of the scheduler that samples cwnd into the filter. Default τ/2 (the thesis'
    /// Nyquist argument, Eq. 3.2).
    pub sample_interval: Option<TimeSpec>,
    /// Run the scheduler. Default true; false filters loss samples only, which the thesis
    /// rejects because the filter then oscillates when losses are more than 2τ apart.
    #[serde(default = "yes")]
    pub scheduler: bool,
    /// Window after a timeout (the thesis leaves it open). Default "restart".
    #[serde(default)]
    pub on_timeout: SfSackTimeout,
}

impl SfSackConfig {
    pub fn tau(&self) -> Dur {
        self.tau.map_or(Dur::from_millis(100), |t| t.0)
    }
    /// The scheduler period.
    pub fn period(&self) -> Dur {
        self.sample_interval.map_or(Dur(self.tau().0 / 2), |t| t.0)
    }
}

impl Default for SfSackConfig {
    fn default() -> Self {
        SfSackConfig {
            tau: None,
            sample_interval: None,
            scheduler: true,
            on_timeout: SfSackTimeout::default(),
        }
    }
}

/// SF-SACK's window after a retransmission timeout; the filter takes sample 1 either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SfSackTimeout {
    /// cwnd = 1, ssthresh = the estimate: slow start back to the smoothed window (Fig. 3.1
    /// marks "cwnd_ = 1" at the timeout; ns-2's timeout restarts the window).
    #[default]
    Restart,
    /// cwnd = the estimate (the text: "the estimated cwnd value is used to decrease the cwnd").
    Estimate,
}

/// Binomial parameters (Bansal & Balakrishnan 2001; ns-2 `k_parameter_`, `l_parameter_`,
/// `increase_num_` = alpha, `decrease_num_` = 1 - beta). Defaults: SQRT.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BinomialConfig {
    /// Increase exponent: w += alpha/w^k per round trip. Default 0.5 (SQRT; IIAD 1, AIMD 0).
    /// Range >= 0 (ns-2 `k_parameter_`).
    #[serde(default = "half")]
    pub k: f64,
    /// Decrease exponent: w -= beta·w^l on a loss. Default 0.5 (SQRT; IIAD 0, AIMD 1). Range
    /// [0, 1] (ns-2 `l_parameter_`).
    #[serde(default = "half")]
    pub l: f64,
    /// Increase coefficient, packets. Default 1.5 (B&B's suggestion, Bakthavachalu 2004 Table 5.9;
    /// ns-2 `increase_num_`). Range > 0.
    #[serde(default = "one_and_a_half")]
    pub alpha: f64,
    /// Decrease coefficient. Default 1 (Bakthavachalu 2004 Table 5.9; ns-2 `decrease_num_` = 1 - beta).
    /// Range (0, 1].
    #[serde(default = "one")]
    pub beta: f64,
}

impl Default for BinomialConfig {
    fn default() -> Self {
        BinomialConfig { k: 0.5, l: 0.5, alpha: 1.5, beta: 1.0 }
    }
}

fn seven_eighths() -> f64 {
    0.875
}
fn half() -> f64 {
    0.5
}
fn one_and_a_half() -> f64 {
    1.5
}

fn low_window() -> f64 {
    38.0
}
fn high_window() -> f64 {
    83000.0
}
fn high_p() -> f64 {
    1e-7
}
fn high_decrease() -> f64 {
    0.1
}

fn yes() -> bool {
    true
}
fn one() -> f64 {
    1.0
}
fn three() -> f64 {
    3.0
}

/// Resolved parameters the sender and sink use (units typed, defaults applied).
#[derive(Clone, Debug)]
pub struct TcpParams {
    pub variant: Variant,
    /// The profile the table named, None when it named none.
    pub profile: Option<Profile>,
    pub window: u32,
    pub payload: Bytes,
    pub header: Bytes,
    pub initial_window: u32,
    pub syn: bool,
    pub delay_growth: bool,
    pub maxburst: u32,
    pub whole_packet_reduction: bool,
    pub ca_increase: CaIncrease,
    pub dupthresh: u32,
    pub limited_transmit: bool,
    pub bugfix: bool,
    pub delayed_ack: bool,
    pub delack_interval: Dur,
    pub ts_echo_bugfix: bool,
    pub sack: bool,
    /// ECT data and the ECN-Echo response: `TcpConfig::ecn`, off for ns-2's Vegas unless
    /// `vegas.ect`.
    pub ecn: bool,
    pub tick: Dur,
    pub rto_clock: RtoClock,
    /// None: drawn per sender when the flow is built ([`crate::tcp::build::agents`]).
    pub clock_offset: Option<Dur>,
    pub min_rto: Dur,
    pub initial_rto: Dur,
    pub max_rto: Dur,
    pub newreno: NewRenoConfig,
    pub sack1: Sack1Config,
    pub fack: FackConfig,
    pub vegas: VegasConfig,
    /// Packets; 0 = off.
    pub max_ssthresh: u32,
    /// RFC 3465 L in packets; 0 = off.
    pub abc: u32,
    /// Packets.
    pub initial_ssthresh: u32,
    pub highspeed: HighSpeedConfig,
    pub gaimd: GaimdConfig,
    pub binomial: BinomialConfig,
    pub sf_sack: SfSackConfig,
    pub cubic: CubicConfig,
    pub dctcp: DctcpConfig,
    pub bbr: BbrConfig,
    pub bbr3: Bbr3Config,
    /// The seed of BBR's random PROBE_BW start phase (BBRv3's probe waits), drawn per flow
    /// when it is built ([`crate::tcp::build::agents`]); 0 in unit harnesses.
    pub bbr_seed: u64,
    /// None: no pacing.
    pub pacing: Option<PacingParams>,
    pub recovery: RuleRecovery,
    pub tcp_ds: Option<crate::tcp::marking::TcpDsConfig>,
    /// None: losses detected by `dupthresh`.
    pub rack: Option<RackParams>,
}

impl Default for TcpParams {
    fn default() -> Self {
        TcpConfig::from_variant(Variant::Newreno).resolve("transport").expect("defaults are valid")
    }
}

impl TcpParams {
    /// The resolved settings a profile governs, for a flow that named one.
    pub fn profile_settings(&self) -> Option<ProfileSettings> {
        let (window, rtos, delack) = (
            self.initial_window,
            (self.min_rto, self.initial_rto),
            (self.delayed_ack, self.delack_interval),
        );
        Some(ProfileSettings::new(self.profile?, window, rtos, delack, self.sack, self.abc))
    }
}

impl TcpConfig {
    /// All defaults for `variant`.
    pub fn from_variant(variant: Variant) -> TcpConfig {
        let v = serde_json::json!({ "variant": variant.name() });
        serde_json::from_value(v).expect("defaults deserialize")
    }

    /// Applies defaults and checks ranges; `path` prefixes error field paths.
    pub fn resolve(&self, path: &str) -> CResult<TcpParams> {
        let err = |field: &str, why: String| ConfigError::new(format!("{path}.{field}"), why);
        let dur = |t: Option<TimeSpec>, ms: u64| t.map_or(Dur::from_millis(ms), |t| t.0);
        let window = self.window.unwrap_or(20);
        if window == 0 {
            return Err(err("window", "must be at least 1 packet".into()));
        }
        let mut payload = self.packet_size.map_or(Bytes(1000), |s| s.0);
        if payload.0 == 0 || payload.0 > 65_535 {
            return Err(err("packet_size", format!("{} B is not in 1..=65535 B", payload.0)));
        }
        let header = self.header_size.map_or(Bytes(40), |s| s.0);
        if header.0 == 0 || header.0 > 1000 {
            return Err(err("header_size", format!("{} B is not in 1..=1000 B", header.0)));
        }
        let ns2_vegas = self.variant == Variant::Vegas && self.vegas.ns2_sizes;
        if ns2_vegas {
            if payload.0 <= header.0 {
                return Err(err("packet_size", format!("{} B leaves no payload after the {} B header (vegas.ns2_sizes: packet_size is the whole packet, as ns-2's packetSize_ for Vegas)", payload.0, header.0)));
            }
            if self.syn == Some(true) {
                return Err(err("syn", "ns-2's Vegas sends no SYN (vegas.ns2_sizes = true); set vegas.ns2_sizes = false for one".into()));
            }
            payload = Bytes(payload.0 - header.0);
        }
        let rule = matches!(
            self.variant,
            Variant::Highspeed
                | Variant::Gaimd
                | Variant::Binomial
                | Variant::Cubic
                | Variant::Dctcp
        );
        if self.recovery.is_some() && !rule {
            return Err(err("recovery", format!("only the window rules (highspeed, gaimd, binomial), cubic and dctcp take a recovery, not '{}'", self.variant.name())));
        }
        let recovery = self.recovery.unwrap_or_default();
        let d = self.profile.unwrap_or_default().defaults();
        let needs_sack = self.variant.uses_sack() && recovery == RuleRecovery::Sack1;
        let sack = self.sack.or(d.sack).unwrap_or(needs_sack);
        let counts_acks = !matches!(
            self.variant,
            Variant::Vegas
                | Variant::Highspeed
                | Variant::Gaimd
                | Variant::Binomial
                | Variant::SfSack
        );
        if self.abc.is_some_and(|l| l > 0) && !counts_acks {
            return Err(err(
                "abc",
                format!(
                    "byte counting applies to the Reno family, cubic and dctcp, not '{}'",
                    self.variant.name()
                ),
            ));
        }
        if self.abc.is_some_and(|l| l > 0) && self.ca_increase != CaIncrease::Float {
            return Err(err("abc", "byte counting and ca_increase \"integer\" / \"ack_counting\" are two congestion-avoidance arithmetics: choose one".into()));
        }
        // The profile's byte counting where the variant has it and the table asks no other
        // arithmetic.
        let abc = self.abc.unwrap_or(if counts_acks && self.ca_increase == CaIncrease::Float {
            d.abc
        } else {
            0
        });
        if needs_sack && !sack {
            return Err(err(
                "sack",
                format!("variant '{}' needs a SACK receiver", self.variant.name()),
            ));
        }
        let p = TcpParams {
            variant: self.variant,
            profile: self.profile,
            window,
            payload,
            header,
            initial_window: self.initial_window.unwrap_or(d.initial_window),
            syn: self.syn.unwrap_or(!ns2_vegas),
            delay_growth: self.delay_growth.unwrap_or(true),
            maxburst: self.maxburst.unwrap_or(0),
            whole_packet_reduction: self.whole_packet_reduction,
            ca_increase: self.ca_increase,
            dupthresh: self.dupthresh.unwrap_or(3),
            limited_transmit: self.limited_transmit.unwrap_or(true),
            bugfix: self.bugfix.unwrap_or(true),
            delayed_ack: self.delayed_ack.unwrap_or(d.delayed_ack),
            delack_interval: self.delack_interval.map_or(d.delack_interval, |t| t.0),
            ts_echo_bugfix: self.ts_echo_bugfix.unwrap_or(true),
            sack,
            // ns-2's Vegas never sends ECT data (vegas.ect).
            ecn: self.ecn && (self.variant != Variant::Vegas || self.vegas.ect),
            tick: dur(self.tick, 10),
            rto_clock: self.rto_clock,
            clock_offset: self.clock_offset.map(|t| t.0),
            min_rto: self.min_rto.map_or(d.min_rto, |t| t.0),
            initial_rto: self.initial_rto.map_or(d.initial_rto, |t| t.0),
            max_rto: dur(self.max_rto, 60_000),
            newreno: self.newreno.clone(),
            sack1: self.sack1.clone(),
            fack: self.fack.clone(),
            vegas: self.vegas.clone(),
            max_ssthresh: self.max_ssthresh.unwrap_or(0),
            abc,
            initial_ssthresh: self.initial_ssthresh.unwrap_or(window),
            highspeed: self.highspeed.clone(),
            gaimd: self.gaimd.clone(),
            binomial: self.binomial.clone(),
            sf_sack: self.sf_sack.clone(),
            cubic: self.cubic.clone(),
            dctcp: self.dctcp.clone(),
            bbr: self.bbr.clone(),
            bbr3: self.bbr3.clone(),
            bbr_seed: 0,
            pacing: self.pacing_params().map_err(|(field, why)| err(field, why))?,
            recovery,
            tcp_ds: self.tcp_ds.clone(),
            rack: rack_params(self.loss_detection, self.tlp, self.tlp_max_ack_delay)
                .map_err(|(field, why)| err(field, why))?,
        };
        if let Some(Err((field, why))) = p.tcp_ds.as_ref().map(|m| m.validate()) {
            return Err(err(&format!("tcp_ds.{field}"), why));
        }
        if p.initial_window == 0 {
            return Err(err("initial_window", "must be at least 1 packet".into()));
        }
        if p.initial_ssthresh == 0 {
            return Err(err("initial_ssthresh", "must be at least 1 packet".into()));
        }
        if p.dupthresh == 0 {
            return Err(err("dupthresh", "must be at least 1".into()));
        }
        check_rto_clock(p.tick, p.clock_offset, p.min_rto, p.max_rto)
            .map_err(|(field, why)| err(field, why.into()))?;
        let v = &p.vegas;
        if !(v.alpha > 0.0
            && v.alpha <= v.beta
            && v.gamma > 0.0
            && v.beta.is_finite()
            && v.gamma.is_finite())
        {
            return Err(err("vegas", "needs 0 < alpha <= beta and gamma > 0".into()));
        }
        let h = &p.highspeed;
        if !(h.low_window > 1.0 && h.high_window > h.low_window && h.high_window.is_finite()) {
            return Err(err("highspeed", "needs 1 < low_window < high_window".into()));
        }
        if !(h.high_p > 0.0 && h.high_p < 1.0 && h.high_decrease > 0.0 && h.high_decrease <= 0.5) {
            return Err(err(
                "highspeed",
                "needs 0 < high_p < 1 and 0 < high_decrease <= 0.5".into(),
            ));
        }
        let g = &p.gaimd;
        if !(g.beta > 0.0 && g.beta < 1.0 && g.alpha() > 0.0 && g.alpha().is_finite()) {
            return Err(err("gaimd", "needs 0 < beta < 1 and alpha > 0".into()));
        }
        let b = &p.binomial;
        if !(b.k >= 0.0
            && b.k.is_finite()
            && (0.0..=1.0).contains(&b.l)
            && b.alpha > 0.0
            && b.alpha.is_finite()
            && b.beta > 0.0
            && b.beta <= 1.0)
        {
            return Err(err(
                "binomial",
                "needs k >= 0, 0 <= l <= 1, alpha > 0 and 0 < beta <= 1".into(),
            ));
        }
        let f = &p.sf_sack;
        if f.tau() == Dur::ZERO || f.period() == Dur::ZERO {
            return Err(err("sf_sack", "tau and sample_interval must be positive".into()));
        }
        let d = &p.dctcp;
        if !(d.g > 0.0 && d.g <= 1.0 && (0.0..=1.0).contains(&d.initial_alpha)) {
            return Err(err("dctcp", "needs 0 < g <= 1 and 0 <= initial_alpha <= 1".into()));
        }
        if p.variant == Variant::Dctcp && !p.ecn {
            return Err(err("ecn", "variant 'dctcp' reacts to ECN marks: set ecn = true (and a marking queue, e.g. kind = \"step_mark\")".into()));
        }
        let sack_recovery = matches!(p.variant, Variant::Sack1 | Variant::Bbr | Variant::Bbr3)
            || (rule && p.recovery == RuleRecovery::Sack1);
        for (field, what, on) in [
            ("sack1.prr", "PRR", p.sack1.prr.is_some()),
            ("loss_detection", "RACK", p.rack.is_some()),
        ] {
            if !on {
                continue;
            }
            if !sack_recovery {
                return Err(err(field, format!("{what} runs in SACK recovery: variant '{}' with this recovery has none (use sack1, bbr, bbr3, or cubic, dctcp or a window rule with recovery = \"sack1\")", self.variant.name())));
            }
            if p.sack1.algorithm != SackAlgorithm::Rfc6675 {
                return Err(err(field, format!("{what} needs RFC 6675's scoreboard and pipe: set sack1.algorithm = \"rfc6675\"")));
            }
        }
        p.cubic.validate().map_err(|why| err("cubic", why.into()))?;
        p.bbr.validate().map_err(|(field, why)| err(&format!("bbr.{field}"), why.into()))?;
        p.bbr3.validate().map_err(|(field, why)| err(&format!("bbr3.{field}"), why.into()))?;
        Ok(p)
    }

    /// Pacing on or off, its fixed rate and quantum; "bbr" and "bbr3" cannot run unpaced.
    fn pacing_params(&self) -> Result<Option<PacingParams>, (&'static str, String)> {
        let paced_by = self.variant.paced().then(|| {
            (
                format!("variant '{}'", self.variant.name()),
                bbr_pacing_source(self.variant == Variant::Bbr),
            )
        });
        pacing_params(paced_by, self.pacing, self.pacing_rate, self.pacing_quantum)
    }
}

/// Where BBR v1 (`v1`) or BBRv3 sets its pacing rate.
pub(crate) fn bbr_pacing_source(v1: bool) -> &'static str {
    if v1 {
        "draft-cardwell-iccrg-bbr-congestion-control-00 §4.2.1"
    } else {
        "draft-ietf-ccwg-bbr-06 §5.6.2"
    }
}

/// The `pacing`, `pacing_rate` and `pacing_quantum` keys of a sender (the one-way TCP's and
/// tcp_full's), resolved. `paced_by`: the congestion control that sets its rate by pacing
/// and so cannot run unpaced (its name in the error, and the rule's source). On error: the
/// field and why.
pub(crate) fn pacing_params(
    paced_by: Option<(String, &'static str)>,
    pacing: Option<bool>,
    rate: Option<crate::units::RateSpec>,
    quantum: Option<u32>,
) -> Result<Option<PacingParams>, (&'static str, String)> {
    if let (Some((who, source)), Some(false)) = (&paced_by, pacing) {
        return Err((
            "pacing",
            format!("{who} sets its sending rate by pacing ({source}): it cannot be false"),
        ));
    }
    if !pacing.unwrap_or(paced_by.is_some()) {
        if rate.is_some() || quantum.is_some() {
            let field = if rate.is_some() { "pacing_rate" } else { "pacing_quantum" };
            return Err((field, "has no effect without pacing = true".into()));
        }
        return Ok(None);
    }
    let rate = rate.map(|r| r.0 .0 as f64);
    if rate == Some(0.0) {
        return Err(("pacing_rate", "must be positive".into()));
    }
    let quantum = quantum.unwrap_or(1);
    if quantum == 0 {
        return Err(("pacing_quantum", "must be at least 1 packet".into()));
    }
    Ok(Some(PacingParams { rate, quantum }))
}

/// Resolved pacing parameters (`crate::tcp::pacing`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PacingParams {
    /// Fixed rate in bit/s (wire bytes); None: the congestion control's or Linux's default.
    pub rate: Option<f64>,
    /// Packets per release.
    pub quantum: u32,
}

/// BBR v1 parameters (draft-cardwell-iccrg-bbr-congestion-control-00 §4; `crate::tcp::cc::bbr`).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BbrConfig {
    /// STARTUP's pacing and cwnd gain. Default 2/ln 2 ≈ 2.885 (§4.3.2.1: the smallest gain
    /// that doubles the sending rate each round).
    #[serde(default = "bbr_high_gain")]
    pub high_gain: f64,
    /// PROBE_BW's cwnd gain. Default 2 (§4.3.3: cwnd = 2 × BDP absorbs delayed and
    /// aggregated ACKs).
    #[serde(default = "two")]
    pub cwnd_gain: f64,
    /// Length of the max filter on the delivery rate (BtlBw), in round trips. Default 10
    /// (§4.1.1.4 BtlBwFilterLen).
    #[serde(default = "bbr_bw_rounds")]
    pub bw_window_rounds: u32,
    /// Length of the min filter on the RTT (RTprop). Default 10 s (§4.1.2.3 RTpropFilterLen).
    #[serde(default = "bbr_min_rtt_window")]
    pub min_rtt_window: TimeSpec,
    /// Time PROBE_RTT holds cwnd at `probe_rtt_cwnd` (after the flight has drained to it).
    /// Default 200 ms (§4.3.5 ProbeRTTDuration).
    #[serde(default = "bbr_probe_rtt_time")]
    pub probe_rtt_time: TimeSpec,
    /// The smallest cwnd, also PROBE_RTT's, in packets. Default 4 (§4.2.3.1 BBRMinPipeCwnd).
    #[serde(default = "bbr_min_cwnd")]
    pub min_cwnd: u32,
    /// STARTUP ends when BtlBw has grown by less than this factor ... (§4.3.2.2). Default 1.25.
    #[serde(default = "bbr_full_bw_growth")]
    pub full_bw_growth: f64,
    /// ... for this many rounds in a row (§4.3.2.2). Default 3.
    #[serde(default = "bbr_full_bw_rounds")]
    pub full_bw_rounds: u32,
    /// When the 3 send quanta enter the cwnd target: "always" (default, §4.2.3.2
    /// BBRInflight) or "probe_up" (only in PROBE_BW's 1.25 phase, as ns-3.37's
    /// `TcpBbr::InFlight`; use it to compare with ns-3).
    #[serde(default)]
    pub cwnd_quanta: BbrQuanta,
    /// The send quantum in packets, fixed. Default none: the draft's rule (§4.2.2: 1 packet
    /// below 1.2 Mb/s, 2 below 24 Mb/s, else 1 ms of data, at most 64 KB). ns-3.37's
    /// `TcpBbr::SetSendQuantum` fixes it at 1 segment (ns-3 has no TSO): set 1 to compare.
    #[serde(default)]
    pub send_quantum: Option<u32>,
}

/// See [`BbrConfig::cwnd_quanta`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BbrQuanta {
    #[default]
    Always,
    ProbeUp,
}

impl Default for BbrConfig {
    fn default() -> Self {
        BbrConfig {
            high_gain: bbr_high_gain(),
            cwnd_gain: two(),
            bw_window_rounds: bbr_bw_rounds(),
            min_rtt_window: bbr_min_rtt_window(),
            probe_rtt_time: bbr_probe_rtt_time(),
            min_cwnd: bbr_min_cwnd(),
            full_bw_growth: bbr_full_bw_growth(),
            full_bw_rounds: bbr_full_bw_rounds(),
            cwnd_quanta: BbrQuanta::Always,
            send_quantum: None,
        }
    }
}

impl BbrConfig {
    /// On error: the field and why.
    pub(crate) fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        if !(self.high_gain > 1.0 && self.high_gain.is_finite()) {
            return Err(("high_gain", "must be above 1 (STARTUP must grow the rate)"));
        }
        if !(self.cwnd_gain >= 1.0 && self.cwnd_gain.is_finite()) {
            return Err((
                "cwnd_gain",
                "must be at least 1 (cwnd below one BDP cannot fill the pipe)",
            ));
        }
        if self.bw_window_rounds == 0 {
            return Err(("bw_window_rounds", "must be at least 1 round trip"));
        }
        if self.min_rtt_window.0 == Dur::ZERO {
            return Err(("min_rtt_window", "must be positive"));
        }
        if self.min_cwnd == 0 {
            return Err(("min_cwnd", "must be at least 1 packet"));
        }
        if self.send_quantum == Some(0) {
            return Err(("send_quantum", "must be at least 1 packet"));
        }
        if !(self.full_bw_growth > 1.0 && self.full_bw_growth.is_finite())
            || self.full_bw_rounds == 0
        {
            return Err(("full_bw_growth", "needs full_bw_growth > 1 and full_bw_rounds >= 1"));
        }
        Ok(())
    }
}

fn bbr_high_gain() -> f64 {
    2.0 / std::f64::consts::LN_2
}
fn two() -> f64 {
    2.0
}
fn bbr_bw_rounds() -> u32 {
    10
}
fn bbr_min_rtt_window() -> TimeSpec {
    TimeSpec(Dur::from_millis(10_000))
}
fn bbr_probe_rtt_time() -> TimeSpec {
    TimeSpec(Dur::from_millis(200))
}
fn bbr_min_cwnd() -> u32 {
    4
}
fn bbr_full_bw_growth() -> f64 {
    1.25
}
fn bbr_full_bw_rounds() -> u32 {
    3
}
