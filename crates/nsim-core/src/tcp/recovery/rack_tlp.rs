//! RACK-TLP loss detection (RFC 8985) inside RFC 6675 SACK recovery (`loss_detection =
//! "rack"`, [`super::sack_rfc6675`]): the sender-side glue between the pure rules of
//! [`super::rack`] and [`super::tlp`] and the sender core, the scoreboard and the timers.
//!
//! - Per-segment state (§6.1): the core records each transmission's time in
//!   [`super::rack::send_times::SendTimes`]; RACK's loss marks live in the scoreboard, which
//!   RFC 6675's IsLost() no longer decides: a packet is lost when RACK says so, and NextSeg()
//!   sends marked packets first (a lost retransmission is marked, and sent, again).
//! - On every ACK (§6.2): the packets it newly delivers, cumulatively or by SACK, update RACK
//!   (steps 1-3); then every outstanding packet sent before RACK.xmit_ts is lost once its
//!   reordering window has passed, else the reordering timer is armed for the latest one
//!   (steps 4-5, §6.2 RACK_detect_loss_and_arm_timer). A loss starts fast recovery.
//! - The reordering timer's expiry runs step 5 again (§6.2).
//! - TLP (§7): the probe timeout is (re)armed after new data is sent or new data is
//!   cumulatively acknowledged, outside fast and RTO recovery, with data in flight, no packet
//!   SACKed and no probe outstanding (§7.2); its expiry sends the probe and re-arms the RTO
//!   (§7.3); the episode ends as [`super::tlp::Episode::on_ack`] says, and a repaired loss
//!   reduces the window as a fast retransmit does (§7.4.2).
//! - One timer serves both (Linux keeps them in one slot, `icsk_pending`): the reordering timer
//!   takes precedence over the probe timeout.
//!
//! nsim specifics: an RTO keeps nsim's go-back-N (RFC 8985 §6.3 marks every outstanding packet
//! lost, which go-back-N retransmits as well) and ends a TLP episode; SRTT is the RTO
//! estimator's (a multiple of its clock `tick`).

use super::rack::{Delivered, Rack};
use super::tlp::{self, Episode, EpisodeEnd, Probe};
use crate::tcp::cc::CongestionEvent;
use crate::tcp::config::RackParams;
use crate::tcp::scoreboard::ScoreBoard;
use crate::tcp::sender::Conn;
use crate::tcp::CongState;
use crate::time::{Dur, SimTime};

/// What the recovery timer is armed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// RACK's reordering timer (§6.2 step 5).
    Reorder,
    /// TLP's probe timeout (§7.2).
    Probe,
}

pub struct RackTlp {
    p: RackParams,
    rack: Rack,
    /// The TLP episode in progress (TLP.end_seq, TLP.is_retrans), if any.
    episode: Option<Episode>,
    /// What the recovery timer is armed for, if it is.
    timer: Option<Timer>,
    /// The packets the ACK being processed newly delivers (reused: it only grows to the
    /// largest ACK's count, no allocation per ACK after that).
    delivered: Vec<Delivered>,
}

impl RackTlp {
    pub fn new(p: RackParams) -> Self {
        RackTlp { p, rack: Rack::default(), episode: None, timer: None, delivered: Vec::new() }
    }

    /// Before the scoreboard takes cumulative ACK `ack` and SACK `blocks`: collects the packets
    /// they newly deliver, in ascending sequence order, with their last send times.
    pub fn collect(&mut self, c: &Conn, sb: &ScoreBoard, ack: i64, blocks: &[(u64, u64)]) {
        self.delivered.clear();
        let Some(times) = &c.s.send_times else { return };
        let (una, maxseq) = (c.s.highest_ack, c.s.maxseq);
        let cumulative = una + 1..=ack.min(maxseq);
        // An old ACK's blocks may cover packets acknowledged since: not new deliveries.
        let sacked = blocks
            .iter()
            .flat_map(|&(l, r)| (l as i64).max(ack.max(una) + 1)..(r as i64).min(maxseq + 1));
        for seq in cumulative.chain(sacked) {
            if !sb.is_sacked(seq) {
                let s = times.get(seq);
                self.delivered.push(Delivered {
                    seq,
                    xmit_ts: s.at,
                    retransmitted: s.retransmitted,
                });
            }
        }
        self.delivered.sort_unstable_by_key(|d| d.seq);
        self.delivered.dedup_by_key(|d| d.seq);
    }

    /// §6.2 steps 1-3 for the collected packets, then §7.4.2 for the TLP episode: a probe that
    /// repaired a loss reduces the window as a fast retransmit does. `pure_dupack`: the ACK
    /// acknowledges nothing new and carries no SACK block.
    pub fn on_ack(&mut self, c: &mut Conn, ack: i64, pure_dupack: bool) {
        self.rack.on_delivered(c.now(), &self.delivered);
        let Some(end) = self.episode.map(|e| e.on_ack(ack, pure_dupack)) else { return };
        if end != EpisodeEnd::Open {
            self.episode = None;
        }
        if end == EpisodeEnd::RepairedLoss {
            c.window_reduced();
            let v = c.view();
            c.cc.on_congestion(CongestionEvent::FastRetransmit, &v);
        }
    }

    /// §6.2 steps 4-5: marks on `sb` the outstanding packets now lost and returns how long the
    /// reordering timer must wait for the others (ZERO: no timer).
    pub fn detect_loss(&mut self, c: &mut Conn, sb: &mut ScoreBoard, in_recovery: bool) -> Dur {
        let Some(times) = &c.s.send_times else { return Dur::ZERO };
        if self.rack.end_seq == 0 {
            return Dur::ZERO;
        }
        let recovering = in_recovery || c.s.state() == CongState::Loss;
        let sacked = sb.sacked_count() as u32;
        let reo_wnd = self.rack.reo_wnd(recovering, sacked, c.s.p.dupthresh, c.s.rtt.srtt());
        let now = c.now();
        let mut timeout = Dur::ZERO;
        for seq in c.s.highest_ack + 1..=c.s.maxseq {
            if sb.is_sacked(seq) || sb.awaits_retransmission(seq) {
                continue;
            }
            match self.rack.remaining(now, seq, times.get(seq).at, reo_wnd) {
                None => {
                    sb.mark_lost(seq);
                    c.cc.on_marked_lost(seq);
                }
                Some(wait) => timeout = timeout.max(wait),
            }
        }
        timeout
    }

    /// Fast recovery starts: it ends the TLP episode and its reduction stands for the probe's
    /// (Linux `tcp_init_cwnd_reduction`); no probe during recovery.
    pub fn on_recovery(&mut self, c: &mut Conn) {
        self.episode = None;
        if self.timer == Some(Timer::Probe) {
            self.cancel(c);
        }
    }

    /// An RTO: it ends the TLP episode and any pending timer.
    pub fn on_rto(&mut self, c: &mut Conn) {
        self.episode = None;
        self.cancel(c);
    }

    fn arm(&mut self, c: &mut Conn, at: SimTime, kind: Timer) {
        self.timer = Some(kind);
        c.recovery_timer_at(at);
    }

    fn cancel(&mut self, c: &mut Conn) {
        self.timer = None;
        c.cancel_recovery_timer();
    }

    /// The recovery timer expired: what for.
    pub fn expired(&mut self) -> Option<Timer> {
        self.timer.take()
    }

    /// After an ACK was processed: the reordering timer if step 5 waits on a packet
    /// (`reorder` > 0), else the probe timeout if the ACK acknowledged new data (`advanced`).
    pub fn arm_after_ack(
        &mut self,
        c: &mut Conn,
        sb: &ScoreBoard,
        reorder: Dur,
        in_recovery: bool,
        advanced: bool,
    ) {
        if reorder > Dur::ZERO {
            let at = c.now() + reorder;
            self.arm(c, at, Timer::Reorder);
            return;
        }
        if self.timer == Some(Timer::Reorder) {
            self.cancel(c);
        }
        if advanced {
            self.schedule_probe(c, sb, in_recovery);
        }
    }

    /// §7.2 TLP_schedule: (re)arms the probe timeout if a probe may be sent, else disarms it.
    /// Leaves a pending reordering timer alone.
    pub fn schedule_probe(&mut self, c: &mut Conn, sb: &ScoreBoard, in_recovery: bool) {
        if self.timer == Some(Timer::Reorder) {
            return;
        }
        let flight = c.s.maxseq - c.s.highest_ack;
        let may = self.p.tlp
            && !in_recovery
            && c.s.state() != CongState::Loss
            && self.episode.is_none()
            && flight > 0
            && sb.sacked_count() == 0;
        if !may {
            if self.timer == Some(Timer::Probe) {
                self.cancel(c);
            }
            return;
        }
        let now = c.now();
        let srtt = Some(c.s.rtt.srtt()).filter(|s| *s > Dur::ZERO);
        let rto_left = c.rtx_deadline().map_or(Dur(u64::MAX), |d| d.since(now));
        let pto = tlp::pto(srtt, flight, self.p.max_ack_delay, rto_left);
        self.arm(c, now + pto, Timer::Probe);
    }

    /// §7.3 TLP_send_probe, when the probe timeout expires: new data if the application has
    /// some and the receiver window allows it, else the highest packet sent again; then the RTO
    /// is re-armed.
    pub fn send_probe(&mut self, c: &mut Conn, in_recovery: bool) {
        let s = &*c.s;
        if in_recovery
            || s.state() == CongState::Loss
            || self.episode.is_some()
            || s.maxseq <= s.highest_ack
        {
            return;
        }
        let probe =
            tlp::probe(s.t_seqno.max(s.maxseq + 1), s.curseq, s.highest_ack, s.wnd(), s.maxseq);
        match probe {
            Probe::New(seq) => {
                c.output(seq);
                c.s.t_seqno = seq + 1;
            }
            Probe::Last(seq) => c.output(seq),
        }
        self.episode =
            Some(Episode { end_seq: c.s.maxseq + 1, is_retrans: matches!(probe, Probe::Last(_)) });
        c.set_rtx_timer();
    }
}
