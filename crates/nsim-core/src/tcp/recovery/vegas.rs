//! Vegas loss recovery (ns-2.35 `VegasTcpAgent::recv`, tcp/tcp-vegas.cc; Brakmo, O'Malley &
//! Peterson, SIGCOMM 1994 §3.1 "new retransmission mechanism"). Each segment's send time is
//! kept ([`SendLog`]) and Vegas' own fine-grained timeout ([`FineRto`]) is checked:
//!
//! - On a duplicate ACK, the first unacknowledged segment is retransmitted if its fine-grained
//!   timeout has expired, or at the third duplicate ACK as in Reno. The window becomes 3/4 of
//!   the whole-packet window (2 if it is at most 3), or half if that segment had already been
//!   retransmitted, but only if cwnd has not changed since the segment was sent (one reduction
//!   per loss episode), then is inflated by the duplicate ACKs so far, and by one for each
//!   later one. The fine-grained timeout grows by 1/8 (doubles for a segment retransmitted
//!   before). Not again after a coarse timeout until new data is acknowledged (`bug_fix_`).
//! - On the first and second new ACKs after that retransmission (ns-2 `v_worried_`), the next
//!   unacknowledged segment is retransmitted too if its timeout has expired: the second loss
//!   of a window is repaired without waiting for more duplicate ACKs or the coarse timeout.
//! - The first new ACK after more than three duplicate ACKs restores the reduced window and
//!   sets ssthresh to 2 (no slow start). The coarse timeout leaves cwnd at 2 (ns-2
//!   `v_slowstart_`; see [`crate::tcp::cc::vegas`]).
//!
//! `vegas.fine_retransmit = false` keeps Reno's recovery instead ([`super::reno`]).

use super::Recovery;
use crate::packet::TcpHdr;
use crate::tcp::cc::vegas::fine_rto::FineRto;
use crate::tcp::sender::{Conn, CwndAction};
use crate::tcp::CongState;

#[derive(Default)]
pub struct Vegas {
    rto: FineRto,
    /// An ACK has arrived (ns-2 `firstrecv_ >= 0`).
    started: bool,
    /// When cwnd was last reduced, in seconds on the Vegas clock (ns-2 `t_cwnd_changed_`).
    cwnd_changed: f64,
    /// The reduced window to restore when recovery ends (ns-2 `v_newcwnd_`).
    newcwnd: f64,
    /// New ACKs still to check for an expired segment (ns-2 `v_worried_`).
    worried: i64,
}

impl Vegas {
    /// Whether the segment after `ack` has been out longer than the fine-grained timeout.
    fn expired(&self, c: &Conn, ack: i64) -> bool {
        self.rto.expired(c.s.send_log().elapsed(ack + 1, c.now()))
    }

    fn new_ack(&mut self, c: &mut Conn, h: &TcpHdr) {
        let (ack, now, thresh) = (h.ack as i64, c.now(), c.s.p.dupthresh);
        if c.s.dupacks > thresh && c.cc.cwnd() > self.newcwnd {
            c.cc.set_cwnd(self.newcwnd);
            c.cc.set_ssthresh(2.0);
        }
        if c.s.state() == CongState::Recovery {
            c.set_state(CongState::Open);
        }
        let oldack = c.s.last_ack;
        let rtt = c.s.send_log().rtt(ack, now, false);
        c.new_ack_open(h);
        c.s.send_log_mut().clear_acked(oldack, ack);
        if let Some(rtt) = rtt {
            self.rto.sample(rtt.as_secs_f64());
        }
        if self.worried > 0 {
            self.worried -= 1;
            if self.expired(c, ack) {
                c.s.dupacks = thresh;
                c.output(ack + 1);
            } else {
                self.worried = 0;
            }
        }
    }

    fn dupack(&mut self, c: &mut Conn) {
        let (ack, thresh) = (c.s.last_ack, c.s.p.dupthresh);
        c.s.dupacks += 1;
        if !(self.expired(c, ack) || c.s.dupacks == thresh) {
            if c.s.dupacks > thresh {
                c.cc.set_cwnd(c.cc.cwnd() + 1.0);
            }
            return;
        }
        if !(c.s.highest_ack > c.s.recover || c.s.last_action != CwndAction::Timeout) {
            return;
        }
        let log = c.s.send_log();
        let transmits = log.transmits(ack + 1);
        let reduce = log.sent_after(ack + 1, self.cwnd_changed);
        let now = log.clock(c.now());
        let mut win = c.window(0);
        c.enter_fast_retransmit();
        self.worried = (c.s.t_seqno - ack).min(2);
        self.rto.back_off(transmits > 1);
        if reduce {
            win = if win <= 3 {
                2
            } else if transmits > 1 {
                win / 2
            } else {
                win - win / 4
            };
            self.newcwnd = win as f64;
            c.cc.set_cwnd(self.newcwnd + c.s.dupacks as f64);
            self.cwnd_changed = now;
        }
        c.reset_rtx_timer(true, true);
        c.output(ack + 1);
        if transmits == 1 {
            c.s.dupacks = thresh;
        }
    }
}

impl Recovery for Vegas {
    fn on_ack(&mut self, c: &mut Conn, h: &TcpHdr) {
        if !self.started {
            self.started = true;
            self.rto = FineRto::first(c.s.send_log().clock(c.now()));
        }
        let ack = h.ack as i64;
        if ack > c.s.last_ack {
            self.new_ack(c, h);
        } else if ack == c.s.last_ack {
            self.dupack(c);
        }
        let d = c.s.dupacks;
        if d == 0 || d >= c.s.p.dupthresh {
            self.send_much(c, c.s.p.maxburst);
        }
    }

    /// ns-2 `VegasTcpAgent::timeout`: the core's timeout (cwnd 2 from the congestion control),
    /// no window to restore, and cwnd counts as changed now.
    fn on_rto(&mut self, c: &mut Conn) {
        c.s.dupacks = 0;
        c.timeout();
        self.newcwnd = 0.0;
        self.cwnd_changed = c.s.send_log().clock(c.now());
    }
}
