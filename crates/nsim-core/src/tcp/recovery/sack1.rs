//! SACK recovery as ns-2 `Agent/TCP/Sack1` (tcp/tcp-sack1.cc; Fall & Floyd 1996 §3): on the
//! third duplicate ACK that SACKs new data, halve the window and enter fast recovery, where a
//! `pipe` estimate of the packets in the network replaces window inflation: a packet may be
//! sent while pipe < cwnd, each ACK decrements pipe (a partial ACK twice), and each sent
//! packet increments it. Holes below the highest SACKed packet are retransmitted first (the
//! scoreboard), then new data. Recovery ends when the ACK covers `recover`.
//!
//! RFC 6675 differs in detail (pipe recomputed from the scoreboard with IsLost(), loss
//! declared from three SACKed segments above a hole); nsim implements ns-2's Sack1 only.

use super::Recovery;
use crate::packet::TcpHdr;
use crate::tcp::config::{PipeStart, Sack1Config};
use crate::tcp::scoreboard::ScoreBoard;
use crate::tcp::sender::{Conn, CwndAction};
use crate::tcp::CongState;

pub struct Sack1 {
    sb: ScoreBoard,
    fastrecov: bool,
    /// Packets estimated in the network during fast recovery (ns-2 `pipe_`).
    pipe: i64,
    /// After a timeout, duplicate ACKs are ignored until new data is acknowledged.
    after_timeout: bool,
    /// Send two packets per partial ACK (ns-2 `partial_ack_`).
    partial_ack: bool,
    /// Next candidate for those two packets (ns-2 `next_pkt_`).
    next_pkt: i64,
    first_partial_seen: bool,
    pipe_start: PipeStart,
}

impl Sack1 {
    pub fn new(window: u32, cfg: &Sack1Config) -> Self {
        Sack1 {
            sb: ScoreBoard::new(window as usize),
            fastrecov: false,
            pipe: 0,
            after_timeout: false,
            partial_ack: cfg.partial_ack,
            next_pkt: 0,
            first_partial_seen: false,
            pipe_start: cfg.pipe_start,
        }
    }

    fn dupack_action(&mut self, c: &mut Conn) {
        let cwnd_before = c.cc.cwnd();
        if super::may_fast_retransmit(c) {
            c.fast_retransmit_response();
        } else if c.s.p.ecn && c.s.last_action == CwndAction::Ecn {
            c.s.last_action = CwndAction::Dupack;
            c.set_state(CongState::Recovery);
        } else {
            return;
        }
        // ns-2 (LimTransmitFix_ false): numdupacks packets have left the network.
        let flight = match self.pipe_start {
            PipeStart::Outstanding => c.s.maxseq - c.s.highest_ack,
            PipeStart::Cwnd => cwnd_before as i64,
        };
        self.pipe = flight - c.s.p.dupthresh as i64;
        c.reset_rtx_timer(true, false);
        self.fastrecov = true;
        self.sb.mark_retran(c.s.highest_ack + 1, c.s.t_seqno);
        c.output(c.s.last_ack + 1);
    }

    /// Two packets per partial ACK, holes first (ns-2 `partial_ack_action`).
    fn partial_ack_action(&mut self, c: &mut Conn) {
        self.next_pkt = self.next_pkt.max(c.s.highest_ack + 1);
        for _ in 0..2 {
            self.next_pkt = self.next_pkt.max(self.sb.next_unacked(self.next_pkt));
            c.s.t_seqno = c.s.t_seqno.max(self.next_pkt);
            c.output(self.next_pkt);
            self.sb.mark_retran(self.next_pkt, c.s.t_seqno);
            self.next_pkt += 1;
        }
    }

    fn on_ack_open(&mut self, c: &mut Conn, h: &TcpHdr) {
        let ack = h.ack as i64;
        if ack > c.s.last_ack {
            self.first_partial_seen = false;
            c.new_ack_open(h);
            self.after_timeout = false;
            self.sb.clear();
        } else if ack == c.s.last_ack && !self.after_timeout {
            self.sb.update(c.s.highest_ack, &h.sack[..h.nsack as usize]);
            if self.sb.changed() {
                c.s.dupacks += 1;
                let thresh = c.s.p.dupthresh;
                if c.s.dupacks == thresh {
                    self.dupack_action(c);
                } else if c.s.dupacks < thresh && c.s.p.limited_transmit {
                    c.send_one();
                }
            }
        }
    }

    fn on_ack_recovering(&mut self, c: &mut Conn, h: &TcpHdr) {
        let ack = h.ack as i64;
        self.pipe -= 1;
        if ack >= c.s.recover {
            c.s.recover = 0;
            self.fastrecov = false;
            c.newack(h);
            self.after_timeout = false;
            self.sb.clear();
            c.set_state(CongState::Open);
        } else if ack > c.s.highest_ack {
            // Partial ACK: highest_ack advances, last_ack stays (ns-2).
            c.s.highest_ack = ack;
            self.sb.update(ack, &h.sack[..h.nsack as usize]);
            if self.partial_ack {
                self.partial_ack_action(c);
                self.pipe += 1;
                if !self.first_partial_seen {
                    c.newtimer(ack);
                    c.s.rtt.reset_backoff();
                    self.first_partial_seen = true;
                }
            } else {
                // The ACK is probably for a retransmission: count it twice so recovery is
                // never slower than slow start.
                self.pipe -= 1;
                c.newtimer(ack);
                c.s.rtt.reset_backoff();
            }
        } else if !self.after_timeout {
            self.sb.update(c.s.highest_ack, &h.sack[..h.nsack as usize]);
            if self.sb.changed() && c.s.dupacks > 0 {
                c.s.dupacks += 1;
            }
        }
    }

    /// Picks the next packet to send: a hole if any, else new data (None: nothing allowed).
    fn next_segment(&mut self, c: &mut Conn, win: i64) -> Option<i64> {
        let wnd = c.s.wnd();
        match self.sb.next_retran() {
            None => {
                let limit = if self.fastrecov { wnd } else { win };
                (c.s.t_seqno <= c.s.highest_ack + limit && c.s.t_seqno < c.s.curseq).then(|| {
                    c.s.t_seqno += 1;
                    c.s.t_seqno - 1
                })
            }
            Some(x) if c.s.recover > 0 && x <= c.s.highest_ack + wnd => {
                self.sb.mark_retran(x, c.s.t_seqno);
                Some(x)
            }
            Some(_) => None,
        }
    }
}

impl Recovery for Sack1 {
    fn on_ack(&mut self, c: &mut Conn, h: &TcpHdr) {
        let valid = h.ack as i64 >= c.s.last_ack;
        if self.fastrecov {
            self.on_ack_recovering(c, h);
        } else {
            self.on_ack_open(c, h);
        }
        if valid && (self.fastrecov || c.s.dupacks == 0) {
            self.send_much(c, c.s.p.maxburst);
        }
    }

    fn on_rto(&mut self, c: &mut Conn) {
        c.s.dupacks = 0;
        self.fastrecov = false;
        self.after_timeout = true;
        c.s.last_ack = c.s.last_ack.max(c.s.highest_ack);
        c.s.recover = c.s.maxseq;
        self.sb.clear();
        c.timeout();
    }

    /// ns-2 `Sack1TcpAgent::send_much`: window-limited outside recovery, pipe-limited inside.
    fn send_much(&mut self, c: &mut Conn, maxburst: u32) {
        let mut n = 0;
        loop {
            let win = c.window(0);
            let open = if self.fastrecov {
                self.pipe < c.cc.cwnd() as i64
            } else {
                c.s.t_seqno <= c.s.last_ack + win
            };
            if !open || c.s.last_ack + 1 >= c.s.curseq || c.paced() {
                break;
            }
            let Some(x) = self.next_segment(c, win) else { break };
            c.output(x);
            c.s.t_seqno = c.s.t_seqno.max(x + 1);
            self.pipe += 1;
            n += 1;
            if maxburst != 0 && n == maxburst {
                break;
            }
        }
    }
}
