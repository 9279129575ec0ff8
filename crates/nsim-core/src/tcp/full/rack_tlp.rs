//! RACK-TLP loss detection (RFC 8985) in the two-way TCP's RFC 6675 SACK recovery
//! (`loss_detection = "rack"` with `variant = "sack"`, `recovery_rules = "rfc"`): the glue
//! between the connection and the rules it shares with the one-way TCP ([`Rack`]'s §6.2 steps,
//! [`tlp`]'s PTO, probe choice and episode end), in bytes.
//!
//! - Per-segment state (§6.1): [`super::super::send_times::SendTimes`], each segment's last
//!   send time, retransmitted / SACKed / lost marks. RFC 8985's end_seq of a segment is its end
//!   byte, so RACK sees a segment as its last sequence number.
//! - On every ACK (§6.2): the segments it newly delivers (cumulatively or by SACK) update RACK
//!   (steps 1-3); every other segment sent before RACK.xmit_ts is lost once its reordering
//!   window has passed, else the reordering timer waits for the latest (steps 4-5). A loss
//!   starts fast recovery (a fast retransmit of the first lost segment, with the window
//!   reduction of a third duplicate ACK); duplicate ACKs no longer do. In recovery, pipe counts
//!   the segments neither SACKed nor marked lost, and NextSeg() sends the lost segments (rule
//!   1), then new data (rule 2; no rule 3, as the one-way TCP and Linux); PRR may govern how
//!   much.
//! - TLP (§7): the probe timeout PTO = 2·SRTT (+ `tlp_max_ack_delay` with one segment in
//!   flight, 1 s before an SRTT, never past the RTO) is armed after new data is sent or new data
//!   is cumulatively acknowledged, outside fast and RTO recovery, with data in flight, nothing
//!   SACKed and no probe outstanding; it sends new data if the application and the peer's
//!   window allow one segment, else the last segment again, then re-arms the RTO. A
//!   retransmitted probe that repaired a loss reduces the window as a fast retransmit does.
//! - One timer serves both, the reordering timer taking precedence (Linux `icsk_pending`).
//!
//! tcp_full specifics: outside recovery new data goes by the window as without RACK (tcp_full
//! has no limited transmit); RTO recovery (after a timeout, until the cumulative ACK passes what
//! was outstanding) keeps go-back-N and forgets the SACK and loss marks; SRTT is the RTO
//! estimator's (a multiple of its `tick`); nothing is read without `loss_detection = "rack"`.

use super::{FullTcp, TIMER_RACK};
use crate::agent::AgentCtx;
use crate::packet::{flags, TcpHdr};
use crate::tcp::cc::CongestionEvent;
use crate::tcp::config::RackParams;
use crate::tcp::full::timer::Timer;
use crate::tcp::recovery::rack::{Delivered, Rack};
// What the timer is armed for: the one-way TCP's reordering timer or probe timeout.
use crate::tcp::recovery::rack_tlp::Timer as Armed;
use crate::tcp::recovery::tlp::{self, Episode, EpisodeEnd, Probe};
use crate::time::{Dur, SimTime};

/// RACK-TLP's per-connection state.
pub struct RackTlp {
    p: RackParams,
    rack: Rack,
    /// The TLP episode in progress, in bytes (TLP.end_seq = SND.NXT after the probe).
    episode: Option<Episode>,
    timer: Timer,
    /// What `timer` is armed for, if it is.
    armed: Option<Armed>,
    /// The segments the ACK being processed newly delivers (reused: no allocation per ACK once
    /// it has grown to the largest ACK's count).
    delivered: Vec<Delivered>,
    /// After a timeout, snd_max then: RTO recovery lasts until the cumulative ACK passes it.
    rto_until: Option<u64>,
}

impl RackTlp {
    pub fn new(p: RackParams) -> Self {
        RackTlp {
            p,
            rack: Rack::default(),
            episode: None,
            timer: Timer::default(),
            armed: None,
            delivered: Vec::new(),
            rto_until: None,
        }
    }

    fn arm(&mut self, ctx: &mut AgentCtx, at: SimTime, kind: Armed) {
        self.armed = Some(kind);
        self.timer.set(at, TIMER_RACK, ctx);
    }

    fn cancel(&mut self) {
        self.armed = None;
        self.timer.cancel();
    }
}

impl FullTcp {
    /// Before an ACK is processed: the segments it newly delivers, and their SACK marks.
    pub(super) fn rack_collect(&mut self, h: &TcpHdr) {
        let (Some(r), Some(t)) = (&mut self.rack, &mut self.send_times) else { return };
        r.delivered.clear();
        if self.state.synchronized() && h.ack <= self.snd_max {
            t.deliver(h.ack, &h.sack[..h.nsack as usize], self.fin_seq, &mut r.delivered);
        }
    }

    /// After the ACK was processed (`advanced`: it acknowledged new data): RACK's update and
    /// the TLP episode (§6.2 steps 1-3, §7.4), loss marking and recovery, then the timers.
    pub(super) fn rack_after_ack(&mut self, h: &TcpHdr, advanced: bool, ctx: &mut AgentCtx) {
        let Some(r) = &mut self.rack else { return };
        let now = ctx.now();
        r.rack.on_delivered(now, &r.delivered);
        if r.rto_until.is_some_and(|m| self.snd_una > m) {
            r.rto_until = None;
        }
        // RFC 8985's ACK number is ns-2's highest in-order packet + 1: in bytes, `ack - 1`. A
        // duplicate ACK carries no data (the peer's data segments repeat the ACK too).
        let pure_dupack = !advanced && h.nsack == 0 && h.payload == 0;
        let end = r.episode.map(|e| e.on_ack(h.ack as i64 - 1, pure_dupack));
        if end.is_some_and(|e| e != EpisodeEnd::Open) {
            r.episode = None;
        }
        if end == Some(EpisodeEnd::RepairedLoss) {
            let v = self.view(now);
            self.cc.on_congestion(CongestionEvent::FastRetransmit, &v);
            self.cwr_pending = true;
        }
        self.rack_detect(ctx);
        if advanced {
            self.rack_schedule_probe(ctx);
        }
    }

    /// In fast recovery (pipe control on).
    fn recovering(&self) -> bool {
        self.sack.as_ref().is_some_and(|s| s.pipectrl)
    }

    /// §6.2 steps 4-5: marks the segments now lost, starts recovery on a loss, and arms (or
    /// disarms) the reordering timer.
    pub(super) fn rack_detect(&mut self, ctx: &mut AgentCtx) {
        let recovering = self.recovering();
        let (srtt, dupthresh, now) = (self.rtt.srtt(), self.p.dupthresh, ctx.now());
        let (Some(r), Some(t)) = (&mut self.rack, &mut self.send_times) else { return };
        let mut wait = Dur::ZERO;
        if r.rack.end_seq != 0 {
            let reo_wnd =
                r.rack.reo_wnd(recovering || r.rto_until.is_some(), t.sacked(), dupthresh, srtt);
            let rack = &r.rack;
            wait = t.mark_lost(|seq, at| rack.remaining(now, seq, at, reo_wnd)).1;
        }
        if wait > Dur::ZERO {
            r.arm(ctx, now + wait, Armed::Reorder);
        } else if r.armed == Some(Armed::Reorder) {
            r.cancel();
        }
        if !recovering && r.rto_until.is_none() {
            if let Some(lost) = t.first_lost(self.snd_una) {
                self.rack_enter(lost, ctx);
            }
        }
    }

    /// RACK found a loss outside recovery: fast recovery starts with the lost segment
    /// `[seq, end)` retransmitted, as a third duplicate ACK starts it without RACK; the TLP
    /// episode ends (the recovery's reduction stands for the probe's, Linux
    /// `tcp_init_cwnd_reduction`).
    fn rack_enter(&mut self, (seq, end): (u64, u64), ctx: &mut AgentCtx) {
        if !self.rec.enter_on_loss(self.snd_una, self.snd_max) {
            return;
        }
        ctx.net.flows[ctx.flow.idx()].tcp.fast_retransmits += 1;
        let v = self.view(ctx.now());
        self.cc.on_congestion(CongestionEvent::FastRetransmit, &v);
        self.cwr_pending = true;
        self.rtx.cancel();
        if let Some(r) = &mut self.rack {
            r.episode = None;
            if r.armed == Some(Armed::Probe) {
                r.cancel();
            }
        }
        self.start_prr();
        self.rtt_active = false;
        let amt = self.resend(seq, end, ctx);
        if let Some(p) = &mut self.prr {
            p.sent(amt);
        }
        if let Some(s) = &mut self.sack {
            s.fast_retransmitted(seq, amt);
        }
        self.send_much(ctx, false);
    }

    /// Sends `[seq, end)` again (at most one MSS of data, and the FIN if it is in it); returns
    /// the sequence numbers covered.
    fn resend(&mut self, seq: u64, end: u64, ctx: &mut AgentCtx) -> u64 {
        let len = end.min(self.data_end()).saturating_sub(seq).min(self.p.mss);
        let fin = self.fin_seq == Some(seq + len) && end > seq + len;
        self.segment(ctx, seq, len, if fin { flags::FIN } else { 0 });
        len + u64::from(fin)
    }

    /// §7.2 TLP_schedule: (re)arms the probe timeout when a probe may be sent, else disarms
    /// it; a pending reordering timer stays.
    pub(super) fn rack_schedule_probe(&mut self, ctx: &mut AgentCtx) {
        let recovering = self.recovering();
        let flight = self.snd_max - self.snd_una;
        let (segments, srtt) =
            (self.segments_out() as i64, Some(self.rtt.srtt()).filter(|s| *s > Dur::ZERO));
        let now = ctx.now();
        let rto_left = self.rtx.deadline().map_or(Dur(u64::MAX), |d| d.since(now));
        let sacked = self.send_times.as_ref().map_or(0, |t| t.sacked());
        let Some(r) = &mut self.rack else { return };
        if r.armed == Some(Armed::Reorder) {
            return;
        }
        let may = r.p.tlp
            && !recovering
            && r.rto_until.is_none()
            && r.episode.is_none()
            && flight > 0
            && sacked == 0;
        if !may {
            if r.armed == Some(Armed::Probe) {
                r.cancel();
            }
            return;
        }
        let pto = tlp::pto(srtt, segments, r.p.max_ack_delay, rto_left);
        r.arm(ctx, now + pto, Armed::Probe);
    }

    /// The RACK timer fired (generation `gen`).
    pub(super) fn rack_timer(&mut self, gen: u32, ctx: &mut AgentCtx) {
        let Some(r) = &mut self.rack else { return };
        if !r.timer.fire(gen, TIMER_RACK, ctx) {
            return;
        }
        match r.armed.take() {
            Some(Armed::Reorder) => {
                self.rack_detect(ctx);
                self.output(ctx);
            }
            Some(Armed::Probe) => self.rack_probe(ctx),
            None => {}
        }
    }

    /// §7.3 TLP_send_probe: one new segment if the application has data and the peer's window
    /// takes it, else the last segment sent again; then the RTO is re-armed.
    fn rack_probe(&mut self, ctx: &mut AgentCtx) {
        let recovering = self.recovering();
        let (una, nxt, data_end) = (self.snd_una, self.snd_nxt, self.data_end());
        let (Some(r), Some(t)) = (&self.rack, &self.send_times) else { return };
        let Some((last, last_end)) = t.last(una) else { return };
        if recovering
            || r.rto_until.is_some()
            || r.episode.is_some()
            || self.snd_max <= una
            || !self.sends_data()
        {
            return;
        }
        let len = self.p.mss.min(data_end.saturating_sub(nxt));
        let wnd = self.snd_wnd.saturating_sub(len) as i64;
        let probe = tlp::probe(nxt as i64, data_end as i64, una as i64, wnd, last as i64);
        match probe {
            Probe::New(_) => {
                let fin = self.fin_seq == Some(nxt + len);
                self.segment(ctx, nxt, len, if fin { flags::FIN } else { 0 });
                self.sent(nxt, len + u64::from(fin));
            }
            Probe::Last(_) => {
                self.resend(last, last_end, ctx);
            }
        }
        let episode =
            Episode { end_seq: self.snd_max as i64, is_retrans: matches!(probe, Probe::Last(_)) };
        if let Some(r) = &mut self.rack {
            r.episode = Some(episode);
        }
        self.set_rtx(ctx);
    }

    /// A retransmission timeout: RTO recovery until the cumulative ACK passes `snd_max`; the
    /// episode, the timer and the SACK and loss marks go (go-back-N resends everything).
    pub(super) fn rack_timeout(&mut self) {
        let Some(r) = &mut self.rack else { return };
        r.episode = None;
        r.cancel();
        r.rto_until = Some(self.snd_max);
        if let Some(t) = &mut self.send_times {
            t.forget_marks();
        }
    }

    /// In recovery with RACK: the first segment marked lost (NextSeg() rule 1), `[seq, end)`.
    pub(super) fn rack_next_lost(&self) -> Option<(u64, u64)> {
        self.rack.as_ref()?;
        self.send_times.as_ref()?.first_lost(self.snd_una)
    }

    /// Bytes in the network by RACK's marks (None without RACK).
    pub(super) fn rack_pipe(&self) -> Option<u64> {
        self.rack.as_ref()?;
        Some(self.send_times.as_ref()?.in_flight(self.snd_una))
    }
}
