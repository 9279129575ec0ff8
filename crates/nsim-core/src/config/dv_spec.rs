//! `routing.protocol = "dv"`: the `[routing.dv]` parameters, `[[routing.costs]]`, and what a
//! run with DV routing adds (a routing agent per node, the `routing` flow its advertisements
//! are counted under).

use schemars::JsonSchema;
use serde::Deserialize;

use super::build::Names;
use crate::error::{CResult, ConfigError};
use crate::ids::{AgentId, FlowId, NodeId};
use crate::net::routing::dv::{Dv, DvParams};
use crate::net::Net;
use crate::record::FlowStats;
use crate::sim::{AgentSlot, FlowInfo};
use crate::time::SimTime;
use crate::transport::rtproto_dv::DvAgent;
use crate::units::TimeSpec;

/// Where routes come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// Shortest paths computed before the run (ns-2 `rtproto Static`; after failures as
    /// `routing.recompute` says).
    #[default]
    Static,
    /// ns-2's distance-vector routing (`rtproto DV`): routes learnt from advertisements that
    /// travel as packets (docs/models/routing.md).
    Dv,
}

/// `[routing.dv]`: ns-2's `Agent/rtProto/DV` settings (defaults ns-2.35's).
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DvSpec {
    /// Period of the advertisements (each times a uniform draw in [0.9, 1.1]). Default 2 s.
    pub advert_interval: Option<TimeSpec>,
    /// The metric meaning unreachable (ns-2 `INFINITY`). Default 32.
    pub infinity: Option<u32>,
    /// DV routes' preference (lower wins; ns-2 `Agent/rtProto/DV set preference_`). Default 120.
    pub preference: Option<u32>,
    /// Routes to neighbours' preference (`Agent/rtProto/Direct set preference_`). Default 100.
    pub direct_preference: Option<u32>,
    /// Use every equal-cost route, in turn packet by packet (ns-2 `Node set multiPath_ 1`).
    /// Default false: one.
    #[serde(default)]
    pub multipath: bool,
}

/// `[[routing.costs]]`: the routing metric of one link direction (ns-2 `$ns cost $a $b 3`).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CostSpec {
    pub from: String,
    pub to: String,
    /// A positive integer; links not listed cost 1.
    pub cost: u32,
}

/// The largest network DV runs on (its route table is dense: 4 MB at this size).
const MAX_NODES: usize = 1024;

/// The checked DV parameters and per-link costs (`None` for static routing, which takes
/// neither).
pub(crate) fn params(
    spec: &super::RoutingSpec,
    names: &Names,
    net: &Net,
) -> CResult<Option<(DvParams, Vec<u32>)>> {
    if spec.protocol != Protocol::Dv {
        if !spec.costs.is_empty() {
            return Err(ConfigError::new(
                "routing.costs",
                "link costs need routing.protocol = \"dv\"",
            ));
        }
        if spec.dv.advert_interval.is_some()
            || spec.dv.infinity.is_some()
            || spec.dv.preference.is_some()
            || spec.dv.direct_preference.is_some()
            || spec.dv.multipath
        {
            return Err(ConfigError::new(
                "routing.dv",
                "DV settings need routing.protocol = \"dv\"",
            ));
        }
        return Ok(None);
    }
    let never = spec.recompute != crate::net::dynamics::Recompute::default();
    if spec.ecmp || !spec.routes.is_empty() || spec.convergence_delay.is_some() || never {
        let field = if spec.ecmp {
            "ecmp"
        } else if !spec.routes.is_empty() {
            "routes"
        } else if never {
            "recompute"
        } else {
            "convergence_delay"
        };
        return Err(ConfigError::new(
            format!("routing.{field}"),
            "does not apply with routing.protocol = \"dv\" (DV finds its own routes)",
        ));
    }
    if net.nodes.len() > MAX_NODES {
        return Err(ConfigError::new(
            "routing.protocol",
            format!(
                "DV keeps a route per node pair: at most {MAX_NODES} nodes (this network has {})",
                net.nodes.len()
            ),
        ));
    }
    let d = DvParams::default();
    let interval = spec.dv.advert_interval.as_ref().map_or(d.advert_interval, |t| t.0);
    if interval.0 == 0 {
        return Err(ConfigError::new("routing.dv.advert_interval", "must be greater than zero"));
    }
    let infinity = spec.dv.infinity.unwrap_or(d.infinity);
    if infinity < 2 {
        return Err(ConfigError::new(
            "routing.dv.infinity",
            format!("{infinity}: must be at least 2 (a neighbour costs at least 1)"),
        ));
    }
    let pref = |v: Option<u32>, default: u32, field: &str| match v {
        Some(p) if p >= 255 => Err(ConfigError::new(
            format!("routing.dv.{field}"),
            format!("{p}: must be below 255 (ns-2's `maxpref_`, no route)"),
        )),
        _ => Ok(v.unwrap_or(default)),
    };
    let preference = pref(spec.dv.preference, d.preference, "preference")?;
    let direct_preference =
        pref(spec.dv.direct_preference, d.direct_preference, "direct_preference")?;
    let mut costs = vec![1u32; net.links.len()];
    for (i, c) in spec.costs.iter().enumerate() {
        let path = format!("routing.costs[{i}]");
        let (a, b) = (
            names.node(&c.from, &format!("{path}.from"))?,
            names.node(&c.to, &format!("{path}.to"))?,
        );
        if c.cost == 0 || c.cost >= infinity {
            return Err(ConfigError::new(
                format!("{path}.cost"),
                format!("{}: must be from 1 to infinity - 1 ({})", c.cost, infinity - 1),
            ));
        }
        let mut found = false;
        for (l, link) in net.links.iter().enumerate() {
            if link.from == a && link.to == b {
                costs[l] = c.cost;
                found = true;
            }
        }
        if !found {
            return Err(ConfigError::new(path, format!("no link from '{}' to '{}'", c.from, c.to)));
        }
    }
    Ok(Some((
        DvParams {
            advert_interval: interval,
            infinity,
            preference,
            direct_preference,
            multipath: spec.dv.multipath,
        },
        costs,
    )))
}

/// Adds a routing agent per node (after the flows' agents: ns-2 attaches them last) and the
/// `routing` flow, and starts DV at time 0.
pub(crate) fn install(
    p: DvParams,
    costs: Vec<u32>,
    net: &mut Net,
    agents: &mut Vec<AgentSlot>,
    infos: &mut Vec<FlowInfo>,
) {
    let flow = FlowId(infos.len() as u32);
    net.flows.push(FlowStats::default());
    infos.push(FlowInfo {
        name: "routing".into(),
        src: NodeId::NONE,
        dst: NodeId::NONE,
        start: SimTime::ZERO,
        stop: None,
        transport: "rtProtoDV",
        app: "routing",
        deadline: None,
        one_way: None,
        window: None,
        tcp_profile: None,
        pausable: false,
    });
    let first = agents.len() as u32;
    for x in 0..net.nodes.len() {
        agents.push(AgentSlot { agent: Box::new(DvAgent), node: NodeId(x as u32), flow });
    }
    let ids = (0..net.nodes.len() as u32).map(|x| AgentId(first + x)).collect();
    Dv::install(net, p, costs, ids, flow);
}
