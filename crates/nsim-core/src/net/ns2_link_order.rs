//! Where ns-2.35 puts a link's events among same-instant ones (`run.tie_order = "ns2"`).
//!
//! Source: ns-2.35 link/delay.cc, `LinkDelay::recv`. When a transmission starts, ns-2
//! schedules the packet's arrival at the next node `txt + delay_` ahead of its clock, then
//! the transmission end (`intr_`, the queue's resume) `txt` ahead, with
//! `txt = 8. * size / bandwidth_` (link/delay.h `txtime`). nsim schedules both lazily (one
//! pending arrival per link, a transmission end only while packets wait), so at the start it
//! takes their places in ns-2's order ([`Scheduler::reserve`]) and keeps them here until it
//! schedules them: one key per link for its transmission end, one per packet for its arrival.
//! The two events' picoseconds are ns-2's doubles rounded ([`ns2_order::picoseconds`]), not
//! nsim's integer sums, which drift from ns-2's by picoseconds when a serialization time is
//! not a whole number of them (ties in ns-2 would then not be ties here).
//! Nothing here exists in the default order.

use super::link::Link;
use super::Net;
use crate::ids::LinkId;
use crate::packet::PacketId;
use crate::sched::{ns2_order, Event, Scheduler};
use crate::time::SimTime;

/// Reserved keys of links' next events (ns-2 order only).
pub struct Ns2LinkOrder {
    /// Per link direction: the key of the end of its current transmission.
    tx_done: Vec<u64>,
    /// Per link direction: ns-2's time of that end.
    done_at: Vec<f64>,
    /// Per packet slot: the key of the packet's arrival at the far end of its wire.
    arrival: Vec<u64>,
}

impl Ns2LinkOrder {
    pub fn new(links: usize) -> Self {
        Ns2LinkOrder { tx_done: vec![0; links], done_at: vec![0.0; links], arrival: Vec::new() }
    }

    /// Link `l` starts sending packet `id` of `bytes` bytes now: sets its `busy_until` to
    /// ns-2's transmission end, reserves that and the packet's arrival, and returns the
    /// arrival time.
    pub fn on_transmit(
        &mut self,
        sched: &mut Scheduler,
        l: usize,
        link: &mut Link,
        id: PacketId,
        bytes: u32,
    ) -> SimTime {
        // A packet that reaches an idle link in the picosecond its last transmission ends, but
        // before that end in ns-2's clock, waits for it: ns-2's queue is blocked until then.
        let start = sched.ns2_now().max(self.done_at[l]);
        let txt = 8.0 * bytes as f64 / link.rate.0 as f64;
        let (done, arrive) = (start + txt, start + (txt + ns2_order::seconds(link.delay.0)));
        // Not before now: ns-2's clock may sit below the picosecond of the event running.
        let now = sched.now();
        link.busy_until = ns2_order::picoseconds(done).max(now);
        let arrive_at = ns2_order::picoseconds(arrive).max(link.busy_until);
        let arrival = sched.reserve(arrive_at, arrive);
        let slot = id.0 as usize;
        if slot >= self.arrival.len() {
            // Grows with the packet pool, amortized: no allocation per packet once it stops.
            self.arrival.resize((slot + 1).next_power_of_two(), 0);
        }
        self.arrival[slot] = arrival;
        self.tx_done[l] = sched.reserve(link.busy_until, done);
        self.done_at[l] = done;
        arrive_at
    }
}

/// The network's side: kept out of the default path (one test of `Net::ns2_order` there).
impl Net {
    /// Link `l` starts sending packet `id`: its transmission end and the packet's arrival by
    /// ns-2's sums ([`Ns2LinkOrder::on_transmit`]). Returns the arrival time.
    #[cold]
    #[inline(never)]
    pub(super) fn transmit_ns2(&mut self, l: LinkId, id: PacketId) -> SimTime {
        let bytes = self.links[l.idx()].wire_bytes(self.pool.get(id).size);
        let order = self.ns2_order.as_deref_mut().expect("ns-2 order is on");
        order.on_transmit(&mut self.sched, l.idx(), &mut self.links[l.idx()], id, bytes)
    }

    /// Schedules the end of `l`'s current transmission in its reserved place.
    #[cold]
    #[inline(never)]
    pub(super) fn schedule_tx_done_ns2(&mut self, l: LinkId) {
        let key = self.ns2_order.as_deref().expect("ns-2 order is on").tx_done[l.idx()];
        self.sched.schedule_reserved(self.links[l.idx()].busy_until, key, Event::TxDone(l));
    }

    /// Schedules the arrival of the head of `l`'s wire, due at `at`, in its reserved place.
    #[cold]
    #[inline(never)]
    pub(super) fn schedule_arrival_ns2(&mut self, l: LinkId, at: SimTime) {
        let id = self.links[l.idx()].wire.oldest().expect("a packet on the wire");
        let key = self.ns2_order.as_deref().expect("ns-2 order is on").arrival[id.0 as usize];
        self.sched.schedule_reserved(at, key, Event::Arrive(l));
    }
}
