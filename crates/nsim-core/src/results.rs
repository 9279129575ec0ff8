//! Results of a run: per-flow and per-queue rows, accounting totals, series.
//!
//! Column names carry units (`_bps`, `_s`, `_bytes`, `_pkts`); the Python layer turns the row
//! lists into DataFrames unchanged.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::record::goodput::GoodputWindow;
use crate::record::packet_delays::PacketDelays;
use crate::record::video_packets::VideoPackets;
use crate::record::series::Series;
use crate::record::flow_stats::Transfer;
use crate::record::{DropCounts, DropReason};
use crate::sim::Simulator;
use crate::time::SimTime;

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

fn by_reason(c: &DropCounts) -> BTreeMap<&'static str, u64> {
    DropReason::ALL.iter().filter(|r| c[r.idx()] > 0).map(|r| (r.name(), c[r.idx()])).collect()
}

impl Results {
    pub(crate) fn collect(sim: &Simulator, series: Series, windows: Vec<GoodputWindow>, wall_s: f64, events: u64, interrupted: bool) -> Results {
        let net = &sim.net;
        let end = net.now;
        let node = |n: crate::ids::NodeId| net.nodes[n.idx()].name.clone();
        let flows = sim
            .flows
            .iter()
            .zip(&net.flows)
            .enumerate()
            .map(|(i, (info, s))| {
                let until = info.stop.map_or(end, |st| st.min(end));
                let active = until.since(info.start).as_secs_f64();
                let per_s = |bytes: u64| if active > 0.0 { bytes as f64 * 8.0 / active } else { 0.0 };
                FlowRow {
                    flow: i as u32,
                    name: info.name.clone(),
                    src: node(info.src),
                    dst: node(info.dst),
                    transport: info.transport,
                    app: info.app,
                    start_s: info.start.as_secs_f64(),
                    stop_s: info.stop.map(SimTime::as_secs_f64),
                    sent_pkts: s.sent_pkts,
                    sent_bytes: s.sent_bytes,
                    delivered_pkts: s.delivered_pkts,
                    delivered_bytes: s.delivered_bytes,
                    dropped_pkts: s.dropped_pkts,
                    dropped_bytes: s.dropped_bytes,
                    drops: by_reason(&s.drops),
                    ack_sent_pkts: s.ack_sent_pkts,
                    ack_delivered_pkts: s.ack_delivered_pkts,
                    ack_dropped_pkts: s.ack_dropped_pkts,
                    throughput_bps: per_s(s.delivered_bytes),
                    goodput_bps: per_s(s.goodput_bytes),
                    delay_mean_s: s.delay.mean(),
                    delay_std_s: s.delay.std(),
                    delay_min_s: s.delay.min(),
                    delay_p50_s: s.delay.quantile(0.5),
                    delay_p99_s: s.delay.quantile(0.99),
                    delay_max_s: s.delay.max(),
                    jitter_s: s.delay.jitter(),
                    late_pkts: s.late_pkts,
                    sent_high_pkts: s.sent_by_mark[0],
                    sent_med_pkts: s.sent_by_mark[1],
                    sent_low_pkts: s.sent_by_mark[2],
                    delivered_high_pkts: s.delivered_by_mark[0],
                    delivered_med_pkts: s.delivered_by_mark[1],
                    delivered_low_pkts: s.delivered_by_mark[2],
                    deadline_miss_fraction: (info.deadline.is_some() && s.delivered_pkts + s.dropped_pkts > 0)
                        .then(|| (s.late_pkts + s.dropped_pkts) as f64 / (s.delivered_pkts + s.dropped_pkts) as f64),
                    retransmits: s.tcp.retransmits,
                    timeouts: s.tcp.timeouts,
                    fast_retransmits: s.tcp.fast_retransmits,
                    completion_s: s.tcp.completed.map(|t| t.since(info.start).as_secs_f64()),
                    setup_s: s.full.established.zip(s.full.syn_sent).map(|(e, syn)| e.since(syn).as_secs_f64()),
                    first_data_s: s.full.first_data.zip(s.full.syn_sent).map(|(d, syn)| d.since(syn).as_secs_f64()),
                    close_s: s.full.closed.map(|t| t.since(info.start).as_secs_f64()),
                    transactions: s.full.transactions,
                    transaction_mean_s: (s.full.transactions > 0)
                        .then(|| s.full.transaction_time.as_secs_f64() / s.full.transactions as f64),
                    polls: s.ctl.polls,
                    stats: s.ctl.stats,
                    ustats: s.ctl.ustats,
                    path: net.routes.ecmp_salt().map(|_| {
                        let hops = net.routes.flow_path(info.src, info.dst, i as u32, |l| net.links[l.idx()].to);
                        hops.into_iter().map(node).collect::<Vec<_>>().join(">")
                    }),
                }
            })
            .collect();
        let queues = net
            .links
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let (mp, mb) = l.stats.mean_occupancy(end);
                let pause = l.eth().map(|p| (p.stats, p.timers.paused_time(end).as_secs_f64())).unwrap_or_default();
                QueueRow {
                    link: i as u32,
                    from: node(l.from),
                    to: node(l.to),
                    rate_bps: l.rate.0,
                    delay_s: l.delay.as_secs_f64(),
                    arrivals: l.stats.arrivals,
                    arrival_bytes: l.stats.arrival_bytes,
                    departures: l.stats.departures,
                    departure_bytes: l.stats.departure_bytes,
                    dropped_pkts: l.stats.total_drops(),
                    dropped_bytes: l.stats.dropped_bytes,
                    drops: by_reason(&l.stats.drops),
                    ecn_marks: l.stats.ecn_marks,
                    mean_len_pkts: mp,
                    mean_len_bytes: mb,
                    max_len_pkts: l.stats.max_pkts,
                    max_len_bytes: l.stats.max_bytes,
                    utilization: busy_fraction(l, end),
                    queued_pkts: l.waiting(),
                    in_flight_pkts: l.in_flight() + l.atm().map_or(0, |p| p.frames_in_flight(&net.atm.frames)),
                    avg_len: l.queue.avg_queue(),
                    pause_sent: pause.0.pause_sent,
                    resume_sent: pause.0.resume_sent,
                    pause_received: pause.0.pause_received,
                    paused_s: pause.1,
                }
            })
            .collect();
        let classes = net
            .links
            .iter()
            .enumerate()
            .flat_map(|(i, l)| {
                l.class_stats(end).into_iter().map(move |c| ClassRow {
                    link: i as u32,
                    arrivals: c.arrivals,
                    arrival_bytes: c.arrival_bytes,
                    departures: c.departures,
                    departure_bytes: c.departure_bytes,
                    dropped_pkts: c.drops.iter().sum(),
                    drops: by_reason(&c.drops),
                    queued_pkts: c.queued_pkts,
                    avg_len: c.avg_len,
                    class: c.name,
                })
            })
            .collect();
        let transfers = sim
            .flows
            .iter()
            .zip(&net.flows)
            .enumerate()
            .flat_map(|(i, (info, s))| {
                s.transfers.iter().enumerate().map(move |(k, t)| TransferRow::new(i as u32, &info.name, k as u32, t))
            })
            .collect();
        let accounting = Accounting {
            created: net.pool.created(),
            delivered: net.totals.delivered,
            dropped: net.totals.dropped,
            queued: net.queued(),
            in_flight: net.in_flight(),
            live: net.pool.live(),
            dropped_by_reason: by_reason(&net.totals.drops),
        };
        Results {
            scenario: sim.name.clone(),
            seed: sim.seed,
            sim_time_s: end.as_secs_f64(),
            events,
            wall_s,
            setup_wall_s: sim.setup_wall_s,
            run_wall_s: wall_s,
            interrupted,
            accounting,
            tcp_profiles: sim.flows.iter().filter_map(|f| Some((f.name.clone(), f.tcp_profile.clone()?))).collect(),
            flows,
            queues,
            classes,
            transfers,
            series,
            windows,
            packet_delays: None,
            video_packets: None,
            event_log: net.dynamics.as_ref().map_or_else(Vec::new, |d| d.log.clone()),
        }
    }

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

/// Fraction of [0, end] the transmitter was sending.
fn busy_fraction(l: &crate::net::Link, end: SimTime) -> f64 {
    if end.0 == 0 {
        return 0.0;
    }
    // The last transmission may run past the end: count only its part before the end.
    let overshoot = l.busy_until.0.saturating_sub(end.0);
    (l.stats.busy_ps - overshoot.min(l.stats.busy_ps)) as f64 / end.0 as f64
}
