//! `[[middlebox]]` in a scenario: which hook runs at which node, for which flows.

use schemars::JsonSchema;
use serde::Deserialize;

use super::build::Names;
use crate::error::{CResult, ConfigError};
use crate::middlebox::{
    delay::Delay, drop_every::DropEvery, ip_abr::IpAbr, rwnd_clamp::RwndClamp, tbf::Tbf,
    window_cap::WindowCap,
};
use crate::middlebox::{Hook, Installed, Middleboxes};
use crate::pattern::NamePattern;
use crate::time::SimTime;
use crate::units::{RateSpec, SizeSpec, TimeSpec};

/// A packet hook at a node.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MiddleboxSpec {
    /// What `set` events name it by (`middlebox = "..."`). Default: the node's name (one
    /// name may stand for several hooks: a `set` changes them all).
    pub name: Option<String>,
    /// The node whose forwarded packets the hook sees.
    pub node: String,
    /// Only these flows (names; `prefix*` matches every flow whose name starts with
    /// `prefix`). Default: all flows.
    pub flows: Option<Vec<String>>,
    pub hook: HookSpec,
}

/// What the hook does.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum HookSpec {
    /// Passing TCP ACKs advertise at most `rwnd` bytes.
    RwndClamp { rwnd: SizeSpec },
    /// Passing TCP ACKs advertise at most `segments` times the flow's segment payload.
    WindowCap { segments: u64 },
    /// Holl 2003's IP-ABR proxy: ACKs advertise share × RTT × l_data / l_pkt.
    IpAbr {
        /// Bandwidth share per flow (e.g. "24kb").
        share: RateSpec,
        /// Later shares: `[{ at = "123.6s", share = "11.5kb" }]`.
        #[serde(default)]
        schedule: Vec<ShareChange>,
        /// EWMA gain of the RTT and length averages (default 0.125).
        #[serde(default = "default_gain")]
        gain: f64,
        /// Smallest window written (default "0B").
        min_rwnd: Option<SizeSpec>,
    },
    /// Holds each packet for `delay` before forwarding it.
    Delay { delay: TimeSpec },
    /// Drops every `n`-th packet.
    DropEvery { n: u64 },
    /// ns-2's token bucket filter between an agent and its node (TBF, `attach-tbf-agent`):
    /// packets leave at `rate` with bursts of `bucket`; `qlen` packets may wait (0: police).
    Tbf {
        /// Token rate (ns-2 `rate_`, default 64 kb/s).
        #[serde(default = "default_tbf_rate")]
        rate: RateSpec,
        /// Bucket depth (ns-2 `bucket_`, 1024 bits: default "128B").
        #[serde(default = "default_tbf_bucket")]
        bucket: SizeSpec,
        /// Packets that may wait for tokens (ns-2 `qlen_`, default 0: non-conforming packets
        /// are dropped).
        #[serde(default)]
        qlen: u64,
    },
}

fn default_tbf_rate() -> RateSpec {
    RateSpec(crate::units::BitsPerSec(64_000))
}

fn default_tbf_bucket() -> SizeSpec {
    SizeSpec(crate::units::Bytes(128))
}

/// A change of the IP-ABR share at a given time.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShareChange {
    pub at: TimeSpec,
    pub share: RateSpec,
}

fn default_gain() -> f64 {
    0.125
}

/// Builds the hooks, or `None` when there are none (the forwarding fast path).
pub(crate) fn build(
    specs: &[MiddleboxSpec],
    names: &Names,
    n_nodes: usize,
    flow_names: &[String],
) -> CResult<Option<Box<Middleboxes>>> {
    if specs.is_empty() {
        return Ok(None);
    }
    let mut hooks = Vec::with_capacity(specs.len());
    for (i, m) in specs.iter().enumerate() {
        let path = format!("middlebox[{i}]");
        let node = names.node(&m.node, &format!("{path}.node"))?;
        let flows = match &m.flows {
            None => None,
            Some(list) => Some(flow_filter(list, flow_names, &format!("{path}.flows"))?),
        };
        let hook = hook(&m.hook, &format!("{path}.hook"), flow_names.len())?;
        let name = m.name.clone().unwrap_or_else(|| m.node.clone());
        hooks.push(Installed { name, node, flows, hook });
    }
    Ok(Some(Box::new(Middleboxes::new(n_nodes, hooks))))
}

fn flow_filter(list: &[String], flow_names: &[String], path: &str) -> CResult<Vec<bool>> {
    let mut on = vec![false; flow_names.len()];
    for (k, pat) in list.iter().enumerate() {
        let pattern = NamePattern::new(pat);
        let mut any = false;
        for (i, n) in flow_names.iter().enumerate() {
            if pattern.matches(n) {
                on[i] = true;
                any = true;
            }
        }
        if !any {
            return Err(ConfigError::new(format!("{path}[{k}]"), format!("no flow named '{pat}'")));
        }
    }
    Ok(on)
}

fn hook(h: &HookSpec, path: &str, n_flows: usize) -> CResult<Box<dyn Hook>> {
    Ok(match h {
        HookSpec::RwndClamp { rwnd } => Box::new(RwndClamp { rwnd: rwnd.0 .0 }),
        HookSpec::WindowCap { segments } => {
            if *segments == 0 {
                return Err(ConfigError::new(format!("{path}.segments"), "must be at least 1"));
            }
            Box::new(WindowCap::new(*segments, n_flows))
        }
        HookSpec::IpAbr { share, schedule, gain, min_rwnd } => {
            if !(*gain > 0.0 && *gain <= 1.0) {
                return Err(ConfigError::new(
                    format!("{path}.gain"),
                    format!("{gain} is not in (0, 1]"),
                ));
            }
            if share.0 .0 == 0 {
                return Err(ConfigError::new(format!("{path}.share"), "must be greater than zero"));
            }
            let changes = schedule.iter().map(|c| (SimTime::ZERO + c.at.0, c.share.0 .0)).collect();
            Box::new(IpAbr::new(
                share.0 .0,
                changes,
                *gain,
                min_rwnd.map_or(0, |m| m.0 .0),
                n_flows,
            ))
        }
        HookSpec::Delay { delay } => {
            if delay.0 == crate::time::Dur::ZERO {
                return Err(ConfigError::new(format!("{path}.delay"), "must be greater than zero"));
            }
            Box::new(Delay::new(delay.0))
        }
        HookSpec::DropEvery { n } => {
            if *n == 0 {
                return Err(ConfigError::new(format!("{path}.n"), "must be at least 1"));
            }
            Box::new(DropEvery::new(*n))
        }
        HookSpec::Tbf { rate, bucket, qlen } => {
            if rate.0 .0 == 0 {
                return Err(ConfigError::new(format!("{path}.rate"), "must be greater than zero"));
            }
            if bucket.0 .0 == 0 {
                return Err(ConfigError::new(format!("{path}.bucket"), "must be at least 1 byte"));
            }
            Box::new(Tbf::new(rate.0 .0, bucket.0 .0 * 8, *qlen))
        }
    })
}
