//! Links, their error models, and routing options.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::net::routing::Metric;
use crate::queue::spec::QueueSpec;
use crate::units::{RateSpec, TimeSpec};

/// A point-to-point link between two nodes: duplex unless `simplex = true`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// The two endpoints, by node name: ["a", "b"]. (Omitted inside topology helpers.)
    #[serde(default, deserialize_with = "exactly_two")]
    pub between: Option<[String; 2]>,
    /// Bit rate of each direction.
    pub rate: RateSpec,
    /// One-way propagation delay.
    pub delay: TimeSpec,
    /// Queue discipline of each direction. Default: droptail, 50 packets (ns-2 default).
    pub queue: Option<QueueSpec>,
    /// Queue of the b->a direction if it differs from `queue`.
    pub reverse_queue: Option<QueueSpec>,
    /// Error model of the a->b direction.
    pub error: Option<ErrorSpec>,
    /// Error model of the b->a direction.
    pub reverse_error: Option<ErrorSpec>,
    /// Only the a->b direction exists.
    #[serde(default)]
    pub simplex: bool,
    /// Where the error models act. Default "transmit".
    #[serde(default)]
    pub error_at: ErrorAt,
    /// Makes this an ATM cell link (both directions): cells, AAL5, a UBR output buffer in
    /// cells with its drop policy (docs/models/atm.md). Replaces `queue`.
    pub atm: Option<crate::net::atm::spec::AtmSpec>,
    /// Makes each direction a switched Ethernet port: per-class byte buffers, optional framing
    /// overhead, IEEE 802.3x PAUSE (docs/models/ethernet.md). Replaces `queue`.
    pub ethernet: Option<crate::net::ethernet::spec::EthSpec>,
    /// The Ethernet port of the b->a direction if it differs from `ethernet` (a host's NIC
    /// with a large buffer, say).
    pub reverse_ethernet: Option<crate::net::ethernet::spec::EthSpec>,
}

/// Where on a link direction its error model decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorAt {
    /// On the transmitted packet: a lost packet still occupies the transmitter for its
    /// serialization time and never propagates (ns-2 `$ns lossmodel`, which sits between
    /// the queue and the link). The drop is recorded when its transmission starts.
    #[default]
    Transmit,
    /// When the packet arrives at the link, before the queue: a lost packet never occupies
    /// the queue or the transmitter (ns-2 `$link errormodule`, used by ns-2's Fall & Floyd
    /// scripts).
    Enqueue,
}

/// Which packets a link direction loses after transmitting them.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ErrorSpec {
    /// Each packet is lost with probability `rate` in [0, 1].
    Uniform { rate: f64 },
    /// A packet of b bits is lost with probability 1-(1-ber)^b.
    Ber { ber: f64 },
    /// Lose exactly the listed packets: the k-th (1-based) packet to cross the link, counting
    /// all packets, or only the data packets of `flow` when given.
    DropList { packets: Vec<u64>, flow: Option<String> },
}

/// How routes are computed.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoutingSpec {
    /// Shortest paths by "hops" (default) or "delay".
    #[serde(default = "default_metric")]
    pub metric: Metric,
    /// Explicit next hops, applied after shortest paths (and after every recomputation).
    #[serde(default)]
    pub routes: Vec<RouteOverride>,
    /// How routes follow link failures and repairs (`[[event]]`): "session" (default,
    /// ns-2 Session routing: recomputed over the links that are up) or "never".
    #[serde(default)]
    pub recompute: crate::net::dynamics::Recompute,
    /// Time from a failure or repair to the recomputed routes (a routing protocol's
    /// convergence). Default 0: at once, as ns-2 Session routing.
    pub convergence_delay: Option<TimeSpec>,
    /// Spread flows over equal-cost shortest paths by a seeded per-flow hash (ECMP, RFC 2991
    /// §4.1). Default false: one path per destination, the lowest link id (ns-2 static routes).
    #[serde(default)]
    pub ecmp: bool,
    /// Where routes come from: "static" (default: shortest paths) or "dv" (ns-2's
    /// distance-vector routing, with routing packets on the links).
    #[serde(default)]
    pub protocol: super::dv_spec::Protocol,
    /// DV's parameters (with `protocol = "dv"`).
    #[serde(default)]
    pub dv: super::dv_spec::DvSpec,
    /// Link directions' routing costs for DV (default 1 each).
    #[serde(default)]
    pub costs: Vec<super::dv_spec::CostSpec>,
}

fn default_metric() -> Metric {
    Metric::Hops
}

impl Default for RoutingSpec {
    fn default() -> Self {
        RoutingSpec {
            metric: Metric::Hops,
            routes: Vec::new(),
            recompute: Default::default(),
            convergence_delay: None,
            ecmp: false,
            protocol: Default::default(),
            dv: Default::default(),
            costs: Vec::new(),
        }
    }
}

/// "At node `at`, packets for `to` go next to `next`" (`next` must be a neighbour).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RouteOverride {
    pub at: String,
    pub to: String,
    pub next: String,
}

/// `between` as exactly two names: serde's fixed-size array reader takes the first two of a
/// longer list and ignores the rest, so `["a", "b", "c"]` passed silently.
fn exactly_two<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<[String; 2]>, D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    let n = names.len();
    <[String; 2]>::try_from(names).map(Some).map_err(|_| {
        serde::de::Error::custom(format!("expected the two endpoints of the link, got {n} names"))
    })
}
