//! Flows: who sends what to whom, when.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::units::{RateSpec, SizeSpec, TimeSpec};

/// One flow, or `repeat` flows with `{i}` in names replaced by 0..repeat-1.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// Flow name; default "flow{index}". May contain `{i}` when `repeat` is set.
    pub name: Option<String>,
    /// Source node name (may contain `{i}`).
    pub from: String,
    /// Destination node name (may contain `{i}`).
    pub to: String,
    /// Expand into this many flows, substituting `{i}` = 0, 1, ...
    pub repeat: Option<u32>,
    /// When the source starts. Default 0.
    pub start: Option<TimeSpec>,
    /// When the source stops (no packet leaves after it). Default: the end of the run.
    pub stop: Option<TimeSpec>,
    /// At `stop`, detach both ends as ns-2's `detach-agent` does: from then the source sends
    /// nothing (no retransmission) and the sink answers nothing (no ACK); what is still in
    /// flight is delivered to the node and discarded (sim/detach.rs). Needs `stop`. Default
    /// false: a stopped flow's sender still recovers what it sent and its sink still ACKs.
    #[serde(default)]
    pub detach_at_stop: bool,
    /// With `repeat`: start (and stop) of flow i are shifted by every·floor(i / group).
    pub stagger: Option<Stagger>,
    /// Random start: each flow's start (and stop) moves by a uniform draw in [0, jitter) from
    /// the flow's own stream `start/<flow name>`, as ns-2 scripts do with
    /// `$ns at [$rng uniform 0 J] "$ftp start"`. Default: none (starts exactly at `start`).
    pub start_jitter: Option<TimeSpec>,
    /// The application generating the traffic.
    pub app: AppSpec,
    /// The transport carrying it. Default UDP.
    #[serde(default)]
    pub transport: TransportSpec,
    /// Priority / drop-precedence value carried by the packets (for classifiers). Default 0.
    #[serde(default)]
    pub prio: u8,
    /// Application tag carried by the packets (for classifiers). Default 0.
    #[serde(default)]
    pub tag: u16,
    /// UDP flows: a data packet delivered more than `deadline` after it was sent is late
    /// (`late_pkts`); the flow's `deadline_miss_fraction` counts late and lost packets.
    /// Default: none.
    pub deadline: Option<TimeSpec>,
}

/// Staggered starts: shift = every · (floor(i / group) mod cycle).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Stagger {
    pub every: TimeSpec,
    /// Flows per group. Default 1.
    pub group: Option<u32>,
    /// The shift starts again from zero every `cycle` groups (ns-2 scripts' `i % 100`).
    /// Default: never.
    pub cycle: Option<u32>,
}

/// Packet size distribution beyond a fixed size.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SizeDistSpec {
    /// Uniform whole bytes in [min, max].
    Uniform { min: SizeSpec, max: SizeSpec },
    /// Exponential with mean `size`, clamped to [min, max] (defaults 1 B and 65535 B).
    Exponential { min: Option<SizeSpec>, max: Option<SizeSpec> },
}

/// Length distribution of on and off periods.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PeriodSpec {
    /// "exponential" or "pareto".
    pub dist: PeriodDist,
    /// Mean period length.
    pub mean: TimeSpec,
    /// Pareto shape (> 1). Default 1.5 (ns-2 `shape_`).
    pub shape: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PeriodDist {
    Exponential,
    Pareto,
    /// Uniform on [0, 2·mean].
    Uniform,
}

/// HTTP protocol version of a `http` app.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum HttpVersion {
    /// One connection per item (index, then each object), one after another.
    #[serde(rename = "1.0")]
    Http10,
    /// One persistent connection per page, all items pipelined back to back.
    #[serde(rename = "1.1")]
    Http11,
}

/// When the server of a `http` app starts a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ServeAfter {
    /// When the request arrives at the server.
    Request,
    /// When the client has the request's acknowledgment (ns-2 `PagePool/WebTraf` `done-req`:
    /// the request's one-way agent completes, then the server is told).
    RequestAck,
}

/// The pages a `http` app serves.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum PageSpec {
    /// The same page every time: an `index` (default 1KB) and `objects` (default 8) embedded
    /// objects of `object` bytes (default 10KB): Noureddine 2002's probe page.
    Fixed { index: Option<SizeSpec>, objects: Option<u32>, object: Option<SizeSpec> },
    /// SURGE distributions (Barford-Crovella 1998): file sizes lognormal body (9.36, 1.32)
    /// with a Pareto tail (133 KB, 1.1), embedded objects Pareto (1, 2.43).
    Surge,
    /// ns-2 `PagePool/WebTraf`: `objects` objects per page (default 1), each of
    /// ceil(ParetoII) packets of the transport's `packet_size`, ParetoII mean `mean` packets
    /// (default 12) and `shape` (default 1.2).
    Webtraf { objects: Option<u32>, mean: Option<f64>, shape: Option<f64> },
}

/// How the sizes of repeated transfers are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TransferDist {
    /// Every transfer is `size` bytes.
    Fixed,
    /// Exponential with mean `size`.
    Exponential,
    /// Pareto with mean `size` and shape `shape`.
    Pareto,
}

/// How think times between repeated transfers are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ThinkDist {
    /// Every think time is `think`.
    Fixed,
    /// Exponential with mean `think`.
    Exponential,
}

/// Traffic generators.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AppSpec {
    /// Constant bit rate: give `rate` or `interval`. Size default 210 B (ns-2 CBR default).
    Cbr {
        rate: Option<RateSpec>,
        interval: Option<TimeSpec>,
        size: Option<SizeSpec>,
        size_dist: Option<SizeDistSpec>,
        /// Random gap perturbation in [0, 1]: gap = interval·(1 + jitter·U(-0.5, 0.5)).
        jitter: Option<f64>,
    },
    /// Poisson arrivals: mean `rate` or mean `interval`. Size default 210 B.
    Poisson {
        rate: Option<RateSpec>,
        interval: Option<TimeSpec>,
        size: Option<SizeSpec>,
        size_dist: Option<SizeDistSpec>,
    },
    /// On/off bursts at peak `rate` (default 64kb), ns-2 Exponential/Pareto traffic.
    /// Defaults: on and off exponential with mean 500ms, size 210 B.
    Onoff {
        rate: Option<RateSpec>,
        size: Option<SizeSpec>,
        size_dist: Option<SizeDistSpec>,
        on: Option<PeriodSpec>,
        off: Option<PeriodSpec>,
    },
    /// Infinite bulk transfer (ns-2 `Application/FTP` started and never stopped): the
    /// transport always has data. TCP only. (A table with no fields, not a unit variant:
    /// serde ignores unknown keys next to a unit variant's tag.)
    Bulk {},
    /// A finite transfer of `size` application bytes; its completion time (last byte
    /// acknowledged) is recorded as `completion_s`. TCP only.
    File {
        size: SizeSpec,
        /// tcp_full only: whether the client closes after the data (its FIN leaves with the
        /// last segment). false keeps the connection open, as ns-2 FullTcp's
        /// `$tcp send N` (tcp-full.cc `sendmsg` without `MSG_EOF`: no FIN). Default true.
        close: Option<bool>,
    },
    /// Repeated transfers over one TCP connection (`transport = { kind = "tcp" }`): a transfer
    /// of `size` bytes (`size_dist` "fixed", the default; "exponential" or "pareto" with mean
    /// `size` and `shape`, default 1.5), and when its last byte is acknowledged a think time
    /// `think` (default 0: back to back; `think_dist` "fixed" or "exponential" with mean
    /// `think`), then the next; `count` transfers (default: until the flow stops).
    /// `new_connection = true`: each transfer starts like a new connection (initial cwnd,
    /// ssthresh and RTO; no new SYN). Every transfer is recorded in the `transfers` table. FTP sessions: size_dist = "pareto",
    /// shape = 1.2, size = "200KB", think_dist = "exponential".
    Repeat {
        size: SizeSpec,
        size_dist: Option<TransferDist>,
        shape: Option<f64>,
        think: Option<TimeSpec>,
        think_dist: Option<ThinkDist>,
        count: Option<u32>,
        #[serde(default)]
        new_connection: bool,
    },
    /// Telnet over TCP (`transport = { kind = "tcp" }`): a keystroke of `size` bytes (default
    /// 100B; set the transport's `packet_size` to it), its echo (the ACK), then a `gap`
    /// (default `{ dist = "exponential", mean = "200ms" }`, measured from the echo) before the
    /// next; `count` keystrokes (default: until the flow stops). Each echo delay is a
    /// `kind = "echo"` row of the `transfers` table.
    Telnet { size: Option<SizeSpec>, gap: Option<PeriodSpec>, count: Option<u32> },
    /// A web session over TCP (`transport = { kind = "tcp" }`), served from `from` to the
    /// client `to`: the client's `request` (default 536B) travels to the server, which sends
    /// the `page` (default the probe page 1KB + 8 × 10KB) as HTTP `version` "1.0" (the index,
    /// then the objects on up to `parallel` connections at a time, default 4, one object per
    /// connection; the extra connections are flows `<name>/c1`, ...) or "1.1" (one persistent
    /// pipelined connection); after the last byte is acknowledged, a `think` time (default
    /// `{ dist = "uniform", mean = "2.5s" }`) before the next request; `count` pages (default:
    /// until the flow stops). Pages and objects are `kind = "page"` / `"object"` rows of the
    /// `transfers` table. `serve_after` (one-way TCP only): the server starts a page when the
    /// `"request"` arrives (default) or once the client has the request's acknowledgment,
    /// `"request_ack"` (ns-2 `PagePool/WebTraf`: the response is launched from the request
    /// agent's `done` callback).
    Http {
        version: HttpVersion,
        page: Option<PageSpec>,
        think: Option<PeriodSpec>,
        request: Option<SizeSpec>,
        count: Option<u32>,
        parallel: Option<u32>,
        serve_after: Option<ServeAfter>,
    },
    /// Request/response transactions over `tcp_full` (Noureddine 2002 ch. 2, Telnet/HTTP-like): the
    /// client writes `request` bytes, the server answers with `response` bytes once it has the
    /// whole request; `count` times, `think` (default 0) after each response. `split`: the
    /// request is written as two writes, the first of `split` bytes. Each transaction's time
    /// is recorded (`transactions`, `transaction_mean_s`).
    Transactions {
        request: SizeSpec,
        response: SizeSpec,
        count: u32,
        think: Option<TimeSpec>,
        split: Option<SizeSpec>,
    },
    /// Video over UDP (Noureddine 2002 ch. 5, see `docs/models/video.md`): `sequences` played in
    /// order, over and over, with an exponential gap of mean `gap` (default 1s; "0s": none)
    /// after each; frames cut into packets of at most `packet_size` (default 1000 B) per
    /// layer, `pacing` "spread" (default: over the frame interval) or "burst"; `frame_rate`
    /// frames/s (default 30); layered packets carry `layer_prios` (default [0, 1, 2]: base
    /// HIGH, middle MED, enhancement LOW).
    Video {
        sequences: Vec<VideoSequenceSpec>,
        frame_rate: Option<f64>,
        packet_size: Option<SizeSpec>,
        pacing: Option<crate::app::video::Pacing>,
        gap: Option<TimeSpec>,
        layer_prios: Option<[u8; 3]>,
    },
}

/// One video sequence: a frame-size trace file or a synthetic stand-in (give one of them).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VideoSequenceSpec {
    /// Path of a trace file (relative to the working directory), one frame per line.
    pub trace: Option<String>,
    /// The trace's layout: "frame_type_size" (`frame_no type bytes`, the default) or
    /// "time_size" (`time_s bytes`); either may end with three per-layer byte counts.
    pub format: Option<crate::app::video_trace::TraceFormat>,
    /// A synthetic sequence from Noureddine 2002 Tables 5.2 / 5.3: "barca", "flower", "baseball"
    /// or "basket".
    pub synthetic: Option<crate::app::video_synthetic::SequenceName>,
    /// Synthetic: split frames into the three layers of Table 5.3 (default true).
    pub layered: Option<bool>,
    /// Synthetic: coefficient of variation of frame sizes (lognormal; default 0.5).
    pub cv: Option<f64>,
}

/// Transport protocols.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TransportSpec {
    /// Datagrams, no header added, no feedback. (A table with no fields, not a unit
    /// variant: serde ignores unknown keys next to a unit variant's tag.)
    Udp {},
    /// TCP (see `docs/models/tcp.md`): `{ kind = "tcp", variant = "newreno", window = 28, ... }`.
    Tcp(Box<crate::tcp::config::TcpConfig>),
    /// Full two-way TCP with handshake, FIN, windows, delayed ACK and Nagle (see
    /// `docs/models/tcp_full.md`): `{ kind = "tcp_full", variant = "reno", mss = "1000B" }`.
    TcpFull(Box<crate::tcp::full::config::FullTcpConfig>),
    /// TFRC (see `docs/models/tfrc.md`): `{ kind = "tfrc", packet_size = "1000B", ... }`.
    Tfrc(crate::transport::tfrc::config::TfrcConfig),
    /// STP (see `docs/models/stp.md`): `{ kind = "stp", window = 64, ... }`.
    Stp(crate::transport::stp::config::StpConfig),
}

impl Default for TransportSpec {
    fn default() -> Self {
        TransportSpec::Udp {}
    }
}
