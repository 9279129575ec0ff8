//! The scenario schema: THE single definition of what a scenario is (DESIGN.md "One schema").
//!
//! TOML files, the Python builder (plain dicts sent as JSON) and the exported JSON Schema all
//! come from these serde types. Unknown keys are errors everywhere (`deny_unknown_fields`).

pub mod build;
pub mod document_json;
pub mod dv_spec;
#[cfg(test)]
mod dv_tests;

pub mod event_spec;
pub mod fat_tree;
pub mod flow_spec;
pub mod flow_spec_build;
pub mod leaf_spine;
pub mod limits;
pub mod link_spec;
pub mod middlebox_spec;

pub mod raw;
pub mod record_build;
pub mod record_select;
pub mod topology;
pub mod tree;

pub mod video_build;
pub mod window_notice;

use schemars::JsonSchema;
use serde::Deserialize;

pub use crate::error::{CResult, ConfigError};
use crate::units::TimeSpec;
pub use flow_spec::FlowSpec;
pub use link_spec::{LinkSpec, RoutingSpec};
pub use record_select::Select;
pub use topology::{ChainSpec, DumbbellSpec};
pub use tree::TreeSpec;

/// A complete scenario.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Human-readable name, shown in summaries and reports.
    #[serde(default)]
    pub name: String,
    /// Run seed; every random stream derives from it and a component name. Default 1.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Simulated time to run. Required unless every flow has a `stop`; then the run ends when
    /// no events remain.
    pub duration: Option<TimeSpec>,
    /// End hosts, by name.
    #[serde(default)]
    pub hosts: Vec<String>,
    /// Routers, by name.
    #[serde(default)]
    pub routers: Vec<String>,
    /// Duplex (or simplex) point-to-point links.
    #[serde(default)]
    pub links: Vec<LinkSpec>,
    /// A dumbbell topology helper (adds hosts, routers and links).
    pub dumbbell: Option<DumbbellSpec>,
    /// A chain topology helper (adds nodes n0..nK and the links between neighbours).
    pub chain: Option<ChainSpec>,
    /// A tree topology helper (a root switch, levels of switches, hosts at the bottom).
    pub tree: Option<TreeSpec>,
    /// A leaf-spine fabric helper (spines, leaves linked to every spine, hosts on the leaves).
    pub leaf_spine: Option<leaf_spine::LeafSpineSpec>,
    /// A k-ary fat-tree helper (core, aggregation and edge switches in pods, hosts on the edges).
    pub fat_tree: Option<fat_tree::FatTreeSpec>,
    /// Route computation and explicit next-hop overrides.
    #[serde(default)]
    pub routing: RoutingSpec,
    /// Traffic.
    #[serde(default)]
    pub flows: Vec<FlowSpec>,
    /// Changes during the run (`[[event]]`): link failures and repairs, rate, delay, error
    /// and queue changes, flow starts and stops (docs/guide/dynamics.md).
    #[serde(default, rename = "event")]
    pub events: Vec<event_spec::EventSpec>,
    /// Packet hooks at nodes (rwnd clamp, IP-ABR proxy, delay, drops): docs/models/middlebox.md.
    #[serde(default)]
    pub middlebox: Vec<crate::config::middlebox_spec::MiddleboxSpec>,
    /// MAC learning switches (IEEE 802.1D): nodes that bridge their links instead of routing
    /// (docs/models/ethernet.md).
    #[serde(default)]
    pub bridges: Vec<crate::net::ethernet::bridge::BridgeSpec>,
    /// What to record beyond the always-on counters.
    #[serde(default)]
    pub record: RecordSpec,
    /// Size and memory budget, checked before building (see `limits.rs`).
    #[serde(default)]
    pub limits: limits::LimitsSpec,
    /// How the run itself proceeds (`[run]`): the order of same-instant events.
    #[serde(default)]
    pub run: RunSpec,
    /// The TOML text this scenario was read from, to give build errors a line.
    #[serde(skip)]
    #[schemars(skip)]
    pub source_text: Option<String>,
    /// Every queue `limit` in the document, with its field path (for the budget).
    #[serde(skip)]
    #[schemars(skip)]
    pub queue_limits: Vec<(String, crate::units::Limit)>,
}

fn default_seed() -> u64 {
    1
}

/// How the run proceeds, independent of the network (`[run]`).
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// Order of events at the same picosecond: "fifo" (default: the order nsim schedules
    /// them) or "ns2" (ns-2.35's: by its double-precision clock, then by its scheduling
    /// order; docs/guide/ns2-scripts.md "Same-instant events").
    #[serde(default)]
    pub tie_order: crate::sched::TieOrder,
}

/// Optional recording: time series and packet traces.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordSpec {
    /// Time series to sample: "queue" (occupancy per link direction) and/or
    /// "flow_throughput" (delivered bytes per flow per interval) and/or "tcp" (cwnd, ssthresh,
    /// srtt, rto, data in flight and congestion state of every TCP sender), and/or "cwnd"
    /// (every change of a TCP sender's cwnd, ssthresh or congestion state, event-driven), and/or
    /// "goodput" (per flow: in-order payload bytes delivered to the application so far, and
    /// the rate over the last interval), and/or "cc" (each TCP sender's congestion-control
    /// state as named values: BBR's state, gains, bandwidth and min RTT estimates, CUBIC's
    /// W_max, DCTCP's alpha, the pacing rate; one row per value).
    #[serde(default)]
    pub series: Vec<SeriesKind>,
    /// Sampling interval for series. Default 100ms.
    pub interval: Option<TimeSpec>,
    /// Time windows `[t0, t1]` over which every flow's application goodput is measured
    /// (results `windows`, per-flow columns `window<k>_goodput_bps`), e.g.
    /// `[["63.6s", "123.6s"]]`. Needs t0 < t1 <= duration. Default none.
    #[serde(default)]
    pub windows: Vec<[TimeSpec; 2]>,
    /// Write an ns-2 format packet trace (`trace.tr` in the output directory).
    #[serde(default)]
    pub trace: bool,
    /// Record every delivered data packet's one-way delay: `true` for all flows or a list of
    /// flow names (`packet_delays.csv`; `Results.packet_delays()`). Default false.
    #[serde(default)]
    pub packet_delays: Select,
    /// Log every packet of video flows with its (stream, sequence, frame, layer) tag and its
    /// fate: `true` for every video flow or a list of video flow names (`video_packets.csv`;
    /// `Results.video_packets()`). Default false.
    #[serde(default)]
    pub video_packets: Select,
    /// Write pcap files (`pcap/<from>-<to>.pcap` in the output directory): `true` for every
    /// link direction or a list of `"a->b"` (one direction) or `"a-b"` (both). Default false.
    #[serde(default)]
    pub pcap: Select,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeriesKind {
    Queue,
    FlowThroughput,
    Goodput,
    Tcp,
    Cwnd,
    Cc,
}

fn toml_line(text: &str, err: &toml::de::Error) -> Option<usize> {
    err.span().map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
}

impl Scenario {
    /// Parses TOML text. `file` names the source in error messages.
    pub fn from_toml(text: &str, file: &str) -> CResult<Scenario> {
        // One parse: the queue-limit check walks the same document the typed scenario is read
        // from.
        let doc = toml::de::DeTable::parse(text).map_err(|e| ConfigError {
            file: file.into(),
            path: String::new(),
            line: toml_line(text, &e),
            reason: format!("malformed TOML: {}", e.message()),
        })?;
        let queue_limits = raw::queue_limits_toml(doc.get_ref());
        let de = toml::Deserializer::from(doc);
        let mut scn: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let reason = inner.message().to_string();
            let doc = || toml::from_str::<serde_json::Value>(text).ok();
            let path = if path == "." {
                String::new()
            } else {
                doc().and_then(|d| raw::refine_path(&d, &path, &reason)).unwrap_or(path)
            };
            ConfigError { file: file.into(), path, line: toml_line(text, &inner), reason }
        })?;
        scn.queue_limits = queue_limits;
        scn.source_text = Some(text.to_string());
        Ok(scn)
    }

    /// Parses JSON (the Python builder's form). `file` names the source in error messages.
    pub fn from_json(text: &str, file: &str) -> CResult<Scenario> {
        let json_err = |e: serde_json::Error| ConfigError {
            file: file.into(),
            path: String::new(),
            line: None,
            reason: e.to_string(),
        };
        let value: serde_json::Value = serde_json::from_str(text).map_err(json_err)?;
        let mut scn: Scenario = serde_path_to_error::deserialize(&value).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let reason = inner.to_string();
            // serde_json appends " at line L column C"; keep the reason readable.
            let reason = reason.split(" at line ").next().unwrap_or(&reason).to_string();
            let path = if path == "." {
                String::new()
            } else {
                raw::refine_path(&value, &path, &reason).unwrap_or(path)
            };
            ConfigError { file: file.into(), path, line: None, reason }
        })?;
        raw::queue_limits_json(&value, "", &mut scn.queue_limits);
        Ok(scn)
    }

    /// The JSON Schema of scenario files, for editors and the Python builder's docs.
    pub fn json_schema() -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(Scenario)).expect("schema serializes")
    }
}
