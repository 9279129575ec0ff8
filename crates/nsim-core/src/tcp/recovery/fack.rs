//! Forward acknowledgement (Mathis & Mahdavi, "Forward Acknowledgement: Refining TCP
//! Congestion Control", SIGCOMM 1996; ns-2 `Agent/TCP/Fack`, tcp/tcp-fack.cc).
//!
//! `fack` is the highest SACKed sequence number. The data in the network is estimated as
//! `awnd = t_seqno - fack + retran_data` (packets sent beyond the forward-most SACK, plus
//! retransmissions not yet acknowledged), and a packet may leave while awnd < cwnd (§3).
//! Recovery starts when `fack - last_ack > dupthresh` (more than three packets' worth SACKed
//! beyond the hole, §4.1), so it does not wait for three duplicate ACKs.
//!
//! As in ns-2, entering recovery halves ssthresh and closes cwnd to 1 (`slowdown(
//! CLOSE_SSTHRESH_HALF|CLOSE_CWND_RESTART)`, paired with [`crate::tcp::cc::tahoe`]), and cwnd
//! then grows per ACK during recovery; with `rampdown` the window is instead trimmed
//! gradually (`wintrim_`, §4.3). A lost retransmission (SACKs for data sent after it) stops
//! sending until the timeout, as ns-2's `CheckSndNxt` does.

use super::Recovery;
use crate::packet::TcpHdr;
use crate::tcp::cc::AckSample;
use crate::tcp::scoreboard::ScoreBoard;
use crate::tcp::sender::{Conn, CwndAction};
use crate::tcp::CongState;

pub struct Fack {
    sb: ScoreBoard,
    rampdown: bool,
    fastrecov: bool,
    /// Highest SACKed (or cumulatively acknowledged) sequence number (ns-2 `fack_`).
    fack: i64,
    /// Retransmitted packets still unacknowledged (ns-2 `retran_data_`).
    retran_data: i64,
    /// Rampdown window trim in packets (ns-2 `wintrim_`).
    wintrim: f64,
    /// A retransmission was lost: send nothing until the timeout (ns-2 `timeout_`).
    stalled: bool,
}

impl Fack {
    pub fn new(window: u32, rampdown: bool) -> Self {
        Fack {
            sb: ScoreBoard::new(window as usize),
            rampdown,
            fastrecov: false,
            fack: -1,
            retran_data: 0,
            wintrim: 0.0,
            stalled: false,
        }
    }

    fn window(&self, c: &Conn) -> i64 {
        (c.cc.cwnd().min(c.s.wnd() as f64) + self.wintrim) as i64
    }

    /// Highest SACKed sequence number in this ACK (ns-2 `maxsack`), or -1.
    fn maxsack(h: &TcpHdr) -> i64 {
        h.sack[..h.nsack as usize].iter().map(|&(_, r)| r as i64 - 1).max().unwrap_or(-1)
    }

    /// An ACK processed without window growth (ns-2 `FackTcpAgent::oldack`): advance, re-arm,
    /// and take an RTT sample from the echoed timestamp.
    fn oldack(&mut self, c: &mut Conn, h: &TcpHdr) {
        let ack = h.ack as i64;
        c.advance_ack(ack);
        self.fack = self.fack.max(ack);
        c.newtimer(ack);
        let now = c.now();
        c.s.rtt.sample(h.ts_echo, now);
    }

    fn grow(c: &mut Conn, h: &TcpHdr) {
        let s = AckSample {
            now: c.now(),
            acked_pkts: 0,
            acked_bytes: 0,
            rtt: None,
            snd_nxt: c.s.t_seqno,
            ack: h.ack as i64,
        };
        c.cc.on_ack(&s);
    }

    fn enter_recovery(&mut self, c: &mut Conn) {
        c.fast_retransmit_response();
        c.s.recover = c.s.t_seqno;
        if self.rampdown {
            self.wintrim = (c.s.t_seqno - self.fack - 1) as f64 * 0.5;
        }
        c.reset_rtx_timer(true, false);
        self.fastrecov = true;
        self.sb.mark_retran(c.s.last_ack + 1, c.s.t_seqno);
        self.retran_data += 1;
        c.output(c.s.last_ack + 1);
    }

    fn on_ack_open(&mut self, c: &mut Conn, h: &TcpHdr) {
        let ack = h.ack as i64;
        if ack > c.s.last_ack && h.nsack == 0 {
            c.new_ack_open(h);
            self.fack = c.s.last_ack;
            self.stalled = false;
            self.sb.clear();
            self.retran_data = 0;
            self.wintrim = 0.0;
        } else if ack >= c.s.last_ack {
            self.retran_data -= self.sb.update(c.s.highest_ack, &h.sack[..h.nsack as usize]) as i64;
            self.oldack(c, h);
            self.fack = self.fack.max(Self::maxsack(h));
            c.s.t_seqno = c.s.t_seqno.max(self.fack + 1);
            c.s.dupacks = (self.fack - c.s.last_ack - 1).max(0) as u32;
            if c.s.dupacks >= c.s.p.dupthresh {
                self.enter_recovery(c);
            }
        }
    }

    fn on_ack_recovering(&mut self, c: &mut Conn, h: &TcpHdr) {
        self.oldack(c, h);
        let ms = Self::maxsack(h);
        if ms > self.fack {
            if self.rampdown {
                self.wintrim = (self.wintrim - (ms - self.fack) as f64 * 0.5).max(0.0);
            }
            self.fack = ms;
        }
        c.s.t_seqno = c.s.t_seqno.max(self.fack + 1);
        self.retran_data -= self.sb.update(c.s.highest_ack, &h.sack[..h.nsack as usize]) as i64;
        self.stalled |= self.sb.retransmission_lost();
        Self::grow(c, h);
        if h.nsack == 0 && c.s.last_ack >= c.s.recover {
            self.fastrecov = false;
            self.stalled = false;
            self.sb.clear();
            self.retran_data = 0;
            self.wintrim = 0.0;
            c.s.dupacks = 0;
            c.s.last_action = CwndAction::Exited;
            c.set_state(CongState::Open);
        }
    }
}

impl Recovery for Fack {
    fn on_ack(&mut self, c: &mut Conn, h: &TcpHdr) {
        if self.fastrecov {
            self.on_ack_recovering(c, h);
            self.send_much(c, c.s.p.maxburst);
        } else {
            self.on_ack_open(c, h);
            if c.s.dupacks == 0 {
                self.send_much(c, c.s.p.maxburst);
            }
        }
    }

    /// ns-2 `FackTcpAgent::timeout`: recovery state is kept, the scoreboard is not.
    fn on_rto(&mut self, c: &mut Conn) {
        self.stalled = false;
        c.s.last_ack = c.s.last_ack.max(c.s.highest_ack);
        self.retran_data = 0;
        self.sb.clear();
        c.timeout();
        self.fack = c.s.last_ack;
    }

    fn send_much(&mut self, c: &mut Conn, maxburst: u32) {
        let mut n = 0;
        let mut win = self.window(c);
        while c.s.t_seqno <= self.fack + win - self.retran_data && !self.stalled {
            let x = match self.sb.next_retran() {
                Some(x) => {
                    self.sb.mark_retran(x, c.s.t_seqno);
                    self.retran_data += 1;
                    win = self.window(c);
                    x
                }
                None => {
                    if c.s.t_seqno >= c.s.curseq
                        || (self.fastrecov && c.s.t_seqno > c.s.highest_ack + c.s.wnd())
                    {
                        break;
                    }
                    c.s.t_seqno += 1;
                    c.s.t_seqno - 1
                }
            };
            c.output(x);
            n += 1;
            if maxburst != 0 && n == maxburst {
                break;
            }
        }
    }
}
