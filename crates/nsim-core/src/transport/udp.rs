//! UDP (ns-2 `Agent/UDP` + `Agent/Null`/`Agent/LossMonitor`): a source that sends one datagram
//! per generator emission, with no header added (the generator's size is the size on the
//! wire, as in ns-2), and a sink that counts what arrives.

use crate::agent::{Agent, AgentCtx, FlowControl, TIMER_START};
use crate::app::Generator;
use crate::ids::{AgentId, NodeId};
use crate::packet::{PType, Packet, PacketId};
use crate::rng::SimRng;
use crate::time::{Dur, SimTime};

const TIMER_SEND: u16 = 1;

pub struct UdpSource {
    pub gen: Box<dyn Generator>,
    pub rng: SimRng,
    pub ptype: PType,
    pub dst: NodeId,
    pub dst_agent: AgentId,
    /// Last instant at which a packet may leave.
    pub stop: SimTime,
    pub prio: u8,
    pub tag: u16,
    seq: u64,
    /// The generator is paused (flow `pause`, run-time `stop`).
    paused: bool,
    /// The send timer's generation: a pause makes the pending one stale.
    send_gen: u32,
}

impl UdpSource {
    pub fn new(
        gen: Box<dyn Generator>,
        rng: SimRng,
        ptype: PType,
        dst: NodeId,
        dst_agent: AgentId,
        stop: SimTime,
    ) -> Self {
        UdpSource {
            gen,
            rng,
            ptype,
            dst,
            dst_agent,
            stop,
            prio: 0,
            tag: 0,
            seq: 0,
            paused: false,
            send_gen: 0,
        }
    }

    /// Inlined into `on_timer` as when it was its only caller: a call per datagram costs
    /// ~2 % of the instructions of a UDP-only run (docs/performance.md, issue 27 pauses).
    #[inline(always)]
    fn emit(&mut self, ctx: &mut AgentCtx) {
        let now = ctx.now();
        if now > self.stop || self.paused {
            return;
        }
        let e = self.gen.next(&mut self.rng);
        let prio = self.gen.prio().unwrap_or(self.prio);
        // Logged before sending: the packet may be dropped (or even delivered) within `send`.
        if let Some(log) = ctx.net.video_packets.as_mut() {
            if let Some(tag) = self.gen.video_tag() {
                log.sent(ctx.flow, self.seq, e.size, tag, now);
            }
        }
        ctx.send(Packet {
            dst: self.dst,
            dst_agent: self.dst_agent,
            size: e.size,
            ptype: self.ptype,
            prio,
            tag: self.tag,
            seq: self.seq,
            ..Default::default()
        });
        self.seq += 1;
        let next = now + e.gap;
        if next <= self.stop {
            ctx.timer_at(next, TIMER_SEND, self.send_gen);
        }
    }
}

impl Agent for UdpSource {
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx) {
        if kind == TIMER_START || (kind == TIMER_SEND && gen == self.send_gen) {
            self.emit(ctx);
        }
    }
    fn on_packet(&mut self, _id: PacketId, _ctx: &mut AgentCtx) {}

    /// ns-2 `TrafficGenerator::stop` / `start`: a pause cancels the next datagram; on resume
    /// one leaves at once and the generator's gaps follow from there (its state, e.g. an
    /// on/off source's burst, goes on where it was).
    fn control(&mut self, c: FlowControl, ctx: &mut AgentCtx) {
        self.paused = c != FlowControl::Resume;
        self.send_gen = self.send_gen.wrapping_add(1);
        if c == FlowControl::Resume {
            self.emit(ctx);
        }
    }
}

/// Counts datagrams; all of a datagram is application payload for goodput. With a
/// `deadline`, also counts the datagrams that arrive more than `deadline` after they were
/// sent (a playout deadline, Noureddine 2002 ch. 5 video and voice).
pub struct UdpSink {
    pub deadline: Option<Dur>,
}

impl Agent for UdpSink {
    fn on_timer(&mut self, _kind: u16, _gen: u32, _ctx: &mut AgentCtx) {}
    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        let p = ctx.net.pool.get(id);
        let (size, late) =
            (p.size as u64, self.deadline.is_some_and(|d| ctx.now().since(p.created) > d));
        let f = &mut ctx.net.flows[ctx.flow.idx()];
        f.goodput_bytes += size;
        f.late_pkts += late as u64;
    }
}
