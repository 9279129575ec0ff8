//! NewReno (ns-2 `Agent/TCP/Newreno`, tcp/tcp-newreno.cc; RFC 6582): Reno, but an ACK that
//! advances the window without covering `recover` (a *partial* ACK) keeps the sender in fast
//! recovery and retransmits the next hole at once (RFC 6582 §3.2 step 5), so n losses in one
//! window take n round trips and no timeout.
//!
//! Options as in ns-2: partial window deflation (RFC 6582 §3.2 step 5, ns-2
//! `partial_window_deflation_`) and resetting the timer on the first partial ACK only
//! ("impatient", RFC 6582 §4, ns-2 `newreno_changes1_`). As in ns-2 with
//! `newreno_changes_ 0`, at most two packets leave per ACK while in recovery.

use super::{count_dupack, may_fast_retransmit, Dup, Recovery};
use crate::packet::TcpHdr;
use crate::tcp::config::NewRenoConfig;
use crate::tcp::sender::{Conn, CwndAction};
use crate::tcp::CongState;

/// ns-2 `send_much(0, 0, 2)` during recovery.
const RECOVERY_BURST: u32 = 2;

pub struct NewReno {
    cfg: NewRenoConfig,
    /// Window inflation in packets (ns-2 `dupwnd_`).
    dupwnd: i64,
    /// A partial ACK has already re-armed the timer in this recovery (ns-2 `firstpartial_`).
    first_partial_seen: bool,
}

impl NewReno {
    pub fn new(cfg: NewRenoConfig) -> Self {
        NewReno { cfg, dupwnd: 0, first_partial_seen: false }
    }

    fn dupack_action(&mut self, c: &mut Conn) {
        if may_fast_retransmit(c) {
            c.reset_rtx_timer(true, false);
            c.fast_retransmit_response();
        } else if c.s.p.ecn && c.s.last_action == CwndAction::Ecn {
            c.s.last_action = CwndAction::Dupack;
            c.set_state(CongState::Recovery);
            c.reset_rtx_timer(true, false);
        } else {
            return;
        }
        c.output(c.s.last_ack + 1);
        self.dupwnd = c.s.p.dupthresh as i64;
    }

    /// RFC 6582 §3.2 step 5: retransmit the first unacknowledged segment, deflate the window
    /// by the amount acknowledged and add back one segment (ns-2 `partialnewack_helper`).
    fn partial_ack(&mut self, c: &mut Conn, ack: i64) {
        if !self.cfg.reset_timer_first_partial_only || !self.first_partial_seen {
            self.first_partial_seen = true;
            c.newtimer(ack);
        }
        if self.cfg.partial_window_deflation {
            let deflate = ack - c.s.last_ack;
            if self.dupwnd > deflate {
                self.dupwnd -= deflate - 1;
            } else {
                let w = c.cc.cwnd() - (deflate - self.dupwnd) as f64;
                c.cc.set_cwnd(w.max(1.0));
                self.dupwnd = 1; // stays > 0: still in fast recovery
            }
        } else {
            self.dupwnd = 0;
        }
        c.advance_ack(ack);
        c.output(c.s.last_ack + 1);
    }
}

impl Recovery for NewReno {
    fn on_ack(&mut self, c: &mut Conn, h: &TcpHdr) {
        let ack = h.ack as i64;
        if ack > c.s.last_ack {
            if ack >= c.s.recover || c.s.last_action != CwndAction::Dupack {
                if self.dupwnd > 0 {
                    self.dupwnd = 0;
                    if c.s.last_action == CwndAction::Dupack {
                        c.s.last_action = CwndAction::Exited;
                        c.set_state(CongState::Open);
                    }
                }
                self.first_partial_seen = false;
                c.new_ack_open(h);
            } else {
                self.partial_ack(c, ack);
            }
        } else if ack == c.s.last_ack {
            match count_dupack(c) {
                Dup::Threshold => self.dupack_action(c),
                Dup::Past if c.s.last_action == CwndAction::Dupack => self.dupwnd += 1,
                _ => {}
            }
        }
        if ack >= c.s.last_ack {
            if c.s.dupacks == 0 {
                self.send_much(c, c.s.p.maxburst);
            } else if c.s.dupacks >= c.s.p.dupthresh {
                self.send_much(c, RECOVERY_BURST);
            }
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
