//! Classifiers: which class of a scheduler a packet joins.
//!
//! A class lists what it takes (`match = { flows = ["cbr0"], protocol = "udp", tags = [3],
//! prios = [0, 1], ptypes = ["cbr"] }`); a packet matching any listed value joins it. When
//! several classes match, the first listed wins; a packet matching none joins the class
//! without `match` (at most one), or the last class. ns-2 equivalents: CBQ's `install` of a
//! flow id on a classifier, DiffServ code points (`prio` here), and `ptype` checks.
//!
//! Lookups are table-driven (flow id, prio and packet type index arrays; a short tag list),
//! so classifying costs O(1) plus the number of distinct tags, with no hashing. Packet types
//! without an ns-2 name here (TFRC's and STP's data and control packets) match no `ptypes` or
//! `protocol` entry: they join a class by flow, tag or prio, or the default class.

use schemars::JsonSchema;
use serde::Deserialize;

use super::BuildCtx;
use crate::ids::FlowId;
use crate::packet::{PType, Packet};
use crate::pattern::NamePattern;

/// What a class takes. Values within and across fields are alternatives (a union).
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchSpec {
    /// Flow names (after `repeat` expansion, e.g. "cbr3"), or patterns with `*` (any run of
    /// characters) and `?` (one character), e.g. "telnet*": a pattern takes every flow whose
    /// name it matches, and must match at least one. A flow's ACKs travel under its id, so
    /// they join its class too.
    #[serde(default)]
    pub flows: Vec<String>,
    /// "tcp" (TCP data and ACKs) or "udp" (ns-2's other types: udp, cbr, exp, pareto).
    pub protocol: Option<Protocol>,
    /// ns-2 packet types: "udp", "cbr", "exp", "pareto", "tcp", "ack".
    #[serde(default)]
    pub ptypes: Vec<PTypeName>,
    /// Application tags (flows' `tag`).
    #[serde(default)]
    pub tags: Vec<u16>,
    /// Priority / DSCP / drop-precedence values (flows' `prio`).
    #[serde(default)]
    pub prios: Vec<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    Tcp,
    Udp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PTypeName {
    Udp,
    Cbr,
    Exp,
    Pareto,
    Tcp,
    Ack,
}

const PTYPES: [PType; 6] =
    [PType::Udp, PType::Cbr, PType::Exp, PType::Pareto, PType::Tcp, PType::Ack];

fn ptype_idx(p: PType) -> usize {
    p as usize
}

impl PTypeName {
    fn ptype(self) -> PType {
        PTYPES[self as usize]
    }
}

const NONE: u16 = u16::MAX;

/// A compiled classifier over up to 65534 classes.
#[derive(Clone, Debug)]
pub struct Classifier {
    by_flow: Vec<u16>,
    by_prio: [u16; 256],
    by_ptype: [u16; 6],
    by_tag: Vec<(u16, u16)>,
    default: u16,
}

/// The flows `name` stands for: the one flow of that name, or every flow a `*`/`?` pattern
/// matches (resolved once, when the queue is built: classifying stays a table lookup).
fn flows_named(name: &str, ctx: &BuildCtx) -> Result<Vec<FlowId>, String> {
    match NamePattern::new(name) {
        NamePattern::Exact(_) => {
            ctx.flows.get(name).map(|&f| vec![f]).ok_or_else(|| format!("unknown flow '{name}'"))
        }
        pattern => {
            let hits: Vec<FlowId> =
                ctx.flows.iter().filter(|(n, _)| pattern.matches(n)).map(|(_, &f)| f).collect();
            if hits.is_empty() {
                return Err(format!("pattern '{name}' matches no flow"));
            }
            Ok(hits)
        }
    }
}

fn first(slot: &mut u16, class: u16) {
    if *slot == NONE {
        *slot = class;
    }
}

impl Classifier {
    /// Compiles the classes' match specs (`None` = the default class). Errors name the
    /// field relative to the scheduler (`classes[1].match.flows`).
    pub fn new(specs: &[Option<&MatchSpec>], ctx: &BuildCtx) -> Result<Classifier, String> {
        let n_flows = ctx.flows.values().map(|f| f.idx() + 1).max().unwrap_or(0);
        let mut c = Classifier {
            by_flow: vec![NONE; n_flows],
            by_prio: [NONE; 256],
            by_ptype: [NONE; 6],
            by_tag: Vec::new(),
            default: specs.len().saturating_sub(1) as u16,
        };
        for (i, spec) in specs.iter().enumerate() {
            let k = i as u16;
            let Some(m) = spec else {
                c.default = k;
                continue;
            };
            for name in &m.flows {
                for f in
                    flows_named(name, ctx).map_err(|e| format!("classes[{i}].match.flows: {e}"))?
                {
                    first(&mut c.by_flow[f.idx()], k);
                }
            }
            for &p in &m.prios {
                first(&mut c.by_prio[p as usize], k);
            }
            for t in &m.ptypes {
                first(&mut c.by_ptype[ptype_idx(t.ptype())], k);
            }
            if let Some(proto) = m.protocol {
                for p in PTYPES {
                    if (p == PType::Tcp || p == PType::Ack) == (proto == Protocol::Tcp) {
                        first(&mut c.by_ptype[ptype_idx(p)], k);
                    }
                }
            }
            for &t in &m.tags {
                if !c.by_tag.iter().any(|&(tag, _)| tag == t) {
                    c.by_tag.push((t, k));
                }
            }
        }
        Ok(c)
    }

    /// The class of `p`: the first class any of whose criteria match, else the default.
    #[inline]
    pub fn classify(&self, p: &Packet) -> usize {
        let flow = self.by_flow.get(p.flow.idx()).copied().unwrap_or(NONE);
        let tag = self.by_tag.iter().find(|&&(t, _)| t == p.tag).map_or(NONE, |&(_, k)| k);
        let ptype = self.by_ptype.get(ptype_idx(p.ptype)).copied().unwrap_or(NONE);
        let best = flow.min(tag).min(self.by_prio[p.prio as usize]).min(ptype);
        if best == NONE {
            self.default as usize
        } else {
            best as usize
        }
    }
}

/// Checks that at most one class lacks `match` (the default class).
pub fn validate_defaults(specs: &[Option<&MatchSpec>]) -> Result<(), String> {
    let defaults: Vec<usize> =
        specs.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(i, _)| i).collect();
    if defaults.len() > 1 {
        return Err(format!(
            "classes[{}]: only one class may omit `match` (classes{defaults:?} do)",
            defaults[1]
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::queue::testbench::PKT;
    use crate::time::Dur;
    use crate::units::BitsPerSec;

    fn m(t: &str) -> MatchSpec {
        toml::from_str(t).unwrap()
    }

    #[test]
    fn first_matching_class_wins_and_unmatched_go_to_the_default() {
        let flows: HashMap<String, FlowId> =
            [("cbr0".to_string(), FlowId(0)), ("be0".to_string(), FlowId(1))].into();
        let ctx = BuildCtx { link_rate: BitsPerSec(1), link_delay: Dur::ZERO, flows: &flows };
        let (a, b, c) =
            (m("flows = [\"cbr0\"]"), m("protocol = \"tcp\"\ntags = [7]"), m("prios = [2]"));
        let cl = Classifier::new(&[Some(&a), Some(&b), None, Some(&c)], &ctx).unwrap();
        assert_eq!(cl.classify(&Packet { flow: FlowId(0), prio: 2, ..PKT }), 0);
        assert_eq!(cl.classify(&Packet { flow: FlowId(1), ptype: PType::Ack, ..PKT }), 1);
        assert_eq!(cl.classify(&Packet { flow: FlowId(1), tag: 7, ..PKT }), 1);
        assert_eq!(cl.classify(&Packet { flow: FlowId(1), prio: 2, ..PKT }), 3);
        assert_eq!(cl.classify(&Packet { flow: FlowId(1), ..PKT }), 2);
        let bad = m("flows = [\"nope\"]");
        assert!(Classifier::new(&[Some(&bad)], &ctx).unwrap_err().contains("unknown flow 'nope'"));
        assert!(validate_defaults(&[None, Some(&a), None]).is_err());
    }

    /// Noureddine 2002 §4.5 (Fig 4.14): a separate Telnet queue takes every Telnet session,
    /// named by one pattern; the pattern must match a flow, and an exact name still needs its
    /// flow.
    #[test]
    fn flow_patterns_take_every_flow_they_match() {
        let flows: HashMap<String, FlowId> =
            [("telnet0", 0), ("telnet12", 1), ("ftp0", 2), ("tel", 3)]
                .into_iter()
                .map(|(n, i)| (n.to_string(), FlowId(i)))
                .collect();
        let ctx = BuildCtx { link_rate: BitsPerSec(1), link_delay: Dur::ZERO, flows: &flows };
        let telnet = m("flows = [\"telnet*\"]");
        let cl = Classifier::new(&[Some(&telnet), None], &ctx).unwrap();
        let class_of = |f| cl.classify(&Packet { flow: FlowId(f), ..PKT });
        assert_eq!([class_of(0), class_of(1), class_of(2), class_of(3)], [0, 0, 1, 1]);
        let one_char = m("flows = [\"telnet?\"]");
        let cl = Classifier::new(&[Some(&one_char), None], &ctx).unwrap();
        assert_eq!(cl.classify(&Packet { flow: FlowId(0), ..PKT }), 0);
        assert_eq!(cl.classify(&Packet { flow: FlowId(1), ..PKT }), 1);
        let none = m("flows = [\"video*\"]");
        let err = Classifier::new(&[Some(&none), None], &ctx).unwrap_err();
        assert!(err.contains("classes[0].match.flows: pattern 'video*' matches no flow"), "{err}");
    }

    /// Holl 2003 Table 4.6: CBR in its own class by packet type, everything else
    /// (TCP, and in §4.2.3 STP) in the best-effort default class. STP's and TFRC's packet
    /// types are outside the `ptypes` table and must land in the default class (they used to
    /// index past the table and panic).
    #[test]
    fn transports_without_a_ptype_name_join_the_default_class() {
        let flows: HashMap<String, FlowId> = HashMap::new();
        let ctx = BuildCtx { link_rate: BitsPerSec(1), link_delay: Dur::ZERO, flows: &flows };
        let cbr = m("ptypes = [\"cbr\"]");
        let udp = m("protocol = \"udp\"");
        let cl = Classifier::new(&[Some(&cbr), None], &ctx).unwrap();
        let by_protocol = Classifier::new(&[None, Some(&udp)], &ctx).unwrap();
        assert_eq!(cl.classify(&Packet { ptype: PType::Cbr, ..PKT }), 0);
        for t in [PType::Stp, PType::StpPoll, PType::StpStat, PType::Tfrc, PType::TfrcCtl] {
            assert_eq!(cl.classify(&Packet { ptype: t, ..PKT }), 1, "{t:?}");
            assert_eq!(by_protocol.classify(&Packet { ptype: t, ..PKT }), 0, "{t:?}");
        }
    }
}
