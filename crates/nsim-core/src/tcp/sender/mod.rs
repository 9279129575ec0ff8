//! The TCP sender core: sequence space, sliding window, output, retransmission timer, timeout
//! response, ECN reaction and counters. Everything variant-specific is behind
//! [`CongestionControl`] and [`Recovery`].
//!
//! Read first: ns-2.35 `tcp/tcp.cc` (`TcpAgent::output`, `send_much`, `newack`, `timeout`,
//! `reset_rtx_timer`, `newtimer`), whose variable names (`t_seqno_`, `highest_ack_`,
//! `maxseq_`, `recover_`, ...) the fields keep, so the two can be read side by side.

use crate::agent::{Agent, AgentCtx, FlowControl, TIMER_START};
use crate::app::stream::{StreamApp, StreamIo};
use crate::ids::{AgentId, NodeId};
use crate::packet::flags;
use crate::packet::{Ecn, PType, Packet, PacketId, TcpHdr};
use crate::record::flow_stats::{Transfer, TransferKind};
use crate::tcp::cc::vegas::send_log::SendLog;
use crate::tcp::cc::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::config::{RtoClock, TcpParams, Variant};
use crate::tcp::pacing::Pacer;
use crate::tcp::recovery::rack::send_times::SendTimes;
use crate::tcp::recovery::Recovery;
use crate::tcp::rtt::RttEstimator;
use crate::tcp::{CongState, TcpProbe};
use crate::time::SimTime;

/// Retransmission timer.
const TIMER_RTX: u16 = 1;
/// The flow's stop time: no new data after it.
const TIMER_STOP: u16 = 2;
/// The application feeding an application-limited sender hands over its next message.
const TIMER_APP: u16 = 3;
/// The wake-up a stream application asked for (think time, keystroke gap).
const TIMER_APP_WAKE: u16 = 4;
/// A message from another connection's application (`StreamIo::tell`); `gen` carries it.
const TIMER_APP_MESSAGE: u16 = 5;
/// The pacer releases the next quantum ([`crate::tcp::pacing`]).
const TIMER_PACE: u16 = 6;
/// The recovery's own timer (RACK's reordering timer, TLP's probe timeout); `gen` is
/// [`Core::recovery_gen`] when it was armed.
const TIMER_RECOVERY: u16 = 7;

/// ns-2 `last_cwnd_action_`: the last window reduction, which decides whether another one is
/// allowed in the same window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CwndAction {
    None,
    /// Fast retransmit (ns-2 `CWND_ACTION_DUPACK`).
    Dupack,
    Timeout,
    Ecn,
    /// Left fast recovery (ns-2 `CWND_ACTION_EXITED`).
    Exited,
}

/// The retransmission timer as a deadline plus at most one useful heap entry: re-arming to a
/// later time costs nothing, and stale entries are recognized by their generation (O(1)
/// cancel, STYLE.md item 10).
#[derive(Clone, Copy, Debug, Default)]
struct RtxTimer {
    deadline: Option<SimTime>,
    armed: Option<SimTime>,
    gen: u32,
}

/// Sender state shared by every variant (ns-2 `TcpAgent` variables, in packets; -1 = none).
pub struct Core {
    pub p: TcpParams,
    /// Next sequence number to send (ns-2 `t_seqno_`).
    pub t_seqno: i64,
    /// Highest cumulative ACK (ns-2 `highest_ack_`).
    pub highest_ack: i64,
    /// Last ACK that advanced the window outside partial-ACK processing (ns-2 `last_ack_`).
    pub last_ack: i64,
    /// Highest sequence number sent (ns-2 `maxseq_`).
    pub maxseq: i64,
    /// One past the last sequence number the application has supplied (ns-2 `curseq_`).
    pub curseq: i64,
    /// Highest sequence number outstanding when recovery started (RFC 6582 `recover`).
    pub recover: i64,
    pub dupacks: u32,
    pub last_action: CwndAction,
    pub rtt: RttEstimator,
    rtt_active: bool,
    rtt_seq: i64,
    rtt_ts: SimTime,
    state: CongState,
    /// A window reduction to signal with CWR on the next segment (RFC 3168 §6.1.2; ns-2
    /// `cong_action_`, set after every reduction and, with `SetCWRonRetransmit_ true`, also on
    /// a retransmission).
    cwr_pending: bool,
    initial_window: u32,
    /// The peer's advertised window in packets: floor(rwnd / payload), at least 1, or
    /// `p.window` while ACKs advertise none (`TcpHdr::NO_RWND`). See [`Core::wnd`].
    peer_wnd: i64,
    /// Set cwnd to the initial window when the first segment (the SYN, or data segment 0
    /// without it) is acknowledged (ns-2 `delay_growth_ true`, checked in `TcpAgent::recv`).
    /// ns-2's `Agent/TCP/Fack` has its own `recv` without that check: false for fack.
    pub delay_growth: bool,
    rtx: RtxTimer,
    /// Payload bytes of a finite transfer (None: unbounded).
    total_bytes: Option<u64>,
    /// Sequence number of the first payload-carrying segment (1 after ns-2's SYN).
    first_data: i64,
    /// The first segment of the current connection when it opened without a SYN (segment 0 of
    /// an agent without SYN; the first segment of each `new_connection`, a fresh ns-2 agent that
    /// sends no SYN); -1 after a SYN. ns-2 sends it as its payload alone (`wire_size`).
    bare_seq: i64,
    /// The current connection's number ([`TcpHdr::conn`]), advanced by each `new_connection`.
    conn: u8,
    dst: NodeId,
    dst_agent: AgentId,
    stop: Option<SimTime>,
    /// Classifier fields copied into every segment.
    pub prio: u8,
    pub tag: u16,
    /// The stream of TCP-DS's randomised marking (None: deterministic or no marking).
    pub mark_rng: Option<crate::rng::SimRng>,
    /// Each outstanding segment's last send time and transmissions, kept for Vegas'
    /// fine-grained retransmission (`vegas.fine_retransmit`); None for every other sender.
    send_log: Option<SendLog>,
    /// Spaces new segments by the pacing rate; None: unpaced (`pacing = false`).
    pub pacer: Option<Pacer>,
    /// Generation of the recovery's timer: an expiry armed with another is stale. Kept in the
    /// core so that a connection its application restarts ignores the old recovery's timers.
    recovery_gen: u32,
    /// Each outstanding segment's last send time, for RACK (`loss_detection = "rack"`); None
    /// for every other sender.
    pub send_times: Option<SendTimes>,
    /// Call the congestion control's delivery hooks ([`CongestionControl::samples_delivery`]).
    pub delivery_hooks: bool,
}

impl Core {
    pub fn new(
        p: TcpParams,
        dst: NodeId,
        dst_agent: AgentId,
        total_bytes: Option<u64>,
        stop: Option<SimTime>,
    ) -> Self {
        // build::agents draws the phase for every flow; unit harnesses without one use 0.
        let phase = p.clock_offset.unwrap_or(crate::time::Dur::ZERO);
        let rtt = RttEstimator::new(p.tick, phase, p.min_rto, p.initial_rto, p.max_rto);
        Core {
            t_seqno: 0,
            highest_ack: -1,
            last_ack: -1,
            maxseq: -1,
            curseq: 0,
            recover: 0,
            dupacks: 0,
            last_action: CwndAction::None,
            rtt,
            rtt_active: false,
            rtt_seq: -1,
            rtt_ts: SimTime::ZERO,
            state: CongState::Open,
            cwr_pending: false,
            initial_window: p.initial_window,
            peer_wnd: p.window as i64,
            delay_growth: true,
            rtx: RtxTimer::default(),
            total_bytes,
            first_data: p.syn as i64,
            bare_seq: if p.syn { -1 } else { 0 },
            conn: 0,
            dst,
            dst_agent,
            stop,
            prio: 0,
            tag: 0,
            mark_rng: None,
            send_log: (p.variant == Variant::Vegas && p.vegas.fine_retransmit)
                .then(|| SendLog::new(p.window)),
            pacer: p.pacing.map(Pacer::new),
            recovery_gen: 0,
            send_times: p.rack.map(|_| SendTimes::new(p.window)),
            delivery_hooks: false,
            p,
        }
    }

    pub fn state(&self) -> CongState {
        self.state
    }

    /// The send log of a Vegas sender with `fine_retransmit` (built with it, so its recovery
    /// always finds one).
    pub fn send_log(&self) -> &SendLog {
        self.send_log.as_ref().expect("Vegas recovery runs with a send log")
    }

    pub fn send_log_mut(&mut self) -> &mut SendLog {
        self.send_log.as_mut().expect("Vegas recovery runs with a send log")
    }

    /// The only place the congestion state changes (STYLE.md item 2); `record.series =
    /// ["cwnd"]` logs every transition with its time.
    pub fn set_state(&mut self, to: CongState) {
        self.state = to;
    }

    /// The cwnd nsim starts with: 1 until the SYN is acknowledged when modelling ns-2's SYN
    /// with delayed growth (`syn_ && delay_growth_`, ns-2 `set_initial_window`), else the
    /// initial window.
    pub fn start_cwnd(p: &TcpParams) -> f64 {
        if p.syn && p.delay_growth {
            1.0
        } else {
            p.initial_window as f64
        }
    }

    /// Payload bytes of segment `seq`.
    pub fn payload(&self, seq: i64) -> u64 {
        if seq < self.first_data {
            return 0;
        }
        let mss = self.p.payload.0;
        match self.total_bytes {
            Some(total) => total.saturating_sub((seq - self.first_data) as u64 * mss).min(mss),
            None => mss,
        }
    }

    /// Bytes of segment `seq` on the wire: payload plus header, except that ns-2 sends the
    /// first segment of a connection without SYN (`bare_seq`) as its payload alone
    /// (`TcpAgent::output` adds `headersize()` only for seqno > 0), e.g. 1000 B, not 1040 B.
    /// ns-2's Vegas has its own `output()`, which sends every segment alike.
    pub fn wire_size(&self, seq: i64) -> u64 {
        let bare = seq == self.bare_seq && self.p.variant != Variant::Vegas;
        let header = if bare { 0 } else { self.p.header.0 };
        self.payload(seq) + header
    }

    /// Payload bytes of segments `from..=to`, in O(1): full segments, less the SYN and the
    /// short last segment of a finite transfer when they are in the range.
    pub fn payload_between(&self, from: i64, to: i64) -> u64 {
        let from = from.max(self.first_data);
        if to < from {
            return 0;
        }
        let full = (to - from + 1) as u64 * self.p.payload.0;
        let last = self.curseq - 1;
        let short =
            if (from..=to).contains(&last) { self.p.payload.0 - self.payload(last) } else { 0 };
        full - short
    }

    /// Packets the application has to send, for a transfer of `bytes`.
    fn segments_for(&self, bytes: u64) -> i64 {
        bytes.div_ceil(self.p.payload.0) as i64
    }

    /// The receiver window in packets: min(`window`, advertised rwnd / payload). ns-2's
    /// `TcpAgent::window()` is min(cwnd_, wnd_) with `wnd_` a local constant (its one-way ACKs
    /// carry no window); RFC 5681 §2 and RFC 793 §3.7 let the advertised window (rwnd) bound
    /// the send window as well. Every window computation goes through this accessor.
    pub fn wnd(&self) -> i64 {
        (self.p.window as i64).min(self.peer_wnd)
    }

    /// Takes the window an ACK advertises (RFC 793 §3.9: SND.WND from each acceptable ACK;
    /// old ACKs below `highest_ack` are ignored). A window smaller than one segment still
    /// allows one: the one-way sender has no persist timer, so it must not stall at zero.
    fn take_rwnd(&mut self, h: &TcpHdr) {
        if (h.ack as i64) < self.highest_ack {
            return;
        }
        self.peer_wnd = match h.rwnd {
            TcpHdr::NO_RWND => self.p.window as i64,
            bytes => ((bytes as u64 / self.p.payload.0) as i64).max(1),
        };
    }

    pub fn in_flight_pkts(&self) -> u64 {
        (self.maxseq - self.highest_ack).max(0) as u64
    }
}

/// What a recovery algorithm works with while handling one event: the core, the congestion
/// control and the network.
pub struct Conn<'a, 'b> {
    pub s: &'a mut Core,
    pub cc: &'a mut dyn CongestionControl,
    pub ctx: &'a mut AgentCtx<'b>,
}

impl Conn<'_, '_> {
    pub fn now(&self) -> SimTime {
        self.ctx.now()
    }

    pub fn set_state(&mut self, to: CongState) {
        self.s.set_state(to);
    }

    /// min(cwnd, receiver window), as a reduction sees it (ns-2 `windowd()`).
    pub fn view(&self) -> SenderView {
        SenderView {
            win: self.cc.cwnd().min(self.s.wnd() as f64),
            whole_packets: self.s.p.whole_packet_reduction,
            now: self.now(),
        }
    }

    /// Sending window in whole packets plus `extra` (Reno's inflation), capped by the
    /// receiver window (ns-2 `window()`).
    pub fn window(&self, extra: i64) -> i64 {
        (self.cc.cwnd() as i64 + extra).min(self.s.wnd())
    }

    /// Sends segment `seq` (new or retransmitted) and keeps the books (ns-2 `output`).
    pub fn output(&mut self, seq: i64) {
        let now = self.now();
        let s = &mut *self.s;
        let force_timer = s.highest_ack == s.maxseq;
        let payload = s.payload(seq);
        let mut fl = if seq < s.first_data { flags::SYN } else { 0 };
        if s.cwr_pending {
            fl |= flags::CWR;
            s.cwr_pending = false;
        }
        let ecn = if s.p.ecn && fl & flags::SYN == 0 { Ecn::Ect } else { Ecn::NotEct };
        let prio = match &s.p.tcp_ds {
            // Fast retransmit sets the Recovery state before it retransmits.
            Some(m) => {
                let (syn, recovery) = (fl & flags::SYN != 0, s.state == CongState::Recovery);
                if m.keeps_mark(syn, recovery) {
                    fl |= flags::MUST_KEEP;
                }
                m.precedence(
                    self.cc.cwnd().min(s.wnd() as f64),
                    syn || recovery,
                    s.mark_rng.as_mut(),
                )
            }
            None => s.prio,
        };
        self.ctx.send(Packet {
            dst: s.dst,
            dst_agent: s.dst_agent,
            size: s.wire_size(seq) as u32,
            ptype: PType::Tcp,
            prio,
            tag: s.tag,
            ecn,
            seq: seq as u64,
            tcp: TcpHdr {
                seq: seq as u64,
                flags: fl,
                ts_echo: now,
                payload: payload as u32,
                conn: s.conn,
                ..TcpHdr::default()
            },
            ..Packet::default()
        });
        if let Some(log) = &mut s.send_log {
            log.record(seq, now, seq == 0 && s.t_seqno == 0);
        }
        if let Some(times) = &mut s.send_times {
            times.record(seq, now, seq <= s.maxseq);
        }
        if s.delivery_hooks {
            self.cc.on_sent(seq, now, s.in_flight_pkts(), seq <= s.maxseq);
        }
        if s.pacer.is_some() {
            let (bytes, rate) = (s.wire_size(seq), self.pacing_rate());
            self.s.pacer.as_mut().expect("checked").sent(now, bytes, rate);
        }
        let s = &mut *self.s;
        if seq > s.maxseq {
            s.maxseq = seq;
            if !s.rtt_active {
                s.rtt_active = true;
                if seq > s.rtt_seq {
                    s.rtt_seq = seq;
                    s.rtt_ts = now;
                }
            }
        } else {
            self.ctx.net.flows[self.ctx.flow.idx()].tcp.retransmits += 1;
        }
        if self.s.rtx.deadline.is_none() || force_timer {
            self.set_rtx_timer();
        }
    }

    /// Sends new data while the window allows: `t_seqno <= highest_ack + window`, at most
    /// `maxburst` packets (0 = no limit) (ns-2 `TcpAgent::send_much`).
    pub fn send_window(&mut self, extra: i64, maxburst: u32) {
        let mut n = 0;
        while self.s.t_seqno <= self.s.highest_ack + self.window(extra)
            && self.s.t_seqno < self.s.curseq
            && !self.paced()
        {
            self.output(self.s.t_seqno);
            self.s.t_seqno += 1;
            n += 1;
            if maxburst != 0 && n == maxburst {
                break;
            }
        }
    }

    /// The pacing rate now, bit/s ([`Pacer::rate`]).
    pub fn pacing_rate(&self) -> Option<f64> {
        let s = &*self.s;
        let pacer = s.pacer.as_ref()?;
        pacer.rate(
            self.cc.pacing_rate(),
            self.cc.cwnd(),
            self.cc.ssthresh(),
            s.rtt.srtt(),
            s.p.payload.0 + s.p.header.0,
        )
    }

    /// Whether the pacer holds new data now; if so, a release timer is armed (one at a time).
    /// One branch when pacing is off.
    pub fn paced(&mut self) -> bool {
        let Some(p) = &mut self.s.pacer else { return false };
        let Some(at) = p.hold(self.ctx.now()) else { return false };
        if !p.armed {
            p.armed = true;
            self.ctx.timer_at(at, TIMER_PACE, 0);
        }
        true
    }

    /// Limited transmit (RFC 3042; ns-2 `send_one`): one new segment on each of the first
    /// `dupthresh - 1` duplicate ACKs, if cwnd + dupacks and the receiver window allow it.
    pub fn send_one(&mut self) {
        let s = &*self.s;
        let cwnd = self.cc.cwnd();
        if s.t_seqno <= s.highest_ack + s.wnd()
            && s.t_seqno < s.curseq
            && (s.t_seqno as f64) <= s.highest_ack as f64 + cwnd + s.dupacks as f64
        {
            self.output(self.s.t_seqno);
            self.s.t_seqno += 1;
        }
    }

    /// Arms the retransmission timer at now + RTO (ns-2 `set_rtx_timer`), or on the slow
    /// clock's tick that ends it (`rto_clock = "global"`).
    pub fn set_rtx_timer(&mut self) {
        let rto = self.s.rtt.rto();
        let at = match self.s.p.rto_clock {
            RtoClock::PerConnection => self.now() + rto,
            RtoClock::Global => self.s.rtt.slow_clock_deadline(self.now(), rto),
        };
        let t = &mut self.s.rtx;
        t.deadline = Some(at);
        if t.armed.is_none_or(|a| a > at) {
            t.gen = t.gen.wrapping_add(1);
            t.armed = Some(at);
            self.ctx.timer_at(at, TIMER_RTX, t.gen);
        }
    }

    pub fn cancel_rtx_timer(&mut self) {
        self.s.rtx.deadline = None;
    }

    /// When the retransmission timer expires, if it runs.
    pub fn rtx_deadline(&self) -> Option<SimTime> {
        self.s.rtx.deadline
    }

    /// Calls the recovery's [`Recovery::on_timer`] at `at`, unless it is re-armed or cancelled
    /// before.
    pub fn recovery_timer_at(&mut self, at: SimTime) {
        self.cancel_recovery_timer();
        self.ctx.timer_at(at, TIMER_RECOVERY, self.s.recovery_gen);
    }

    pub fn cancel_recovery_timer(&mut self) {
        self.s.recovery_gen = self.s.recovery_gen.wrapping_add(1);
    }

    /// After a timeout or fast retransmit: optionally back off, re-arm, and (unless `mild`)
    /// resume sending right after the cumulative ACK (go-back-N). Cancels RTT timing (Karn's
    /// rule, RFC 6298 §3) (ns-2 `reset_rtx_timer`).
    pub fn reset_rtx_timer(&mut self, mild: bool, backoff: bool) {
        if backoff {
            self.s.rtt.back_off();
        }
        self.set_rtx_timer();
        if !mild {
            self.s.t_seqno = self.s.highest_ack + 1;
        }
        self.s.rtt_active = false;
    }

    /// Re-arms the timer if data is outstanding after ACK `ack`, else cancels it (ns-2
    /// `newtimer`; RFC 6298 (5.2)/(5.3)).
    pub fn newtimer(&mut self, ack: i64) {
        if self.s.t_seqno > ack || ack < self.s.maxseq || self.cc.cwnd() < 1.0 {
            self.set_rtx_timer();
        } else {
            self.cancel_rtx_timer();
        }
    }

    /// Advances the cumulative ACK to `ack`; if it covers the timed segment, ends the backoff
    /// and, when `sample`, takes an RTT sample (Karn: timing stops at any retransmission).
    /// Returns the packets newly acknowledged.
    fn advance(&mut self, ack: i64, sample: bool) -> u64 {
        let acked = (ack - self.s.highest_ack).max(0) as u64;
        self.s.last_ack = ack;
        self.s.highest_ack = ack;
        self.s.t_seqno = self.s.t_seqno.max(ack + 1);
        if self.s.rtt_active && ack >= self.s.rtt_seq {
            self.s.rtt_active = false;
            self.s.rtt.reset_backoff();
            if sample {
                let sent = self.s.rtt_ts;
                self.s.rtt.sample(sent, self.now());
            }
        }
        acked
    }

    /// Advances the cumulative ACK during recovery, without an RTT sample, window growth or
    /// timer change (ns-2 `NewRenoTcpAgent::partialnewack`). Returns packets acked.
    pub fn advance_ack(&mut self, ack: i64) -> u64 {
        self.advance(ack, false)
    }

    /// A new cumulative ACK (ns-2 `newack` with `timerfix_`): reset dupacks, advance, sample
    /// the RTT, then re-arm the timer. Returns the packets newly acknowledged.
    pub fn newack(&mut self, h: &TcpHdr) -> u64 {
        self.s.dupacks = 0;
        let acked = self.advance(h.ack as i64, true);
        self.newtimer(h.ack as i64);
        acked
    }

    /// A new ACK outside recovery: [`Self::newack`], then window growth unless the ACK
    /// echoes ECN, then ns-2's initial window once segment 0 (the SYN, or the first data
    /// segment with `syn = false`) is acknowledged (ns-2 `recv_newack_helper` +
    /// `delay_growth_`; with `syn = false` the growth from that ACK is undone, as in ns-2).
    pub fn new_ack_open(&mut self, h: &TcpHdr) {
        let before = self.s.highest_ack;
        let late = self.cc.initial_window_late();
        if self.s.delay_growth && late && before == 0 {
            self.cc.set_cwnd(self.s.initial_window as f64);
        }
        let acked = self.newack(h);
        let ece = self.echoes_ecn(h);
        let acked_bytes = self.s.payload_between(before + 1, h.ack as i64);
        self.cc.observe_ack(acked_bytes, ece, self.s.t_seqno, h.ack as i64);
        if !ece {
            let s = AckSample {
                now: self.now(),
                acked_pkts: acked,
                acked_bytes,
                // Header-only segments (ns-2's SYN) serialize faster than data: no sample.
                // With a send log, ns-2 Vegas' sample: the last segment acknowledged, if sent once.
                rtt: match &self.s.send_log {
                    _ if self.s.payload(h.ack as i64) == 0 => None,
                    Some(log) => log.rtt(h.ack as i64, self.now(), true),
                    None => Some(self.now().since(h.ts_echo)),
                },
                snd_nxt: self.s.t_seqno,
                ack: h.ack as i64,
            };
            self.cc.on_ack(&s);
        }
        if self.s.delay_growth && !late && h.ack == 0 {
            self.cc.set_cwnd(self.s.initial_window as f64);
        }
    }

    /// The window was reduced: flag the next segment with CWR (ns-2 `cong_action_`).
    pub fn window_reduced(&mut self) {
        self.s.cwr_pending = true;
    }

    /// Fast retransmit: the window response and counters shared by every variant.
    pub fn fast_retransmit_response(&mut self) {
        self.window_reduced();
        self.enter_fast_retransmit();
        let v = self.view();
        self.cc.on_congestion(CongestionEvent::FastRetransmit, &v);
    }

    /// The bookkeeping of a fast retransmit, without the window response: remember the
    /// highest segment sent, count it, enter recovery.
    pub fn enter_fast_retransmit(&mut self) {
        self.s.recover = self.s.maxseq;
        self.s.last_action = CwndAction::Dupack;
        self.ctx.net.flows[self.ctx.flow.idx()].tcp.fast_retransmits += 1;
        self.set_state(CongState::Recovery);
    }

    /// Whether `h` carries an ECN-Echo this sender acts on (ECN on, and a congestion control
    /// that reads it: BBR does not).
    pub fn echoes_ecn(&self, h: &TcpHdr) -> bool {
        self.s.p.ecn && h.flags & flags::ECE != 0 && !self.cc.ignores_ecn()
    }

    /// ECN-Echo (RFC 3168 §6.1.2; ns-2 `TcpAgent::ecn`): at most one reduction per window.
    pub fn ecn_echo(&mut self, ack: i64) {
        if ack > self.s.recover || self.s.last_action == CwndAction::Timeout {
            self.s.recover = self.s.maxseq;
            self.s.last_action = CwndAction::Ecn;
            let v = self.view();
            self.cc.on_congestion(CongestionEvent::EcnEcho, &v);
            self.window_reduced();
        }
    }

    /// The retransmission timer expired (ns-2 `TcpAgent::timeout`, RFC 6298 (5.4)-(5.7),
    /// RFC 5681 §3.1): shrink the window, back off, go back to the first unacknowledged
    /// segment. The caller then sends.
    pub fn timeout(&mut self) {
        let s = &mut *self.s;
        let idle = s.highest_ack == s.maxseq;
        if self.cc.cwnd() < 1.0 {
            self.cc.set_cwnd(1.0);
        }
        s.recover = s.maxseq;
        if s.highest_ack == -1 && s.initial_window > 1 {
            // The first packet was lost: no larger initial window (ns-2 `bugfix_ss_`).
            s.initial_window = 1;
        }
        let v = self.view();
        if idle || self.s.last_action == CwndAction::Ecn {
            self.cc.on_rto(RtoKind::NoNewReduction, &v);
        } else {
            self.ctx.net.flows[self.ctx.flow.idx()].tcp.timeouts += 1;
            self.cc.on_rto(RtoKind::Loss, &v);
        }
        self.window_reduced();
        self.reset_rtx_timer(false, !idle);
        self.s.last_action = CwndAction::Timeout;
        self.set_state(CongState::Loss);
    }
}

/// A TCP source agent: the core plus one congestion control and one recovery algorithm.
pub struct TcpSender {
    pub core: Core,
    pub cc: Box<dyn CongestionControl>,
    pub rec: Box<dyn Recovery>,
    /// Application bytes to transfer (None: bulk, unbounded).
    pub file_bytes: Option<u64>,
    /// Application-limited sender: a traffic generator (CBR, Poisson, on/off) and its stream
    /// hand over messages; each message of n bytes adds ceil(n / packet_size) full segments
    /// (ns-2 `TcpAgent::sendmsg`). None: bulk or file.
    pub feed: Option<(Box<dyn crate::app::Generator>, crate::rng::SimRng)>,
    /// A byte-stream application (`repeat`, `telnet`, `http`) writing into this connection.
    /// None: bulk, file or generator-fed.
    pub app: Option<Box<dyn StreamApp>>,
    /// The file transfer in progress: when it started and its bytes.
    pub transfer: Option<(SimTime, u64)>,
    /// Paused (flow `pause`): the end of the data supplied before, restored on resume.
    pub paused: Option<i64>,
    /// The generator timer's generation: a pause makes the pending one stale.
    pub app_gen: u32,
}

impl TcpSender {
    fn conn<'a, 'b>(
        &'a mut self,
        ctx: &'a mut AgentCtx<'b>,
    ) -> (Conn<'a, 'b>, &'a mut dyn Recovery) {
        (Conn { s: &mut self.core, cc: &mut *self.cc, ctx }, &mut *self.rec)
    }

    fn start(&mut self, ctx: &mut AgentCtx) {
        let data = match (&self.feed, self.file_bytes) {
            (Some(_), _) => 0,
            (None, Some(b)) => {
                self.transfer = Some((ctx.now(), b));
                self.core.segments_for(b)
            }
            (None, None) if self.app.is_some() => 0,
            (None, None) => i64::MAX / 4,
        };
        self.core.curseq = self.core.first_data + data;
        self.with_app(ctx, |app, io| app.on_open(io));
        if self.feed.is_some() {
            // No data yet; ns-2's SYN (sequence 0 < first_data) still opens the connection.
            ctx.timer_at(ctx.now(), TIMER_APP, self.app_gen);
        }
        if let Some(stop) = self.core.stop {
            ctx.timer_at(stop, TIMER_STOP, 0);
        }
        let maxburst = self.core.p.maxburst;
        let (mut c, rec) = self.conn(ctx);
        rec.send_much(&mut c, maxburst);
    }

    /// The application hands over one message, then the sender sends what the window allows
    /// (ns-2 `sendmsg`: `curseq_ += ceil(nbytes / size_)`, then `send_much`).
    fn on_app(&mut self, ctx: &mut AgentCtx) {
        let now = ctx.now();
        if self.core.stop.is_some_and(|s| now >= s) {
            return;
        }
        let Some((gen, rng)) = &mut self.feed else { return };
        let e = gen.next(rng);
        ctx.timer_at(now + e.gap, TIMER_APP, self.app_gen);
        self.core.curseq += (e.size as u64).div_ceil(self.core.p.payload.0) as i64;
        let maxburst = self.core.p.maxburst;
        let (mut c, rec) = self.conn(ctx);
        rec.send_much(&mut c, maxburst);
    }

    /// Runs one application event, then applies what it asked for: messages to other
    /// connections, a new connection (fresh congestion state and RTT estimator; every byte
    /// so far is acknowledged when an application asks, so nothing else carries over), a
    /// wake-up, a request from the client end ([`crate::app::web_client`]) and new segments
    /// (ns-2 `TcpAgent::advanceby`); then sends what the window allows.
    fn with_app(
        &mut self,
        ctx: &mut AgentCtx,
        event: impl FnOnce(&mut dyn StreamApp, &mut StreamIo),
    ) {
        let Some(app) = &mut self.app else { return };
        let c = &self.core;
        let now = ctx.now();
        let closed = c.stop.is_some_and(|s| now >= s);
        let position = (c.curseq - c.first_data) as u64 * c.p.payload.0;
        let transfers = &mut ctx.net.flows[ctx.flow.idx()].transfers;
        let mut io = StreamIo::new(now, c.p.payload.0, position, closed, transfers);
        event(app.as_mut(), &mut io);
        let (segments, restart, wake, ask, told) =
            (io.new_segments, io.restart, io.wake, io.ask, io.told);
        for (agent, msg) in told {
            ctx.net.timer(now, agent, TIMER_APP_MESSAGE, msg);
        }
        if restart {
            (self.cc, self.rec) = crate::tcp::build::algorithms(&self.core.p);
            self.core.pacer = self.core.p.pacing.map(Pacer::new);
            let p = &self.core.p;
            let phase = p.clock_offset.unwrap_or(crate::time::Dur::ZERO);
            self.core.rtt = RttEstimator::new(p.tick, phase, p.min_rto, p.initial_rto, p.max_rto);
            // A connection that has carried no data yet (a web server's first page: at most
            // the SYN went out) is not a new one: its SYN's ACK must still count.
            if self.core.maxseq >= self.core.first_data {
                self.core.bare_seq = self.core.curseq;
                self.core.conn = self.core.conn.wrapping_add(1);
            }
        }
        if let Some(at) = wake {
            ctx.timer_at(at, TIMER_APP_WAKE, 0);
        }
        if let Some((at, id)) = ask {
            ctx.net.timer(at, self.core.dst_agent, crate::app::web_client::TIMER_REQUEST, id);
        }
        if segments > 0 {
            self.core.curseq += segments;
            let maxburst = self.core.p.maxburst;
            let (mut c, rec) = self.conn(ctx);
            rec.send_much(&mut c, maxburst);
        }
    }

    /// `serve_after = "request_ack"`: the request's own sink at the server acknowledges it (a
    /// header-only ACK carrying the request id), every copy that arrives, as ns-2's
    /// `TCPSink` under `PagePool/WebTraf`'s request agent would; the page waits for the client.
    fn ack_request(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        let req = *ctx.net.pool.get(id);
        ctx.send(Packet {
            dst: req.src,
            dst_agent: req.src_agent,
            size: self.core.p.header.0 as u32,
            ptype: PType::Ack,
            prio: req.prio,
            tag: req.tag,
            seq: req.tcp.seq,
            tcp: TcpHdr { ack: req.tcp.seq, ..TcpHdr::default() },
            ..Packet::default()
        });
    }

    fn on_rtx_timer(&mut self, gen: u32, ctx: &mut AgentCtx) {
        let now = ctx.now();
        let t = &mut self.core.rtx;
        if gen != t.gen {
            return;
        }
        t.armed = None;
        match t.deadline {
            Some(d) if d <= now => {
                t.deadline = None;
                let maxburst = self.core.p.maxburst;
                let (mut c, rec) = self.conn(ctx);
                rec.on_rto(&mut c);
                rec.send_much(&mut c, maxburst);
            }
            Some(d) => {
                t.armed = Some(d);
                ctx.timer_at(d, TIMER_RTX, gen);
            }
            None => {}
        }
    }

    /// After an ACK: a file transfer whose every payload byte is acknowledged is recorded
    /// (its completion time once); a stream application hears how far the stream is
    /// acknowledged and, when everything it wrote is, that it completed. (A stop time may end
    /// a transfer early: that is not a completion.)
    /// (Inlined into the ACK path as when it was its only caller: see `UdpSource::emit`.)
    #[inline(always)]
    fn after_ack(&mut self, acked_before: i64, ctx: &mut AgentCtx) {
        let c = &self.core;
        let all_acked = c.highest_ack >= c.curseq - 1 && self.paused.is_none();
        if let Some((start, bytes)) = self.transfer.filter(|_| all_acked) {
            self.transfer = None;
            let now = ctx.now();
            let f = &mut ctx.net.flows[ctx.flow.idx()];
            f.transfers.push(Transfer { start, end: now, bytes, kind: TransferKind::File });
            f.tcp.completed.get_or_insert(now);
        }
        if self.app.is_none() {
            return;
        }
        if c.highest_ack > acked_before {
            let acked = (c.highest_ack + 1 - c.first_data).max(0) as u64 * c.p.payload.0;
            self.with_app(ctx, |app, io| app.on_delivered(acked, io));
            let c = &self.core;
            // A data segment (not the SYN alone) was acknowledged and nothing written is left.
            if c.highest_ack >= c.first_data && c.highest_ack >= c.curseq - 1 {
                self.with_app(ctx, |app, io| app.on_completed(io));
            }
        }
    }

    /// The pacer's release time came: send what the window allows.
    fn on_pace(&mut self, ctx: &mut AgentCtx) {
        if let Some(p) = &mut self.core.pacer {
            p.armed = false;
        }
        let maxburst = self.core.p.maxburst;
        let (mut c, rec) = self.conn(ctx);
        rec.send_much(&mut c, maxburst);
    }

    /// No new data after the stop time; a transfer cut short is not a completion, and an
    /// application with unsent bytes hears no more.
    fn on_stop(&mut self) {
        let c = &mut self.core;
        if let Some(app) = &mut self.app {
            app.on_closed();
        }
        if c.curseq > c.maxseq + 1 {
            c.curseq = c.maxseq + 1;
            self.transfer = None;
            self.app = None;
        }
    }
}

impl Agent for TcpSender {
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx) {
        match kind {
            TIMER_START => self.start(ctx),
            TIMER_RTX => self.on_rtx_timer(gen, ctx),
            TIMER_STOP => self.on_stop(),
            TIMER_APP if gen == self.app_gen => self.on_app(ctx),
            TIMER_APP_WAKE => self.with_app(ctx, |app, io| app.on_wake(io)),
            TIMER_APP_MESSAGE => self.with_app(ctx, |app, io| app.on_message(gen, io)),
            crate::app::web_client::TIMER_REQUEST_ACKED => {
                self.with_app(ctx, |app, io| app.on_request(gen as u64, io))
            }
            TIMER_PACE => self.on_pace(ctx),
            TIMER_RECOVERY if gen == self.core.recovery_gen => {
                let (mut c, rec) = self.conn(ctx);
                rec.on_timer(&mut c);
            }
            _ => {}
        }
    }

    /// ns-2 `$ftp stop` (`advance 0`): no segment beyond those sent, while the sender goes on
    /// recovering them; the data not sent yet is kept for the resume (`$ftp start`), which
    /// sends what the window allows at once (a file all acknowledged while paused completes
    /// at the resume). A generator-fed sender's messages stop and
    /// start again at the resume. A stop is the flow's `stop` from now.
    fn control(&mut self, c: FlowControl, ctx: &mut AgentCtx) {
        let s = &mut self.core;
        match c {
            FlowControl::Pause => {
                self.paused = Some(s.curseq);
                s.curseq = s.curseq.min(s.maxseq + 1);
                self.app_gen = self.app_gen.wrapping_add(1);
            }
            FlowControl::Resume => {
                s.curseq = self.paused.take().expect("checked: a resume follows a pause");
                if self.feed.is_some() {
                    ctx.timer_at(ctx.now(), TIMER_APP, self.app_gen);
                }
                let maxburst = s.p.maxburst;
                let (mut c, rec) = self.conn(ctx);
                rec.send_much(&mut c, maxburst);
                // A file whose last segment was acknowledged while paused completes now.
                self.after_ack(self.core.highest_ack, ctx);
            }
            FlowControl::Stop => {
                s.curseq = self.paused.take().unwrap_or(s.curseq);
                s.stop = Some(ctx.now());
                self.on_stop();
            }
        }
    }

    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        let h = ctx.net.pool.get(id).tcp;
        if ctx.net.pool.get(id).ptype == PType::Request {
            if self.app.as_ref().is_some_and(|a| a.serves_after_request_ack()) {
                return self.ack_request(id, ctx);
            }
            return self.with_app(ctx, |app, io| app.on_request(h.seq, io));
        }
        if h.conn != self.core.conn {
            return; // drawn by an earlier connection's segment (see `TcpHdr::conn`)
        }
        self.core.take_rwnd(&h);
        let acked_before = self.core.highest_ack;
        if self.core.delivery_hooks {
            self.cc.on_ack_arrived(
                h.ack as i64,
                &h.sack[..h.nsack as usize],
                self.core.maxseq,
                ctx.now(),
            );
        }
        let (mut c, rec) = self.conn(ctx);
        if c.echoes_ecn(&h) {
            c.ecn_echo(h.ack as i64);
        }
        rec.on_ack(&mut c, &h);
        let s = &mut *c.s;
        if s.delivery_hooks && s.t_seqno >= s.curseq && (s.in_flight_pkts() as f64) < c.cc.cwnd() {
            c.cc.on_app_limited(s.in_flight_pkts());
        }
        let s = &mut *c.s;
        match s.state {
            CongState::Loss if s.highest_ack >= s.recover => s.set_state(CongState::Open),
            CongState::Open if s.dupacks > 0 => s.set_state(CongState::Disorder),
            CongState::Disorder if s.dupacks == 0 => s.set_state(CongState::Open),
            _ => {}
        }
        self.after_ack(acked_before, ctx);
    }

    /// The pacing rate of a paced sender, then the congestion control's own values.
    fn cc_state(&self, out: &mut dyn FnMut(&'static str, f64)) {
        let c = &self.core;
        if let Some(p) = &c.pacer {
            let rate = p.rate(
                self.cc.pacing_rate(),
                self.cc.cwnd(),
                self.cc.ssthresh(),
                c.rtt.srtt(),
                c.p.payload.0 + c.p.header.0,
            );
            out("pacing_rate_bps", rate.unwrap_or(f64::NAN));
        }
        self.cc.state_values(out);
    }

    fn tcp_probe(&self) -> Option<TcpProbe> {
        let c = &self.core;
        let pkts = c.in_flight_pkts();
        let bytes = c.payload_between(c.highest_ack + 1, c.maxseq) + pkts * c.p.header.0;
        Some(TcpProbe {
            cwnd: self.cc.cwnd(),
            ssthresh: self.cc.ssthresh(),
            srtt: c.rtt.srtt(),
            rto: c.rtt.rto(),
            in_flight_pkts: pkts,
            in_flight_bytes: bytes,
            state: c.state,
        })
    }
}

#[cfg(test)]
mod tests;
