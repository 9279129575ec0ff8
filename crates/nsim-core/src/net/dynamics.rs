//! A network that changes while it runs (issue 27): link failures and repairs, rate, delay,
//! error-model and queue-parameter changes, and the route recomputation a failure triggers.
//!
//! Sources: ns-2.35's dynamic links and route models (`$ns rtmodel-at t down|up $n1 $n2`,
//! tcl/rtglib/dynamics.tcl; `DynamicLink` in common/dynalink.cc; `LinkDelay::reset` in
//! link/delay.cc) and Session routing (`$ns rtproto Session`, tcl/rtglib/route-proto.tcl:
//! `RouteLogic::compute_routes` over the links that are up, run at once on every change).
//!
//! A link direction that goes down (docs/models/dynamics.md):
//! - loses every packet on its wire, the one being serialized and those propagating (ns-2
//!   `LinkDelay::reset` drops the packets in transit), each dropped with reason `link_down`;
//! - drops the packets in its queue with `link_down` (ns-2 resets the link's queue), or keeps
//!   them until it comes up (`hold_queue`), sending none meanwhile;
//! - drops packets routed into it while down with `link_down` (ns-2 `DynamicLink::recv`);
//! - keeps its transmitter busy until the cut packet's serialization would have ended (ns-2's
//!   queue stays blocked until then too).
//!
//! A rate change applies from the next packet serialized (ns-2 `bandwidth_`). A delay change
//! applies to packets that start transmission after it; a shorter delay waits until no packet
//! could overtake one already on the wire (a link stays first-in first-out).
//!
//! Cost: nothing on the per-packet path. A failure sets bits in the flags byte every hop
//! already tests ([`Link::special_for`]): arrivals at a down link, and the `Arrive` events of
//! cut packets, take the special path that ATM links take.

use super::link::Link;
use super::Net;
use crate::ids::{LinkId, NodeId};
use crate::net::error_model::ErrorModel;
use crate::net::routing::Metric;
use crate::net::RouteTable;
use crate::queue::QueueChange;
use crate::record::DropReason;
use crate::sched::Event;
use crate::time::{Dur, SimTime};
use crate::units::BitsPerSec;

/// One change to one or both directions of a link.
#[derive(Clone, Debug)]
pub enum LinkChange {
    /// The link fails; `hold_queue` keeps its queued packets for when it comes back.
    Down {
        hold_queue: bool,
    },
    Up,
    Rate(BitsPerSec),
    Delay(Dur),
    /// A new error model, or none.
    Error(Option<ErrorModel>),
    Queue(QueueChange),
    /// A parameter of the middlebox hooks at these positions (`links` is then empty).
    Middlebox(Vec<u32>, crate::middlebox::HookChange),
}

/// A change and the link directions it applies to.
#[derive(Clone, Debug)]
pub struct Change {
    pub links: Vec<LinkId>,
    pub what: LinkChange,
    /// What the results' events table says: the action and its target as the scenario wrote
    /// them.
    pub action: String,
    pub target: String,
}

/// How routes follow failures and repairs (`routing.recompute`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Recompute {
    /// ns-2 Session routing: shortest paths over the links that are up, recomputed on every
    /// change (after `convergence_delay`, default at once).
    #[default]
    Session,
    /// Routes stay as computed at the start: packets sent into a down link are dropped.
    Never,
}

/// What a run with changes keeps to apply them (`None` in a net without: no cost).
pub struct Dynamics {
    /// Changes by index (`Event::Change`); steering appends to it.
    pub changes: Vec<Change>,
    pub recompute: Recompute,
    pub convergence_delay: Dur,
    pub metric: Metric,
    /// Explicit next hops (at, destination, link), re-applied after each recomputation.
    pub overrides: Vec<(NodeId, NodeId, LinkId)>,
    /// What happened, in order (results' `events` table).
    pub log: Vec<EventRecord>,
    /// A recomputation is scheduled (`Event::Reroute`) and not yet run.
    reroute_pending: bool,
}

/// One row of the results' `events` table.
#[derive(Clone, Debug, serde::Serialize)]
pub struct EventRecord {
    pub time_s: f64,
    pub action: String,
    pub target: String,
    /// Packets the change dropped (a failure's wire and queue), else 0.
    pub dropped_pkts: u64,
}

impl Dynamics {
    pub fn new(
        recompute: Recompute,
        convergence_delay: Dur,
        metric: Metric,
        overrides: Vec<(NodeId, NodeId, LinkId)>,
    ) -> Self {
        Dynamics {
            changes: Vec::new(),
            recompute,
            convergence_delay,
            metric,
            overrides,
            log: Vec::new(),
            reroute_pending: false,
        }
    }
}

impl Net {
    /// Schedules change `c` at `at` (before the run or while it is paused).
    pub fn schedule_change(&mut self, at: SimTime, c: Change) {
        let d = self.dynamics.as_mut().expect("a net with changes has dynamics");
        d.changes.push(c);
        let k = d.changes.len() as u32 - 1;
        self.sched.schedule(at, Event::Change(k));
    }

    /// An `Event::Change`: applies change `k` (a refusal is logged: the scenario's own events
    /// were checked before the run, so only a change steering scheduled can be refused).
    pub fn on_change(&mut self, k: u32) {
        let d = self.dynamics.as_mut().expect("changes need dynamics");
        let c = d.changes[k as usize].clone();
        let _ = self.apply_change(c);
    }

    /// Applies change `c` now, logs it, and recomputes routes if the topology changed. A
    /// queue change a discipline refuses is logged as refused and returned as the error.
    pub fn apply_change(&mut self, c: Change) -> Result<(), String> {
        let before = self.totals.dropped;
        let mut topology = false;
        let mut refused = None;
        if let LinkChange::Middlebox(hooks, h) = &c.what {
            let mb = self.middlebox.as_deref_mut().expect("checked: the hooks exist");
            for &k in hooks {
                if let Err(e) = mb.change(k, self.now, h) {
                    refused = Some(e);
                }
            }
        }
        for &l in &c.links {
            match &c.what {
                LinkChange::Down { hold_queue } => topology |= self.link_down(l, *hold_queue),
                LinkChange::Up => topology |= self.link_up(l),
                LinkChange::Rate(r) => self.links[l.idx()].set_rate(*r),
                LinkChange::Delay(dl) => topology |= self.set_delay(l, *dl, &c.target),
                LinkChange::Error(None) => self.links[l.idx()].clear_error(),
                LinkChange::Error(Some(m)) => self.links[l.idx()].set_error(m.clone()),
                LinkChange::Queue(q) => {
                    if let Err(e) = self.change_queue(l, q.clone()) {
                        refused = Some(e);
                    }
                }
                LinkChange::Middlebox(..) => {}
            }
        }
        let dropped_pkts = self.totals.dropped - before;
        let d = self.dynamics.as_mut().expect("changes need dynamics");
        let action = match &refused {
            Some(e) => format!("{} (refused: {e})", c.action),
            None => c.action,
        };
        d.log.push(EventRecord {
            time_s: self.now.as_secs_f64(),
            action,
            target: c.target,
            dropped_pkts,
        });
        if topology {
            if self.dv.is_some() {
                let mut ends: Vec<NodeId> = c
                    .links
                    .iter()
                    .flat_map(|l| [self.links[l.idx()].from, self.links[l.idx()].to])
                    .collect();
                ends.sort_unstable();
                ends.dedup();
                self.dv_interfaces_changed(&ends);
            } else {
                self.topology_changed();
            }
        }
        refused.map_or(Ok(()), Err)
    }

    /// Applies a queue parameter change to link `l` now. A new token rate or share may let
    /// a held packet leave sooner than the wake-up the discipline asked for: an idle link
    /// with packets waiting asks it again.
    pub fn change_queue(&mut self, l: LinkId, q: QueueChange) -> Result<(), String> {
        q.check()?;
        let rewake = matches!(
            q,
            QueueChange::BucketRate(_) | QueueChange::Depth(_) | QueueChange::Allots(_)
        );
        let link = &mut self.links[l.idx()];
        link.queue.change_at(self.now, q)?;
        link.refresh_queue_flags();
        if rewake && !link.is_down() && link.waiting() > 0 {
            self.kick(l);
        }
        Ok(())
    }

    /// Fails link direction `l`. Returns whether it was up.
    fn link_down(&mut self, l: LinkId, hold_queue: bool) -> bool {
        if self.links[l.idx()].is_down() {
            return false;
        }
        let link = &mut self.links[l.idx()];
        link.set_down(true);
        // The queue first, then the wire: the order of ns-2's link reset (and of its trace).
        if !hold_queue {
            let now = self.now;
            while self.links[l.idx()].queue.len_packets() > 0 {
                let (next, _) = self.queue_call(l, now, |q, ctx| q.dequeue(ctx));
                match next {
                    Some(id) => self.drop_packet(id, DropReason::LinkDown, Some(l)),
                    // A shaper holding packets it may not send yet: they stay queued.
                    None => break,
                }
            }
        }
        let link = &mut self.links[l.idx()];
        if !link.wire.is_empty() {
            // The wire's pending `Arrive` event will find nothing due (`arrive_special`).
            link.stale_arrivals += 1;
            link.sync_stale();
        }
        while let Some(id) = self.links[l.idx()].wire.pop(&self.pool) {
            self.drop_packet(id, DropReason::LinkDown, Some(l));
        }
        true
    }

    /// Repairs link direction `l`: its transmitter starts on any queued packets. Returns
    /// whether it was down.
    fn link_up(&mut self, l: LinkId) -> bool {
        if !self.links[l.idx()].is_down() {
            return false;
        }
        self.links[l.idx()].set_down(false);
        self.kick(l);
        true
    }

    /// Sets the propagation delay of `l`; a shorter one is deferred (module doc). Returns
    /// whether routes by delay must be recomputed.
    fn set_delay(&mut self, l: LinkId, d: Dur, target: &str) -> bool {
        let link = &mut self.links[l.idx()];
        if d < link.delay {
            if let Some(last) = link.wire.last_arrival(&self.pool) {
                let safe = SimTime::ZERO + Dur(last.0.saturating_sub(d.0));
                if safe > self.now {
                    let c = Change {
                        links: vec![l],
                        what: LinkChange::Delay(d),
                        action: "set delay (deferred)".into(),
                        target: target.to_string(),
                    };
                    self.schedule_change(safe, c);
                    return false;
                }
            }
        }
        link.delay = d;
        self.dynamics.as_ref().is_some_and(|x| x.metric == Metric::Delay)
    }

    /// Routes react to a failure, a repair or (by delay) a delay change.
    fn topology_changed(&mut self) {
        let d = self.dynamics.as_mut().expect("changes need dynamics");
        if d.recompute == Recompute::Never || d.reroute_pending {
            return;
        }
        if d.convergence_delay == Dur::ZERO {
            self.reroute();
        } else {
            d.reroute_pending = true;
            let at = self.now + d.convergence_delay;
            self.sched.schedule(at, Event::Reroute);
        }
    }

    /// Recomputes every route over the links that are up, then re-applies explicit next hops.
    /// Packets not yet forwarded take the new next hops; those already queued on a link stay.
    pub fn reroute(&mut self) {
        let edges: Vec<_> = self.links.iter().map(|l| (l.from, l.to, l.delay.0)).collect();
        let up: Vec<bool> = self.links.iter().map(|l| !l.is_down()).collect();
        let d = self.dynamics.as_mut().expect("changes need dynamics");
        d.reroute_pending = false;
        let mut routes = RouteTable::shortest_paths_up(
            self.nodes.len(),
            &edges,
            &up,
            d.metric,
            self.routes.ecmp_salt(),
        );
        for &(at, to, l) in &d.overrides {
            routes.set_next_hop(at, to, l);
        }
        self.routes = routes;
        d.log.push(EventRecord {
            time_s: self.now.as_secs_f64(),
            action: "reroute".into(),
            target: String::new(),
            dropped_pkts: 0,
        });
    }

    /// An `Arrive` event at a link with the special flag: an ATM link's, or one of a link whose
    /// failure left stale events. A stale event finds the head of the wire not due now.
    #[inline(never)]
    pub(super) fn arrive_special(&mut self, l: LinkId) -> Option<super::PacketId> {
        let link = &mut self.links[l.idx()];
        if link.is_atm() {
            return self.atm_arrive(l);
        }
        if link.wire.next_arrival(&self.pool) != Some(self.now) {
            link.stale_arrivals -= 1;
            link.sync_stale();
            return None;
        }
        self.arrive_plain(l)
    }

    /// A packet routed into a link with the special flag: an ATM link, or a down link.
    #[inline(never)]
    pub(super) fn enqueue_special(&mut self, l: LinkId, id: super::PacketId) {
        let link: &mut Link = &mut self.links[l.idx()];
        if link.is_atm() {
            return self.atm_send(l, id);
        }
        let size = self.pool.get(id).size as u64;
        link.stats.arrivals += 1;
        link.stats.arrival_bytes += size;
        if self.dv.is_some() {
            // Under DV a route can point into a down link until a neighbour offers another;
            // ns-2's DynamicLink frees such packets without a trace line (no drop target).
            let trace = self.trace.take();
            self.drop_packet(id, DropReason::LinkDown, Some(l));
            self.trace = trace;
            return;
        }
        self.drop_packet(id, DropReason::LinkDown, Some(l));
    }
}
