//! The TFRC receiver (RFC 5348 §6; ns-2 `Agent/TFRCSink`, tfrc-sink.cc): detects losses,
//! groups them into loss events, keeps the loss interval history and reports once per RTT.
//!
//! - Loss event (§5.2): a loss (or ECN CE mark, §5) whose send time is more than one RTT after
//!   the start of the current loss event starts a new one; R is the RTT the sender wrote into
//!   its packets. Each new event closes the open interval (sequence numbers between event
//!   starts).
//! - First loss (§6.3.1): the history is seeded with the interval that makes the equation
//!   give the receive rate of the last RTT, X_recv, so p starts where slow start left off
//!   (ns-2 `AdjustHistoryAfterSS_ 1`).
//! - Feedback (§6.2): on the first data packet; then every R while data keeps arriving (the
//!   timer is not re-armed while nothing arrives); at once when a new loss event raises p
//!   (§6.1 step 3). Before the sender knows R, every data packet is answered.
//! - X_recv: payload bytes received since the previous feedback over the time since it. An
//!   early feedback (sent less than R after the previous one, after a loss) reports the rate
//!   over the last R instead, blending in the previous report for the part of R before it, so
//!   one short interval cannot swing X_recv (ns-2 likewise averages over the last RTT).

use crate::agent::{Agent, AgentCtx};
use crate::ids::{AgentId, NodeId};
use crate::packet::{Ecn, PType, Packet, PacketId};
use crate::time::{Dur, SimTime};
use crate::transport::tfrc::config::TfrcParams;
use crate::transport::tfrc::equation;
use crate::transport::tfrc::loss_detect::LossDetector;
use crate::transport::tfrc::loss_intervals::LossIntervals;
use crate::transport::tfrc::wire::{DataHdr, FeedbackHdr};

const TIMER_FEEDBACK: u16 = 1;

pub struct TfrcSink {
    p: TfrcParams,
    src: NodeId,
    src_agent: AgentId,
    det: LossDetector,
    hist: LossIntervals,
    /// Reused buffer for the losses one arrival reveals.
    lost: Vec<(u64, SimTime)>,
    /// Start of the latest loss event: (seq, send time); None before the first loss.
    event: Option<(u64, SimTime)>,
    /// The sender's RTT estimate from its latest packet.
    rtt: Option<Dur>,
    /// Send time and arrival time of the latest data packet (t_recvdata, for t_delay).
    last_ts: SimTime,
    last_arrival: SimTime,
    bytes_since_fb: u64,
    last_fb: Option<SimTime>,
    /// X_recv of the previous feedback.
    x_recv: f64,
    /// p of the previous feedback.
    p_reported: f64,
    fb_seq: u64,
    fb_gen: u32,
    fb_armed: bool,
}

impl TfrcSink {
    pub fn new(p: TfrcParams, src: NodeId, src_agent: AgentId) -> Self {
        TfrcSink {
            det: LossDetector::new(p.ndupack),
            hist: LossIntervals::new(p.discounting),
            p,
            src,
            src_agent,
            lost: Vec::with_capacity(8),
            event: None,
            rtt: None,
            last_ts: SimTime::ZERO,
            last_arrival: SimTime::ZERO,
            bytes_since_fb: 0,
            last_fb: None,
            x_recv: 0.0,
            p_reported: 0.0,
            fb_seq: 0,
            fb_gen: 0,
            fb_armed: false,
        }
    }

    /// The open interval I_0: packets since the start of the latest loss event, inclusive.
    fn open_interval(&self) -> f64 {
        match (self.event, self.det.max_seq()) {
            (Some((s, _)), Some(m)) => (m.saturating_sub(s) + 1) as f64,
            _ => 0.0,
        }
    }

    /// Current loss event rate p.
    pub fn loss_event_rate(&self) -> f64 {
        self.hist.loss_event_rate(self.open_interval())
    }

    /// A packet `seq` sent at `t` was lost or CE-marked.
    fn on_loss(&mut self, seq: u64, t: SimTime) {
        let r = self.rtt.unwrap_or(Dur::ZERO);
        match self.event {
            None => {
                // RFC 5348 §6.3.1: the interval that gives X_recv at the current RTT.
                let rs = r.as_secs_f64().max(1e-6);
                let x = self.x_recv.max(self.p.s as f64 / rs);
                let p = equation::loss_for_rate(x, self.p.s as f64, rs, 4.0 * rs, 1.0);
                self.hist.close(1.0 / p);
                self.event = Some((seq, t));
            }
            Some((s0, t0)) if t > t0 + r => {
                self.hist.close((seq - s0) as f64);
                self.event = Some((seq, t));
            }
            Some(_) => {}
        }
    }

    fn arm_feedback(&mut self, ctx: &mut AgentCtx) {
        if let Some(r) = self.rtt {
            self.fb_gen = self.fb_gen.wrapping_add(1);
            self.fb_armed = true;
            ctx.timer_at(ctx.now() + r, TIMER_FEEDBACK, self.fb_gen);
        }
    }

    fn send_feedback(&mut self, ctx: &mut AgentCtx) {
        let now = ctx.now();
        if let Some(last) = self.last_fb {
            let dt = now.since(last).as_secs_f64();
            let r = self.rtt.map_or(0.0, Dur::as_secs_f64);
            self.x_recv = if dt >= r {
                self.bytes_since_fb as f64 / dt.max(1e-12)
            } else {
                (self.bytes_since_fb as f64 + self.x_recv * (r - dt)) / r
            };
        }
        let p = self.loss_event_rate();
        let h = FeedbackHdr {
            seq: self.fb_seq,
            t_recvdata: self.last_ts,
            t_delay: now.since(self.last_arrival),
            x_recv: self.x_recv,
            p,
        };
        ctx.send(Packet {
            dst: self.src,
            dst_agent: self.src_agent,
            size: self.p.feedback_size,
            ptype: PType::TfrcCtl,
            seq: self.fb_seq,
            tcp: h.encode(),
            ..Packet::default()
        });
        self.fb_seq += 1;
        self.p_reported = p;
        self.bytes_since_fb = 0;
        self.last_fb = Some(now);
        self.arm_feedback(ctx);
    }
}

impl Agent for TfrcSink {
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx) {
        if kind == TIMER_FEEDBACK && gen == self.fb_gen {
            self.fb_armed = false;
            if self.bytes_since_fb > 0 {
                self.send_feedback(ctx);
            }
        }
    }

    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        let pkt = ctx.net.pool.get(id);
        let (d, ce) = (DataHdr::decode(&pkt.tcp), pkt.ecn == Ecn::Ce);
        ctx.net.flows[ctx.flow.idx()].goodput_bytes += d.payload as u64;
        let first = self.det.max_seq().is_none();
        self.bytes_since_fb += d.payload as u64;
        self.rtt = d.rtt.or(self.rtt);
        self.last_ts = d.ts;
        self.last_arrival = ctx.now();
        let mut lost = std::mem::take(&mut self.lost);
        self.det.on_packet(d.seq, d.ts, &mut lost);
        if ce {
            lost.push((d.seq, d.ts));
        }
        for &(seq, t) in &lost {
            self.on_loss(seq, t);
        }
        lost.clear();
        self.lost = lost;
        if first || self.rtt.is_none() || self.loss_event_rate() > self.p_reported {
            self.send_feedback(ctx);
        } else if !self.fb_armed {
            self.arm_feedback(ctx);
        }
    }
}
