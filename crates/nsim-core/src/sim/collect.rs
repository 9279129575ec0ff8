//! Collecting a finished run into [`Results`]: reads the simulator's flows, links, queues
//! and counters. Here, beside the run loop, so that `results` (the data and its files) does
//! not import the simulator.

use std::collections::BTreeMap;

use super::Simulator;
use crate::record::goodput::GoodputWindow;
use crate::record::series::Series;
use crate::record::{DropCounts, DropReason};
use crate::results::{Accounting, ClassRow, FlowRow, QueueRow, Results, TransferRow};
use crate::time::SimTime;

fn by_reason(c: &DropCounts) -> BTreeMap<&'static str, u64> {
    DropReason::ALL.iter().filter(|r| c[r.idx()] > 0).map(|r| (r.name(), c[r.idx()])).collect()
}

impl Results {
    pub(crate) fn collect(
        sim: &Simulator,
        series: Series,
        windows: Vec<GoodputWindow>,
        wall_s: f64,
        events: u64,
        interrupted: bool,
    ) -> Results {
        let net = &sim.net;
        let end = net.now;
        // `*`: every node (the DV advertisements' flow, `routing`).
        let node = |n: crate::ids::NodeId| {
            net.nodes.get(n.idx()).map_or_else(|| "*".to_string(), |x| x.name.clone())
        };
        let flows = sim
            .flows
            .iter()
            .zip(&net.flows)
            .enumerate()
            .map(|(i, (info, s))| {
                let until = info.stop.map_or(end, |st| st.min(end));
                let active = until.since(info.start).as_secs_f64();
                let per_s =
                    |bytes: u64| if active > 0.0 { bytes as f64 * 8.0 / active } else { 0.0 };
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
                    deadline_miss_fraction: (info.deadline.is_some()
                        && s.delivered_pkts + s.dropped_pkts > 0)
                        .then(|| {
                            (s.late_pkts + s.dropped_pkts) as f64
                                / (s.delivered_pkts + s.dropped_pkts) as f64
                        }),
                    retransmits: s.tcp.retransmits,
                    timeouts: s.tcp.timeouts,
                    fast_retransmits: s.tcp.fast_retransmits,
                    completion_s: s.tcp.completed.map(|t| t.since(info.start).as_secs_f64()),
                    setup_s: s
                        .full
                        .established
                        .zip(s.full.syn_sent)
                        .map(|(e, syn)| e.since(syn).as_secs_f64()),
                    first_data_s: s
                        .full
                        .first_data
                        .zip(s.full.syn_sent)
                        .map(|(d, syn)| d.since(syn).as_secs_f64()),
                    close_s: s.full.closed.map(|t| t.since(info.start).as_secs_f64()),
                    transactions: s.full.transactions,
                    transaction_mean_s: (s.full.transactions > 0).then(|| {
                        s.full.transaction_time.as_secs_f64() / s.full.transactions as f64
                    }),
                    polls: s.ctl.polls,
                    stats: s.ctl.stats,
                    ustats: s.ctl.ustats,
                    path: net.routes.ecmp_salt().map(|_| {
                        let hops = net
                            .routes
                            .flow_path(info.src, info.dst, i as u32, |l| net.links[l.idx()].to);
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
                let pause = l
                    .eth()
                    .map(|p| (p.stats, p.timers.paused_time(end).as_secs_f64()))
                    .unwrap_or_default();
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
                    in_flight_pkts: l.in_flight()
                        + l.atm().map_or(0, |p| p.frames_in_flight(&net.atm.frames)),
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
                s.transfers
                    .iter()
                    .enumerate()
                    .map(move |(k, t)| TransferRow::new(i as u32, &info.name, k as u32, t))
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
            tcp_profiles: sim
                .flows
                .iter()
                .filter_map(|f| Some((f.name.clone(), f.tcp_profile.clone()?)))
                .collect(),
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
