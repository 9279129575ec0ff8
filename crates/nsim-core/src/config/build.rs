//! Config -> Simulator: resolve names to ids, check what serde cannot, and build the parts.
//!
//! Every error names the field path (`links[2].between[1]`) and the reason; the caller adds
//! the file name.

use std::collections::HashMap;

use super::link_spec::{ErrorSpec, LinkSpec};
use super::{Scenario, SeriesKind};
use crate::error::{CResult, ConfigError};
use crate::ids::{FlowId, LinkId, NodeId};
use crate::net::atm::{self, port::CellPort, spec::AtmSpec};
use crate::net::error_model::ErrorModel;
use crate::net::ethernet::{self, port::EthPort};
use crate::net::{Link, Net, Node, NodeKind, RouteTable};
use crate::queue::spec::QueueSpec;
use crate::queue::BuildCtx;
use crate::sim::{SeriesConfig, Simulator};
use crate::time::{Dur, SimTime};

/// Per-run overrides of the scenario (from the CLI or Python).
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub seed: Option<u64>,
    pub duration: Option<Dur>,
    /// Write an ns-2 trace here (overrides `record.trace`'s default location).
    pub trace_path: Option<String>,
    /// Skip the size and memory budget (`--no-limits`).
    pub no_limits: bool,
    /// Directory for pcap files (required when any are chosen).
    pub pcap_dir: Option<String>,
    /// Overrides `record.pcap` (the CLI's `--pcap` / `--pcap-links`).
    pub pcap: Option<super::Select>,
}

/// Name -> id lookups used while building (never on the packet path).
pub(crate) struct Names {
    pub ids: HashMap<String, NodeId>,
    pub flows: HashMap<String, FlowId>,
}

impl Names {
    pub fn node(&self, name: &str, path: &str) -> CResult<NodeId> {
        self.ids
            .get(name)
            .copied()
            .ok_or_else(|| ConfigError::new(path, format!("unknown node '{name}'")))
    }
}

/// Builds a ready-to-run simulator. Errors carry the TOML line of their field when the
/// scenario came from TOML text.
pub fn build(scn: &Scenario, opts: &RunOptions) -> CResult<Simulator> {
    let checked = if opts.no_limits {
        Ok(())
    } else {
        super::limits::check(scn, opts.duration.or(scn.duration.map(|d| d.0)))
    };
    checked.and_then(|()| build_checked(scn, opts)).map_err(|e| match &scn.source_text {
        Some(text) if e.line.is_none() && !e.path.is_empty() => {
            ConfigError { line: super::raw::line_of(text, &e.path), ..e }
        }
        _ => e,
    })
}

fn build_checked(scn: &Scenario, opts: &RunOptions) -> CResult<Simulator> {
    let started = std::time::Instant::now();
    let seed = opts.seed.unwrap_or(scn.seed);
    let (nodes, link_specs) = collect_topology(scn)?;
    let mut names = Names { ids: HashMap::new(), flows: HashMap::new() };
    for (i, (n, _)) in nodes.iter().enumerate() {
        names.ids.insert(n.clone(), NodeId(i as u32));
    }
    let duration = opts.duration.or(scn.duration.map(|d| d.0));
    let mut flows = super::flow_spec_build::expand_flows(scn, &names, seed)?;
    // Against the scenario's own duration: a run shortened from outside (CLI, tests) leaves
    // the later events unreached instead of refusing to run (as `record.windows`).
    super::event_spec::apply_flow_events(
        &scn.events,
        &mut flows,
        &scn.flows,
        scn.duration.map(|d| SimTime::ZERO + d.0),
    )?;
    for (i, f) in flows.iter().enumerate() {
        names.flows.insert(f.name.clone(), FlowId(i as u32));
    }
    let links = build_links(&link_specs, &names, seed)?;
    let (routes, overrides) = build_routes(scn, &names, &links, nodes.len(), seed)?;
    let node_list = nodes.into_iter().map(|(name, kind)| Node { name, kind }).collect();
    let mut net = Net::new(node_list, links, routes, flows.len());
    net.sched.set_tie_order(scn.run.tie_order);
    if scn.run.tie_order == crate::sched::TieOrder::Ns2 {
        net.ns2_order =
            Some(Box::new(crate::net::ns2_link_order::Ns2LinkOrder::new(net.links.len())));
    }
    let dv = super::dv_spec::params(&scn.routing, &names, &net)?;
    if dv.is_some() {
        net.routes = RouteTable::unrouted(net.nodes.len());
    } else {
        super::flow_spec_build::check_routes(&flows, &net)?;
    }
    let flow_names: Vec<String> = flows.iter().map(|f| f.name.clone()).collect();
    net.middlebox =
        crate::config::middlebox_spec::build(&scn.middlebox, &names, net.nodes.len(), &flow_names)?;
    net.bridges = crate::net::ethernet::bridge::build(
        &scn.bridges,
        &|n: &str, p: &str| names.node(n, p),
        &net.nodes,
        &net.links,
    )?;
    build_dynamics(scn, &names, &link_specs, seed, overrides, &mut net)?;
    if duration.is_none() {
        if let Some(f) = flows.iter().find(|f| f.stop.is_none()) {
            return Err(ConfigError::new(
                "duration",
                format!("is required because flow '{}' has no stop time", f.name),
            ));
        }
    }
    if dv.is_some() && duration.is_none() {
        return Err(ConfigError::new(
            "duration",
            "is required with routing.protocol = \"dv\": its advertisements go on for ever",
        ));
    }
    if duration == Some(Dur::ZERO) {
        return Err(ConfigError::new("duration", "must be greater than zero"));
    }
    let series = series_config(scn)?;
    let (mut agents, mut infos) = super::flow_spec_build::build_agents(flows, seed, &mut net)?;
    if let Some((p, costs)) = dv {
        super::dv_spec::install(p, costs, &mut net, &mut agents, &mut infos);
    }
    let flow_commands = super::event_spec::flow_commands(&scn.events, &infos)?;
    // Checked against the scenario's own duration: a run shortened from outside (CLI, tests)
    // reports the windows it did not reach as empty instead of refusing to run.
    let windows = windows_config(scn, scn.duration.map(|d| d.0))?;
    let delays = super::record_build::packet_delay_flows(&scn.record.packet_delays, &infos)?;
    let video_log = super::record_build::video_packet_flows(&scn.record.video_packets, &infos)?;
    let pcap = opts.pcap.as_ref().unwrap_or(&scn.record.pcap);
    let pcap_links = super::record_build::pcap_links(pcap, &net)?;
    let mut sim = Simulator::new(
        scn.name.clone(),
        seed,
        net,
        agents,
        infos,
        duration.map(|d| SimTime::ZERO + d),
        series,
        opts.trace_path.as_deref(),
    )
    .map_err(|e| ConfigError::new("record.trace", format!("cannot write trace: {e}")))?;
    for c in flow_commands {
        sim.flow_command(c.flow, c.at, c.what);
    }
    if !windows.is_empty() {
        sim.record_windows(windows);
    }
    if let Some(on) = delays {
        sim.record_packet_delays(on);
    }
    if let Some(on) = video_log {
        sim.record_video_packets(on);
    }
    if !pcap_links.is_empty() {
        let dir = opts.pcap_dir.as_deref().ok_or_else(|| {
            ConfigError::new(
                "record.pcap",
                "needs an output directory: run with `nsim run -o DIR` (files go to DIR/pcap/)",
            )
        })?;
        sim.open_pcap(std::path::Path::new(dir), &pcap_links).map_err(|e| {
            ConfigError::new("record.pcap", format!("cannot write pcap files in {dir}: {e}"))
        })?;
    }
    sim.setup_wall_s = started.elapsed().as_secs_f64();
    Ok(sim)
}

/// `record.windows` as (t0, t1) instants: each must open before it closes and close by the
/// scenario's `duration`.
fn windows_config(scn: &Scenario, duration: Option<Dur>) -> CResult<Vec<(SimTime, SimTime)>> {
    let mut out = Vec::new();
    for (i, [a, b]) in scn.record.windows.iter().enumerate() {
        let path = format!("record.windows[{i}]");
        if b.0 <= a.0 {
            return Err(ConfigError::new(
                path,
                "the window must end after it starts ([t0, t1] with t0 < t1)",
            ));
        }
        if let Some(d) = duration.filter(|&d| b.0 > d) {
            return Err(ConfigError::new(
                path,
                format!(
                    "ends at {} s, after the run ends ({} s)",
                    b.0.as_secs_f64(),
                    d.as_secs_f64()
                ),
            ));
        }
        out.push((SimTime::ZERO + a.0, SimTime::ZERO + b.0));
    }
    Ok(out)
}

type Topology = (Vec<(String, NodeKind)>, Vec<(String, LinkSpec)>);

fn collect_topology(scn: &Scenario) -> CResult<Topology> {
    let mut nodes: Vec<(String, NodeKind, String)> = Vec::new();
    for (i, h) in scn.hosts.iter().enumerate() {
        nodes.push((h.clone(), NodeKind::Host, format!("hosts[{i}]")));
    }
    for (i, r) in scn.routers.iter().enumerate() {
        nodes.push((r.clone(), NodeKind::Router, format!("routers[{i}]")));
    }
    let mut links: Vec<(String, LinkSpec)> = Vec::new();
    for (i, l) in scn.links.iter().enumerate() {
        if l.between.is_none() {
            return Err(ConfigError::new(format!("links[{i}]"), "missing field `between`"));
        }
        links.push((format!("links[{i}]"), l.clone()));
    }
    let mut helpers = Vec::new();
    if let Some(d) = &scn.dumbbell {
        helpers.push(d.expand("dumbbell")?);
    }
    if let Some(c) = &scn.chain {
        helpers.push(c.expand("chain")?);
    }
    if let Some(t) = &scn.tree {
        helpers.push(t.expand("tree")?);
    }
    if let Some(f) = &scn.leaf_spine {
        helpers.push(f.expand("leaf_spine")?);
    }
    if let Some(f) = &scn.fat_tree {
        helpers.push(f.expand("fat_tree")?);
    }
    for x in helpers {
        nodes.extend(x.nodes.into_iter().map(|(n, k)| (n, k, "topology helper".to_string())));
        links.extend(x.links);
    }
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for (name, _, path) in &nodes {
        if name.is_empty() {
            return Err(ConfigError::new(path.clone(), "node names must not be empty"));
        }
        if let Some(first) = seen.insert(name, path) {
            return Err(ConfigError::new(
                path.clone(),
                format!("duplicate node name '{name}' (first defined by {first})"),
            ));
        }
    }
    Ok((nodes.into_iter().map(|(n, k, _)| (n, k)).collect(), links))
}

pub(crate) fn error_model(spec: &ErrorSpec, path: &str, names: &Names) -> CResult<ErrorModel> {
    let prob = |v: f64, field: &str| -> CResult<f64> {
        if !(0.0..=1.0).contains(&v) {
            return Err(ConfigError::new(
                format!("{path}.{field}"),
                format!("{v} is not a probability in [0, 1]"),
            ));
        }
        Ok(v)
    };
    Ok(match spec {
        ErrorSpec::Uniform { rate } => ErrorModel::Uniform { rate: prob(*rate, "rate")? },
        ErrorSpec::Ber { ber } => ErrorModel::Ber { ber: prob(*ber, "ber")? },
        ErrorSpec::DropList { packets, flow } => {
            let mut sorted = packets.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.first() == Some(&0) {
                return Err(ConfigError::new(
                    format!("{path}.packets"),
                    "packets are numbered from 1 (the 1st packet to cross)",
                ));
            }
            let flow = match flow {
                Some(f) => Some(*names.flows.get(f).ok_or_else(|| {
                    ConfigError::new(format!("{path}.flow"), format!("unknown flow '{f}'"))
                })?),
                None => None,
            };
            ErrorModel::DropList { sorted, next: 0, count: 0, flow }
        }
    })
}

fn build_links(specs: &[(String, LinkSpec)], names: &Names, seed: u64) -> CResult<Vec<Link>> {
    let mut links = Vec::new();
    let mut pairs: HashMap<(NodeId, NodeId), String> = HashMap::new();
    for (path, l) in specs {
        let [a, b] = l.between.as_ref().expect("checked in collect_topology");
        let na = names.node(a, &format!("{path}.between[0]"))?;
        let nb = names.node(b, &format!("{path}.between[1]"))?;
        if na == nb {
            return Err(ConfigError::new(
                format!("{path}.between"),
                format!("a link from '{a}' to itself"),
            ));
        }
        let key = (na.min(nb), na.max(nb));
        if let Some(first) = pairs.insert(key, path.clone()) {
            return Err(ConfigError::new(
                path.clone(),
                format!("duplicate link between '{a}' and '{b}' (first at {first})"),
            ));
        }
        let mut dirs = vec![(na, nb, l.queue.clone(), &l.error, "queue", "error")];
        if !l.simplex {
            let q = l.reverse_queue.clone().or_else(|| l.queue.clone());
            dirs.push((nb, na, q, &l.reverse_error, "reverse_queue", "reverse_error"));
        } else if l.reverse_queue.is_some() || l.reverse_error.is_some() {
            return Err(ConfigError::new(
                format!("{path}.simplex"),
                "a simplex link has no reverse direction to configure",
            ));
        }
        if l.atm.is_some() && l.ethernet.is_some() {
            return Err(ConfigError::new(
                format!("{path}.ethernet"),
                "a link is either ATM or Ethernet, not both",
            ));
        }
        if let Some(a) = &l.atm {
            for (from, to, ..) in dirs {
                links.push(atm_link(l, a, path, from, to, names, seed, links.len())?);
            }
            continue;
        }
        if l.ethernet.is_none() && l.reverse_ethernet.is_some() {
            return Err(ConfigError::new(
                format!("{path}.reverse_ethernet"),
                "set `ethernet` too (the a->b port)",
            ));
        }
        if l.ethernet.is_some() && l.simplex {
            return Err(ConfigError::new(
                format!("{path}.simplex"),
                "Ethernet links are full duplex (PAUSE needs the reverse direction)",
            ));
        }
        let eth = [
            ("ethernet", l.ethernet.as_ref()),
            ("reverse_ethernet", l.reverse_ethernet.as_ref().or(l.ethernet.as_ref())),
        ];
        for (k, (from, to, q, err, qfield, efield)) in dirs.into_iter().enumerate() {
            let eth = match eth[k] {
                (field, Some(e)) => {
                    if q.is_some() {
                        return Err(ConfigError::new(format!("{path}.{qfield}"), "an Ethernet port buffers in its `ethernet` table (buffer, classes): drop `queue`"));
                    }
                    let cfg = e
                        .port_config()
                        .map_err(|(f, r)| ConfigError::new(format!("{path}.{field}.{f}"), r))?;
                    Some(EthPort::new(cfg, l.rate.0))
                }
                (_, None) => None,
            };
            let q = q.unwrap_or_default();
            q.validate(&format!("{path}.{qfield}"))
                .map_err(|r| ConfigError::new(format!("{path}.{qfield}"), r))?;
            let error = match err {
                Some(e) => Some(error_model(e, &format!("{path}.{efield}"), names)?),
                None => None,
            };
            let id = links.len();
            let bctx = BuildCtx { link_rate: l.rate.0, link_delay: l.delay.0, flows: &names.flows };
            let queue =
                q.build(&bctx).map_err(|r| ConfigError::new(format!("{path}.{qfield}"), r))?;
            let mut link = Link::new(from, to, l.rate.0, l.delay.0, queue, seed, id);
            if let Some(em) = error {
                link.set_error(em);
            }
            link.error_at_enqueue = l.error_at == super::link_spec::ErrorAt::Enqueue;
            if let Some(port) = eth {
                link.set_eth(port);
            }
            links.push(link);
        }
    }
    ethernet::connect_upstream(&mut links);
    Ok(links)
}

/// One direction of an ATM cell link; its `queue` is an unused placeholder (cells wait in the
/// ATM port's buffer).
#[allow(clippy::too_many_arguments)]
fn atm_link(
    l: &LinkSpec,
    a: &AtmSpec,
    path: &str,
    from: NodeId,
    to: NodeId,
    names: &Names,
    seed: u64,
    id: usize,
) -> CResult<Link> {
    for (field, set) in [("queue", l.queue.is_some()), ("reverse_queue", l.reverse_queue.is_some())]
    {
        if set {
            return Err(ConfigError::new(
                format!("{path}.{field}"),
                "an ATM link buffers cells: set atm.buffer and atm.policy instead",
            ));
        }
    }
    for (field, set) in [("error", l.error.is_some()), ("reverse_error", l.reverse_error.is_some())]
    {
        if set {
            return Err(ConfigError::new(
                format!("{path}.{field}"),
                "error models act on packets and are not available on ATM cell links",
            ));
        }
    }
    let cfg =
        a.port_config().map_err(|(field, r)| ConfigError::new(format!("{path}.atm.{field}"), r))?;
    let placeholder = QueueSpec::default().build(&BuildCtx {
        link_rate: l.rate.0,
        link_delay: l.delay.0,
        flows: &names.flows,
    });
    let mut link = Link::new(
        from,
        to,
        l.rate.0,
        l.delay.0,
        placeholder.expect("the default queue builds"),
        seed,
        id,
    );
    let n_vcs = 2 * names.flows.len();
    link.set_atm(CellPort::new(cfg, atm::cell::slot(l.rate.0), l.delay.0, n_vcs));
    Ok(link)
}

/// What route recomputation needs (for events and steering), and the scenario's `[[event]]`
/// link changes, checked and scheduled. Without events nothing is scheduled: the run is as
/// before.
fn build_dynamics(
    scn: &Scenario,
    names: &Names,
    link_specs: &[(String, LinkSpec)],
    seed: u64,
    overrides: Vec<(NodeId, NodeId, LinkId)>,
    net: &mut Net,
) -> CResult<()> {
    let r = &scn.routing;
    let delay = r.convergence_delay.map_or(Dur::ZERO, |d| d.0);
    net.dynamics = Some(Box::new(crate::net::dynamics::Dynamics::new(
        r.recompute,
        delay,
        r.metric,
        overrides,
    )));
    if scn.events.is_empty() {
        return Ok(());
    }
    let mut spare = if super::event_spec::changes_queues(&scn.events) {
        Some(build_links(link_specs, names, seed)?)
    } else {
        None
    };
    let errors = |spec: &ErrorSpec, path: &str| error_model(spec, path, names);
    let end = scn.duration.map(|d| SimTime::ZERO + d.0);
    let mut changes = super::event_spec::link_changes(
        &scn.events,
        net,
        spare.as_deref_mut(),
        &errors,
        seed,
        end,
    )?;
    changes.extend(super::event_spec::middlebox_changes(&scn.events, net)?);
    for (at, c) in changes {
        net.schedule_change(at, c);
    }
    Ok(())
}

/// Shortest-path routes with the explicit next hops applied, and those next hops.
#[allow(clippy::type_complexity)]
fn build_routes(
    scn: &Scenario,
    names: &Names,
    links: &[Link],
    n: usize,
    seed: u64,
) -> CResult<(RouteTable, Vec<(NodeId, NodeId, LinkId)>)> {
    let edges: Vec<_> = links.iter().map(|l| (l.from, l.to, l.delay.0)).collect();
    let salt = scn
        .routing
        .ecmp
        .then(|| rand::Rng::next_u64(&mut crate::rng::stream(seed, "routing.ecmp")));
    let mut table = RouteTable::with_ecmp(n, &edges, scn.routing.metric, salt);
    let mut overrides = Vec::new();
    for (i, r) in scn.routing.routes.iter().enumerate() {
        let p = format!("routing.routes[{i}]");
        let at = names.node(&r.at, &format!("{p}.at"))?;
        let to = names.node(&r.to, &format!("{p}.to"))?;
        let next = names.node(&r.next, &format!("{p}.next"))?;
        let link = links.iter().position(|l| l.from == at && l.to == next).ok_or_else(|| {
            ConfigError::new(
                format!("{p}.next"),
                format!("'{}' is not a neighbour of '{}'", r.next, r.at),
            )
        })?;
        table.set_next_hop(at, to, LinkId(link as u32));
        overrides.push((at, to, LinkId(link as u32)));
    }
    Ok((table, overrides))
}

fn series_config(scn: &Scenario) -> CResult<Option<SeriesConfig>> {
    let r = &scn.record;
    if r.series.is_empty() {
        return Ok(None);
    }
    // TFRC and STP senders report their rate/window in these series too (docs/results.md).
    let tcp =
        scn.flows.iter().any(|f| !matches!(f.transport, super::flow_spec::TransportSpec::Udp {}));
    if let Some(k) = r
        .series
        .iter()
        .position(|k| matches!(k, SeriesKind::Tcp | SeriesKind::Cwnd | SeriesKind::Cc))
        .filter(|_| !tcp)
    {
        return Err(ConfigError::new(
            format!("record.series[{k}]"),
            "TCP series (\"tcp\", \"cwnd\", \"cc\") need at least one TCP, TFRC or STP flow; every flow here is UDP",
        ));
    }
    let interval = r.interval.map(|t| t.0).unwrap_or(Dur::from_millis(100));
    if interval == Dur::ZERO {
        return Err(ConfigError::new("record.interval", "must be greater than zero"));
    }
    Ok(Some(SeriesConfig {
        interval,
        queue: r.series.contains(&SeriesKind::Queue),
        flow_throughput: r.series.contains(&SeriesKind::FlowThroughput),
        goodput: r.series.contains(&SeriesKind::Goodput),
        tcp: r.series.contains(&SeriesKind::Tcp),
        cwnd: r.series.contains(&SeriesKind::Cwnd),
        cc: r.series.contains(&SeriesKind::Cc),
    }))
}
