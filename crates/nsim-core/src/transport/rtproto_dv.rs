//! A node's routing agent under DV routing (ns-2 `Agent/rtProto/DV`, one per node): the
//! address its advertisements come from and go to, and its advertisement timer. It holds no
//! state: both hand over to the node's DV state in [`crate::net::Net::dv`]
//! ([`crate::net::routing::dv`]).

use crate::agent::{Agent, AgentCtx};
use crate::packet::PacketId;

/// The routing agent of one node.
pub struct DvAgent;

impl Agent for DvAgent {
    fn on_timer(&mut self, _kind: u16, _gen: u32, ctx: &mut AgentCtx) {
        ctx.net.dv_periodic(ctx.node);
    }

    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        ctx.net.dv_receive(ctx.node, id);
    }
}
