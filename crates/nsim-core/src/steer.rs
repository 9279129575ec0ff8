//! Steering a run from outside (Python's `nsim.Simulation`): look at the live state between
//! [`Simulator::advance`] steps and make the changes a scenario's `[[event]]`s make.

use std::collections::HashMap;

use serde::Serialize;

use crate::agent::FlowControl;
use crate::config::build::{error_model, Names};
use crate::config::event_spec::{
    check_shape, link_changes, middlebox_changes, EventAction, EventSpec,
};
use crate::error::{CResult, ConfigError};
use crate::ids::{FlowId, NodeId};
use crate::sim::Simulator;
use crate::time::{SimTime, PS_PER_SEC};

/// A flow as it stands now.
#[derive(Serialize)]
pub struct FlowState {
    pub name: String,
    /// Data packets the source has sent (ns-2's `ndatapack_`).
    pub sent_pkts: u64,
    pub delivered_pkts: u64,
    pub delivered_bytes: u64,
    pub dropped_pkts: u64,
    /// The TCP sender's window (packets) and smoothed RTT (seconds); `None` for other flows.
    pub cwnd: Option<f64>,
    pub ssthresh: Option<f64>,
    pub srtt_s: Option<f64>,
}

/// A link direction as it stands now.
#[derive(Serialize)]
pub struct LinkState {
    pub from: String,
    pub to: String,
    pub up: bool,
    pub rate_bps: u64,
    pub delay_s: f64,
    pub len_pkts: u64,
    pub len_bytes: u64,
    /// Packets and bytes that reached the queue (dropped ones too), left it for the wire, and
    /// were dropped there, so far (ns-2 `QueueMonitor`'s `parrivals_`, `barrivals_`,
    /// `pdepartures_`, `bdepartures_`, `pdrops_`, `bdrops_`).
    pub arrivals: u64,
    pub arrival_bytes: u64,
    pub departures: u64,
    pub departure_bytes: u64,
    pub drops: u64,
    pub dropped_bytes: u64,
    /// The queue's length integrated over time (packet-seconds, byte-seconds) up to
    /// `changed_s`, its last change: ns-2's `Integrator` `sum_` between two changes.
    pub area_pkts_s: f64,
    pub area_bytes_s: f64,
    pub changed_s: f64,
}

/// The run's live state.
#[derive(Serialize)]
pub struct LiveState {
    pub time_s: f64,
    pub flows: Vec<FlowState>,
    pub links: Vec<LinkState>,
}

impl Simulator {
    /// The simulated time the run stands at.
    pub fn now(&self) -> SimTime {
        self.net.now
    }

    /// Per-flow and per-link state now.
    pub fn state(&self) -> LiveState {
        let net = &self.net;
        let mut flows: Vec<FlowState> = self
            .flows
            .iter()
            .zip(&net.flows)
            .map(|(info, s)| FlowState {
                name: info.name.clone(),
                sent_pkts: s.sent_pkts,
                delivered_pkts: s.delivered_pkts,
                delivered_bytes: s.delivered_bytes,
                dropped_pkts: s.dropped_pkts,
                cwnd: None,
                ssthresh: None,
                srtt_s: None,
            })
            .collect();
        for slot in &self.agents {
            if let Some(p) = slot.agent.tcp_probe() {
                let f = &mut flows[slot.flow.idx()];
                (f.cwnd, f.ssthresh, f.srtt_s) =
                    (Some(p.cwnd), Some(p.ssthresh), Some(p.srtt.as_secs_f64()));
            }
        }
        let node = |n: NodeId| net.nodes[n.idx()].name.clone();
        let links = net
            .links
            .iter()
            .map(|l| {
                let (area_pkts, area_bytes, changed) = l.stats.area();
                LinkState {
                    from: node(l.from),
                    to: node(l.to),
                    up: !l.is_down(),
                    rate_bps: l.rate.0,
                    delay_s: l.delay.as_secs_f64(),
                    len_pkts: l.waiting(),
                    len_bytes: l.waiting_bytes(),
                    arrivals: l.stats.arrivals,
                    arrival_bytes: l.stats.arrival_bytes,
                    departures: l.stats.departures,
                    departure_bytes: l.stats.departure_bytes,
                    drops: l.stats.total_drops(),
                    dropped_bytes: l.stats.dropped_bytes,
                    area_pkts_s: area_pkts as f64 / PS_PER_SEC as f64,
                    area_bytes_s: area_bytes as f64 / PS_PER_SEC as f64,
                    changed_s: changed.as_secs_f64(),
                }
            })
            .collect();
        LiveState { time_s: net.now.as_secs_f64(), flows, links }
    }

    /// Makes the change of `event` (the schema of an `[[event]]` table) at its time `at`:
    /// now, or later (scheduled). Checked as the scenario's events are; a queue change is
    /// checked against the live discipline when it is made. A flow's start, stop, pause or
    /// resume is checked against its other commands (sim/flow_control.rs).
    pub fn change(&mut self, event: &EventSpec) -> CResult<()> {
        let path = "event";
        let err = |e: ConfigError| ConfigError::new(e.path.replacen("event[0]", path, 1), e.reason);
        let events = std::slice::from_ref(event);
        check_shape(events, self.end).map_err(err)?;
        let at = SimTime::ZERO + event.at.0;
        if at < self.net.now {
            let now = self.net.now.as_secs_f64();
            return Err(ConfigError::new(
                format!("{path}.at"),
                format!(
                    "{} s is in the past (the run stands at {now} s)",
                    event.at.0.as_secs_f64()
                ),
            ));
        }
        if let Some(name) = &event.flow {
            let flow = self.flow_id(name).ok_or_else(|| {
                ConfigError::new(format!("{path}.flow"), format!("unknown flow '{name}'"))
            })?;
            return match event.action {
                EventAction::Start => self.start_flow(flow, at, path),
                EventAction::Stop => self.stop_flow(flow, at, path),
                _ => {
                    let what = if event.action == EventAction::Pause {
                        FlowControl::Pause
                    } else {
                        FlowControl::Resume
                    };
                    self.check_flow_command(flow, at, what, path)?;
                    self.flow_command(flow, at, what);
                    Ok(())
                }
            };
        }
        let names = Names {
            ids: self
                .net
                .nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (n.name.clone(), NodeId(i as u32)))
                .collect(),
            flows: self
                .flows
                .iter()
                .enumerate()
                .map(|(i, f)| (f.name.clone(), FlowId(i as u32)))
                .collect::<HashMap<_, _>>(),
        };
        let errors = |spec: &_, p: &str| error_model(spec, p, &names);
        let mut changes =
            link_changes(events, &self.net, None, &errors, self.seed, self.end).map_err(err)?;
        changes.extend(middlebox_changes(events, &self.net).map_err(err)?);
        for (t, c) in changes {
            if t == self.net.now {
                let field = match &c.what {
                    crate::net::dynamics::LinkChange::Queue(q) => format!("{path}.{}", q.field()),
                    crate::net::dynamics::LinkChange::Middlebox(_, h) => {
                        format!("{path}.{}", h.field())
                    }
                    _ => path.to_string(),
                };
                self.net.apply_change(c).map_err(|r| ConfigError::new(field, r))?;
            } else {
                self.net.schedule_change(t, c);
            }
        }
        Ok(())
    }
}
