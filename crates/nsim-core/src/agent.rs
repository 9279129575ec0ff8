//! Agents: transport endpoints attached to nodes (ns-2 `Agent`). A flow has a source agent
//! and a sink agent; the run loop hands each its timers and arriving packets.

use crate::ids::{AgentId, FlowId, NodeId};
use crate::net::Net;
use crate::packet::{Packet, PacketId};
use crate::probe::TcpProbe;
use crate::time::SimTime;

/// Timer kind every source receives once at its flow's start time.
pub const TIMER_START: u16 = 0;

/// What the application above a source does while the run goes on: flow `pause`, `resume`
/// and run-time `stop` (ns-2 `$app stop` / `$app start`; docs/models/dynamics.md "Flows").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowControl {
    /// The application supplies no new data; what the transport already sent is still
    /// recovered.
    Pause,
    /// The application supplies data again, from where it paused.
    Resume,
    /// As the flow's `stop`: no new data from now on.
    Stop,
}

/// What an agent sees of the world while handling an event.
pub struct AgentCtx<'a> {
    pub net: &'a mut Net,
    pub me: AgentId,
    pub node: NodeId,
    pub flow: FlowId,
}

impl AgentCtx<'_> {
    pub fn now(&self) -> SimTime {
        self.net.now
    }

    /// Creates a packet from this agent, counts it for the flow, and sends it into the network.
    /// Inlined into each sender's output (the packet is not copied into a call).
    #[inline(always)]
    pub fn send(&mut self, mut p: Packet) -> PacketId {
        p.flow = self.flow;
        p.src = self.node;
        p.src_agent = self.me;
        p.created = self.net.now;
        let id = self.net.pool.alloc(p);
        self.net.count_sent(self.flow, id);
        let local = self.net.forward(self.node, id);
        debug_assert!(local.is_none(), "validation rejects flows from a node to itself");
        id
    }

    /// Arms timer `kind` at absolute time `at`; the agent gets `on_timer(kind, gen)` then.
    pub fn timer_at(&mut self, at: SimTime, kind: u16, gen: u32) {
        self.net.timer(at, self.me, kind, gen);
    }
}

/// A transport endpoint.
pub trait Agent {
    /// A timer fired. Agents compare `gen` with their own to ignore stale (re-armed) timers.
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx);
    /// A packet addressed to this agent arrived. The run loop frees it afterwards.
    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx);
    /// The TCP sender state for time series; `None` for agents that are not TCP senders.
    fn tcp_probe(&self) -> Option<TcpProbe> {
        None
    }
    /// The congestion control's named state values, for the `"cc"` series (called only when
    /// it is recorded); nothing for agents that are not TCP senders.
    fn cc_state(&self, _out: &mut dyn FnMut(&'static str, f64)) {}
    /// The application pauses, resumes or stops. Called only on the sources of flows that
    /// can be paused ([`crate::sim::FlowInfo::pausable`]); the checks before make every call
    /// valid (a resume follows a pause, nothing follows a stop).
    fn control(&mut self, _c: FlowControl, _ctx: &mut AgentCtx) {}
}
