//! Conservative SACK-based loss recovery, RFC 6675 (`variant = "sack1"` with
//! `sack1.algorithm = "rfc6675"`), in packets (SMSS = one packet).
//!
//! Read first: RFC 6675 §2 (definitions), §4 (IsLost, SetPipe, NextSeg), §5 (algorithm).
//!
//! - Recovery starts on the `dupthresh`-th duplicate ACK that SACKs new data, or as soon as
//!   the first unacknowledged packet IsLost (`dupthresh` SACKed packets above it) (§5 (4)).
//! - Entry: RecoveryPoint = HighData; ssthresh and cwnd halved (RFC 5681, via the congestion
//!   control); the first unacknowledged packet is retransmitted, HighRxt = it (§5 (4.2)).
//! - Every ACK in recovery: update the scoreboard, recompute pipe (SetPipe), and while
//!   cwnd - pipe >= 1 send NextSeg(): a lost hole above HighRxt (rule 1), else new data
//!   (rule 2), else any unSACKed packet above HighRxt (rule 3); pipe + 1 per packet (§5 (C)).
//! - An ACK at or beyond RecoveryPoint ends recovery (§5 (A)); a new one may start as soon as
//!   HighACK reaches the last RecoveryPoint (§5.1, [`may_enter`]), ns-2's variants one ACK later.
//!
//! With `sack1.prr` set, RFC 6937's Proportional Rate Reduction ([`super::prr`]) replaces
//! the `cwnd - pipe >= 1` rule of §5 (C): each ACK releases sndcnt packets (NextSeg still
//! picks them), cwnd shows pipe + sndcnt during recovery and is ssthresh when it ends.
//!
//! With `loss_detection = "rack"`, RFC 8985's RACK-TLP ([`super::rack_tlp`]) decides which
//! packets are lost instead of IsLost(): recovery starts when RACK marks a packet lost, pipe
//! counts RACK's marks, NextSeg() sends the marked packets (rule 1) then new data (rule 2; no
//! rule 3, as Linux: only packets RACK marked are retransmitted), the scoreboard is kept across
//! new ACKs and the end of recovery (RACK needs the SACKs of packets above the cumulative
//! ACK), and outside recovery, once packets are SACKed, new data goes while pipe < cwnd (Linux
//! `tcp_packets_in_flight`, which subsumes limited transmit).
//!
//! A paced sender ([`crate::tcp::pacing`]) paces everything NextSeg() picks, retransmissions
//! included (Linux `tcp_xmit_retransmit_queue` stops at `tcp_pacing_check`); only the
//! retransmission that starts recovery leaves at once. Unpaced, a RACK episode that marks a
//! whole window lost would resend it back to back into the bottleneck queue.
//!
//! nsim specifics: the rescue retransmission (NextSeg rule 4, a MAY) is not implemented; an RTO
//! ends recovery and clears the scoreboard (§5.1 lets the sender keep it).

use super::prr::Prr;
use super::rack_tlp::{RackTlp, Timer};
use super::Recovery;
use crate::packet::TcpHdr;
use crate::tcp::config::{PrrBound, RackParams};
use crate::tcp::scoreboard::ScoreBoard;
use crate::tcp::sender::{Conn, CwndAction};
use crate::tcp::CongState;

/// Whether a new recovery may start: once HighACK has reached the last RecoveryPoint, RFC
/// 6675 §5.1 "a new recovery phase ... MUST NOT be initiated until HighACK is greater than or
/// equal to the new value of RecoveryPoint" (the same bound ends recovery in §5 (A): "a
/// cumulative ACK for this data octet"; RFC 6582 §3.2 step 1's "covers more than recover" and
/// ns-3.37's `m_highRxAckMark >= m_recover` say the same). HighACK and RecoveryPoint are
/// octets; here they are packets (`highest_ack`, `recover` = the highest packet sent), so an
/// ACK that covers the RecoveryPoint packet is `highest_ack == recover`. ns-2's variants keep
/// its stricter `highest_ack > recover` ([`super::may_fast_retransmit`], whose exceptions hold
/// here too): there a loss of the first packet sent after RecoveryPoint, found as recovery
/// ends, waits for the retransmission timer.
fn may_enter(c: &Conn) -> bool {
    c.s.highest_ack >= c.s.recover || super::may_fast_retransmit(c)
}

pub struct SackRfc6675 {
    sb: ScoreBoard,
    in_recovery: bool,
    /// HighData when recovery began (RFC 6675 RecoveryPoint).
    recovery_point: i64,
    /// Highest packet retransmitted in this recovery (RFC 6675 HighRxt).
    high_rxt: i64,
    /// RFC 6937's reduction bound, or None for RFC 6675's own sending rule.
    prr_bound: Option<PrrBound>,
    /// PRR's state while recovering with PRR.
    prr: Option<Prr>,
    /// Packets PRR still lets go after the last ACK (its sndcnt less what was sent).
    sndcnt: i64,
    /// RACK-TLP's state when it detects losses (`loss_detection = "rack"`).
    rack: Option<RackTlp>,
}

impl SackRfc6675 {
    pub fn new(window: u32, prr_bound: Option<PrrBound>, rack: Option<RackParams>) -> Self {
        let rack = rack.map(RackTlp::new);
        SackRfc6675 {
            sb: ScoreBoard::new(window as usize),
            in_recovery: false,
            recovery_point: 0,
            high_rxt: 0,
            prr_bound,
            prr: None,
            sndcnt: 0,
            rack,
        }
    }

    /// RFC 6675 SetPipe() with the current HighRxt, or with RACK's loss marks.
    fn pipe(&self, c: &Conn) -> i64 {
        if self.rack.is_some() {
            return self.sb.pipe_marked(c.s.maxseq);
        }
        self.sb.pipe(c.s.maxseq, self.high_rxt, c.s.p.dupthresh)
    }

    /// RFC 6937 §3 on an ACK in recovery that delivered `delivered` packets: sndcnt from the
    /// pipe it leaves, and cwnd = pipe + sndcnt for the record.
    fn prr_ack(&mut self, c: &mut Conn, delivered: i64) {
        let pipe = self.pipe(c);
        if let Some(prr) = &mut self.prr {
            self.sndcnt = prr.on_ack(delivered, pipe);
            c.cc.set_cwnd((pipe + self.sndcnt) as f64);
        }
    }

    fn sack_blocks(h: &TcpHdr) -> &[(u64, u64)] {
        &h.sack[..h.nsack as usize]
    }

    /// §5 (4): enter loss recovery and retransmit the first unacknowledged packet (with RACK:
    /// the first it marked lost). After an ECN reduction in the same window the window is not
    /// reduced again (RFC 3168 §6.1.2). `delivered`: the packets this ACK newly SACKed (PRR's
    /// first DeliveredData).
    fn enter(&mut self, c: &mut Conn, delivered: i64) {
        if c.s.last_action == CwndAction::Ecn {
            c.s.last_action = CwndAction::Dupack;
            c.s.recover = c.s.maxseq;
            c.set_state(CongState::Recovery);
        } else {
            c.fast_retransmit_response();
        }
        self.in_recovery = true;
        self.recovery_point = c.s.maxseq;
        let first = c.s.highest_ack + 1;
        if let Some(bound) = self.prr_bound {
            // RecoverFS = snd.nxt - snd.una; this ACK's SACKs are its DeliveredData, and pipe
            // is taken before the fast retransmit (HighRxt below the first hole).
            self.prr = Some(Prr::start(bound, c.cc.ssthresh(), c.s.maxseq - c.s.highest_ack));
            self.high_rxt = c.s.highest_ack;
            self.prr_ack(c, delivered);
        }
        self.high_rxt = first;
        c.reset_rtx_timer(true, false);
        let first = match &mut self.rack {
            Some(rack) => {
                rack.on_recovery(c);
                let marked = self.sb.first_awaiting_retransmission().unwrap_or(first);
                self.sb.mark_retran(marked, c.s.t_seqno);
                marked
            }
            None => first,
        };
        c.output(first);
        self.prr_sent();
    }

    /// RFC 6937 §3 prr_out += 1 for a packet sent in recovery (nothing without PRR).
    fn prr_sent(&mut self) {
        if let Some(prr) = &mut self.prr {
            prr.on_sent(1);
            self.sndcnt -= 1;
        }
    }

    /// NextSeg() (§4): rule 1 a lost hole, rule 2 new data, rule 3 any unSACKed packet above
    /// HighRxt. With RACK: rule 1 a packet it marked lost, rule 2.
    fn next_seg(&mut self, c: &mut Conn) -> Option<i64> {
        if self.rack.is_some() {
            if let Some(s) = self.sb.first_awaiting_retransmission() {
                self.sb.mark_retran(s, c.s.t_seqno);
                return Some(s);
            }
            return Self::new_data(c);
        }
        let (dupthresh, high_data) = (c.s.p.dupthresh, c.s.maxseq);
        if let Some(s) = self.sb.first_lost_after(self.high_rxt, high_data, dupthresh) {
            self.high_rxt = s;
            return Some(s);
        }
        if let Some(s) = Self::new_data(c) {
            return Some(s);
        }
        let s = &*c.s;
        let rule3 = (self.high_rxt + 1..=high_data)
            .find(|&q| q > s.highest_ack && !self.sb.is_sacked(q))?;
        self.high_rxt = rule3;
        Some(rule3)
    }

    /// NextSeg() rule 2: the next new packet, if the application and the receiver window allow.
    fn new_data(c: &mut Conn) -> Option<i64> {
        let s = &mut *c.s;
        if s.t_seqno < s.curseq && s.t_seqno <= s.highest_ack + s.wnd() {
            s.t_seqno += 1;
            return Some(s.t_seqno - 1);
        }
        None
    }

    /// SACKed packets now, for RFC 6937's change_in(SACKd); counted only with PRR (an O(window)
    /// scan the other senders do not pay for).
    fn sacked_for_prr(&self) -> i64 {
        if self.prr_bound.is_some() {
            self.sb.sacked_count()
        } else {
            0
        }
    }

    fn on_dupack(&mut self, c: &mut Conn, h: &TcpHdr) {
        let sacked_before = self.sacked_for_prr();
        self.sb.update(c.s.highest_ack, Self::sack_blocks(h));
        if !self.sb.changed() {
            return;
        }
        c.s.dupacks += 1;
        let thresh = c.s.p.dupthresh;
        let first_lost = self.sb.first_lost_after(c.s.highest_ack, c.s.maxseq, thresh)
            == Some(c.s.highest_ack + 1);
        let allowed = may_enter(c) || c.s.last_action == CwndAction::Ecn;
        if (c.s.dupacks >= thresh || first_lost) && allowed {
            self.enter(c, self.sacked_for_prr() - sacked_before);
        } else if c.s.dupacks < thresh && c.s.p.limited_transmit {
            c.send_one();
        }
    }
}

impl Recovery for SackRfc6675 {
    fn on_ack(&mut self, c: &mut Conn, h: &TcpHdr) {
        if self.rack.is_some() {
            return self.on_ack_rack(c, h);
        }
        let ack = h.ack as i64;
        if self.in_recovery {
            if ack >= self.recovery_point {
                // §5 (A): recovery is over; the next ACKs grow cwnd from ssthresh again.
                self.in_recovery = false;
                self.sb.clear();
                if self.prr.take().is_some() {
                    // Recovery ends at the congestion control's target (RFC 6937 §4).
                    c.cc.set_cwnd(c.cc.ssthresh());
                }
                c.newack(h);
                c.s.last_action = CwndAction::Exited;
                c.set_state(CongState::Open);
            } else {
                let (una_before, sacked_before) = (c.s.highest_ack, self.sacked_for_prr());
                if ack > c.s.highest_ack {
                    c.advance_ack(ack);
                    c.newtimer(ack);
                }
                self.sb.update(c.s.highest_ack, Self::sack_blocks(h));
                // RFC 6937 DeliveredData = change_in(snd.una) + change_in(SACKd).
                self.prr_ack(
                    c,
                    c.s.highest_ack - una_before + self.sacked_for_prr() - sacked_before,
                );
            }
        } else if ack > c.s.last_ack {
            c.new_ack_open(h);
            self.sb.clear();
        } else if ack == c.s.last_ack {
            self.on_dupack(c, h);
        }
        self.send_much(c, c.s.p.maxburst);
    }

    fn on_rto(&mut self, c: &mut Conn) {
        if let Some(rack) = &mut self.rack {
            rack.on_rto(c);
        }
        self.in_recovery = false;
        self.prr = None;
        self.sb.clear();
        c.s.dupacks = 0;
        c.timeout();
    }

    /// Outside recovery: the window; inside: while cwnd - pipe >= 1 (§5 (C)), or with PRR
    /// the sndcnt packets of the last ACK (RFC 6937 §3).
    fn send_much(&mut self, c: &mut Conn, maxburst: u32) {
        if !self.in_recovery {
            let sent_before = c.s.maxseq;
            if c.s.dupacks == 0 {
                c.send_window(0, maxburst);
            } else if self.rack.is_some() {
                self.send_while_pipe_allows(c, maxburst);
            }
            if c.s.maxseq > sent_before {
                if let Some(rack) = &mut self.rack {
                    rack.schedule_probe(c, &self.sb, false);
                }
            }
            return;
        }
        let mut n = 0;
        if self.prr.is_some() {
            while self.sndcnt > 0 && (maxburst == 0 || n < maxburst) && !c.paced() {
                let Some(x) = self.next_seg(c) else { break };
                c.output(x);
                self.prr_sent();
                n += 1;
            }
            return;
        }
        self.send_while_pipe_allows(c, maxburst);
    }

    fn on_timer(&mut self, c: &mut Conn) {
        let Some(rack) = &mut self.rack else { return };
        match rack.expired() {
            Some(Timer::Reorder) => {
                let reorder = rack.detect_loss(c, &mut self.sb, self.in_recovery);
                self.after_detection(c, 0, reorder, false);
            }
            Some(Timer::Probe) => rack.send_probe(c, self.in_recovery),
            None => {}
        }
    }
}

impl SackRfc6675 {
    /// §5 (C): NextSeg() while cwnd - pipe >= 1, at most `maxburst` packets (0 = no limit),
    /// and, for a paced sender, while the pacer lets a packet go.
    fn send_while_pipe_allows(&mut self, c: &mut Conn, maxburst: u32) {
        let (mut pipe, mut n) = (self.pipe(c), 0);
        while c.cc.cwnd() - pipe as f64 >= 1.0 && (maxburst == 0 || n < maxburst) && !c.paced() {
            let Some(x) = self.next_seg(c) else { break };
            c.output(x);
            pipe += 1;
            n += 1;
        }
    }

    /// An ACK with RACK-TLP detecting losses ([`super::rack_tlp`]): the cumulative ACK as
    /// without it, the scoreboard, RACK's update and loss marks, then recovery and sending.
    fn on_ack_rack(&mut self, c: &mut Conn, h: &TcpHdr) {
        let (ack, blocks) = (h.ack as i64, Self::sack_blocks(h));
        let (una_before, sacked_before) = (c.s.highest_ack, self.sb.sacked_count());
        if let Some(rack) = &mut self.rack {
            rack.collect(c, &self.sb, ack, blocks);
        }
        let advanced = ack > c.s.highest_ack;
        if self.in_recovery {
            if ack >= self.recovery_point {
                // §5 (A): recovery is over; the scoreboard stays (RACK reads the SACKs above).
                self.in_recovery = false;
                if self.prr.take().is_some() {
                    c.cc.set_cwnd(c.cc.ssthresh());
                }
                c.newack(h);
                c.s.last_action = CwndAction::Exited;
                c.set_state(CongState::Open);
            } else if advanced {
                c.advance_ack(ack);
                c.newtimer(ack);
            }
        } else if ack > c.s.last_ack {
            c.new_ack_open(h);
        }
        self.sb.update(c.s.highest_ack, blocks);
        if !self.in_recovery && !advanced && self.sb.changed() {
            c.s.dupacks += 1;
        }
        let Some(rack) = &mut self.rack else { return };
        rack.on_ack(c, ack, !advanced && blocks.is_empty());
        let reorder = rack.detect_loss(c, &mut self.sb, self.in_recovery);
        let delivered = c.s.highest_ack - una_before + self.sb.sacked_count() - sacked_before;
        self.after_detection(c, delivered, reorder, advanced);
    }

    /// After RACK marked losses: start recovery on a loss (unless a recovery or RTO of the
    /// same window forbids it), PRR's share for this ACK in recovery, send, then the timers.
    fn after_detection(
        &mut self,
        c: &mut Conn,
        delivered: i64,
        reorder: crate::time::Dur,
        advanced: bool,
    ) {
        if self.in_recovery {
            self.prr_ack(c, delivered);
        } else if self.sb.first_awaiting_retransmission().is_some() {
            let allowed = may_enter(c) || c.s.last_action == CwndAction::Ecn;
            if allowed {
                self.enter(c, delivered);
            }
        }
        self.send_much(c, c.s.p.maxburst);
        if let Some(rack) = &mut self.rack {
            rack.arm_after_ack(c, &self.sb, reorder, self.in_recovery, advanced);
        }
    }
}
