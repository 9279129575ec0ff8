//! Per-packet video log: every packet of the chosen video flows with its (stream, sequence,
//! frame, layer) tag and its fate (delivered, late, dropped with the reason, or still in
//! flight at the end). Noureddine 2002 (ch. 5) rates video by a perceptual metric
//! (PDM -> BT.500) that needs decoded pictures; a simulator cannot compute it, so it exports
//! loss traces tagged this way, from which per-layer and per-sequence loss rates (the proxy,
//! notes seed-002b §5) or an offline quality estimate follow. Issue 11.
//!
//! Off unless `record.video_packets` chooses flows: then a UDP send, a delivery and a drop
//! each pay one branch. The source tags its packet from its generator (`Generator::video_tag`),
//! so `Packet` carries nothing extra: a fate finds its row through the flow's UDP sequence
//! number (rows of a flow are stored in sequence order).

use serde::Serialize;

use super::DropReason;
use crate::ids::FlowId;
use crate::time::{Dur, SimTime};

/// Where a video packet sits in its stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VideoTag {
    /// How many sequences the source had finished before this one (0, 1, ...): the
    /// sequence's position in the stream, not in the configured list.
    pub sequence: u32,
    /// Frame index within the sequence (0-based).
    pub frame: u32,
    /// 0 = base, 1 = middle, 2 = enhancement; 0 for an unlayered sequence.
    pub layer: u8,
}

/// Fate of a packet when the run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    InFlight,
    Delivered,
    Late,
    Dropped(DropReason),
}

/// The log, column-wise: one row per sent packet of a chosen flow, in sending order.
/// `fate` is `delivered`, `late` (delivered more than the flow's `deadline` after it was
/// sent), `dropped:<reason>` (the `drops_<reason>` names) or `in_flight`; `delay_s` is empty
/// unless the packet arrived.
#[derive(Default, Serialize, Debug, Clone)]
pub struct VideoPackets {
    pub flow: Vec<u32>,
    pub seq: Vec<u64>,
    pub sequence: Vec<u32>,
    pub frame: Vec<u32>,
    pub layer: Vec<u8>,
    pub size: Vec<u32>,
    pub sent_s: Vec<f64>,
    pub fate: Vec<String>,
    pub delay_s: Vec<Option<f64>>,
}

/// Records the flows whose `on` entry is true (indexed by flow id).
pub struct VideoPacketRecorder {
    on: Vec<bool>,
    deadline: Vec<Option<Dur>>,
    /// Per flow: the row of each sequence number, from the flow's first logged packet.
    rows: Vec<Vec<u32>>,
    /// Per flow: the sequence number of `rows[f][0]`.
    first_seq: Vec<u64>,
    tags: Vec<VideoTag>,
    flow: Vec<u32>,
    seq: Vec<u64>,
    size: Vec<u32>,
    sent: Vec<SimTime>,
    fate: Vec<Fate>,
    delay: Vec<Option<Dur>>,
}

impl VideoPacketRecorder {
    /// `on` and `deadline` are indexed by flow id.
    pub fn new(on: Vec<bool>, deadline: Vec<Option<Dur>>) -> Self {
        let n = on.len();
        VideoPacketRecorder {
            on,
            deadline,
            rows: vec![Vec::new(); n],
            first_seq: vec![0; n],
            tags: Vec::new(),
            flow: Vec::new(),
            seq: Vec::new(),
            size: Vec::new(),
            sent: Vec::new(),
            fate: Vec::new(),
            delay: Vec::new(),
        }
    }

    /// A chosen flow sent packet `seq` (its UDP sequence numbers count up from its first).
    pub fn sent(&mut self, flow: FlowId, seq: u64, size: u32, tag: VideoTag, now: SimTime) {
        let f = flow.idx();
        if !self.on[f] {
            return;
        }
        if self.rows[f].is_empty() {
            self.first_seq[f] = seq;
        }
        debug_assert_eq!(
            seq - self.first_seq[f],
            self.rows[f].len() as u64,
            "UDP sequence numbers count up by one"
        );
        self.rows[f].push(self.flow.len() as u32);
        self.tags.push(tag);
        self.flow.push(flow.0);
        self.seq.push(seq);
        self.size.push(size);
        self.sent.push(now);
        self.fate.push(Fate::InFlight);
        self.delay.push(None);
    }

    fn row(&self, flow: FlowId, seq: u64) -> Option<usize> {
        let f = flow.idx();
        let k = seq.checked_sub(*self.first_seq.get(f)?)?;
        self.rows[f].get(k as usize).map(|&r| r as usize)
    }

    /// A data packet of `flow` reached its destination `delay` after it was sent.
    pub fn delivered(&mut self, flow: FlowId, seq: u64, delay: Dur) {
        if let Some(r) = self.row(flow, seq) {
            let late = self.deadline[flow.idx()].is_some_and(|d| delay > d);
            self.fate[r] = if late { Fate::Late } else { Fate::Delivered };
            self.delay[r] = Some(delay);
        }
    }

    /// A data packet of `flow` was dropped.
    pub fn dropped(&mut self, flow: FlowId, seq: u64, why: DropReason) {
        if let Some(r) = self.row(flow, seq) {
            self.fate[r] = Fate::Dropped(why);
        }
    }

    /// The log as columns.
    pub fn finish(self) -> VideoPackets {
        VideoPackets {
            flow: self.flow,
            seq: self.seq,
            sequence: self.tags.iter().map(|t| t.sequence).collect(),
            frame: self.tags.iter().map(|t| t.frame).collect(),
            layer: self.tags.iter().map(|t| t.layer).collect(),
            size: self.size,
            sent_s: self.sent.iter().map(|t| t.as_secs_f64()).collect(),
            fate: self
                .fate
                .iter()
                .map(|f| match f {
                    Fate::InFlight => "in_flight".to_string(),
                    Fate::Delivered => "delivered".to_string(),
                    Fate::Late => "late".to_string(),
                    Fate::Dropped(why) => format!("dropped:{}", why.name()),
                })
                .collect(),
            delay_s: self.delay.iter().map(|d| d.map(|d| d.as_secs_f64())).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(sequence: u32, frame: u32, layer: u8) -> VideoTag {
        VideoTag { sequence, frame, layer }
    }

    #[test]
    fn fates_find_their_rows_by_sequence_number() {
        let ms = Dur::from_millis;
        let mut r = VideoPacketRecorder::new(vec![false, true], vec![None, Some(ms(100))]);
        let t0 = SimTime::ZERO + ms(10);
        r.sent(FlowId(0), 0, 1000, tag(0, 0, 0), t0);
        for s in 0..4 {
            r.sent(FlowId(1), s, 1000, tag(0, s as u32 / 2, (s % 2) as u8), t0);
        }
        r.delivered(FlowId(1), 0, ms(30));
        r.delivered(FlowId(1), 1, ms(150));
        r.dropped(FlowId(1), 2, DropReason::DropPriority);
        r.dropped(FlowId(0), 0, DropReason::Overflow);
        let d = r.finish();
        assert_eq!(d.flow, vec![1; 4]);
        assert_eq!(d.frame, vec![0, 0, 1, 1]);
        assert_eq!(d.layer, vec![0, 1, 0, 1]);
        assert_eq!(d.fate, vec!["delivered", "late", "dropped:drop_priority", "in_flight"]);
        assert_eq!(d.delay_s[0], Some(0.03));
        assert_eq!(d.delay_s[3], None);
        assert_eq!(d.sent_s[0], 0.01);
    }
}
