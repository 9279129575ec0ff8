//! Leaf-spine topology helper: the two-tier Clos fabric of data centres (Al-Fares, Loukissas &
//! Vahdat, "A scalable, commodity data center network architecture", SIGCOMM 2008; Alizadeh et
//! al., "CONGA", SIGCOMM 2014, use this shape): every leaf switch is linked to every spine
//! switch, and hosts hang from the leaves. Between two leaves there are `spines` equal-cost
//! two-hop paths, which `routing.ecmp = true` spreads flows over.
//!
//! Names: spines `{spine_prefix}0..`, leaves `{leaf_prefix}0..`, hosts `{host_prefix}0..`
//! numbered across the fabric, host j on leaf j / hosts_per_leaf.

use schemars::JsonSchema;
use serde::Deserialize;

use super::link_spec::LinkSpec;
use super::topology::{no_between, Expansion};
use crate::error::{CResult, ConfigError};
use crate::net::NodeKind;

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeafSpineSpec {
    /// Spine switches (at least 1).
    pub spines: u32,
    /// Leaf switches (at least 1).
    pub leaves: u32,
    /// Hosts under each leaf (at least 1).
    pub hosts_per_leaf: u32,
    /// Every leaf-spine link (no `between`); `queue` is the leaf -> spine direction's queue,
    /// `reverse_queue` the spine -> leaf one.
    pub fabric_link: LinkSpec,
    /// Every host-leaf link (no `between`); `queue` is the host -> leaf direction's queue.
    pub host_link: LinkSpec,
    /// Name prefixes. Defaults "spine", "leaf", "h".
    pub spine_prefix: Option<String>,
    pub leaf_prefix: Option<String>,
    pub host_prefix: Option<String>,
}

/// A fabric above this many links is surely a mistake (and would exhaust memory).
const MAX_LINKS: u64 = 10_000_000;

impl LeafSpineSpec {
    pub fn expand(&self, path: &str) -> CResult<Expansion> {
        for (field, v) in [
            ("spines", self.spines),
            ("leaves", self.leaves),
            ("hosts_per_leaf", self.hosts_per_leaf),
        ] {
            if v == 0 {
                return Err(ConfigError::new(format!("{path}.{field}"), "must be at least 1"));
            }
        }
        let links = self.leaves as u64 * (self.spines as u64 + self.hosts_per_leaf as u64);
        if links > MAX_LINKS {
            return Err(ConfigError::new(
                path.to_string(),
                format!("the fabric would have more than {MAX_LINKS} links"),
            ));
        }
        no_between(&self.fabric_link, &format!("{path}.fabric_link"))?;
        no_between(&self.host_link, &format!("{path}.host_link"))?;
        let prefix = |p: &Option<String>, d: &str| p.clone().unwrap_or_else(|| d.to_string());
        let (sp, lp, hp) = (
            prefix(&self.spine_prefix, "spine"),
            prefix(&self.leaf_prefix, "leaf"),
            prefix(&self.host_prefix, "h"),
        );
        let mut x = Expansion::default();
        x.nodes.extend((0..self.spines).map(|s| (format!("{sp}{s}"), NodeKind::Router)));
        x.nodes.extend((0..self.leaves).map(|l| (format!("{lp}{l}"), NodeKind::Router)));
        for l in 0..self.leaves {
            for s in 0..self.spines {
                let mut link = self.fabric_link.clone();
                link.between = Some([format!("{lp}{l}"), format!("{sp}{s}")]);
                x.links.push((format!("{path}.fabric_link"), link));
            }
        }
        for h in 0..self.leaves * self.hosts_per_leaf {
            x.nodes.push((format!("{hp}{h}"), NodeKind::Host));
            let mut link = self.host_link.clone();
            link.between = Some([format!("{hp}{h}"), format!("{lp}{}", h / self.hosts_per_leaf)]);
            x.links.push((format!("{path}.host_link"), link));
        }
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> LeafSpineSpec {
        toml::from_str(text).unwrap()
    }

    const LINKS: &str = r#"fabric_link = { rate = "10Gb", delay = "1us" }
        host_link = { rate = "1Gb", delay = "1us" }"#;

    #[test]
    fn every_leaf_meets_every_spine_and_hosts_fill_leaves_in_order() {
        let x = spec(&format!("spines = 4\nleaves = 3\nhosts_per_leaf = 2\n{LINKS}"))
            .expand("leaf_spine")
            .unwrap();
        assert_eq!(x.nodes.len(), 4 + 3 + 6);
        assert_eq!(x.links.len(), 3 * 4 + 6);
        let ends = |l: &LinkSpec| l.between.clone().unwrap();
        for l in 0..3 {
            let spines: Vec<String> = x
                .links
                .iter()
                .map(|(_, k)| ends(k))
                .filter(|b| b[0] == format!("leaf{l}"))
                .map(|b| b[1].clone())
                .collect();
            assert_eq!(spines, ["spine0", "spine1", "spine2", "spine3"]);
        }
        let leaf_of =
            |h: &str| x.links.iter().map(|(_, k)| ends(k)).find(|b| b[0] == h).unwrap()[1].clone();
        assert_eq!(
            (leaf_of("h0"), leaf_of("h1"), leaf_of("h2"), leaf_of("h5")),
            ("leaf0".into(), "leaf0".into(), "leaf1".into(), "leaf2".into())
        );
        assert_eq!(x.nodes.iter().filter(|(_, k)| *k == NodeKind::Host).count(), 6);
    }

    #[test]
    fn bad_fabrics_name_the_field() {
        let e = spec(&format!("spines = 0\nleaves = 3\nhosts_per_leaf = 2\n{LINKS}"))
            .expand("leaf_spine")
            .unwrap_err();
        assert_eq!(e.path, "leaf_spine.spines");
        let e = spec(&format!("spines = 2\nleaves = 3\nhosts_per_leaf = 0\n{LINKS}"))
            .expand("leaf_spine")
            .unwrap_err();
        assert_eq!(e.path, "leaf_spine.hosts_per_leaf");
        let between = r#"fabric_link = { between = ["a", "b"], rate = "10Gb", delay = "1us" }
            host_link = { rate = "1Gb", delay = "1us" }"#;
        let e = spec(&format!("spines = 2\nleaves = 3\nhosts_per_leaf = 1\n{between}"))
            .expand("leaf_spine")
            .unwrap_err();
        assert_eq!(e.path, "leaf_spine.fabric_link.between");
    }
}
