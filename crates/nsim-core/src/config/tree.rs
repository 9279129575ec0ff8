//! Tree topology helper: a root switch, then levels of switches, then hosts.
//!
//! The enterprise and campus networks of Noureddine 2002 (ch. 4-5) and of
//! data-centre studies are trees: hosts on edge switches, edge switches on aggregation
//! switches, those on a core. `levels` lists the levels below the root, top down; each gives
//! its fan-out (children per node of the level above), a name prefix and the link to the
//! parent. Node j of a level is named `{prefix}{j}` (numbered across the whole level) and
//! hangs from node j / fanout of the level above. The last level holds the hosts; the root and
//! the other levels are routers.

use schemars::JsonSchema;
use serde::Deserialize;

use super::link_spec::LinkSpec;
use super::topology::{no_between, Expansion};
use crate::error::{CResult, ConfigError};
use crate::net::NodeKind;
use crate::units::TimeSpec;

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TreeSpec {
    /// Name of the root switch. Default "core".
    pub root: Option<String>,
    /// The levels below the root, top down; the last one holds the hosts.
    pub levels: Vec<TreeLevel>,
}

/// One level of a tree.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TreeLevel {
    /// Children per node of the level above (at least 1).
    pub fanout: u32,
    /// Name prefix: the level's nodes are `{prefix}0`, `{prefix}1`, ... across the level.
    pub prefix: String,
    /// The link from each node of this level up to its parent (no `between`); `queue` is the
    /// queue of the node -> parent direction, `reverse_queue` that of parent -> node.
    pub link: LinkSpec,
    /// Optional per-node delays of the link up: node j's link gets `delays[j % len]` instead
    /// of `link.delay` (Noureddine 2002 Fig. 4.1: two users of each RTT under every access router).
    pub delays: Option<Vec<TimeSpec>>,
}

/// Nodes in a tree above which a scenario is surely a mistake (and would exhaust memory).
const MAX_NODES: u64 = 10_000_000;

impl TreeSpec {
    pub fn expand(&self, path: &str) -> CResult<Expansion> {
        if self.levels.is_empty() {
            return Err(ConfigError::new(
                format!("{path}.levels"),
                "needs at least one level (the hosts)",
            ));
        }
        let root = self.root.clone().unwrap_or_else(|| "core".to_string());
        let mut x = Expansion::default();
        x.nodes.push((root.clone(), NodeKind::Router));
        let mut above = vec![root];
        let mut total = 1u64;
        for (k, level) in self.levels.iter().enumerate() {
            let lp = format!("{path}.levels[{k}]");
            if level.fanout == 0 {
                return Err(ConfigError::new(format!("{lp}.fanout"), "must be at least 1"));
            }
            no_between(&level.link, &format!("{lp}.link"))?;
            if level.delays.as_ref().is_some_and(|d| d.is_empty()) {
                return Err(ConfigError::new(
                    format!("{lp}.delays"),
                    "needs at least one delay (or leave it out)",
                ));
            }
            let count = above.len() as u64 * level.fanout as u64;
            total += count;
            if total > MAX_NODES {
                return Err(ConfigError::new(
                    format!("{lp}.fanout"),
                    format!("the tree would have more than {MAX_NODES} nodes"),
                ));
            }
            let kind = if k + 1 == self.levels.len() { NodeKind::Host } else { NodeKind::Router };
            let names: Vec<String> = (0..count).map(|j| format!("{}{j}", level.prefix)).collect();
            for (j, name) in names.iter().enumerate() {
                x.nodes.push((name.clone(), kind));
                let mut l = level.link.clone();
                l.between = Some([name.clone(), above[j / level.fanout as usize].clone()]);
                if let Some(d) = &level.delays {
                    l.delay = d[j % d.len()];
                }
                x.links.push((format!("{lp}.link"), l));
            }
            above = names;
        }
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> TreeSpec {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn three_levels_name_and_attach_nodes_by_fanout() {
        let t = spec(
            r#"levels = [
                { fanout = 2, prefix = "agg", link = { rate = "10Gb", delay = "1ms" } },
                { fanout = 3, prefix = "edge", link = { rate = "1Gb", delay = "1ms" } },
                { fanout = 4, prefix = "h", link = { rate = "100Mb", delay = "1ms" } },
            ]"#,
        );
        let x = t.expand("tree").unwrap();
        // 1 + 2 + 6 + 24 nodes, one link up from each node but the root.
        assert_eq!(x.nodes.len(), 33);
        assert_eq!(x.links.len(), 32);
        assert_eq!(x.nodes[0], ("core".to_string(), NodeKind::Router));
        assert_eq!(x.nodes[3], ("edge0".to_string(), NodeKind::Router));
        assert_eq!(x.nodes[32], ("h23".to_string(), NodeKind::Host));
        let between = |name: &str| {
            x.links
                .iter()
                .find(|(_, l)| l.between.as_ref().unwrap()[0] == name)
                .unwrap()
                .1
                .between
                .clone()
                .unwrap()
        };
        assert_eq!(between("agg1")[1], "core");
        assert_eq!(between("edge2")[1], "agg0");
        assert_eq!(between("edge3")[1], "agg1");
        assert_eq!(between("h11")[1], "edge2");
        assert_eq!(between("h12")[1], "edge3");
        assert_eq!(x.links[31].0, "tree.levels[2].link");
    }

    #[test]
    fn per_node_delays_cycle_over_the_level() {
        let t = spec(
            r#"levels = [
                { fanout = 2, prefix = "e", link = { rate = "1Gb", delay = "1ms" } },
                { fanout = 3, prefix = "h", link = { rate = "1Mb", delay = "1ms" }, delays = ["2ms", "7ms"] },
            ]"#,
        );
        let x = t.expand("tree").unwrap();
        let delay = |name: &str| {
            x.links.iter().find(|(_, l)| l.between.as_ref().unwrap()[0] == name).unwrap().1.delay
        };
        let ms = |v: &str| {
            spec(&format!(r#"levels = [{{ fanout = 1, prefix = "h", link = {{ rate = "1Gb", delay = "{v}" }} }}]"#)).levels[0].link.delay
        };
        assert_eq!(delay("e1"), ms("1ms"));
        for (h, want) in [("h0", "2ms"), ("h1", "7ms"), ("h4", "2ms"), ("h5", "7ms")] {
            assert_eq!(delay(h), ms(want), "{h}");
        }
        let empty = spec(
            r#"levels = [{ fanout = 1, prefix = "h", link = { rate = "1Gb", delay = "1ms" }, delays = [] }]"#,
        );
        assert_eq!(empty.expand("tree").unwrap_err().path, "tree.levels[0].delays");
    }

    #[test]
    fn bad_trees_name_the_field() {
        assert_eq!(spec("levels = []").expand("tree").unwrap_err().path, "tree.levels");
        let zero = spec(
            r#"levels = [{ fanout = 0, prefix = "h", link = { rate = "1Gb", delay = "1ms" } }]"#,
        );
        assert_eq!(zero.expand("tree").unwrap_err().path, "tree.levels[0].fanout");
        let between = spec(
            r#"levels = [{ fanout = 1, prefix = "h", link = { rate = "1Gb", delay = "1ms", between = ["a", "b"] } }]"#,
        );
        assert_eq!(between.expand("tree").unwrap_err().path, "tree.levels[0].link.between");
        let huge = spec(
            r#"levels = [{ fanout = 100000, prefix = "a", link = { rate = "1Gb", delay = "1ms" } }, { fanout = 1000, prefix = "h", link = { rate = "1Gb", delay = "1ms" } }]"#,
        );
        assert!(huge.expand("tree").unwrap_err().reason.contains("more than"));
    }
}
