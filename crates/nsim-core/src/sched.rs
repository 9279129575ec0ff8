//! The event queue.
//!
//! Events are ordered by (time, insertion sequence): two events at the same picosecond run in
//! the order they were scheduled, so a run is a pure function of its inputs (DESIGN.md). Each
//! component keeps at most a few pending events (a link its next departure and next arrival,
//! an agent its timers), so the queue stays O(components), not O(packets). The queue is a
//! calendar queue ([`calendar`]), as in ns-2.

mod calendar;

use calendar::Calendar;
use crate::ids::{AgentId, LinkId, NodeId};
use crate::packet::PacketId;
use crate::time::SimTime;

/// What happens when an event fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The link's transmitter finished serializing its current packet.
    TxDone(LinkId),
    /// The packet at the head of the link's propagation pipe reaches the far node.
    Arrive(LinkId),
    /// An agent timer. `gen` lets the agent ignore timers it has since re-armed or cancelled
    /// (O(1) cancel: stale entries are skipped when popped).
    Timer { agent: AgentId, kind: u16, gen: u32 },
    /// A non-work-conserving queue (shaper, CBQ) may send again: restart the idle link.
    /// Stale if it is not the link's pending wake time.
    QueueWake(LinkId),
    /// The PAUSE frame at the head of the link's wire reaches the far end (Ethernet).
    EthControl(LinkId),
    /// Periodic sampling of time series (only scheduled when series are recorded).
    Sample,
    /// A node hook (middlebox) releases the packet it held at `node`.
    Release { node: NodeId, id: PacketId },
    /// Goodput snapshot k for `record.windows` (only scheduled when windows are recorded).
    Snapshot(u32),
    /// Scheduled network change k (`[[event]]`, steering: net/dynamics.rs).
    Change(u32),
    /// Routes are recomputed after a topology change's convergence delay.
    Reroute,
    /// Scheduled flow command k (pause, resume, stop: sim/flow_control.rs).
    Flow(u32),
}

/// A deterministic priority queue of events: a calendar queue keyed by (time, insertion
/// sequence) packed into one `u128`, so that ordering is a single integer comparison.
#[derive(Default)]
pub struct Scheduler {
    queue: Calendar<Event>,
    seq: u64,
}

impl Scheduler {
    #[inline]
    pub fn schedule(&mut self, time: SimTime, ev: Event) {
        self.seq += 1;
        self.queue.push(((time.0 as u128) << 64) | self.seq as u128, ev);
    }

    /// Removes and returns the earliest event if it is due at or before `limit`.
    #[inline]
    pub fn pop_until(&mut self, limit: SimTime) -> Option<(SimTime, Event)> {
        self.queue.pop_until(limit.0).map(|(key, ev)| (SimTime((key >> 64) as u64), ev))
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_time_events_run_in_insertion_order() {
        let mut s = Scheduler::default();
        s.schedule(SimTime(5), Event::Arrive(LinkId(2)));
        s.schedule(SimTime(3), Event::TxDone(LinkId(9)));
        s.schedule(SimTime(5), Event::Arrive(LinkId(1)));
        s.schedule(SimTime(5), Event::Sample);
        let order: Vec<_> = std::iter::from_fn(|| s.pop_until(SimTime::MAX)).collect();
        assert_eq!(
            order,
            vec![
                (SimTime(3), Event::TxDone(LinkId(9))),
                (SimTime(5), Event::Arrive(LinkId(2))),
                (SimTime(5), Event::Arrive(LinkId(1))),
                (SimTime(5), Event::Sample),
            ]
        );
    }

    #[test]
    fn pop_until_leaves_later_events() {
        let mut s = Scheduler::default();
        s.schedule(SimTime(10), Event::Sample);
        assert_eq!(s.pop_until(SimTime(9)), None);
        assert_eq!(s.len(), 1);
        assert_eq!(s.pop_until(SimTime(10)), Some((SimTime(10), Event::Sample)));
    }
}
