//! The STP sender (Henderson & Katz, "Transport Protocols for Internet-Compatible Satellite
//! Networks", IEEE JSAC 17(2) 1999; SSCOP, ITU-T Q.2110; what is sourced and what is a
//! choice: `docs/models/stp.md`).
//!
//! - Data (SD) leaves while VT(S) < VT(A) + min(cwnd, window): a TCP-like window (slow start
//!   +1 packet per packet acknowledged below ssthresh, +1/cwnd above).
//! - The sender asks for status with a POLL every `poll_interval` (default one smoothed RTT)
//!   while data is outstanding (SSCOP Timer_POLL), and also after every `poll_after_packets`
//!   SD packets (SSCOP MaxPD), which restarts the timer. The receiver's STAT acknowledges
//!   cumulatively and lists gaps; its USTAT reports a new gap at once.
//! - Selective retransmission: a gap listed in a USTAT is resent at once; a gap listed in a
//!   STAT answering POLL k is resent only if its last transmission preceded POLL k (SSCOP's
//!   N(PS) rule), so a retransmission still in flight is not sent again.
//! - Loss response: halve the window (ssthresh = cwnd = max(outstanding/2, 2)) at most once
//!   per window of data (a loss of a packet sent after the last reduction), as TCP does;
//!   with `gap_cuts_window = false` a gap is only resent (SSCOP has no congestion window).
//! - The first POLL follows the first burst at once, so the first STAT gives an RTT sample;
//!   later POLLs follow the poll timer.
//! - No response (SSCOP Timer_NO-RESPONSE): when the oldest unanswered POLL has waited one
//!   RTO (RFC 6298 estimator on POLL->STAT round trips, backed off per expiry) plus one poll
//!   interval, the window falls to 1, the oldest packet is resent and a POLL follows. The
//!   extra poll interval lets the next POLL's STAT stand in for one lost STAT (SSCOP, too,
//!   sizes Timer_NO-RESPONSE well above Timer_POLL), so a lost STAT does not collapse the
//!   window.

use std::collections::VecDeque;

use crate::agent::{Agent, AgentCtx, FlowControl, TIMER_START};
use crate::ids::{AgentId, NodeId};
use crate::packet::{PType, Packet, PacketId, TcpHdr};
use crate::tcp::rtt::RttEstimator;
use crate::tcp::{CongState, TcpProbe};
use crate::time::{Dur, SimTime};
use crate::transport::stp::config::StpParams;
use crate::transport::stp::wire::{Poll, Stat};

const TIMER_POLL: u16 = 1;
const TIMER_NORESPONSE: u16 = 2;
const TIMER_STOP: u16 = 3;
/// RTT clock granularity of the no-response timer.
const TICK: Dur = Dur::from_millis(1);
const MAX_RTO: Dur = Dur::from_secs(60);

pub struct StpSender {
    p: StpParams,
    dst: NodeId,
    dst_agent: AgentId,
    stop: Option<SimTime>,
    /// No new packets (the flow's stop passed, or it is paused); retransmissions go on.
    stopped: bool,
    pub prio: u8,
    pub tag: u16,
    /// VT(A): oldest unacknowledged sequence number.
    una: u64,
    /// VT(S): next new sequence number.
    next: u64,
    /// VT(PS): number of the next POLL.
    ps: u64,
    /// VT(PD): SD packets sent since the last POLL.
    pd: u32,
    /// For each of [una, next): VT(PS) when it was last sent.
    sent_ps: VecDeque<u64>,
    cwnd: f64,
    ssthresh: f64,
    /// Packets from here on were sent after the last window reduction.
    recover: u64,
    timed_out: bool,
    rtt: RttEstimator,
    poll_gen: u32,
    /// When the armed POLL timer fires (None: not armed).
    poll_at: Option<SimTime>,
    last_poll: SimTime,
    noresp_gen: u32,
    /// Send times of the POLLs not answered yet, oldest first (a few: one per RTT).
    unanswered: VecDeque<(u64, SimTime)>,
}

impl StpSender {
    pub fn new(p: StpParams, dst: NodeId, dst_agent: AgentId, stop: Option<SimTime>) -> Self {
        StpSender {
            rtt: RttEstimator::new(TICK, Dur::ZERO, p.min_rto, p.initial_rto, MAX_RTO),
            cwnd: p.initial_window,
            ssthresh: p.initial_ssthresh,
            sent_ps: VecDeque::with_capacity((p.window as usize).min(4096) + 8),
            p,
            dst,
            dst_agent,
            stop,
            stopped: false,
            prio: 0,
            tag: 0,
            una: 0,
            next: 0,
            ps: 0,
            pd: 0,
            recover: 0,
            timed_out: false,
            poll_gen: 0,
            poll_at: None,
            last_poll: SimTime::ZERO,
            noresp_gen: 0,
            unanswered: VecDeque::with_capacity(8),
        }
    }

    fn outstanding(&self) -> u64 {
        self.next - self.una
    }

    fn send(&mut self, ptype: PType, size: u32, seq: u64, h: TcpHdr, ctx: &mut AgentCtx) {
        ctx.send(Packet {
            dst: self.dst,
            dst_agent: self.dst_agent,
            size,
            ptype,
            prio: self.prio,
            tag: self.tag,
            seq,
            tcp: h,
            ..Packet::default()
        });
    }

    /// Sends SD `seq` (new or again) and notes the POLL it precedes.
    fn output(&mut self, seq: u64, ctx: &mut AgentCtx) {
        let h = TcpHdr { seq, ts_echo: ctx.now(), payload: self.p.payload, ..TcpHdr::default() };
        self.send(PType::Stp, self.p.payload + self.p.header, seq, h, ctx);
        if seq == self.next {
            self.sent_ps.push_back(self.ps);
            self.next += 1;
        } else {
            self.sent_ps[(seq - self.una) as usize] = self.ps;
            ctx.net.flows[ctx.flow.idx()].tcp.retransmits += 1;
        }
        self.pd += 1;
        if self.p.poll_after_packets.is_some_and(|max| self.pd >= max) {
            self.send_poll(ctx);
            self.arm_poll(ctx.now() + self.poll_interval(), ctx);
        }
    }

    fn send_much(&mut self, ctx: &mut AgentCtx) {
        let win = self.cwnd.min(self.p.window as f64) as u64;
        while !self.stopped && self.next < self.una + win.max(1) {
            self.output(self.next, ctx);
        }
        if self.outstanding() > 0 && self.poll_at.is_none() {
            self.arm_poll(ctx.now() + self.poll_interval(), ctx);
        }
    }

    fn poll_interval(&self) -> Dur {
        self.p.poll_interval.unwrap_or_else(|| match self.rtt.srtt() {
            Dur::ZERO => self.p.initial_rto,
            s => s,
        })
    }

    fn arm_poll(&mut self, at: SimTime, ctx: &mut AgentCtx) {
        self.poll_gen = self.poll_gen.wrapping_add(1);
        self.poll_at = Some(at);
        ctx.timer_at(at, TIMER_POLL, self.poll_gen);
    }

    fn send_poll(&mut self, ctx: &mut AgentCtx) {
        let poll = Poll { ps: self.ps, next_seq: self.next, sent: ctx.now() };
        self.send(PType::StpPoll, self.p.header, self.ps, poll.encode(), ctx);
        self.unanswered.push_back((self.ps, poll.sent));
        if self.unanswered.len() == 1 {
            self.arm_noresponse(ctx);
        }
        self.ps += 1;
        self.pd = 0;
        self.last_poll = poll.sent;
        ctx.net.flows[ctx.flow.idx()].ctl.polls += 1;
    }

    /// Arms the no-response timer for the oldest unanswered POLL (none: the timer stops).
    fn arm_noresponse(&mut self, ctx: &mut AgentCtx) {
        self.noresp_gen = self.noresp_gen.wrapping_add(1);
        if let Some(&(_, sent)) = self.unanswered.front() {
            let at = sent + self.rtt.rto() + self.poll_interval();
            ctx.timer_at(at.max(ctx.now()), TIMER_NORESPONSE, self.noresp_gen);
        }
    }

    fn on_poll_timer(&mut self, ctx: &mut AgentCtx) {
        self.poll_at = None;
        if self.outstanding() > 0 {
            self.send_poll(ctx);
            self.arm_poll(ctx.now() + self.poll_interval(), ctx);
        }
    }

    fn on_noresponse(&mut self, ctx: &mut AgentCtx) {
        self.unanswered.clear();
        if self.outstanding() == 0 {
            return;
        }
        ctx.net.flows[ctx.flow.idx()].tcp.timeouts += 1;
        self.ssthresh = (self.outstanding() as f64 / 2.0).max(2.0);
        self.cwnd = 1.0;
        self.recover = self.next;
        self.timed_out = true;
        self.rtt.back_off();
        self.output(self.una, ctx);
        self.send_poll(ctx);
    }

    /// A loss of `seq` was reported: halve the window once per window of data.
    fn on_loss(&mut self, seq: u64) {
        if self.p.gap_cuts_window && seq >= self.recover {
            self.ssthresh = (self.outstanding() as f64 / 2.0).max(2.0);
            self.cwnd = self.ssthresh;
            self.recover = self.next;
        }
    }

    fn on_stat(&mut self, s: Stat, ctx: &mut AgentCtx) {
        let now = ctx.now();
        if let Some((k, sent)) = s.poll {
            self.rtt.sample(sent, now);
            // A shorter interval (the first RTT sample) takes effect now.
            let due = (self.last_poll + self.poll_interval()).max(now);
            if self.poll_at.is_some_and(|at| due < at) {
                self.arm_poll(due, ctx);
            }
            while self.unanswered.front().is_some_and(|&(ps, _)| ps <= k) {
                self.unanswered.pop_front();
            }
            self.arm_noresponse(ctx);
        }
        let cum = s.cum.min(self.next);
        if cum > self.una {
            for _ in self.una..cum {
                self.cwnd += if self.cwnd < self.ssthresh { 1.0 } else { 1.0 / self.cwnd };
                self.sent_ps.pop_front();
            }
            self.una = cum;
            self.rtt.reset_backoff();
            self.timed_out &= self.una < self.recover;
        }
        for &(a, b) in s.gaps() {
            for seq in a.max(self.una)..b.min(self.next) {
                let eligible = match s.poll {
                    // SSCOP: resend only what was last sent before the POLL this STAT answers.
                    Some((k, _)) => self.sent_ps[(seq - self.una) as usize] <= k,
                    None => true,
                };
                if eligible {
                    self.on_loss(seq);
                    self.output(seq, ctx);
                }
            }
        }
        self.send_much(ctx);
    }
}

impl Agent for StpSender {
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx) {
        match kind {
            TIMER_START => {
                if let Some(stop) = self.stop {
                    ctx.timer_at(stop, TIMER_STOP, 0);
                }
                self.send_much(ctx);
                self.send_poll(ctx);
            }
            TIMER_POLL if gen == self.poll_gen => self.on_poll_timer(ctx),
            TIMER_NORESPONSE if gen == self.noresp_gen => self.on_noresponse(ctx),
            TIMER_STOP => self.stopped = true,
            _ => {}
        }
    }

    /// A pause or stop sends no new packets, as the flow's `stop` does (POLLs and
    /// retransmissions go on); a resume sends what the window allows.
    fn control(&mut self, c: FlowControl, ctx: &mut AgentCtx) {
        self.stopped = c != FlowControl::Resume;
        if !self.stopped {
            self.send_much(ctx);
        }
    }

    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        let s = Stat::decode(&ctx.net.pool.get(id).tcp);
        self.on_stat(s, ctx);
    }

    fn tcp_probe(&self) -> Option<TcpProbe> {
        let state = if self.timed_out {
            CongState::Loss
        } else if self.una < self.recover {
            CongState::Recovery
        } else {
            CongState::Open
        };
        let pkts = self.outstanding();
        Some(TcpProbe {
            cwnd: self.cwnd,
            ssthresh: self.ssthresh,
            srtt: self.rtt.srtt(),
            rto: self.rtt.rto(),
            in_flight_pkts: pkts,
            in_flight_bytes: pkts * (self.p.payload + self.p.header) as u64,
            state,
        })
    }
}
