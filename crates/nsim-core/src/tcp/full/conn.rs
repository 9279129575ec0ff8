//! One endpoint of a full TCP connection: the RFC 793 state machine, sending (windows,
//! Nagle, FIN), receiving (reassembly, delayed ACK), the retransmission timer and loss
//! recovery. Both ends of a flow are this agent: the source opens actively, the sink listens.
//!
//! Read first: RFC 793 §3.9 (event processing), RFC 1122 §4.2, RFC 5681, RFC 6298; ns-2.35
//! `tcp/tcp-full.cc` (`FullTcpAgent::recv`, `send_much`, `foutput`, `timeout_action`), the
//! behavioural reference: defaults and packet types follow it (see docs/models/tcp_full.md).

use super::app::{App, AppOut};
use super::config::{FullParams, FullVariant, RecoveryRules};
use super::delack::{AckNow, DelayedAck};
use super::nagle::{Nagle, ShortSegment};
use super::prr::PrrRecovery;
use super::reassembly::Reassembly;
use super::recovery::{DupAction, FastRecovery, NewAck};
use super::sack::{self, Flight, SackSender};
use super::send_buffer::SendBuffer;
use super::send_times::SendTimes;
use super::state::State;
use super::timer::Timer;
use crate::agent::{Agent, AgentCtx, FlowControl, TIMER_START};
use crate::ids::{AgentId, NodeId};
use crate::packet::flags;
use crate::packet::{PType, Packet, PacketId, TcpHdr};
use crate::tcp::cc::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::pacing::Pacer;
use crate::tcp::rtt::RttEstimator;
use crate::tcp::{CongState, TcpProbe};
use crate::time::{Dur, SimTime};
use stream_end::{
    StreamEnd, TIMER_REQUEST, TIMER_STREAM_MESSAGE, TIMER_STREAM_REOPEN, TIMER_STREAM_RESET,
    TIMER_STREAM_WAKE,
};

const TIMER_RTX: u16 = 1;
const TIMER_DELACK: u16 = 2;
const TIMER_APP: u16 = 3;
const TIMER_TIME_WAIT: u16 = 4;
const TIMER_PERSIST: u16 = 5;
const TIMER_READ: u16 = 6;
/// The pacer's release (after the stream timers, 7-10).
const TIMER_PACE: u16 = 11;
/// RACK's reordering timer and TLP's probe timeout (one timer, [`rack_tlp`]).
const TIMER_RACK: u16 = 12;
/// The persist interval doubles up to this multiple of the RTO (bounded by `max_rto`).
const MAX_PERSIST_BACKOFF: u32 = 64;

#[path = "stream_end.rs"]
pub mod stream_end;

#[path = "rack_tlp.rs"]
pub mod rack_tlp;

/// Initial send sequence number (ns-2 `iss_ 0`).
const ISS: u64 = 0;

pub struct FullTcp {
    p: FullParams,
    peer: (NodeId, AgentId),
    pub prio: u8,
    pub tag: u16,
    /// The active opener (ns-2: the agent that sends first; its pure ACKs are `tcp`
    /// packets, the listener's are `ack` packets).
    active: bool,
    state: State,
    snd_una: u64,
    snd_nxt: u64,
    snd_max: u64,
    /// The peer's advertised window, bytes (SND.WND), and the update guards SND.WL1/WL2.
    snd_wnd: u64,
    snd_wl1: u64,
    snd_wl2: u64,
    max_sndwnd: u64,
    /// End (exclusive) of the last segment shorter than the MSS (Minshall's rule).
    short_end: u64,
    /// Sequence number of our FIN once the application has closed and all data is queued.
    fin_seq: Option<u64>,
    buf: SendBuffer,
    rcv: Reassembly,
    delack: DelayedAck,
    nagle: Nagle,
    cc: Box<dyn CongestionControl>,
    rec: FastRecovery,
    /// SACK scoreboard and pipe control (variant "sack" only).
    sack: Option<SackSender>,
    /// Proportional Rate Reduction in RFC 6675 recovery (`prr`; [`super::prr`]).
    prr: Option<PrrRecovery>,
    /// RACK-TLP loss detection in RFC 6675 recovery (`loss_detection = "rack"`; [`rack_tlp`]).
    rack: Option<rack_tlp::RackTlp>,
    rtt: RttEstimator,
    rtt_active: bool,
    rtt_seq: u64,
    rtt_ts: SimTime,
    /// Every segment's send time, for an RTT sample on every new ACK (`cc = "cubic"`: CUBIC and
    /// HyStart++ read one per ACK; Reno reads none) and RACK's per-segment state
    /// (`loss_detection = "rack"`).
    send_times: Option<SendTimes>,
    /// The congestion control samples the delivery rate and owns cwnd (BBR, BBRv3): it
    /// hears every data segment sent and every ACK ([`CongestionControl::samples_delivery`],
    /// in MSS-sized segment numbers, [`FullTcp::segment_number`]), and recovery leaves cwnd
    /// to it (no setting to ssthresh + dupthresh, no inflation or deflation).
    delivery: bool,
    /// Spaces data segments at the congestion control's pacing rate, for the congestion
    /// controls that sample the delivery rate (BBR, BBRv3, which set their rate by pacing;
    /// one segment per release; [`crate::tcp::pacing`]).
    pacer: Option<Pacer>,
    rtx: Timer,
    delack_timer: Timer,
    /// Zero-window probing (RFC 1122 §4.2.2.17) and its backoff multiplier.
    persist: Timer,
    persist_backoff: u32,
    /// A slow reader's next read is scheduled.
    reading: bool,
    app: App,
    app_gen: u32,
    /// An ACK must go out with the next segment, or alone.
    ack_now: bool,
    /// The window was reduced: the next new data segment carries CWR (ns-2 `cong_action_`,
    /// the trace's 'A' flag).
    cwr_pending: bool,
    /// A finite transfer's data bytes, for its completion time.
    file_bytes: Option<u64>,
    reported_done: bool,
    /// A byte-stream application (or its peer) driving this end (None: `app` does).
    stream: Option<StreamEnd>,
    /// Connections this end has had before the current one (stream flows reconnect).
    incarnation: u32,
    /// The bulk application is paused (or stopped): no data beyond this sequence number,
    /// the end of what was sent when it paused ([`Agent::control`]).
    paused_end: Option<u64>,
}

impl FullTcp {
    pub fn new(
        p: FullParams,
        cc: Box<dyn CongestionControl>,
        app: App,
        active: bool,
        peer: (NodeId, AgentId),
        file_bytes: Option<u64>,
    ) -> Self {
        let phase = p.clock_offset.unwrap_or(Dur::ZERO);
        let rtt = RttEstimator::new(p.tick, phase, p.min_rto, p.initial_rto, p.max_rto);
        let mut rcv = Reassembly::new(p.rcv_buffer);
        rcv.recent_first = p.recovery_rules == RecoveryRules::Rfc;
        let delivery = cc.samples_delivery();
        FullTcp {
            peer,
            prio: 0,
            tag: 0,
            active,
            state: if active { State::Closed } else { State::Listen },
            snd_una: ISS,
            snd_nxt: ISS,
            snd_max: ISS,
            snd_wnd: 0,
            snd_wl1: 0,
            snd_wl2: 0,
            max_sndwnd: 0,
            short_end: 0,
            fin_seq: None,
            buf: SendBuffer::new(p.snd_buffer),
            rcv,
            delack: DelayedAck::new(
                p.delayed_ack,
                p.delack_interval,
                p.delack_clock,
                p.delack_phase.unwrap_or(Dur::ZERO),
            )
            .by_bytes(p.delack_by_bytes),
            nagle: Nagle { enabled: p.nagle, minshall: p.minshall },
            rec: FastRecovery::new(p.variant, p.recovery_rules, p.dupthresh),
            sack: (p.variant == FullVariant::Sack).then(|| SackSender {
                rfc: p.recovery_rules == RecoveryRules::Rfc,
                ..SackSender::default()
            }),
            prr: p.prr.map(PrrRecovery::new),
            rack: p.rack.map(rack_tlp::RackTlp::new),
            cc,
            rtt,
            rtt_active: false,
            rtt_seq: 0,
            rtt_ts: SimTime::ZERO,
            send_times: (p.cubic.is_some() || p.rack.is_some()).then(SendTimes::default),
            delivery,
            pacer: p.pacing.map(Pacer::new),
            rtx: Timer::default(),
            delack_timer: Timer::default(),
            persist: Timer::default(),
            persist_backoff: 1,
            reading: false,
            app,
            app_gen: 0,
            ack_now: false,
            cwr_pending: false,
            file_bytes,
            reported_done: false,
            stream: None,
            incarnation: 0,
            paused_end: None,
            p,
        }
    }

    /// A byte-stream application or its peer drives this end instead of `app`.
    pub fn set_stream(&mut self, s: StreamEnd) {
        self.stream = Some(s);
    }

    /// The active open: SYN.
    fn open(&mut self, ctx: &mut AgentCtx) {
        let now = ctx.now();
        ctx.net.flows[ctx.flow.idx()].full.syn_sent.get_or_insert(now);
        self.state = State::SynSent;
        self.send_syn(ctx);
    }

    /// One past the last data byte the application has handed over (and, while it is
    /// paused, that TCP has sent).
    fn data_end(&self) -> u64 {
        let end = ISS + 1 + self.buf.written();
        self.paused_end.map_or(end, |p| end.min(p))
    }

    /// Data bytes acknowledged so far.
    fn acked_data(&self) -> u64 {
        self.snd_una.saturating_sub(ISS + 1).min(self.buf.written())
    }

    /// Sends one segment `[seq, seq + len)` with `fl` (ACK added once synchronized).
    fn segment(&mut self, ctx: &mut AgentCtx, seq: u64, len: u64, mut fl: u8) {
        let syn = fl & flags::SYN != 0;
        if self.state != State::SynSent && fl & flags::RST == 0 {
            fl |= flags::ACK;
        }
        if syn && self.p.window_scale {
            fl |= flags::WSCALE;
        }
        if len > 0 && seq >= self.snd_max && self.cwr_pending {
            fl |= flags::CWR;
            self.cwr_pending = false;
        }
        let rwnd = if syn { self.rcv.advertise_syn() } else { self.rcv.advertise(self.p.mss) };
        let ack = if fl & flags::ACK != 0 { self.rcv.rcv_nxt } else { 0 };
        // A SACK receiver reports its out-of-order blocks on every segment (ns-2
        // `SackFullTcpAgent::build_options`); the option lengthens the header.
        let (blocks, nsack) = match self.sack {
            Some(_) if fl & flags::ACK != 0 => self.rcv.sack_blocks(),
            _ => ([(0, 0); 3], 0),
        };
        let options =
            if nsack > 0 { sack::OPTION_BYTES + sack::BLOCK_BYTES * nsack as u64 } else { 0 };
        // ns-2 FullTcp: the listener's segments without data are `ack` packets (the SYN-ACK
        // too), the opener's are `tcp`. The trace's seq column shows the ACK number for `ack`.
        let ptype =
            if len == 0 && !self.active && fl & flags::RST == 0 { PType::Ack } else { PType::Tcp };
        let now = ctx.now();
        ctx.send(Packet {
            dst: self.peer.0,
            dst_agent: self.peer.1,
            size: (self.p.header + options + len) as u32,
            ptype,
            prio: self.prio,
            tag: self.tag,
            seq: if ptype == PType::Ack { ack } else { seq },
            tcp: TcpHdr {
                seq,
                ack,
                flags: fl,
                nsack,
                ns2_ack_type: !self.active,
                conn: 0,
                sack: blocks,
                ts_echo: now,
                payload: len as u32,
                rwnd,
            },
            ..Packet::default()
        });
        if fl & flags::ACK != 0 {
            self.ack_now = false;
            self.delack.ack_sent();
            self.delack_timer.cancel();
        }
        let span = len + u64::from(syn) + u64::from(fl & flags::FIN != 0);
        if span == 0 {
            return;
        }
        let end = seq + span;
        if let Some(t) = &mut self.send_times {
            t.sent(seq, end, self.snd_max, now);
        }
        if len > 0 {
            self.data_sent(seq, self.p.header + options + len, now);
        }
        if seq < self.snd_max {
            ctx.net.flows[ctx.flow.idx()].tcp.retransmits += 1;
        } else if !self.rtt_active {
            self.rtt_active = true;
            self.rtt_seq = seq;
            self.rtt_ts = now;
        }
        if len > 0 && len < self.p.mss {
            self.short_end = end;
        }
        let idle = self.snd_una == self.snd_max;
        self.snd_max = self.snd_max.max(end);
        if !self.rtx.is_set() || idle {
            self.set_rtx(ctx);
        }
    }

    /// A data segment at `seq` of `wire` bytes left at `now`, before `snd_max` moves: the
    /// delivery-rate hook (BBR) and the pacer hear of it.
    fn data_sent(&mut self, seq: u64, wire: u64, now: SimTime) {
        if self.delivery {
            let in_flight = self.segments_out();
            self.cc.on_sent(self.segment_number(seq), now, in_flight, seq < self.snd_max);
        }
        let rate = self.pacing_rate();
        if let Some(p) = &mut self.pacer {
            p.sent(now, wire, rate);
        }
    }

    /// Segments outstanding: the bytes sent and not acknowledged / `mss`, rounded up.
    fn segments_out(&self) -> u64 {
        (self.snd_max - self.snd_una).div_ceil(self.p.mss)
    }

    /// The number of the MSS-sized segment holding data byte `seq` (0 from the first data
    /// byte): the delivery-rate sampler counts packets, as the one-way TCP's sequence space.
    /// A bulk or file sender's segments start at multiples of the MSS, so each segment has its
    /// own number; short segments (Nagle, request/response) may share one.
    fn segment_number(&self, seq: u64) -> i64 {
        (seq.saturating_sub(ISS + 1) / self.p.mss) as i64
    }

    /// The last segment number wholly or partly below byte `ack` (−1: none): an ACK of
    /// everything below `ack` delivers it.
    fn segments_below(&self, ack: u64) -> i64 {
        let data = ack.saturating_sub(ISS + 1).min(self.buf.written());
        data.div_ceil(self.p.mss) as i64 - 1
    }

    /// The congestion control's pacing rate, bit/s of wire bytes ([`Pacer::rate`]).
    fn pacing_rate(&self) -> Option<f64> {
        let pacer = self.pacer.as_ref()?;
        pacer.rate(
            self.cc.pacing_rate(),
            self.cc.cwnd(),
            self.cc.ssthresh(),
            self.rtt.srtt(),
            self.p.mss + self.p.header,
        )
    }

    /// Whether the pacer holds data segments now; if so, one release timer is armed.
    fn paced(&mut self, ctx: &mut AgentCtx) -> bool {
        let Some(p) = &mut self.pacer else { return false };
        let Some(at) = p.hold(ctx.now()) else { return false };
        if !p.armed {
            p.armed = true;
            ctx.timer_at(at, TIMER_PACE, 0);
        }
        true
    }

    fn set_rtx(&mut self, ctx: &mut AgentCtx) {
        let at = ctx.now() + self.rtt.rto();
        self.rtx.set(at, TIMER_RTX, ctx);
    }

    /// SYN (active) or SYN-ACK (passive), also when retransmitted.
    fn send_syn(&mut self, ctx: &mut AgentCtx) {
        self.segment(ctx, ISS, 0, flags::SYN);
        self.snd_nxt = ISS + 1;
    }

    fn send_ack(&mut self, ctx: &mut AgentCtx) {
        self.segment(ctx, self.snd_nxt, 0, 0);
    }

    fn sends_data(&self) -> bool {
        matches!(
            self.state,
            State::Established
                | State::CloseWait
                | State::FinWait1
                | State::Closing
                | State::LastAck
        )
    }

    /// The sending window in whole segments: cwnd capped at `window` (ns-2 `window_`), at
    /// least one.
    fn window_segments(&self) -> u64 {
        self.cc.cwnd().min(self.p.window as f64).max(1.0).floor() as u64
    }

    /// Sends `len` bytes of data at `seq`, with the FIN when they are the stream's last.
    fn send_data(&mut self, ctx: &mut AgentCtx, seq: u64, len: u64) {
        let fin = self.fin_seq == Some(seq + len);
        self.segment(ctx, seq, len, if fin { flags::FIN } else { 0 });
        self.sent(seq, len + u64::from(fin));
    }

    /// Sends what the windows, Nagle and SWS avoidance allow; `force` sends one segment
    /// regardless (after a timeout). Returns the segments sent (ns-2 `send_much`).
    fn send_much(&mut self, ctx: &mut AgentCtx, mut force: bool) -> u32 {
        if !self.sends_data() {
            return 0;
        }
        let (mut sent, max_before) = (0, self.snd_max);
        loop {
            let seq = self.next_seq();
            let win = (self.window_segments() * self.p.mss).min(self.snd_wnd);
            let data_end = self.data_end();
            let queued = data_end.saturating_sub(seq);
            let usable = match &self.sack {
                // Pipe control: one segment if pipe and the peer's window allow it.
                Some(s) if s.pipectrl => {
                    let in_window = seq < self.flight().wnd_edge;
                    let allows = match (self.prr.as_ref().filter(|p| p.active()), self.rack_pipe())
                    {
                        // PRR: the last ACK's sndcnt, within the peer's window.
                        (Some(p), _) => p.allows(self.p.mss) && in_window,
                        // RACK: RFC 6675's cwnd - pipe >= 1 MSS with RACK's pipe.
                        (None, Some(pipe)) => {
                            in_window
                                && pipe + self.p.mss <= self.cc.cwnd().floor() as u64 * self.p.mss
                        }
                        (None, None) => s.allows(seq, self.cc.cwnd(), &self.flight()),
                    };
                    if allows {
                        self.p.mss
                    } else {
                        0
                    }
                }
                _ => (self.snd_una + win).saturating_sub(seq),
            };
            let mut len = self.p.mss.min(queued).min(if force { self.p.mss } else { usable });
            if let Some(s) = self.sack.as_ref().filter(|s| s.rfc && seq < self.snd_max) {
                // RFC 6675: a retransmission does not resend SACKed bytes.
                if let Some(b) = s.board.next_block_after(seq) {
                    len = len.min(b - seq);
                }
                // RACK: a lost segment is resent as it was cut.
                if let Some((_, end)) = self.rack_next_lost().filter(|&(start, _)| start == seq) {
                    len = len.min(end - seq);
                }
            }
            if len == 0 {
                // The FIN goes when it is next, or again when RACK marked it lost.
                let next = seq == self.snd_nxt
                    || self.rack_next_lost().is_some_and(|(lost, _)| lost == seq);
                if next && self.fin_seq == Some(seq) && (usable > 0 || force || self.snd_wnd > 0) {
                    self.segment(ctx, seq, 0, flags::FIN);
                    self.sent(seq, 1);
                    sent += 1;
                }
                break;
            }
            let short = ShortSegment {
                len,
                queued,
                mss: self.p.mss,
                max_sndwnd: self.max_sndwnd,
                unacked: self.snd_max > self.snd_una,
                short_unacked: self.short_end > self.snd_una,
            };
            if !force && (!self.nagle.may_send(&short) || self.paced(ctx)) {
                break;
            }
            len = len.min(queued);
            self.send_data(ctx, seq, len);
            sent += 1;
            force = false;
            let maxburst =
                if self.rec.burst_limited { self.p.recov_maxburst } else { self.p.maxburst };
            if maxburst != 0 && sent >= maxburst {
                break;
            }
        }
        if self.delivery {
            self.check_app_limited();
        }
        if self.rack.is_some() && self.snd_max > max_before {
            self.rack_schedule_probe(ctx);
        }
        self.rearm(ctx);
        sent
    }

    /// The application has nothing more to send and the window is not full: delivery-rate
    /// samples of what is sent now say so (draft-cheng-iccrg-delivery-rate-estimation-00
    /// §3.4, Linux `tcp_rate_check_app_limited`), and BBR does not take them for the path's.
    fn check_app_limited(&mut self) {
        let in_flight = self.segments_out();
        if self.snd_nxt >= self.data_end() && (in_flight as f64) < self.cc.cwnd() {
            self.cc.on_app_limited(in_flight);
        }
    }

    /// The next sequence number to send (ns-2 `nxt_tseq`): `snd_nxt`, or in SACK recovery
    /// (below `recover`) the next hole the scoreboard shows (with RACK, the first segment it
    /// marked lost).
    fn next_seq(&mut self) -> u64 {
        if self.snd_una < self.rec.recover && self.rack.is_some() {
            // RACK: NextSeg() rule 1 is a segment it marked lost, then new data.
            return self.rack_next_lost().map_or(self.snd_nxt, |(seq, _)| seq);
        }
        let f = self.flight();
        match &mut self.sack {
            Some(s) if self.snd_una < self.rec.recover => s.next_seq(&f),
            _ => self.snd_nxt,
        }
    }

    /// The sequence space as the SACK sender's rules see it.
    fn flight(&self) -> Flight {
        Flight {
            una: self.snd_una,
            nxt: self.snd_nxt,
            max: self.snd_max,
            data_end: self.data_end(),
            wnd_edge: self.snd_una.saturating_add(self.snd_wnd),
            mss: self.p.mss,
            dupthresh: self.p.dupthresh,
        }
    }

    /// `amt` sequence numbers went out at `seq` (ns-2 `sent`): `snd_nxt` moves only when they
    /// were the next new ones, not for a hole fill.
    fn sent(&mut self, seq: u64, amt: u64) {
        // Below `recover` (go-back-N after a timeout) or below snd_nxt (a hole): resent data.
        let resent_below = self.rec.recover.max(self.snd_nxt);
        if seq == self.snd_nxt {
            self.snd_nxt += amt;
        }
        if let Some(s) = &mut self.sack {
            s.sent(seq, amt, resent_below);
        }
        if let Some(p) = &mut self.prr {
            p.sent(amt);
        }
    }

    /// Data (or the FIN) is waiting to be sent.
    fn has_queued(&self) -> bool {
        self.snd_nxt < self.data_end() || self.fin_seq.is_some_and(|f| self.snd_nxt <= f)
    }

    /// Timers after sending or an ACK: the retransmission timer while data is outstanding
    /// and the peer's window is open; the persist timer instead while data waits and the
    /// peer's window holds it back: a zero window (RFC 1122 §4.2.2.17: the sender must keep
    /// probing it), or, with nothing in flight to bring an ACK, a window shorter than the
    /// segment that waits, which SWS avoidance will not send (RFC 1122 §4.2.3.4 (4): the
    /// override timeout; BSD arms the persist timer for it).
    fn rearm(&mut self, ctx: &mut AgentCtx) {
        if (self.snd_wnd == 0 || self.window_holds_back())
            && self.has_queued()
            && self.state.synchronized()
        {
            self.rtx.cancel();
            if !self.persist.is_set() {
                let base = self.rtt.rto().0.saturating_mul(self.persist_backoff as u64);
                let at = ctx.now() + Dur(base.min(self.p.max_rto.0));
                self.persist.set(at, TIMER_PERSIST, ctx);
            }
            return;
        }
        self.persist.cancel();
        self.persist_backoff = 1;
    }

    /// Nothing is in flight and the peer's window is shorter than the segment that waits.
    fn window_holds_back(&self) -> bool {
        self.snd_max == self.snd_una
            && self.snd_wnd < self.p.mss.min(self.data_end().saturating_sub(self.snd_nxt))
    }

    /// The persist timer fired. With the window still zero: send one byte at SND.UNA as a
    /// window probe (it is accepted once the window opens), back off and re-arm. With a window
    /// that still holds the next segment back: send what it allows, however short (the
    /// override of RFC 1122 §4.2.3.4 (4), BSD's `t_force`).
    fn probe(&mut self, ctx: &mut AgentCtx) {
        if !self.has_queued() {
            return;
        }
        if self.snd_wnd != 0 {
            if self.window_holds_back() {
                self.send_data(ctx, self.snd_nxt, self.snd_wnd);
                self.rearm(ctx);
            }
            return;
        }
        let len = u64::from(self.snd_una < self.data_end());
        let fin = if len == 0 { flags::FIN } else { 0 };
        self.segment(ctx, self.snd_una, len, fin);
        self.snd_nxt = self.snd_nxt.max(self.snd_una + len.max(1));
        self.persist_backoff = (self.persist_backoff * 2).min(MAX_PERSIST_BACKOFF);
        self.rearm(ctx);
    }

    /// After handling an event: send data, then a lone ACK if one is owed.
    fn output(&mut self, ctx: &mut AgentCtx) {
        self.send_much(ctx, false);
        if self.ack_now && (self.state.synchronized() || self.state == State::SynReceived) {
            self.send_ack(ctx);
        }
    }

    /// The application's requests after an event.
    fn apply(&mut self, out: AppOut, ctx: &mut AgentCtx) {
        if out.write > 0 {
            self.buf.write(out.write);
        }
        if out.write2 > 0 {
            // A second write() call: TCP has already sent what the first allowed.
            self.fill();
            self.send_much(ctx, false);
            self.buf.write(out.write2);
        }
        if out.close {
            self.buf.close();
            self.state = self.state.app_closed();
        }
        if let Some(d) = out.timer {
            self.app_gen = self.app_gen.wrapping_add(1);
            ctx.timer_at(ctx.now() + d, TIMER_APP, self.app_gen);
        }
        if let Some(d) = out.transaction {
            let t = &mut ctx.net.flows[ctx.flow.idx()].full;
            t.transactions += 1;
            t.transaction_time = t.transaction_time + d;
        }
        self.fill();
    }

    /// Moves waiting application bytes into the send buffer; fixes the FIN's place once the
    /// application has closed and everything is in.
    fn fill(&mut self) {
        self.buf.fill(self.acked_data());
        if self.buf.fin_ready() && self.fin_seq.is_none() {
            self.fin_seq = Some(self.data_end());
        }
    }

    fn set_state(&mut self, to: State, ctx: &mut AgentCtx) {
        self.state = to;
        let now = ctx.now();
        let f = &mut ctx.net.flows[ctx.flow.idx()].full;
        if to == State::Established && self.active {
            f.established.get_or_insert(now);
        }
        if to.done() && !self.reported_done {
            self.reported_done = true;
            f.ends_closed += 1;
            if f.ends_closed == 2 {
                f.closed.get_or_insert(now);
            }
        }
        if to == State::TimeWait {
            self.rtx.cancel();
            let at = now + self.p.time_wait;
            ctx.timer_at(at, TIMER_TIME_WAIT, self.incarnation);
        }
        if to == State::Closed {
            self.rtx.cancel();
            self.delack_timer.cancel();
        }
        if to.done() {
            self.stream_done(ctx);
        }
    }

    fn view(&self, now: SimTime) -> SenderView {
        SenderView { win: self.cc.cwnd().min(self.p.window as f64), whole_packets: false, now }
    }

    /// Processes the ACK field of a segment (RFC 793 §3.9 "fifth, check the ACK field").
    fn on_ack(&mut self, h: &TcpHdr, ctx: &mut AgentCtx) {
        let ack = h.ack;
        if let (Some(p), Some(s)) = (&mut self.prr, &self.sack) {
            p.ack_arrived(self.snd_una, s.board.total());
        }
        let prr_recovering = self.prr.as_ref().is_some_and(|p| p.active());
        self.rack_collect(h);
        let advanced = ack > self.snd_una && ack <= self.snd_max;
        if let Some(s) = &mut self.sack {
            if self.state.synchronized() {
                for &(l, r) in &h.sack[..h.nsack as usize] {
                    s.board.add(l, r);
                }
            }
            // An ACK in fast recovery means a segment left the network (ns-2 `recv`: a
            // pure ACK, or one that acknowledges new data).
            if self.rec.active && (h.payload == 0 || ack > self.snd_una) {
                s.ack_in_recovery(self.p.mss);
            }
        }
        if ack > self.snd_max {
            self.ack_now = true;
            return;
        }
        if self.delivery && self.state.synchronized() {
            self.delivery_ack(ack, h, ctx.now());
        }
        // RFC 793: update the send window only from a newer segment (SND.WL1/WL2).
        let wnd = if h.rwnd == TcpHdr::NO_RWND { u64::MAX / 4 } else { h.rwnd as u64 };
        let wnd_changed = wnd != self.snd_wnd;
        if ack >= self.snd_una
            && (h.seq > self.snd_wl1 || (h.seq == self.snd_wl1 && ack >= self.snd_wl2))
        {
            self.snd_wnd = wnd;
            self.snd_wl1 = h.seq;
            self.snd_wl2 = ack;
            self.max_sndwnd = self.max_sndwnd.max(wnd);
        }
        if ack > self.snd_una {
            self.new_ack(h, ctx);
        } else if ack == self.snd_una
            && h.payload == 0
            && h.flags & (flags::SYN | flags::FIN) == 0
            && self.snd_max > self.snd_una
            && self.snd_wnd > 0
            && !wnd_changed
        {
            if self.rack.is_some() {
                // RACK decides when recovery starts (rack_after_ack).
                self.rec.dupacks += 1;
            } else {
                self.dup_ack(ctx);
            }
            self.limited_transmit(ctx);
        }
        self.rack_after_ack(h, advanced, ctx);
        if prr_recovering {
            self.prr_ack();
        }
    }

    /// RFC 6937 §3 at the fast retransmit: PRR's episode starts (RecoverFS = the bytes
    /// outstanding), and the entering ACK's SACKs are its first DeliveredData, with the pipe
    /// before the retransmission.
    fn start_prr(&mut self) {
        let (ssthresh, outstanding) = (self.cc.ssthresh(), self.snd_max - self.snd_una);
        if let Some(p) = &mut self.prr {
            p.start(ssthresh, self.p.mss, outstanding);
            self.prr_ack();
        }
    }

    /// RFC 6937 §3 on an ACK in recovery (after its SACKs and cumulative ACK were taken):
    /// sndcnt from what it delivered and the pipe it leaves; cwnd shows pipe + sndcnt.
    fn prr_ack(&mut self) {
        let (f, rack_pipe) = (self.flight(), self.rack_pipe());
        let (Some(p), Some(s)) = (&mut self.prr, &self.sack) else { return };
        if !p.active() {
            return;
        }
        let pipe = rack_pipe.unwrap_or_else(|| s.set_pipe(&f));
        let cwnd = p.on_ack(p.delivered(f.una, s.board.total()), pipe);
        self.cc.set_cwnd(cwnd as f64 / self.p.mss as f64);
    }

    /// Every acceptable ACK, before recovery sees it, in segment numbers: the cumulative ACK,
    /// the segments its SACK blocks cover whole or in part, the highest segment sent.
    fn delivery_ack(&mut self, ack: u64, h: &TcpHdr, now: SimTime) {
        let mut blocks = [(0u64, 0u64); 3];
        let n = (h.nsack as usize).min(blocks.len());
        for (b, &(l, r)) in blocks.iter_mut().zip(&h.sack[..n]) {
            *b = ((self.segments_below(l) + 1) as u64, (self.segments_below(r) + 1) as u64);
        }
        let (una, max) = (self.segments_below(ack), self.segments_below(self.snd_max));
        self.cc.on_ack_arrived(una, &blocks[..n], max, now);
    }

    fn new_ack(&mut self, h: &TcpHdr, ctx: &mut AgentCtx) {
        let ack = h.ack;
        let acked = ack - self.snd_una;
        let now = ctx.now();
        self.snd_una = ack;
        self.snd_nxt = self.snd_nxt.max(ack);
        let mut timed = None;
        if self.rtt_active && ack > self.rtt_seq {
            self.rtt_active = false;
            self.rtt.sample(self.rtt_ts, now);
            timed = Some(now.since(self.rtt_ts));
        }
        // CUBIC and HyStart++ read a sample on every ACK; Reno reads none.
        let per_ack = self.send_times.as_mut().and_then(|t| t.acked(ack, now));
        let rtt = if self.p.cubic.is_some() { per_ack } else { timed };
        self.rtt.reset_backoff();
        let segs = acked.div_ceil(self.p.mss);
        // In bytes: HyStart++'s round ends once the byte at `snd_nxt` is received, i.e. the
        // highest in-order byte (ack - 1) reaches it (RFC 9406 §4.2 windowEnd; Linux
        // `after(snd_una, end_seq)`).
        let (snd_nxt, last) = (self.snd_nxt as i64, ack as i64 - 1);
        let sample =
            AckSample { now, acked_pkts: segs, acked_bytes: acked, rtt, snd_nxt, ack: last };
        let what = self.rec.on_new_ack(ack);
        if let Some(s) = &mut self.sack {
            // ns-2 FullTcp/Sack: no deflation on leaving recovery (cwnd was halved, never
            // inflated) and no window growth on a partial ACK (`open_cwnd_on_pack_ false`).
            match what {
                NewAck::Partial => s.partial_ack(ack, self.p.mss),
                NewAck::Open | NewAck::Exit => {
                    s.full_ack(ack);
                    if what == NewAck::Exit && self.prr.as_mut().is_some_and(|p| p.end()) {
                        // RFC 6937: recovery ends at the congestion control's target.
                        let ss = self.cc.ssthresh();
                        self.cc.set_cwnd(ss);
                    } else {
                        self.cc.on_ack(&sample);
                    }
                }
            }
        } else {
            self.window_after_ack(what, &sample, ctx);
        }
        if let Some(fin) = self.fin_seq {
            if ack > fin {
                let to = self.state.fin_acked();
                self.set_state(to, ctx);
            }
        }
        if self.snd_una < self.snd_max {
            self.set_rtx(ctx);
        } else {
            self.rtx.cancel();
        }
        self.rearm(ctx);
        if let Some(bytes) = self.file_bytes {
            if self.acked_data() >= bytes {
                ctx.net.flows[ctx.flow.idx()].tcp.completed.get_or_insert(now);
            }
        }
        self.fill();
        self.stream_acked(ctx);
    }

    /// Window change for a new ACK without SACK (Tahoe, Reno, NewReno).
    fn window_after_ack(&mut self, what: NewAck, sample: &AckSample, ctx: &mut AgentCtx) {
        match what {
            NewAck::Open => self.cc.on_ack(sample),
            NewAck::Exit => {
                // Deflate (RFC 5681 §3.2 step 6); ns-2 FullTcp then opens cwnd for this ACK
                // as for any new ACK.
                let ss = self.cc.ssthresh();
                if self.cc.cwnd() > ss && !self.delivery {
                    self.cc.set_cwnd(ss);
                }
                self.cc.on_ack(sample);
            }
            NewAck::Partial => {
                // RFC 6582 §3.2 step 5: retransmit the first unacknowledged segment and deflate
                // by the amount acknowledged, adding back one segment. ns-2 FullTcp/Newreno
                // (`pack_action`) sets cwnd = ssthresh instead.
                let c = match self.p.recovery_rules {
                    RecoveryRules::Ns2 => self.cc.ssthresh(),
                    RecoveryRules::Rfc => {
                        (self.cc.cwnd() - sample.acked_pkts as f64 + 1.0).max(1.0)
                    }
                };
                if !self.delivery {
                    self.cc.set_cwnd(c);
                }
                self.retransmit_first(ctx);
                self.rec.partial_retransmit(self.snd_max);
            }
        }
    }

    /// Sends the first unacknowledged segment again (fast retransmit, NewReno partial ACK)
    /// and stops RTT timing (Karn's rule, RFC 6298 §3). Returns the sequence numbers it
    /// covers. `snd_nxt` moves past it only under RFC rules: ns-2's `foutput` never moves
    /// `t_seqno_`, so when a partial ACK after a timeout lands on `snd_nxt`, ns-2 sends the
    /// same segment again from `send_much`.
    fn retransmit_first(&mut self, ctx: &mut AgentCtx) -> u64 {
        let len = self.p.mss.min(self.data_end().saturating_sub(self.snd_una));
        let fin = self.fin_seq == Some(self.snd_una + len);
        self.rtt_active = false;
        self.segment(ctx, self.snd_una, len, if fin { flags::FIN } else { 0 });
        let amt = len + u64::from(fin);
        if self.p.recovery_rules == RecoveryRules::Rfc {
            self.snd_nxt = self.snd_nxt.max(self.snd_una + amt);
        }
        amt
    }

    fn dup_ack(&mut self, ctx: &mut AgentCtx) {
        let action = self.rec.on_dupack(self.snd_una, self.snd_max);
        if let Some(s) = &mut self.sack {
            // ns-2 `SackFullTcpAgent::dupack_action` estimates pipe at the threshold whether or
            // not it may retransmit.
            if self.rec.dupacks == self.rec.dupthresh {
                s.estimate_pipe(self.snd_una, self.snd_max);
            }
        }
        match action {
            DupAction::Nothing => {}
            DupAction::FastRetransmit => {
                ctx.net.flows[ctx.flow.idx()].tcp.fast_retransmits += 1;
                let v = self.view(ctx.now());
                self.cc.on_congestion(CongestionEvent::FastRetransmit, &v);
                self.cwr_pending = true;
                self.rtx.cancel();
                if self.p.variant == FullVariant::Tahoe {
                    self.rtt_active = false;
                    self.snd_nxt = self.snd_una;
                    self.send_much(ctx, true);
                } else if self.sack.is_some() {
                    self.start_prr();
                    // The retransmission is not counted in pipe (ns-2 sends it outside
                    // `send_much`); then whatever pipe allows, holes first.
                    let amt = self.retransmit_first(ctx);
                    if let Some(p) = &mut self.prr {
                        p.sent(amt);
                    }
                    if let Some(s) = &mut self.sack {
                        s.fast_retransmitted(self.snd_una, amt);
                    }
                    self.send_much(ctx, false);
                } else {
                    self.retransmit_first(ctx);
                    if !self.delivery {
                        let c = self.cc.ssthresh() + self.p.dupthresh as f64;
                        self.cc.set_cwnd(c);
                    }
                }
            }
            DupAction::Inflate if !self.delivery => {
                let c = self.cc.cwnd() + 1.0;
                self.cc.set_cwnd(c);
            }
            DupAction::Inflate => {}
        }
    }

    /// RFC 3042 §2 (`limited_transmit`): a duplicate ACK before the fast-retransmit threshold
    /// sends one new segment when the peer's window allows it and the data outstanding stays
    /// within cwnd plus one segment per such duplicate ACK; cwnd is left alone. Not in
    /// recovery, and not during a go-back-N (only data never sent is new).
    fn limited_transmit(&mut self, ctx: &mut AgentCtx) {
        let dupacks = self.rec.dupacks as u64;
        if !self.p.limited_transmit
            || self.rec.active
            || dupacks >= self.p.dupthresh as u64
            || self.snd_nxt < self.snd_max
        {
            return;
        }
        let seq = self.snd_nxt;
        let len = self.p.mss.min(self.data_end().saturating_sub(seq));
        let allowed = (self.window_segments() + dupacks) * self.p.mss;
        if len == 0 || seq + len - self.snd_una > allowed || seq + len > self.snd_una + self.snd_wnd
        {
            return;
        }
        self.send_data(ctx, seq, len);
        self.rearm(ctx);
    }

    /// Processes the segment text and FIN (RFC 793 §3.9 "seventh" and "eighth").
    fn on_data(&mut self, h: &TcpHdr, ctx: &mut AgentCtx) {
        let len = h.payload as u64;
        let now = ctx.now();
        if len > 0 {
            if !self.state.may_receive() {
                self.ack_now = true;
                return;
            }
            let (delivered, out_of_order) = self.rcv.insert(h.seq, len);
            if delivered == 0 || out_of_order {
                self.ack_now = true;
            } else {
                match self.delack.on_segment(len, self.p.mss, now) {
                    AckNow::Yes => self.ack_now = true,
                    AckNow::At(at) => self.delack_timer.set(at, TIMER_DELACK, ctx),
                    AckNow::Pending => {}
                }
            }
            if delivered > 0 {
                let f = &mut ctx.net.flows[ctx.flow.idx()];
                f.goodput_bytes += delivered;
                if !self.active {
                    f.full.first_data.get_or_insert(now);
                }
                match self.p.read_rate.filter(|_| !self.active) {
                    Some(_) => {
                        self.rcv.unread += delivered;
                        self.schedule_read(ctx);
                    }
                    None => {
                        let out = self.app.on_data(delivered, now);
                        self.apply(out, ctx);
                        self.stream_received(delivered, ctx);
                    }
                }
            }
        }
        if h.flags & flags::FIN != 0 && self.state.may_receive() && self.rcv.fin(h.seq + len) {
            self.ack_now = true;
            let to = self.state.fin_received();
            self.set_state(to, ctx);
            if self.stream.is_some() {
                self.stream_peer_closed();
            } else {
                let out = self.app.on_peer_closed();
                self.apply(out, ctx);
            }
        } else if h.flags & flags::FIN != 0 {
            self.ack_now = true;
        }
    }

    /// A slow reader takes one MSS (or what is left) per MSS-time at `read_rate`.
    fn schedule_read(&mut self, ctx: &mut AgentCtx) {
        let Some(rate) = self.p.read_rate else { return };
        if self.reading || self.rcv.unread == 0 {
            return;
        }
        self.reading = true;
        let at = ctx.now() + rate.tx_time(self.rcv.unread.min(self.p.mss));
        ctx.timer_at(at, TIMER_READ, 0);
    }

    /// The slow reader reads: the window reopens, and a window update goes out once it has
    /// opened by min(buffer/2, MSS) (RFC 1122 §4.2.3.3).
    fn on_read(&mut self, ctx: &mut AgentCtx) {
        self.reading = false;
        let n = self.rcv.unread.min(self.p.mss);
        if self.rcv.read(n, self.p.mss) {
            self.ack_now = true;
        }
        let out = self.app.on_data(n, ctx.now());
        self.apply(out, ctx);
        self.stream_received(n, ctx);
        self.output(ctx);
        self.schedule_read(ctx);
    }

    fn established(&mut self, ctx: &mut AgentCtx) {
        self.set_state(State::Established, ctx);
        self.cc.set_cwnd(self.p.initial_window as f64);
        let out = self.app.on_established(ctx.now());
        self.apply(out, ctx);
        self.stream_established();
    }

    /// The peer's SYN: its sequence space, window and window-scale option.
    fn accept_syn(&mut self, h: &TcpHdr) {
        self.rcv.syn(h.seq);
        if self.p.window_scale && h.flags & flags::WSCALE != 0 {
            self.rcv.shift = Reassembly::wanted_shift(self.p.rcv_buffer);
        }
        self.snd_wnd = h.rwnd as u64;
        self.max_sndwnd = self.snd_wnd;
        self.snd_wl1 = h.seq;
    }

    fn reset(&mut self, h: &TcpHdr, ctx: &mut AgentCtx) {
        let seq = if h.flags & flags::ACK != 0 { h.ack } else { 0 };
        let ack = h.seq + h.payload as u64 + u64::from(h.flags & (flags::SYN | flags::FIN) != 0);
        self.rcv.rcv_nxt = ack;
        self.segment(ctx, seq, 0, flags::RST | flags::ACK);
    }

    fn on_segment(&mut self, h: &TcpHdr, ctx: &mut AgentCtx) {
        let fl = h.flags;
        if self.stream.is_some() && self.stream_old_connection(h, ctx) {
            return;
        }
        if fl & flags::RST != 0 {
            if self.state != State::Listen && self.state != State::Closed {
                self.set_state(State::Closed, ctx);
            }
            return;
        }
        match self.state {
            State::Closed => return self.reset(h, ctx),
            State::Listen => {
                if fl & flags::SYN != 0 {
                    self.accept_syn(h);
                    self.set_state(State::SynReceived, ctx);
                    self.send_syn(ctx);
                }
                return;
            }
            State::SynSent => {
                if fl & flags::SYN != 0 && fl & flags::ACK == 0 {
                    // Simultaneous open (RFC 793 Figure 8, line 3): the peer's SYN crossed ours;
                    // answer with SYN-ACK from SYN-RECEIVED.
                    self.accept_syn(h);
                    self.set_state(State::SynReceived, ctx);
                    self.send_syn(ctx);
                    return;
                }
                if fl & flags::SYN != 0 && fl & flags::ACK != 0 && h.ack == ISS + 1 {
                    self.accept_syn(h);
                    self.snd_wl2 = h.ack;
                    self.on_ack(h, ctx);
                    // ns-2 FullTcp answers the SYN-ACK with a separate pure ACK, then data.
                    // The ACK bit is set explicitly: this end is still SYN-SENT here.
                    self.segment(ctx, self.snd_nxt, 0, flags::ACK);
                    self.established(ctx);
                    self.output(ctx);
                }
                return;
            }
            State::SynReceived => {
                if fl & flags::SYN != 0 && fl & flags::ACK != 0 && h.ack == ISS + 1 {
                    // Simultaneous open (RFC 793 Figure 8, lines 6-7): the peer's SYN-ACK
                    // acknowledges our SYN; its SYN is a duplicate, which we acknowledge.
                    self.snd_wl2 = h.ack;
                    self.on_ack(h, ctx);
                    self.established(ctx);
                    self.ack_now = true;
                    self.output(ctx);
                    return;
                }
                if fl & flags::SYN != 0 {
                    // Our SYN-ACK was lost: the peer's SYN again.
                    self.send_syn(ctx);
                    return;
                }
                if fl & flags::ACK == 0 || h.ack != ISS + 1 {
                    return;
                }
                self.established(ctx);
            }
            _ => {
                if fl & flags::SYN != 0 {
                    // A retransmitted SYN-ACK: our ACK of it was lost.
                    self.ack_now = true;
                    self.output(ctx);
                    return;
                }
            }
        }
        if fl & flags::ACK != 0 {
            self.on_ack(h, ctx);
        }
        self.on_data(h, ctx);
        // In TIME-WAIT only the ACK of the peer's FIN goes out.
        self.output(ctx);
    }

    fn on_rtx_timeout(&mut self, ctx: &mut AgentCtx) {
        self.rtt_active = false;
        self.rtt.back_off();
        match self.state {
            State::SynSent | State::SynReceived => {
                self.send_syn(ctx);
                return;
            }
            State::Closed | State::Listen | State::TimeWait => return,
            _ => {}
        }
        if self.snd_una == self.snd_max {
            return;
        }
        ctx.net.flows[ctx.flow.idx()].tcp.timeouts += 1;
        let v = self.view(ctx.now());
        self.cc.on_rto(RtoKind::Loss, &v);
        self.cwr_pending = true;
        self.rec.on_timeout(self.snd_max);
        if let Some(s) = &mut self.sack {
            s.timed_out(self.snd_una);
        }
        if let Some(p) = &mut self.prr {
            p.end();
        }
        self.rack_timeout();
        self.snd_nxt = self.snd_una;
        self.set_rtx(ctx);
        self.send_much(ctx, true);
    }
}

impl Agent for FullTcp {
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx) {
        match kind {
            TIMER_START => {
                if self.active || (self.p.simultaneous_open && self.state == State::Listen) {
                    self.open(ctx);
                }
                if self.stream.is_some() {
                    self.stream_start(ctx);
                    self.output(ctx);
                }
            }
            TIMER_RTX if self.rtx.fire(gen, TIMER_RTX, ctx) => self.on_rtx_timeout(ctx),
            TIMER_DELACK
                if self.delack_timer.fire(gen, TIMER_DELACK, ctx)
                    && self.delack.pending()
                    && self.state.synchronized() =>
            {
                self.send_ack(ctx);
            }
            TIMER_APP if gen == self.app_gen && self.state.may_send() => {
                let out = self.app.on_timer(ctx.now());
                self.apply(out, ctx);
                self.output(ctx);
            }
            TIMER_TIME_WAIT if self.state == State::TimeWait && gen == self.incarnation => {
                self.set_state(State::Closed, ctx)
            }
            TIMER_PERSIST if self.persist.fire(gen, TIMER_PERSIST, ctx) => self.probe(ctx),
            TIMER_READ => self.on_read(ctx),
            TIMER_RACK => self.rack_timer(gen, ctx),
            TIMER_PACE => {
                if let Some(p) = &mut self.pacer {
                    p.armed = false;
                }
                self.output(ctx);
            }
            TIMER_STREAM_WAKE => self.with_stream(ctx, |app, io| app.on_wake(io)),
            TIMER_STREAM_MESSAGE => self.with_stream(ctx, |app, io| app.on_message(gen, io)),
            TIMER_REQUEST => self.stream_request(ctx),
            TIMER_STREAM_REOPEN => self.stream_reopen(ctx),
            TIMER_STREAM_RESET => self.stream_reset(gen, ctx),
            _ => {}
        }
        if kind >= TIMER_STREAM_WAKE && self.stream.is_some() {
            self.output(ctx);
        }
    }

    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        let h = ctx.net.pool.get(id).tcp;
        self.on_segment(&h, ctx);
    }

    /// A bulk source's `$ftp stop` / `$ftp start` without the close: the application stops
    /// supplying bytes, so TCP sends nothing beyond what it has sent (ns-2 FullTcp's
    /// `advance 0`) while it goes on recovering that; the connection stays open, and the
    /// resume makes the transfer endless again (`send -1`), sending what the window allows
    /// at once. A stop is a pause with no resume. Only bulk sources are paused (checked
    /// before: `FlowInfo::pausable`), which never close, so no FIN is placed meanwhile.
    fn control(&mut self, c: FlowControl, ctx: &mut AgentCtx) {
        match c {
            FlowControl::Pause | FlowControl::Stop => {
                self.paused_end.get_or_insert(self.snd_max.max(ISS + 1));
            }
            FlowControl::Resume => {
                self.paused_end = None;
                self.output(ctx);
            }
        }
    }

    /// The opener's congestion-control values (CUBIC's W_max, BBR's pacing rate and state;
    /// none for Reno), as its `cc` series.
    fn cc_state(&self, out: &mut dyn FnMut(&'static str, f64)) {
        if self.stream_writer().unwrap_or(self.active) {
            if let Some(rate) = self.pacing_rate() {
                out("pacing_rate_bps", rate);
            }
            self.cc.state_values(out);
        }
    }

    /// The opener's sender state only: the flow's `tcp`/`cwnd` series describe its source, as
    /// for the one-way agents (the listener's data direction is not sampled).
    fn tcp_probe(&self) -> Option<TcpProbe> {
        if !self.stream_writer().unwrap_or(self.active) {
            return None;
        }
        let outstanding = self.snd_max - self.snd_una;
        let pkts = self.segments_out();
        Some(TcpProbe {
            cwnd: self.cc.cwnd(),
            ssthresh: self.cc.ssthresh(),
            srtt: self.rtt.srtt(),
            rto: self.rtt.rto(),
            in_flight_pkts: pkts,
            in_flight_bytes: outstanding + pkts * self.p.header,
            state: if self.rec.active {
                CongState::Recovery
            } else if self.rec.dupacks > 0 {
                CongState::Disorder
            } else {
                CongState::Open
            },
        })
    }
}
