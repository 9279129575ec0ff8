//! Reno fast recovery (ns-2 `Agent/TCP/Reno`, tcp/tcp-reno.cc; RFC 5681 §3.2): on the third
//! duplicate ACK retransmit one segment, halve the window, and inflate it by one segment per
//! further duplicate ACK (`dupwnd_`) so new data keeps flowing; the first ACK that advances
//! the window ends recovery and deflates it. A second loss in the same window therefore
//! leaves the sender without enough duplicate ACKs: it waits for the timeout (Fall & Floyd
//! 1996 §4). Also the recovery of Vegas.

use super::{count_dupack, may_fast_retransmit, Dup, Recovery};
use crate::packet::TcpHdr;
use crate::tcp::sender::{Conn, CwndAction};
use crate::tcp::CongState;

#[derive(Default)]
pub struct Reno {
    /// Window inflation in packets during fast recovery (ns-2 `dupwnd_`).
    pub dupwnd: i64,
}

impl Reno {
    fn dupack_action(&mut self, c: &mut Conn) {
        // ns-2 `RenoTcpAgent::allow_fast_retransmit`: still in recovery from the last one.
        let allow = c.s.last_action == CwndAction::Dupack;
        if may_fast_retransmit(c) || allow {
            c.fast_retransmit_response();
        } else if c.s.p.ecn && c.s.last_action == CwndAction::Ecn {
            // The window was already halved for ECN in this window: retransmit only.
            c.s.last_action = CwndAction::Dupack;
            c.set_state(CongState::Recovery);
        } else {
            return;
        }
        c.reset_rtx_timer(true, false);
        c.output(c.s.last_ack + 1);
        self.dupwnd = c.s.p.dupthresh as i64;
    }
}

impl Recovery for Reno {
    fn on_ack(&mut self, c: &mut Conn, h: &TcpHdr) {
        let ack = h.ack as i64;
        if ack > c.s.last_ack {
            if c.s.last_action == CwndAction::Dupack {
                c.s.last_action = CwndAction::Exited;
                c.set_state(CongState::Open);
            }
            self.dupwnd = 0;
            c.new_ack_open(h);
        } else if ack == c.s.last_ack {
            match count_dupack(c) {
                Dup::Threshold => self.dupack_action(c),
                Dup::Past if c.s.last_action == CwndAction::Dupack => self.dupwnd += 1,
                _ => {}
            }
        }
        let d = c.s.dupacks;
        if ack >= c.s.last_ack && (d == 0 || d >= c.s.p.dupthresh) {
            self.send_much(c, c.s.p.maxburst);
        }
    }

    fn on_rto(&mut self, c: &mut Conn) {
        self.dupwnd = 0;
        c.s.dupacks = 0;
        c.timeout();
    }

    fn send_much(&mut self, c: &mut Conn, maxburst: u32) {
        c.send_window(self.dupwnd, maxburst);
    }
}
