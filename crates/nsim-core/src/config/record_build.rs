//! `record.packet_delays`, `record.video_packets` and `record.pcap`: names -> flow and link ids, with errors that
//! name the entry.

use std::collections::HashSet;

use super::Select;
use crate::error::{CResult, ConfigError};
use crate::ids::LinkId;
use crate::net::Net;
use crate::sim::FlowInfo;

/// Which flows record per-packet delays (`None`: recording off).
pub fn packet_delay_flows(sel: &Select, flows: &[FlowInfo]) -> CResult<Option<Vec<bool>>> {
    match sel {
        Select::All(false) => Ok(None),
        Select::All(true) => Ok(Some(vec![true; flows.len()])),
        Select::Named(names) => {
            let mut on = vec![false; flows.len()];
            for (i, n) in names.iter().enumerate() {
                let f = flows.iter().position(|f| &f.name == n).ok_or_else(|| {
                    let known: Vec<&str> = flows.iter().take(5).map(|f| f.name.as_str()).collect();
                    ConfigError::new(
                        format!("record.packet_delays[{i}]"),
                        format!(
                            "unknown flow '{n}' (flows: {}{})",
                            known.join(", "),
                            if flows.len() > 5 { ", ..." } else { "" }
                        ),
                    )
                })?;
                on[f] = true;
            }
            Ok(Some(on))
        }
    }
}

/// Which flows the video log records (`None`: off): `true` picks every video flow; a named
/// flow must be a video flow (the log's tags come from the video source).
pub fn video_packet_flows(sel: &Select, flows: &[FlowInfo]) -> CResult<Option<Vec<bool>>> {
    let is_video: Vec<bool> = flows.iter().map(|f| f.app == "video").collect();
    match sel {
        Select::All(false) => Ok(None),
        Select::All(true) => Ok(Some(is_video)),
        Select::Named(names) => {
            let mut on = vec![false; flows.len()];
            for (i, n) in names.iter().enumerate() {
                let path = format!("record.video_packets[{i}]");
                let f = flows
                    .iter()
                    .position(|f| &f.name == n)
                    .ok_or_else(|| ConfigError::new(&path, format!("unknown flow '{n}'")))?;
                if !is_video[f] {
                    return Err(ConfigError::new(
                        path,
                        format!("flow '{n}' is not a video flow (its app is '{}')", flows[f].app),
                    ));
                }
                on[f] = true;
            }
            Ok(Some(on))
        }
    }
}

/// The link directions to capture, each with its file name (`<from>-<to>.pcap`).
pub fn pcap_links(sel: &Select, net: &Net) -> CResult<Vec<(LinkId, String)>> {
    let node = |i: crate::ids::NodeId| net.nodes[i.idx()].name.as_str();
    let chosen: Vec<usize> = match sel {
        Select::All(false) => return Ok(Vec::new()),
        Select::All(true) => (0..net.links.len()).collect(),
        Select::Named(specs) => {
            let mut out = Vec::new();
            for (i, spec) in specs.iter().enumerate() {
                let found = match_links(spec, net);
                if found.is_empty() {
                    return Err(ConfigError::new(
                        format!("record.pcap[{i}]"),
                        format!("no link '{spec}' (write \"a->b\" for one direction or \"a-b\" for both, with node names)"),
                    ));
                }
                out.extend(found);
            }
            out
        }
    };
    let mut seen = HashSet::new();
    let mut names = HashSet::new();
    Ok(chosen
        .into_iter()
        .filter(|l| seen.insert(*l))
        .map(|l| {
            let link = &net.links[l];
            let mut name = format!("{}-{}.pcap", node(link.from), node(link.to));
            if !names.insert(name.clone()) {
                name = format!("{}-{}-{l}.pcap", node(link.from), node(link.to));
            }
            (LinkId(l as u32), name)
        })
        .collect())
}

/// Link ids matching `"a->b"` (that direction) or `"a-b"` (both directions; any `-` that
/// splits the text into two node names).
pub(crate) fn match_links(spec: &str, net: &Net) -> Vec<usize> {
    let node = |i: crate::ids::NodeId| net.nodes[i.idx()].name.as_str();
    let dir = |a: &str, b: &str| -> Vec<usize> {
        net.links
            .iter()
            .enumerate()
            .filter(|(_, l)| node(l.from) == a && node(l.to) == b)
            .map(|(i, _)| i)
            .collect()
    };
    if let Some((a, b)) = spec.split_once("->") {
        return dir(a.trim(), b.trim());
    }
    for (at, _) in spec.match_indices('-') {
        let (a, b) = (&spec[..at], &spec[at + 1..]);
        let mut both = dir(a, b);
        both.extend(dir(b, a));
        if !both.is_empty() {
            both.sort_unstable();
            return both;
        }
    }
    Vec::new()
}
