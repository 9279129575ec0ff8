//! The size and memory budget of a scenario, checked before anything is built.
//!
//! A typo such as `repeat = 10000000` or `record.interval = "1ns"` would otherwise allocate
//! gigabytes (or hang building routes) before the first event. The estimate counts flows
//! (after `repeat`), nodes (after the topology helpers; routing tables grow as nodes²),
//! time-series samples (duration / interval × series columns), queue capacities and the
//! packets rate-driven sources would send. Each
//! limit can be raised in the scenario's `[limits]` table, or all of them switched off with
//! `nsim run --no-limits` (`run(limits=False)` in Python).

use schemars::JsonSchema;
use serde::Deserialize;

use super::flow_spec::AppSpec;
use super::{Scenario, SeriesKind};
use crate::error::{CResult, ConfigError};
use crate::time::Dur;
use crate::units::Limit;

/// Upper bounds on the size of a run. The defaults fit every shipped scenario with a wide
/// margin and keep a run's memory below about 2 GB.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsSpec {
    /// Flows after `repeat` expansion. Default 100000.
    pub max_flows: u64,
    /// Nodes, including those added by `dumbbell`, `chain` and `tree`. Routing state is linear
    /// in the network (docs/models/routing.md); about 8 KB per node in all (a 100,002-node
    /// dumbbell with 50,000 flows peaks at 827 MB). Default 250000.
    pub max_nodes: u64,
    /// Sampled time-series values: duration / `record.interval` × series columns
    /// (2 per link for "queue", 1 per flow for "flow_throughput" and "tcp"). Default 20000000.
    pub max_series_samples: u64,
    /// A queue limit given in packets. Default 1000000.
    pub max_queue_packets: u64,
    /// A queue limit given in bytes. Default 1000000000 (1 GB).
    pub max_queue_bytes: u64,
    /// Packets the rate-driven sources (cbr, poisson, onoff at peak rate) would send over the
    /// run: rate / (8 · size) × active time, summed over flows. Default 100000000 (about a
    /// minute of simulation). TCP bulk and file transfers are paced by the network.
    pub max_source_packets: u64,
}

impl Default for LimitsSpec {
    fn default() -> Self {
        LimitsSpec {
            max_flows: 100_000,
            max_nodes: 250_000,
            max_series_samples: 20_000_000,
            max_queue_packets: 1_000_000,
            max_queue_bytes: 1_000_000_000,
            max_source_packets: 100_000_000,
        }
    }
}

fn over(path: &str, what: String, limit: u64, key: &str) -> ConfigError {
    ConfigError::new(
        path,
        format!("{what}, above the limit of {limit}; raise `limits.{key}` in the scenario or run with --no-limits"),
    )
}

/// Refuses a scenario whose estimated size exceeds `scn.limits`. `duration` is the run
/// duration after overrides (None: until the last flow stops).
pub fn check(scn: &Scenario, duration: Option<Dur>) -> CResult<()> {
    let l = &scn.limits;
    let flows: u64 = scn.flows.iter().map(|f| u64::from(f.repeat.unwrap_or(1))).sum();
    if flows > l.max_flows {
        let path = scn
            .flows
            .iter()
            .position(|f| f.repeat.unwrap_or(1) > 1)
            .map_or("flows".into(), |i| format!("flows[{i}].repeat"));
        return Err(over(&path, format!("{flows} flows"), l.max_flows, "max_flows"));
    }
    let dumbbell = scn.dumbbell.as_ref().map_or(0, |d| 2 * u64::from(d.pairs) + 2);
    let chain = scn.chain.as_ref().map_or(0, |c| u64::from(c.nodes));
    let nodes = (scn.hosts.len() + scn.routers.len()) as u64 + dumbbell + chain;
    if nodes > l.max_nodes {
        let path = if dumbbell > chain {
            "dumbbell.pairs"
        } else if chain > 0 {
            "chain.nodes"
        } else {
            "hosts"
        };
        return Err(over(path, format!("{nodes} nodes"), l.max_nodes, "max_nodes"));
    }
    for (path, limit) in &scn.queue_limits {
        match *limit {
            Limit::Packets(n) if n > l.max_queue_packets => {
                return Err(over(
                    path,
                    format!("a queue of {n} packets"),
                    l.max_queue_packets,
                    "max_queue_packets",
                ))
            }
            Limit::Bytes(b) if b > l.max_queue_bytes => {
                return Err(over(
                    path,
                    format!("a queue of {b} bytes"),
                    l.max_queue_bytes,
                    "max_queue_bytes",
                ))
            }
            _ => {}
        }
    }
    check_series(scn, duration, flows)?;
    check_source_packets(scn, duration)
}

/// Packets per second of a rate-driven source (0 for TCP-paced ones).
fn packets_per_s(app: &AppSpec) -> f64 {
    let (rate, interval, size) = match app {
        AppSpec::Cbr { rate, interval, size, .. }
        | AppSpec::Poisson { rate, interval, size, .. } => (*rate, *interval, *size),
        AppSpec::Onoff { rate, size, .. } => (*rate, None, *size),
        AppSpec::Bulk {}
        | AppSpec::File { .. }
        | AppSpec::Repeat { .. }
        | AppSpec::Transactions { .. } => return 0.0,
        // Synthetic video: its fastest sequence without gaps (trace files are not read here).
        AppSpec::Video { sequences, packet_size, .. } => {
            let bps = sequences
                .iter()
                .filter_map(|s| s.synthetic)
                .map(|n| n.table().2.iter().sum::<f64>())
                .fold(0.0, f64::max);
            return bps / (8.0 * packet_size.map_or(1000.0, |s| s.0 .0.max(1) as f64));
        }
        AppSpec::Telnet { .. } | AppSpec::Http { .. } => return 0.0,
    };
    let size = size.map_or(210.0, |s| s.0 .0.max(1) as f64);
    match (rate, interval) {
        (Some(r), _) => r.0 .0 as f64 / (8.0 * size),
        (None, Some(i)) if i.0 .0 > 0 => 1.0 / i.0.as_secs_f64(),
        _ => 0.0,
    }
}

fn check_source_packets(scn: &Scenario, duration: Option<Dur>) -> CResult<()> {
    let end = duration.map(|d| d.as_secs_f64());
    let mut total = 0.0;
    for (i, f) in scn.flows.iter().enumerate() {
        let start = f.start.map_or(0.0, |t| t.0.as_secs_f64());
        let stop = match (f.stop.map(|t| t.0.as_secs_f64()), end) {
            (Some(s), Some(e)) => s.min(e),
            (Some(s), None) => s,
            (None, Some(e)) => e,
            (None, None) => continue, // reported by the build: no duration
        };
        total += packets_per_s(&f.app) * (stop - start).max(0.0) * f64::from(f.repeat.unwrap_or(1));
        if total > scn.limits.max_source_packets as f64 {
            let what = format!("about {total:.3e} packets from the sources up to here");
            return Err(over(
                &format!("flows[{i}].app"),
                what,
                scn.limits.max_source_packets,
                "max_source_packets",
            ));
        }
    }
    Ok(())
}

fn check_series(scn: &Scenario, duration: Option<Dur>, flows: u64) -> CResult<()> {
    let r = &scn.record;
    let links = scn.links.len() as u64
        + scn.dumbbell.as_ref().map_or(0, |d| 2 * u64::from(d.pairs) + 1)
        + scn.chain.as_ref().map_or(0, |c| u64::from(c.nodes.saturating_sub(1)));
    let mut columns = 0u64;
    for kind in &r.series {
        columns += match kind {
            SeriesKind::Queue => 2 * links,
            SeriesKind::FlowThroughput | SeriesKind::Tcp | SeriesKind::Goodput => flows,
            SeriesKind::Cwnd => 0, // event-driven: bounded by the run's events, not the interval
            // At most 6 named values per sender (BBR's 5 and the pacing rate).
            SeriesKind::Cc => 6 * flows,
        };
    }
    let Some(interval) =
        r.interval.map(|t| t.0).or(Some(Dur::from_millis(100))).filter(|i| i.0 > 0)
    else {
        return Ok(()); // a zero interval is reported by the build
    };
    let end = duration
        .or_else(|| scn.flows.iter().filter_map(|f| f.stop.map(|s| s.0)).max())
        .unwrap_or(Dur::ZERO);
    let samples = (end.0 / interval.0).saturating_add(1).saturating_mul(columns);
    if samples > scn.limits.max_series_samples {
        let path = if r.interval.is_some() { "record.interval" } else { "record.series" };
        return Err(over(
            path,
            format!("about {samples} time-series samples"),
            scn.limits.max_series_samples,
            "max_series_samples",
        ));
    }
    Ok(())
}
