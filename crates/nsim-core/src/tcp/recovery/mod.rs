//! Loss recovery: what an ACK means for retransmission and when recovery ends (STYLE.md item
//! 2). Each algorithm is one file; the sender core ([`Conn`]) owns the sequence space, the
//! timer, output and the congestion state, and the congestion control
//! ([`crate::tcp::cc`]) owns the window arithmetic.
//!
//! ns-2 gives each variant its own `recv()`; nsim keeps that shape (one `on_ack` per
//! algorithm, built from the core's shared steps) so each file can be checked line by line
//! against its ns-2 class.

pub mod fack;
pub mod newreno;
pub mod prr;
pub mod rack;
pub mod rack_tlp;
pub mod reno;
pub mod sack1;
pub mod sack_rfc6675;
pub mod tahoe;
pub mod tlp;
pub mod vegas;

use crate::packet::TcpHdr;
use crate::tcp::sender::{Conn, CwndAction};

/// One loss-recovery algorithm.
pub trait Recovery {
    /// An ACK arrived (after the core's ECN-Echo reaction).
    fn on_ack(&mut self, c: &mut Conn, h: &TcpHdr);
    /// The retransmission timer expired; the sender calls [`Recovery::send_much`] next.
    fn on_rto(&mut self, c: &mut Conn) {
        c.timeout();
    }
    /// The recovery's own timer ([`Conn::recovery_timer_at`]) expired.
    fn on_timer(&mut self, _c: &mut Conn) {}
    /// Sends what the window allows, at most `maxburst` packets (0 = no limit).
    fn send_much(&mut self, c: &mut Conn, maxburst: u32) {
        c.send_window(0, maxburst);
    }
}

/// Where a duplicate ACK leaves the count relative to the fast-retransmit threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dup {
    Below,
    Threshold,
    Past,
}

/// The duplicate-ACK step shared by Tahoe, Reno and NewReno (ns-2 `recv()`, `ack ==
/// last_ack_` branch): count it and, below the threshold, send one new segment if limited
/// transmit is on (RFC 3042). The caller acts on `Threshold` and `Past`.
pub(crate) fn count_dupack(c: &mut Conn) -> Dup {
    c.s.dupacks += 1;
    let thresh = c.s.p.dupthresh;
    if c.s.dupacks == thresh {
        Dup::Threshold
    } else if c.s.dupacks > thresh {
        Dup::Past
    } else {
        if c.s.p.limited_transmit {
            c.send_one();
        }
        Dup::Below
    }
}

/// Whether a fast retransmit may start now: not while recovering from an earlier loss in the
/// same window (ns-2 `bug_fix_`, RFC 6582 §3.2 step 1 "careful" variant), except that a loss
/// of the very first data packet may always be repaired (ns-2 `bugfix_ss_`). Without the guard
/// (`bugfix = false`, 4.3BSD-Reno) it always may, unless the window was just halved for ECN:
/// ns-2's `dupack_action` truth table then only retransmits.
pub(crate) fn may_fast_retransmit(c: &Conn) -> bool {
    let unguarded = !(c.s.p.bugfix || (c.s.p.ecn && c.s.last_action == CwndAction::Ecn));
    c.s.highest_ack > c.s.recover || c.s.highest_ack == 0 || unguarded
}

#[cfg(test)]
mod tests;
