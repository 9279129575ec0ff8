//! Topology helpers: common shapes in a few lines.
//!
//! A dumbbell with N pairs: hosts `s0..s{N-1}` on the left router `r0`, hosts `d0..d{N-1}` on
//! the right router `r1`, and the bottleneck `r0`-`r1`. Access delays may be one value, an
//! evenly spaced range (inclusive at both ends, as Holl 2003's 4..100 ms over 64 pairs), or an
//! explicit list. A chain: nodes `n0..n{K-1}` with a link between neighbours.

use schemars::JsonSchema;
use serde::Deserialize;

use super::link_spec::LinkSpec;
use crate::error::{CResult, ConfigError};
use crate::net::NodeKind;
use crate::queue::spec::QueueSpec;
use crate::time::Dur;
use crate::units::{RateSpec, TimeSpec};

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DumbbellSpec {
    /// Number of sender/receiver pairs.
    pub pairs: u32,
    /// Name prefix of the left hosts. Default "s".
    pub left: Option<String>,
    /// Name prefix of the right hosts. Default "d".
    pub right: Option<String>,
    /// Names of the left and right routers. Default ["r0", "r1"].
    pub routers: Option<[String; 2]>,
    /// The link between the routers (no `between`).
    pub bottleneck: LinkSpec,
    /// Access links of the left hosts (and of the right ones unless `right_access` is given).
    pub access: AccessSpec,
    /// Access links of the right hosts, if different.
    pub right_access: Option<AccessSpec>,
}

/// Access links of a dumbbell side. Give exactly one of `delay`, `delay_range`, `delays`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AccessSpec {
    pub rate: RateSpec,
    /// The same delay for every pair.
    pub delay: Option<TimeSpec>,
    /// [first, last]: pair i gets first + (last-first)·i/(N-1).
    pub delay_range: Option<[TimeSpec; 2]>,
    /// One delay per pair.
    pub delays: Option<Vec<TimeSpec>>,
    pub queue: Option<QueueSpec>,
    pub reverse_queue: Option<QueueSpec>,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChainSpec {
    /// Number of nodes (at least 2). The two ends are hosts, the rest routers.
    pub nodes: u32,
    /// Name prefix. Default "n".
    pub prefix: Option<String>,
    /// Every link of the chain (no `between`).
    pub link: LinkSpec,
}

/// Nodes and links a helper adds; each link keeps the config path it came from.
#[derive(Debug, Default)]
pub struct Expansion {
    pub nodes: Vec<(String, NodeKind)>,
    pub links: Vec<(String, LinkSpec)>,
}

pub(super) fn no_between(l: &LinkSpec, path: &str) -> CResult<()> {
    if l.between.is_some() {
        return Err(ConfigError::new(
            format!("{path}.between"),
            "not allowed here: the helper names the endpoints",
        ));
    }
    Ok(())
}

impl AccessSpec {
    fn delays(&self, n: u32, path: &str) -> CResult<Vec<Dur>> {
        let given = [self.delay.is_some(), self.delay_range.is_some(), self.delays.is_some()];
        if given.iter().filter(|&&g| g).count() != 1 {
            return Err(ConfigError::new(
                path,
                "give exactly one of `delay`, `delay_range`, `delays`",
            ));
        }
        if let Some(d) = self.delay {
            return Ok(vec![d.0; n as usize]);
        }
        if let Some([a, b]) = self.delay_range {
            if b.0 < a.0 {
                return Err(ConfigError::new(
                    format!("{path}.delay_range"),
                    "the last delay is smaller than the first",
                ));
            }
            return Ok((0..n)
                .map(|i| {
                    if n == 1 {
                        a.0
                    } else {
                        // Exact integer interpolation in picoseconds, rounded to nearest.
                        let span = (b.0 .0 - a.0 .0) as u128;
                        Dur(a.0 .0
                            + ((span * i as u128 * 2 + (n as u128 - 1)) / (2 * (n as u128 - 1)))
                                as u64)
                    }
                })
                .collect());
        }
        let list = self.delays.as_ref().expect("checked above");
        if list.len() != n as usize {
            return Err(ConfigError::new(
                format!("{path}.delays"),
                format!("has {} delays for {n} pairs", list.len()),
            ));
        }
        Ok(list.iter().map(|d| d.0).collect())
    }

    fn link(&self, a: &str, b: &str, delay: Dur) -> LinkSpec {
        LinkSpec {
            between: Some([a.to_string(), b.to_string()]),
            rate: self.rate,
            delay: TimeSpec(delay),
            queue: self.queue.clone(),
            reverse_queue: self.reverse_queue.clone(),
            error: None,
            reverse_error: None,
            simplex: false,
            error_at: Default::default(),
            atm: None,
            ethernet: None,
            reverse_ethernet: None,
        }
    }
}

impl DumbbellSpec {
    pub fn expand(&self, path: &str) -> CResult<Expansion> {
        if self.pairs == 0 {
            return Err(ConfigError::new(format!("{path}.pairs"), "must be at least 1"));
        }
        no_between(&self.bottleneck, &format!("{path}.bottleneck"))?;
        let left = self.left.as_deref().unwrap_or("s");
        let right = self.right.as_deref().unwrap_or("d");
        let [r0, r1] = self.routers.clone().unwrap_or_else(|| ["r0".into(), "r1".into()]);
        let ld = self.access.delays(self.pairs, &format!("{path}.access"))?;
        let ra = self.right_access.as_ref().unwrap_or(&self.access);
        let rpath = if self.right_access.is_some() { "right_access" } else { "access" };
        let rd = ra.delays(self.pairs, &format!("{path}.{rpath}"))?;
        let mut x = Expansion::default();
        x.nodes.push((r0.clone(), NodeKind::Router));
        x.nodes.push((r1.clone(), NodeKind::Router));
        let mut bn = self.bottleneck.clone();
        bn.between = Some([r0.clone(), r1.clone()]);
        x.links.push((format!("{path}.bottleneck"), bn));
        for i in 0..self.pairs as usize {
            let (s, d) = (format!("{left}{i}"), format!("{right}{i}"));
            x.nodes.push((s.clone(), NodeKind::Host));
            x.nodes.push((d.clone(), NodeKind::Host));
            x.links.push((format!("{path}.access"), self.access.link(&s, &r0, ld[i])));
            x.links.push((format!("{path}.{rpath}"), ra.link(&r1, &d, rd[i])));
        }
        Ok(x)
    }
}

impl ChainSpec {
    pub fn expand(&self, path: &str) -> CResult<Expansion> {
        if self.nodes < 2 {
            return Err(ConfigError::new(
                format!("{path}.nodes"),
                "a chain needs at least 2 nodes",
            ));
        }
        no_between(&self.link, &format!("{path}.link"))?;
        let p = self.prefix.as_deref().unwrap_or("n");
        let mut x = Expansion::default();
        for i in 0..self.nodes {
            let end = i == 0 || i == self.nodes - 1;
            x.nodes.push((format!("{p}{i}"), if end { NodeKind::Host } else { NodeKind::Router }));
        }
        for i in 1..self.nodes {
            let mut l = self.link.clone();
            l.between = Some([format!("{p}{}", i - 1), format!("{p}{i}")]);
            x.links.push((format!("{path}.link"), l));
        }
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delay_range_is_evenly_spaced_inclusive_like_seed_000() {
        let a: AccessSpec =
            toml::from_str("rate = \"10Mb\"\ndelay_range = [\"4ms\", \"100ms\"]").unwrap();
        let d = a.delays(64, "x").unwrap();
        assert_eq!(d[0], Dur::from_millis(4));
        assert_eq!(d[63], Dur::from_millis(100));
        // 4 + 96*21/63 = 36 ms exactly.
        assert_eq!(d[21], Dur::from_millis(36));
        let a3: AccessSpec =
            toml::from_str("rate = \"10Mb\"\ndelay_range = [\"4ms\", \"100ms\"]").unwrap();
        let d3 = a3.delays(3, "x").unwrap();
        assert_eq!(d3, vec![Dur::from_millis(4), Dur::from_millis(52), Dur::from_millis(100)]);
    }

    #[test]
    fn access_needs_exactly_one_delay_form() {
        let a: AccessSpec =
            toml::from_str("rate = \"10Mb\"\ndelay = \"1ms\"\ndelays = [\"1ms\"]").unwrap();
        assert!(a.delays(1, "dumbbell.access").unwrap_err().reason.contains("exactly one"));
    }
}
