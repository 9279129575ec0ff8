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

use calendar::Calendar;
pub use ns2_order::TieOrder;
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
/// sequence) packed into one `u128`, so that ordering is a single integer comparison. In ns-2
/// order the low half is [`ns2_order::tie_key`] instead of the sequence.
#[derive(Default)]
pub struct Scheduler {
    queue: Calendar<Event>,
    /// Insertion sequence; in ns-2 order, ns-2's event uid.
    seq: u64,
    /// ns-2 order is on: `now` and `ns2_now` are kept.
    ns2: bool,
    /// Time of the last popped event.
    now: SimTime,
    /// ns-2's double for the last popped event (its `clock_`).
    ns2_now: f64,
}

impl Scheduler {
    /// Orders same-instant events as `order` says (before any event is scheduled).
    pub fn set_tie_order(&mut self, order: TieOrder) {
        debug_assert!(self.is_empty());
        self.ns2 = order == TieOrder::Ns2;
    }

    /// Whether same-instant events follow ns-2's order (callers then reserve link events'
    /// places with [`Scheduler::reserve`]).
    #[inline]
    pub fn ns2_order(&self) -> bool {
        self.ns2
    }

    /// Time of the event being run (ns-2 order only).
    #[inline]
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// ns-2's clock: the double of the event being run (ns-2 order only).
    #[inline]
    pub fn ns2_now(&self) -> f64 {
        self.ns2_now
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
        let ns2_time = self.ns2_now + ns2_order::seconds(time.0.saturating_sub(self.now.0));
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
        let time = SimTime((key >> 64) as u64);
        if self.ns2 && !self.set_ns2_clock(time, key as u64, limit) {
            self.queue.push(key, ev);
            return None;
        }
        Some((time, ev))
    }

    /// Sets ns-2's clock for the event at `time` with key half `key`, about to run; or, if
    /// ns-2's double puts it after `limit` (the event is due in `limit`'s picosecond, but
    /// after ns-2's `limit`: a `$ns at` procedure there reads the state before it), leaves
    /// the clock and returns false.
    #[cold]
    #[inline(never)]
    fn set_ns2_clock(&mut self, time: SimTime, key: u64, limit: SimTime) -> bool {
        let ns2_time = ns2_order::ns2_time(time, key);
        if time == limit && ns2_time > ns2_order::seconds(limit.0) {
            return false;
        }
        self.now = time;
        self.ns2_now = ns2_time;
        true
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
        let order: Vec<_> = std::iter::from_fn(|| s.pop_until(SimTime::MAX)).map(|(_, e)| e).collect();
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
        assert_eq!(s.pop_until(at), None);
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
