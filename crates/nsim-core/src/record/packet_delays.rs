//! Per-packet one-way delays, so a CCDF is over packets rather than over per-flow means
//! (issue 8). Off unless `record.packet_delays` names the flows (or `true` for all): when off,
//! delivery pays one branch.
//!
//! Stored column-wise: delivery time, flow, sequence number (as the ns-2 trace prints it),
//! priority (`prio` on arrival: a video packet's layer, a TCP-DS mark) and delay (creation to delivery at the destination node), all exact to the picosecond before the
//! conversion to seconds.

use serde::Serialize;

use crate::ids::FlowId;
use crate::time::SimTime;

/// The recorded delays, one entry per delivered data packet of a chosen flow.
#[derive(Default, Serialize, Debug, Clone)]
pub struct PacketDelays {
    pub time_s: Vec<f64>,
    pub flow: Vec<u32>,
    pub seq: Vec<u64>,
    pub prio: Vec<u8>,
    pub delay_s: Vec<f64>,
}

/// Which flows to record, and what was recorded.
pub struct PacketDelayRecorder {
    on: Vec<bool>,
    pub data: PacketDelays,
}

impl PacketDelayRecorder {
    /// Records the flows whose `on` entry is true (indexed by flow id).
    pub fn new(on: Vec<bool>) -> Self {
        PacketDelayRecorder { on, data: PacketDelays::default() }
    }

    #[inline]
    pub fn record(&mut self, flow: FlowId, seq: u64, prio: u8, created: SimTime, now: SimTime) {
        if self.on[flow.idx()] {
            self.data.time_s.push(now.as_secs_f64());
            self.data.flow.push(flow.0);
            self.data.seq.push(seq);
            self.data.prio.push(prio);
            self.data.delay_s.push(now.since(created).as_secs_f64());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Dur;

    #[test]
    fn only_chosen_flows_are_recorded() {
        let mut r = PacketDelayRecorder::new(vec![false, true]);
        let t = SimTime::ZERO + Dur::from_millis(30);
        r.record(FlowId(0), 1, 0, SimTime::ZERO, t);
        r.record(FlowId(1), 7, 2, SimTime::ZERO + Dur::from_millis(5), t);
        assert_eq!(r.data.flow, vec![1]);
        assert_eq!(r.data.seq, vec![7]);
        assert_eq!(r.data.prio, vec![2]);
        assert!((r.data.delay_s[0] - 0.025).abs() < 1e-15);
        assert!((r.data.time_s[0] - 0.030).abs() < 1e-15);
    }
}
