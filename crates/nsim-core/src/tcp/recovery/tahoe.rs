//! Tahoe recovery (ns-2 `Agent/TCP`, `TcpAgent::recv`/`dupack_action`): on the third duplicate
//! ACK, retransmit by going back to the first unacknowledged segment with cwnd = 1 (the
//! congestion control [`crate::tcp::cc::tahoe`] closes the window) and slow-start from there;
//! there is no fast recovery. After an ECN reaction in the same window, the duplicate ACKs
//! only close cwnd to 1 (ns-2 truth table in `TcpAgent::dupack_action`).
//!
//! Without fast retransmit (variant "vanilla", ns-2 `noFastRetrans_ true`; Goyal-Jain 1997's "Vanilla
//! TCP": slow start and congestion avoidance only) duplicate ACKs past the threshold do
//! nothing, so every loss waits for the retransmission timer; below it limited transmit still
//! sends new data, as in ns-2's `recv()`.

use super::{count_dupack, may_fast_retransmit, Dup, Recovery};
use crate::packet::TcpHdr;
use crate::tcp::sender::{Conn, CwndAction};
use crate::tcp::CongState;

pub struct Tahoe {
    /// Retransmit on `dupthresh` duplicate ACKs (false: ns-2 `noFastRetrans_ true`).
    pub fast_retransmit: bool,
}

fn dupack_action(c: &mut Conn) {
    if may_fast_retransmit(c) {
        c.fast_retransmit_response();
        c.reset_rtx_timer(false, false);
    } else if c.s.p.ecn && c.s.last_action == CwndAction::Ecn {
        c.s.last_action = CwndAction::Dupack;
        c.cc.set_cwnd(1.0);
        c.window_reduced();
        c.reset_rtx_timer(false, false);
    }
}

impl Recovery for Tahoe {
    fn on_ack(&mut self, c: &mut Conn, h: &TcpHdr) {
        let ack = h.ack as i64;
        if ack > c.s.last_ack {
            c.new_ack_open(h);
            if c.s.state() == CongState::Recovery && c.s.highest_ack >= c.s.recover {
                c.set_state(CongState::Open);
            }
        } else if ack == c.s.last_ack && count_dupack(c) == Dup::Threshold && self.fast_retransmit {
            dupack_action(c);
        }
        if ack >= c.s.last_ack {
            self.send_much(c, c.s.p.maxburst);
        }
    }
}
