//! Results of a run: per-flow and per-queue rows, accounting totals, series.
//!
//! Column names carry units (`_bps`, `_s`, `_bytes`, `_pkts`); the Python layer turns the row
//! lists into DataFrames unchanged.

pub mod files;
pub mod stream;
pub mod transfer_spill;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::record::flow_stats::Transfer;
use crate::record::goodput::GoodputWindow;
use crate::record::packet_delays::PacketDelays;
use crate::record::series::Series;
use crate::record::video_packets::VideoPackets;

/// Every packet created is delivered, dropped, queued, or in flight (or, for a moment, held
/// by an agent: none of nsim's agents hold packets between events).
#[derive(Serialize, Debug, Clone)]
pub struct Accounting {
    pub created: u64,
    pub delivered: u64,
    pub dropped: u64,
    pub queued: u64,
    pub in_flight: u64,
    /// Packets the pool still holds: must equal queued + in_flight (a packet freed twice or
    /// never would show here even when the four counters balance).
    pub live: u64,
    pub dropped_by_reason: BTreeMap<&'static str, u64>,
}

impl Accounting {
    /// created == delivered + dropped + queued + in_flight, and the pool holds exactly the
    /// queued and in-flight packets.
    pub fn balanced(&self) -> bool {
        self.created == self.delivered + self.dropped + self.queued + self.in_flight
            && self.live == self.queued + self.in_flight
    }
}

#[derive(Serialize, Debug, Clone)]
pub struct FlowRow {
    pub flow: u32,
    pub name: String,
    pub src: String,
    pub dst: String,
    pub transport: &'static str,
    pub app: &'static str,
    pub start_s: f64,
    pub stop_s: Option<f64>,
    pub sent_pkts: u64,
    pub sent_bytes: u64,
    pub delivered_pkts: u64,
    pub delivered_bytes: u64,
    pub dropped_pkts: u64,
    pub dropped_bytes: u64,
    pub drops: BTreeMap<&'static str, u64>,
    pub ack_sent_pkts: u64,
    pub ack_delivered_pkts: u64,
    pub ack_dropped_pkts: u64,
    /// Delivered bits (headers included) over the flow's active time.
    pub throughput_bps: f64,
    /// Application bytes delivered in order, as bits over the flow's active time.
    pub goodput_bps: f64,
    pub delay_mean_s: Option<f64>,
    pub delay_std_s: Option<f64>,
    pub delay_min_s: Option<f64>,
    pub delay_p50_s: Option<f64>,
    pub delay_p99_s: Option<f64>,
    pub delay_max_s: Option<f64>,
    pub jitter_s: Option<f64>,
    /// UDP flows with a `deadline`: data packets delivered later than it.
    pub late_pkts: u64,
    /// UDP flows with a `deadline`: (late + dropped) / (delivered + dropped) data packets
    /// (packets still in flight at the end are not counted); none without a deadline.
    pub deadline_miss_fraction: Option<f64>,
    /// Data packets sent / delivered marked HIGH (`prio` 0), MED (1) and LOW (2 or more).
    pub sent_high_pkts: u64,
    pub sent_med_pkts: u64,
    pub sent_low_pkts: u64,
    pub delivered_high_pkts: u64,
    pub delivered_med_pkts: u64,
    pub delivered_low_pkts: u64,
    /// TCP and STP: segments sent again (ns-2 `nrexmitpack_`); 0 for other transports.
    pub retransmits: u64,
    /// TCP: retransmission timeouts with data outstanding; STP: no-response timeouts.
    pub timeouts: u64,
    /// TCP: fast retransmits (entries into loss recovery).
    pub fast_retransmits: u64,
    /// TCP file transfers: seconds from the flow's start until its last byte was acknowledged.
    pub completion_s: Option<f64>,
    /// Full TCP: seconds from the first SYN until the active opener is ESTABLISHED.
    pub setup_s: Option<f64>,
    /// Full TCP: seconds from the first SYN until the listener first receives data.
    pub first_data_s: Option<f64>,
    /// Full TCP: seconds from the flow's start until both ends have closed.
    pub close_s: Option<f64>,
    /// Full TCP request/response: transactions completed.
    pub transactions: u64,
    /// Full TCP request/response: mean transaction time (request written to response read).
    pub transaction_mean_s: Option<f64>,
    /// STP: POLLs sent; 0 for other transports.
    pub polls: u64,
    /// STP: STATs sent by the receiver.
    pub stats: u64,
    /// STP: USTATs sent by the receiver.
    pub ustats: u64,
    /// The nodes the flow's data crosses at the end of the run, joined by ">" (ECMP runs only:
    /// otherwise the shortest path, one per destination).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

#[derive(Serialize, Debug, Clone)]
pub struct QueueRow {
    pub link: u32,
    pub from: String,
    pub to: String,
    pub rate_bps: u64,
    pub delay_s: f64,
    pub arrivals: u64,
    pub arrival_bytes: u64,
    pub departures: u64,
    pub departure_bytes: u64,
    pub dropped_pkts: u64,
    pub dropped_bytes: u64,
    pub drops: BTreeMap<&'static str, u64>,
    pub ecn_marks: u64,
    pub mean_len_pkts: f64,
    pub mean_len_bytes: f64,
    pub max_len_pkts: u64,
    pub max_len_bytes: u64,
    /// Fraction of the run the transmitter was busy.
    pub utilization: f64,
    pub queued_pkts: u64,
    pub in_flight_pkts: u64,
    /// The discipline's averaged queue at the end (RED `ave_`, packets or bytes as the
    /// discipline measures its queue); none for disciplines without one.
    pub avg_len: Option<f64>,
    /// Ethernet: PAUSE stops (XOFF or pause_time > 0) and resumes (XON, pause_time = 0) this
    /// direction sent to its far end, PAUSE frames it received, and the time its transmitter
    /// was paused (any class or destination); zero on other links.
    pub pause_sent: u64,
    pub resume_sent: u64,
    pub pause_received: u64,
    pub paused_s: f64,
}

/// One class of a composite scheduler (prio, WRR, DRR, CBQ) on one link direction.
#[derive(Serialize, Debug, Clone)]
pub struct ClassRow {
    pub link: u32,
    pub class: String,
    pub arrivals: u64,
    pub arrival_bytes: u64,
    pub departures: u64,
    pub departure_bytes: u64,
    pub dropped_pkts: u64,
    pub drops: BTreeMap<&'static str, u64>,
    pub queued_pkts: u64,
    /// The class queue's averaged length at the end (a RED leaf's `ave_`), if any.
    pub avg_len: Option<f64>,
}

/// One completed transfer of a TCP `file` or `repeat` flow.
#[derive(Serialize, Debug, Clone)]
pub struct TransferRow {
    pub flow: u32,
    pub name: String,
    /// 0, 1, ... in the order the flow's transactions completed.
    pub transfer: u32,
    /// What the row measures: "file", "page", "object" or "echo".
    pub kind: &'static str,
    pub bytes: u64,
    /// When the application handed the transfer's bytes to TCP.
    pub start_s: f64,
    /// When its last byte was acknowledged.
    pub end_s: f64,
    /// end_s − start_s.
    pub duration_s: f64,
}

impl TransferRow {
    /// The row of `t`, the flow's `k`-th completed transfer.
    pub fn new(flow: u32, name: &str, k: u32, t: &Transfer) -> Self {
        TransferRow {
            flow,
            name: name.to_string(),
            transfer: k,
            kind: t.kind.name(),
            bytes: t.bytes,
            start_s: t.start.as_secs_f64(),
            end_s: t.end.as_secs_f64(),
            duration_s: t.end.since(t.start).as_secs_f64(),
        }
    }
}

#[derive(Serialize)]
pub struct Results {
    pub scenario: String,
    pub seed: u64,
    pub sim_time_s: f64,
    pub events: u64,
    /// Wall time of the event loop (events/s are over this).
    pub wall_s: f64,
    /// Wall time of building the simulator from its scenario (before the first event).
    pub setup_wall_s: f64,
    /// Wall time of the event loop (the same as `wall_s`, named beside `setup_wall_s`).
    pub run_wall_s: f64,
    pub interrupted: bool,
    pub accounting: Accounting,
    /// The resolved settings of each TCP flow that named a defaults profile, by flow name
    /// (left out of the JSON when none did).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub tcp_profiles: BTreeMap<String, crate::tcp::profile::ProfileSettings>,
    pub flows: Vec<FlowRow>,
    pub queues: Vec<QueueRow>,
    pub classes: Vec<ClassRow>,
    /// Completed transfers of TCP `file` and `repeat` flows, by flow then start.
    pub transfers: Vec<TransferRow>,
    pub series: Series,
    /// Per-flow goodput over each `record.windows` entry, in the scenario's order.
    pub windows: Vec<GoodputWindow>,
    /// Per-packet delays, when `record.packet_delays` chose flows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packet_delays: Option<PacketDelays>,
    /// The per-packet video log, when `record.video_packets` chose flows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub video_packets: Option<VideoPackets>,
    /// What the scenario's `[[event]]`s and steering changed, and when routes were
    /// recomputed (empty, and left out of the JSON, in a run without changes).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub event_log: Vec<crate::net::dynamics::EventRecord>,
}

/// The run-level facts of `summary.json`.
#[derive(Serialize)]
pub struct Summary<'a> {
    pub scenario: &'a str,
    pub seed: u64,
    pub sim_time_s: f64,
    pub events: u64,
    pub wall_s: f64,
    pub setup_wall_s: f64,
    pub run_wall_s: f64,
    pub interrupted: bool,
    pub events_per_s: Option<f64>,
    pub accounting: &'a Accounting,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub tcp_profiles: &'a BTreeMap<String, crate::tcp::profile::ProfileSettings>,
}

impl Results {
    /// What `summary.json` holds.
    pub fn summary(&self) -> Summary<'_> {
        Summary {
            scenario: &self.scenario,
            seed: self.seed,
            sim_time_s: self.sim_time_s,
            events: self.events,
            wall_s: self.wall_s,
            setup_wall_s: self.setup_wall_s,
            run_wall_s: self.run_wall_s,
            interrupted: self.interrupted,
            events_per_s: (self.wall_s > 0.0).then(|| self.events as f64 / self.wall_s),
            accounting: &self.accounting,
            tcp_profiles: &self.tcp_profiles,
        }
    }
}
