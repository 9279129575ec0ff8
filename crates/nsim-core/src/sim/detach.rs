//! A flow whose two ends are detached at its stop, as ns-2's `$ns detach-agent $node $agent`
//! on both (the flow's `detach_at_stop`; ns-2 scripts' front end sets it).
//!
//! Source: ns-2.35 tcl/lib/ns-node.tcl `Node instproc detach`: the agent's target becomes the
//! simulator's null agent and the node's port demultiplexer hands the agent's port to the null
//! agent. So from that instant the source sends nothing (no retransmission either) and reacts
//! to nothing, and the sink answers nothing: a packet still in flight reaches the node (the
//! link trace shows its `r`), is delivered there and is discarded. A flow's plain `stop` only
//! ends new data: the sender still retransmits and the sink still ACKs. Checked against
//! ns-2.35 on the distribution's `simple.tcl` (tests/test_ns2_scripts.py).
//!
//! Cost: one time comparison per event of the wrapped agents; nothing for other flows.

use crate::agent::{Agent, AgentCtx, FlowControl};
use crate::packet::PacketId;
use crate::probe::TcpProbe;
use crate::time::SimTime;

/// An agent that ignores its timers and the packets reaching it from `at` on; before, it is
/// `inner`. Its TCP state stays readable (frozen at the detach).
pub struct DetachedAt {
    inner: Box<dyn Agent>,
    at: SimTime,
}

impl DetachedAt {
    /// `inner`, detached at `at`.
    pub fn boxed(inner: Box<dyn Agent>, at: SimTime) -> Box<dyn Agent> {
        Box::new(DetachedAt { inner, at })
    }
}

impl Agent for DetachedAt {
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx) {
        if ctx.now() < self.at {
            self.inner.on_timer(kind, gen, ctx);
        }
    }
    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        if ctx.now() < self.at {
            self.inner.on_packet(id, ctx);
        }
    }
    fn tcp_probe(&self) -> Option<TcpProbe> {
        self.inner.tcp_probe()
    }
    fn cc_state(&self, out: &mut dyn FnMut(&'static str, f64)) {
        self.inner.cc_state(out);
    }
    fn control(&mut self, c: FlowControl, ctx: &mut AgentCtx) {
        if ctx.now() < self.at {
            self.inner.control(c, ctx);
        }
    }
}
