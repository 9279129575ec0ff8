//! The event queue.
//!
//! Events are ordered by (time, insertion sequence): two events at the same picosecond run in
//! the order they were scheduled, so a run is a pure function of its inputs (DESIGN.md). Each
//! component keeps at most a few pending events (a link its next departure and next arrival,
//! an agent its timers), so the queue stays O(components), not O(packets). The queue is a
//! calendar queue ([`calendar`]), as in ns-2. With `run.tie_order = "ns2"` the events of one
//! picosecond run in ns-2.35's order instead ([`ns2_order`]).

mod calendar;
pub mod ns2_order;

use crate::ids::{AgentId, LinkId, NodeId};
use crate::packet::PacketId;
use crate::time::SimTime;
use calendar::Calendar;
pub use ns2_order::TieOrder;

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
/// sequence) packed into one `u128`, so that ordering is a single integer comparison. In ns-2
/// order the low half is [`ns2_order::tie_key`] instead of the sequence.
#[derive(Default)]
pub struct Scheduler {
    queue: Calendar<Event>,
    /// Insertion sequence; in ns-2 order, ns-2's event uid.
    seq: u64,
    /// ns-2 order is on.
    ns2: bool,
    /// Key of the last popped event: its time and, in ns-2 order, ns-2's clock.
    last: u128,
    /// Events held back past a step's limit in ns-2 order ([`Scheduler::hold_after_ns2`]).
    held: Vec<(u128, Event)>,
}

impl Scheduler {
    /// Orders same-instant events as `order` says (before any event is scheduled).
    pub fn set_tie_order(&mut self, order: TieOrder) {
        debug_assert!(self.is_empty());
        self.ns2 = order == TieOrder::Ns2;
        // ns-2's clock starts at 0.0.
        self.last = ns2_order::tie_key(SimTime::ZERO, 0.0, 0) as u128;
    }

    /// Whether same-instant events follow ns-2's order (callers then reserve link events'
    /// places with [`Scheduler::reserve`]).
    #[inline]
    pub fn ns2_order(&self) -> bool {
        self.ns2
    }

    /// Time of the event being run.
    #[inline]
    pub fn now(&self) -> SimTime {
        SimTime((self.last >> 64) as u64)
    }

    /// ns-2's clock: the double of the event being run (ns-2 order only).
    #[inline]
    pub fn ns2_now(&self) -> f64 {
        ns2_order::ns2_time(self.now(), self.last as u64)
    }

    #[inline]
    pub fn schedule(&mut self, time: SimTime, ev: Event) {
        self.seq += 1;
        let low = if self.ns2 { self.ns2_key(time) } else { self.seq };
        self.queue.push(((time.0 as u128) << 64) | low as u128, ev);
    }

    /// The key of an event ns-2 schedules now (uid `seq`), `time - now` ahead of its clock.
    #[cold]
    #[inline(never)]
    fn ns2_key(&self, time: SimTime) -> u64 {
        let ns2_time = self.ns2_now() + ns2_order::seconds(time.0.saturating_sub(self.now().0));
        ns2_order::tie_key(time, ns2_time, self.seq)
    }

    /// Takes ns-2's next uid for an event at `time` with ns-2 time `ns2_time` that nsim will
    /// schedule later (ns-2 order only): ns-2 schedules a packet's arrival and its link's
    /// transmission end when the transmission starts, nsim when they are next due.
    #[inline]
    pub fn reserve(&mut self, time: SimTime, ns2_time: f64) -> u64 {
        self.seq += 1;
        ns2_order::tie_key(time, ns2_time, self.seq)
    }

    /// Schedules `ev` at `time` in the place `reserve` gave it.
    #[inline]
    pub fn schedule_reserved(&mut self, time: SimTime, key: u64, ev: Event) {
        self.queue.push(((time.0 as u128) << 64) | key as u128, ev);
    }

    /// Removes and returns the earliest event if it is due at or before `limit`.
    #[inline]
    pub fn pop_until(&mut self, limit: SimTime) -> Option<(SimTime, Event)> {
        let (key, ev) = self.queue.pop_until(limit.0)?;
        self.last = key;
        Some((SimTime((key >> 64) as u64), ev))
    }

    /// In ns-2 order, once every event before `limit` has run: takes out the events of
    /// `limit`'s picosecond that ns-2's clock puts after `limit` (ns-2 runs them after a
    /// procedure or a halt at `limit`), until [`Scheduler::release_held`]. Events scheduled
    /// into that picosecond meanwhile are not held.
    #[cold]
    #[inline(never)]
    pub fn hold_after_ns2(&mut self, limit: SimTime) {
        let mut due = Vec::new();
        while let Some((key, ev)) = self.queue.pop_until(limit.0) {
            if (key >> 64) as u64 == limit.0
                && ns2_order::ns2_time(limit, key as u64) > ns2_order::seconds(limit.0)
            {
                self.held.push((key, ev));
            } else {
                due.push((key, ev));
            }
        }
        for (key, ev) in due {
            self.queue.push(key, ev);
        }
    }

    /// Puts back the events [`Scheduler::hold_after_ns2`] took out.
    #[cold]
    #[inline(never)]
    pub fn release_held(&mut self) {
        for (key, ev) in std::mem::take(&mut self.held) {
            self.queue.push(key, ev);
        }
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

    /// A packet's arrival reserved when its transmission started (ns-2 `LinkDelay::recv`)
    /// runs before a transmission end scheduled earlier by nsim but later in ns-2's order,
    /// and a double that ns-2 rounds below the picosecond's runs before an earlier uid.
    #[test]
    fn ns2_order_follows_doubles_then_reserved_uids() {
        let mut s = Scheduler::default();
        s.set_tie_order(TieOrder::Ns2);
        let at = SimTime(620_400_000_000);
        let arrival = s.reserve(at, 0.5 + (0.0104 + 0.11));
        let tx_done = s.reserve(at, (0.5 + 0.0104) + 0.11);
        s.schedule_reserved(at, tx_done, Event::TxDone(LinkId(1)));
        s.schedule(at, Event::Sample);
        s.schedule_reserved(at, arrival, Event::Arrive(LinkId(0)));
        let order: Vec<_> =
            std::iter::from_fn(|| s.pop_until(SimTime::MAX)).map(|(_, e)| e).collect();
        // 0.5 + 0.1204 = 0.6204000000000001 > (0.5104 + 0.11) = 0.6204 = Sample's double.
        assert_eq!(order, vec![Event::TxDone(LinkId(1)), Event::Sample, Event::Arrive(LinkId(0))]);
        assert_eq!(s.ns2_now(), 0.5 + (0.0104 + 0.11));
    }

    /// An event in the limit's picosecond whose double ns-2 rounds above the limit waits
    /// (ns-2 runs it after a procedure at the limit), then runs when the run goes on.
    #[test]
    fn ns2_order_keeps_an_event_after_the_limits_double() {
        let mut s = Scheduler::default();
        s.set_tie_order(TieOrder::Ns2);
        let at = SimTime(11 * 1_000_000_000_000);
        let after = s.reserve(at, f64::from_bits(11.0f64.to_bits() + 1));
        s.schedule_reserved(at, after, Event::Sample);
        s.schedule(at, Event::Snapshot(0));
        s.hold_after_ns2(at);
        assert_eq!(s.pop_until(at), Some((at, Event::Snapshot(0))));
        assert_eq!(s.pop_until(at), None);
        s.release_held();
        assert_eq!(s.pop_until(SimTime(at.0 + 1)), Some((at, Event::Sample)));
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
