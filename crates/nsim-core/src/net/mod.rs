//! The network: nodes, link directions, routes, and the packets moving between them.
//!
//! [`Net`] is everything the agents share. Agents reach it through [`crate::agent::AgentCtx`]
//! to send packets and arm timers; the run loop calls [`Net::on_tx_done`] and
//! [`Net::on_arrive`] for link events.

pub mod atm;
pub mod dynamics;
pub mod error_model;
pub mod ethernet;
pub mod link;
pub mod ns2_link_order;
pub mod routing;
#[cfg(test)]
pub(crate) mod testkit;
pub mod wire;

use crate::ids::{AgentId, FlowId, LinkId, NodeId};
use crate::middlebox::Verdict;
use crate::packet::{PacketId, PacketPool};
use crate::queue::{QueueCtx, QueueDisc};
use crate::record::pcap::PcapFiles;
use crate::record::trace::Ns2Trace;
use crate::record::{DropCounts, DropReason, FlowStats};
use crate::sched::{Event, Scheduler};
use crate::time::SimTime;

pub use link::Link;
pub use routing::RouteTable;

/// Whether a node is an end host or a router (informational: both forward).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    Host,
    Router,
}

pub struct Node {
    pub name: String,
    pub kind: NodeKind,
}

/// Packets that left the network, network-wide.
#[derive(Default, Clone, Copy)]
pub struct Totals {
    pub delivered: u64,
    pub dropped: u64,
    pub drops: DropCounts,
}

pub struct Net {
    pub now: SimTime,
    pub sched: Scheduler,
    pub pool: PacketPool,
    pub nodes: Vec<Node>,
    pub links: Vec<Link>,
    pub routes: RouteTable,
    pub flows: Vec<FlowStats>,
    pub totals: Totals,
    pub trace: Option<Ns2Trace>,
    /// Frames travelling as ATM cells (empty without ATM links).
    pub atm: atm::AtmNet,
    /// Ethernet PAUSE bookkeeping (idle without Ethernet links).
    pub eth: ethernet::EthNet,
    /// pcap files of the chosen link directions (written at each departure).
    pub pcap: Option<PcapFiles>,
    /// Packet hooks at nodes (`None` without any: one branch per forward).
    pub middlebox: Option<Box<crate::middlebox::Middleboxes>>,
    /// MAC learning switches (`None` without any: one branch per arrival).
    pub bridges: Option<Box<ethernet::bridge::Bridges>>,
    /// The per-packet video log (`record.video_packets`; `None`: one branch per drop and
    /// per UDP send).
    pub video_packets: Option<Box<crate::record::video_packets::VideoPacketRecorder>>,
    /// Scheduled link changes and route recomputation (`None` without `[[event]]`s or
    /// steering: [`dynamics`]).
    pub dynamics: Option<Box<dynamics::Dynamics>>,
    /// Distance-vector routing's state (`routing.protocol = "dv"`; `None`: routes are static
    /// or recomputed by [`dynamics`]).
    pub dv: Option<Box<routing::dv::Dv>>,
    /// Link events' places in ns-2's same-instant order (`run.tie_order = "ns2"`; `None`:
    /// one test per transmission and per link event scheduled).
    pub ns2_order: Option<Box<ns2_link_order::Ns2LinkOrder>>,
    /// Reused buffer for the drops of one queue call (no allocation per packet).
    drops: Vec<(PacketId, DropReason)>,
}

impl Net {
    pub fn new(nodes: Vec<Node>, links: Vec<Link>, routes: RouteTable, n_flows: usize) -> Self {
        Net {
            now: SimTime::ZERO,
            sched: Scheduler::default(),
            pool: PacketPool::default(),
            nodes,
            links,
            routes,
            flows: (0..n_flows).map(|_| FlowStats::default()).collect(),
            totals: Totals::default(),
            trace: None,
            atm: atm::AtmNet::default(),
            eth: ethernet::EthNet::default(),
            pcap: None,
            middlebox: None,
            bridges: None,
            video_packets: None,
            dynamics: None,
            dv: None,
            ns2_order: None,
            drops: Vec::with_capacity(8),
        }
    }

    /// Sends a packet from node `at` towards its destination. Returns the packet id if it is
    /// addressed to `at` itself (the caller delivers it to the agent). The node's hooks (if
    /// any) see the packet first and may rewrite, hold or drop it; without hooks this costs
    /// one branch (docs/models/middlebox.md).
    pub fn forward(&mut self, at: NodeId, id: PacketId) -> Option<PacketId> {
        let p = self.pool.get(id);
        let (dst, flow) = (p.dst, p.flow);
        if dst == at {
            return Some(id);
        }
        if self.middlebox.is_some() && !self.run_hooks(at, id) {
            return None;
        }
        match self.routes.next_hop_flow(at, dst, flow.0) {
            Some(l) => self.enqueue(l, id),
            None => self.drop_packet(id, DropReason::NoRoute, None),
        }
        None
    }

    /// Runs node `at`'s hooks on packet `id`. Returns whether to route it on now; otherwise
    /// the packet was dropped or is held until its `Release` event.
    #[inline(never)]
    fn run_hooks(&mut self, at: NodeId, id: PacketId) -> bool {
        let Some(mb) = self.middlebox.as_deref_mut() else { return true };
        match mb.inspect(at, self.now, self.pool.get_mut(id)) {
            Verdict::Pass => true,
            Verdict::Drop => {
                self.drop_packet(id, DropReason::Middlebox, None);
                false
            }
            Verdict::Delay(d) => {
                mb.held += 1;
                self.sched.schedule(self.now + d, Event::Release { node: at, id });
                false
            }
        }
    }

    /// A packet a hook held at `node` is released: route it on without consulting the hooks
    /// again (they are taken out for the call, which keeps `forward` the only caller of
    /// `enqueue`, so the compiler inlines it there as before hooks existed).
    pub fn on_release(&mut self, node: NodeId, id: PacketId) {
        let mut hooks = self.middlebox.take();
        if let Some(mb) = hooks.as_deref_mut() {
            mb.held -= 1;
        }
        self.forward(node, id);
        self.middlebox = hooks;
    }

    /// Counts a packet created by an agent of `flow`.
    pub fn count_sent(&mut self, flow: FlowId, id: PacketId) {
        let p = self.pool.get(id);
        let (is_data, size, mark) =
            (p.ptype.is_data(), p.size as u64, crate::record::flow_stats::mark(p.prio));
        let f = &mut self.flows[flow.idx()];
        if is_data {
            f.sent_pkts += 1;
            f.sent_by_mark[mark] += 1;
            f.sent_bytes += size;
            f.first_sent.get_or_insert(self.now);
        } else {
            f.ack_sent_pkts += 1;
        }
    }

    fn enqueue(&mut self, l: LinkId, id: PacketId) {
        if self.links[l.idx()].special_for(link::SPECIAL_ENQUEUE) {
            return self.enqueue_special(l, id);
        }
        let now = self.now;
        let link = &mut self.links[l.idx()];
        let size = self.pool.get(id).size;
        link.stats.arrivals += 1;
        link.stats.arrival_bytes += size as u64;
        if link.error_at_enqueue && self.loses(l, id) {
            self.drop_packet(id, DropReason::ErrorModel, Some(l));
            return;
        }
        let link = &mut self.links[l.idx()];
        if let Some(tr) = self.trace.as_mut() {
            tr.line('+', now, link.from, link.to, self.pool.get(id));
        }
        if link.is_eth() {
            self.eth_admit(l, id);
        } else if size <= link.queue_cut_through
            && !link.tx_pending
            && link.busy_until <= now
            && link.stats.held_pkts() == 0
        {
            // An empty FIFO under its limit in front of a free transmitter would take the
            // packet and hand it straight back: skip that pair of calls, recording the same
            // instant of one packet held (QueueDisc::cut_through_max).
            debug_assert_eq!(link.queue.len_packets(), 0);
            link.stats.pass_through(size as u64);
            self.transmit(l, id);
            return;
        } else {
            self.show_idle(l);
            self.queue_call(l, now, |q, ctx| q.enqueue(id, ctx));
        }
        self.kick(l);
    }

    /// If the link went idle with an empty queue since its last transmission, lets the
    /// discipline see that, as of the moment it happened: ns-2 calls `deque()` on the empty
    /// queue when a transmission ends, and RED starts its idle-time decay there (PIE and
    /// CoDel reset state there too). Done lazily, at the next arrival, so an idle link costs
    /// no event; skipped for disciplines that ignore it (DropTail), whose empty dequeue and
    /// occupancy record (zero packets) change nothing.
    fn show_idle(&mut self, l: LinkId) {
        let link = &mut self.links[l.idx()];
        if !link.queue_notices_idle
            || link.idle_polled
            || link.tx_pending
            || link.busy_until > self.now
            || link.queue.len_packets() > 0
        {
            return;
        }
        link.idle_polled = true;
        let at = link.busy_until;
        self.queue_call(l, at, |q, ctx| q.dequeue(ctx));
    }

    /// Starts a transmission if the transmitter is free; otherwise makes sure a `TxDone`
    /// event will start the next one when it frees up.
    fn kick(&mut self, l: LinkId) {
        let link = &mut self.links[l.idx()];
        if link.tx_pending {
            return;
        }
        if link.busy_until <= self.now {
            self.start_tx(l);
        } else if link.waiting() > 0 {
            link.tx_pending = true;
            self.schedule_tx_done(l);
        }
    }

    /// Schedules the end of `l`'s current transmission.
    #[inline]
    fn schedule_tx_done(&mut self, l: LinkId) {
        if self.ns2_order.is_some() {
            return self.schedule_tx_done_ns2(l);
        }
        self.sched.schedule(self.links[l.idx()].busy_until, Event::TxDone(l));
    }

    /// Schedules the arrival of the head of `l`'s wire, due at `at`.
    #[inline]
    fn schedule_arrival(&mut self, l: LinkId, at: SimTime) {
        if self.ns2_order.is_some() {
            return self.schedule_arrival_ns2(l, at);
        }
        self.sched.schedule(at, Event::Arrive(l));
    }

    /// Runs one call of `l`'s queue discipline with its context, then accounts for the drops it
    /// made and the new occupancy. Returns the call's result and the wake time it asked for.
    fn queue_call<R>(
        &mut self,
        l: LinkId,
        at: SimTime,
        call: impl FnOnce(&mut dyn QueueDisc, &mut QueueCtx) -> R,
    ) -> (R, Option<SimTime>) {
        let link = &mut self.links[l.idx()];
        let mut wake_at = None;
        let mut ctx = QueueCtx {
            now: at,
            pool: &mut self.pool,
            drops: &mut self.drops,
            marks: &mut link.stats.ecn_marks,
            rng: &mut link.queue_rng,
            wake_at: &mut wake_at,
        };
        let out = call(link.queue.as_mut(), &mut ctx);
        self.settle_drops(l);
        let link = &mut self.links[l.idx()];
        link.stats.occupancy(at, link.queue.len_packets(), link.queue.len_bytes());
        (out, wake_at)
    }

    /// Accounts for and frees the packets the last queue call dropped.
    fn settle_drops(&mut self, l: LinkId) {
        while let Some((id, why)) = self.drops.pop() {
            self.drop_packet(id, why, Some(l));
        }
    }

    fn drop_packet(&mut self, id: PacketId, why: DropReason, at: Option<LinkId>) {
        let p = self.pool.get(id);
        if let Some(l) = at {
            let link = &mut self.links[l.idx()];
            link.stats.on_drop(p.size, why);
            if let Some(tr) = self.trace.as_mut() {
                tr.line('d', self.now, link.from, link.to, p);
            }
        }
        // A bridge's filtered frame is a flooded copy its flow never sent (bridge.rs).
        if why != DropReason::Filtered {
            self.flows[p.flow.idx()].on_drop(p.ptype.is_data(), p.size, why);
            if let Some(log) = self.video_packets.as_mut() {
                log.dropped(p.flow, p.seq, why);
            }
        }
        self.totals.dropped += 1;
        self.totals.drops[why.idx()] += 1;
        self.pool.free(id);
    }

    /// Takes the next packet from the queue and starts sending it (the transmitter is free).
    /// The packet goes on the wire at once, arriving after serialization and propagation; an
    /// error model loses it here, after it has been given its transmission time.
    fn start_tx(&mut self, l: LinkId) {
        let now = self.now;
        let (next, wake_at) = if self.links[l.idx()].is_eth() {
            self.eth_next(l)
        } else {
            self.queue_call(l, now, |q, ctx| q.dequeue(ctx))
        };
        let Some(id) = next else {
            self.arm_wake(l, wake_at);
            return;
        };
        self.transmit(l, id);
        let link = &mut self.links[l.idx()];
        if link.waiting() > 0 {
            link.tx_pending = true;
            self.schedule_tx_done(l);
        }
    }

    /// Puts packet `id`, just taken from `l`'s queue, on the wire: it arrives after
    /// serialization and propagation, unless the error model loses it here.
    fn transmit(&mut self, l: LinkId, id: PacketId) {
        let now = self.now;
        let link = &mut self.links[l.idx()];
        let p = self.pool.get(id);
        link.stats.departures += 1;
        link.stats.departure_bytes += p.size as u64;
        if let Some(tr) = self.trace.as_mut() {
            tr.line('-', now, link.from, link.to, p);
        }
        if let Some(pc) = self.pcap.as_mut() {
            pc.departure(l, now, p);
        }
        let tx = link.tx_time(p.size);
        link.busy_until = now + tx;
        link.idle_polled = false;
        link.stats.busy_ps += tx.0;
        let arrive = if self.ns2_order.is_some() {
            self.transmit_ns2(l, id)
        } else {
            link.busy_until + link.delay
        };
        if !self.links[l.idx()].error_at_enqueue && self.loses(l, id) {
            self.drop_packet(id, DropReason::ErrorModel, Some(l));
        } else {
            let link = &mut self.links[l.idx()];
            let first = link.wire.is_empty();
            link.wire.push(&mut self.pool, id, arrive);
            if first {
                self.schedule_arrival(l, arrive);
            }
        }
    }

    /// Schedules a retry of an idle link whose queue holds packets that may not leave before
    /// `at`. One pending wake per link: an earlier request replaces a later one (which then
    /// fires stale and is skipped).
    fn arm_wake(&mut self, l: LinkId, at: Option<SimTime>) {
        let Some(at) = at else { return };
        let link = &mut self.links[l.idx()];
        // A wake "now" from a queue that just refused to send would spin; retry 1 ps later.
        let at = at.max(self.now + crate::time::Dur(1));
        if !matches!(link.wake, Some(w) if w <= at) {
            link.wake = Some(at);
            self.sched.schedule(at, Event::QueueWake(l));
        }
    }

    /// A `QueueWake` event: if it is the link's pending wake, retry an idle transmitter.
    pub fn on_queue_wake(&mut self, l: LinkId) {
        let link = &mut self.links[l.idx()];
        if link.wake != Some(self.now) || link.is_down() {
            return;
        }
        link.wake = None;
        self.kick(l);
    }

    /// The transmitter of `l` is free and packets wait: start the next one.
    /// A down link sends nothing (its queue is held, `net/dynamics.rs`); coming up kicks it.
    pub fn on_tx_done(&mut self, l: LinkId) {
        let link = &mut self.links[l.idx()];
        link.tx_pending = false;
        if !link.is_down() {
            self.kick(l);
        }
    }

    /// Whether `l`'s error model (if any) loses packet `id`.
    fn loses(&mut self, l: LinkId, id: PacketId) -> bool {
        match self.links[l.idx()].error_mut() {
            Some((em, rng)) => em.loses(self.pool.get(id), rng),
            None => false,
        }
    }

    /// The head of `l`'s wire reaches the far node. Returns the packet if it is for that node.
    pub fn on_arrive(&mut self, l: LinkId) -> Option<PacketId> {
        if self.links[l.idx()].special_for(link::SPECIAL_ARRIVE) {
            return self.arrive_special(l);
        }
        self.arrive_plain(l)
    }

    /// The head of a plain link's wire reaches the far node.
    #[inline(always)]
    fn arrive_plain(&mut self, l: LinkId) -> Option<PacketId> {
        let link = &mut self.links[l.idx()];
        let id = link.wire.pop(&self.pool)?;
        let (from, to) = (link.from, link.to);
        if let Some(t) = link.wire.next_arrival(&self.pool) {
            self.schedule_arrival(l, t);
        }
        if let Some(tr) = self.trace.as_mut() {
            tr.line('r', self.now, from, to, self.pool.get(id));
        }
        if self.bridges.is_some() {
            return self.bridge_arrive(l, id);
        }
        self.forward(to, id)
    }

    /// Arms an agent timer at absolute time `at`.
    pub fn timer(&mut self, at: SimTime, agent: AgentId, kind: u16, gen: u32) {
        self.sched.schedule(at, Event::Timer { agent, kind, gen });
    }

    /// Packets waiting in queues now.
    pub fn queued(&self) -> u64 {
        self.links.iter().map(|l| l.waiting()).sum()
    }

    /// Packets being transmitted or propagating now, or held by a node hook.
    pub fn in_flight(&self) -> u64 {
        let held = self.middlebox.as_ref().map_or(0, |m| m.held);
        self.links.iter().map(|l| l.in_flight()).sum::<u64>() + self.atm_in_flight() + held
    }
}
