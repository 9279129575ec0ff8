//! Fat-tree topology helper: the k-ary fat tree of Al-Fares, Loukissas & Vahdat, "A scalable,
//! commodity data center network architecture", SIGCOMM 2008, §3.2: k pods of k/2 edge and
//! k/2 aggregation switches, every edge switch linked to every aggregation switch of its pod
//! and to k/2 hosts, and (k/2)² core switches, core j linked to aggregation switch j / (k/2)
//! of every pod. Between hosts of different pods there are (k/2)² equal-cost paths, which
//! `routing.ecmp = true` spreads flows over.
//!
//! Names: `core0..`, `agg0..` and `edge0..` numbered across pods (pod p holds agg and edge
//! p·k/2 .. p·k/2 + k/2 - 1), hosts `h0..` (host j on edge j / (k/2)).

use schemars::JsonSchema;
use serde::Deserialize;

use super::link_spec::LinkSpec;
use super::topology::{no_between, Expansion};
use crate::error::{CResult, ConfigError};
use crate::net::NodeKind;

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FatTreeSpec {
    /// Ports per switch: an even number from 2 to 64 (k³/4 hosts).
    pub k: u32,
    /// Every switch-switch link (no `between`); `queue` is the direction up the tree (edge ->
    /// agg, agg -> core), `reverse_queue` the one down.
    pub fabric_link: LinkSpec,
    /// Every host-edge link (no `between`); `queue` is host -> edge.
    pub host_link: LinkSpec,
    /// Name prefix of the hosts. Default "h".
    pub host_prefix: Option<String>,
}

impl FatTreeSpec {
    pub fn expand(&self, path: &str) -> CResult<Expansion> {
        if self.k < 2 || self.k > 64 || !self.k.is_multiple_of(2) {
            return Err(ConfigError::new(
                format!("{path}.k"),
                format!("{} is not an even number from 2 to 64", self.k),
            ));
        }
        no_between(&self.fabric_link, &format!("{path}.fabric_link"))?;
        no_between(&self.host_link, &format!("{path}.host_link"))?;
        let (k, half) = (self.k, self.k / 2);
        let hp = self.host_prefix.clone().unwrap_or_else(|| "h".to_string());
        let mut x = Expansion::default();
        x.nodes.extend((0..half * half).map(|c| (format!("core{c}"), NodeKind::Router)));
        x.nodes.extend((0..k * half).map(|a| (format!("agg{a}"), NodeKind::Router)));
        x.nodes.extend((0..k * half).map(|e| (format!("edge{e}"), NodeKind::Router)));
        let mut link = |field: &str, spec: &LinkSpec, from: String, to: String| {
            let mut l = spec.clone();
            l.between = Some([from, to]);
            x.links.push((format!("{path}.{field}"), l));
        };
        for pod in 0..k {
            for i in 0..half {
                let agg = pod * half + i;
                for j in 0..half {
                    link(
                        "fabric_link",
                        &self.fabric_link,
                        format!("edge{}", pod * half + j),
                        format!("agg{agg}"),
                    );
                }
                for c in i * half..(i + 1) * half {
                    link("fabric_link", &self.fabric_link, format!("agg{agg}"), format!("core{c}"));
                }
            }
        }
        for h in 0..k * half * half {
            link("host_link", &self.host_link, format!("{hp}{h}"), format!("edge{}", h / half));
        }
        x.nodes.extend((0..k * half * half).map(|h| (format!("{hp}{h}"), NodeKind::Host)));
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(k: u32) -> FatTreeSpec {
        toml::from_str(&format!(
            "k = {k}\nfabric_link = {{ rate = \"1Gb\", delay = \"1us\" }}\nhost_link = {{ rate = \"1Gb\", delay = \"1us\" }}"
        ))
        .unwrap()
    }

    #[test]
    fn a_4_ary_fat_tree_has_al_fares_counts_and_wiring() {
        // k = 4: 4 core, 8 aggregation, 8 edge switches, 16 hosts; 16 + 16 + 16 links.
        let x = spec(4).expand("fat_tree").unwrap();
        assert_eq!(x.nodes.len(), 4 + 8 + 8 + 16);
        assert_eq!(x.nodes.iter().filter(|(_, k)| *k == NodeKind::Host).count(), 16);
        assert_eq!(x.links.len(), 48);
        let ends: Vec<[String; 2]> =
            x.links.iter().map(|(_, l)| l.between.clone().unwrap()).collect();
        let linked = |a: &str, b: &str| ends.iter().any(|e| e[0] == a && e[1] == b);
        // Pod 1 holds agg2, agg3, edge2, edge3: full bipartite inside the pod only.
        for (e, a) in [("edge2", "agg2"), ("edge2", "agg3"), ("edge3", "agg2"), ("edge3", "agg3")] {
            assert!(linked(e, a), "{e}-{a}");
        }
        assert!(!linked("edge2", "agg0"));
        // The first aggregation switch of every pod reaches core0 and core1; the second, 2 and 3.
        for a in ["agg0", "agg2", "agg4", "agg6"] {
            assert!(linked(a, "core0") && linked(a, "core1") && !linked(a, "core2"), "{a}");
        }
        assert!(linked("agg7", "core3"));
        assert!(linked("h5", "edge2") && linked("h15", "edge7"));
        assert_eq!(x.links.iter().filter(|(f, _)| f == "fat_tree.host_link").count(), 16);
    }

    #[test]
    fn sizes_grow_as_k_cubed_over_4() {
        for k in [2, 6, 8] {
            let x = spec(k).expand("fat_tree").unwrap();
            assert_eq!(
                x.nodes.iter().filter(|(_, n)| *n == NodeKind::Host).count() as u32,
                k * k * k / 4
            );
            assert_eq!(x.nodes.len() as u32, k * k * k / 4 + 5 * k * k / 4);
        }
    }

    #[test]
    fn an_odd_k_names_the_field() {
        assert_eq!(spec(5).expand("fat_tree").unwrap_err().path, "fat_tree.k");
        assert_eq!(spec(0).expand("fat_tree").unwrap_err().path, "fat_tree.k");
    }
}
