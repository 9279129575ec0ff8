//! IP-ABR, the managed-ACK proxy of Holl 2003 (§7.2.2, EEB-NM mode): it rewrites the
//! window in passing ACKs so that each TCP flow keeps about its share of bandwidth times its
//! round-trip time in the network, and no packet needs to be dropped.
//!
//! Per flow, as the thesis describes (numbers refer to /work/shared/notes/seed-000.md §2.8):
//! 1. A data segment already acknowledged is ignored. A retransmission (a segment at or below
//!    the highest one seen) freezes RTT updates until everything outstanding at that moment is
//!    acknowledged (Karn-like). A new segment is recorded with its passing time, and updates
//!    the running averages of packet length `l_pkt` and data bytes per packet `l_data`.
//! 2. A non-duplicate ACK gives a sample `RTT_forward` = now − passing time of the most recent
//!    data segment it covers (proxy → receiver → proxy).
//! 3. `RTT_reverse` (proxy → sender → proxy): the thesis measures it "as a separate TCP flow"
//!    on the reverse data of a two-way connection. One-way agents send no reverse data, so
//!    here it is measured on the ACK clock instead: from a non-duplicate ACK passing to the
//!    first new data segment it released passing. An ACK of `a` advertising `w` bytes lets
//!    the one-way sender (packet sequence numbers) send up to `a + max(1, w / l_data)`; the
//!    segment `s` is matched with the earliest ACK whose edge reaches `s`. This is exact when
//!    the proxy's window is what limits the sender (IP-ABR's operating point); while cwnd
//!    limits it (slow start) samples run long.
//! 4. `W = BW_share · (RTT_forward + RTT_reverse) · l_data / l_pkt` (eqs. 7.1, 7.2), in bytes.
//! 5. Every ACK of the flow (duplicates too: the sender takes the window from each) leaves
//!    advertising at most `max(W, min_rwnd)`.
//!
//! Sequence numbers: the one-way agents number packets and ACK the last in-order packet;
//! full TCP (`tcp_full`, the thesis's own FullTcp) numbers bytes and ACKs the next expected
//! byte, and marks every segment after its SYN with the ACK flag, which tells the two apart
//! per packet. A data segment is covered by ACK `a` once `a` reaches its "cover" (its own
//! sequence number for packets, its end for bytes), and an ACK of `a` advertising `w` bytes
//! lets a byte-sequenced sender send up to `a + w`.
//!
//! Left open by the thesis, chosen here (docs/models/middlebox.md): running averages are
//! EWMAs with gain `gain` (default 1/8, TCP's SRTT gain, RFC 6298), first sample taken as
//! is; `RTT_reverse` counts as 0 until its first sample (so the first windows are small,
//! which makes the proxy's window the limit and the reverse samples exact); `min_rwnd`
//! default 0 (the one-way sender still sends one segment per window, `Core::wnd`); the share
//! is given, and changed at given times (`schedule`), since whether the thesis throttled
//! automatically is unclear.

use std::collections::VecDeque;

use super::{clamp_rwnd, is_tcp_ack, Hook, HookChange, Verdict};
use crate::packet::flags;
use crate::packet::{PType, Packet};
use crate::time::SimTime;

/// Per-flow proxy state.
#[derive(Default)]
struct FlowState {
    /// New data segments that passed and are not yet acknowledged: (the ACK that covers
    /// them, passing time).
    sent: VecDeque<(u64, SimTime)>,
    max_seq: Option<u64>,
    last_ack: Option<u64>,
    /// A retransmission passed: no RTT samples until the ACK reaches this sequence number.
    frozen_until: Option<u64>,
    /// Non-duplicate ACKs that passed with a window: (highest sequence number they let the
    /// sender send, passing time), for `RTT_reverse` samples.
    acks: VecDeque<(u64, SimTime)>,
    rtt_fwd: Option<f64>,
    rtt_rev: Option<f64>,
    l_pkt: Option<f64>,
    l_data: Option<f64>,
}

fn ewma(avg: &mut Option<f64>, sample: f64, gain: f64) {
    *avg = Some(match *avg {
        Some(a) => a + gain * (sample - a),
        None => sample,
    });
}

/// Full TCP (byte sequence numbers, cumulative ACK = next expected byte): every segment after
/// the SYN carries the ACK flag; the one-way agents never set it.
fn byte_sequenced(p: &Packet) -> bool {
    p.tcp.flags & flags::ACK != 0
}

pub struct IpAbr {
    /// Current per-flow share in bytes per second.
    share_bps: f64,
    /// Future share changes (time, bytes/s), earliest first.
    schedule: Vec<(SimTime, f64)>,
    next_change: usize,
    gain: f64,
    min_rwnd: u64,
    flows: Vec<FlowState>,
}

impl IpAbr {
    /// `share` and the schedule's shares in bits per second.
    pub fn new(
        share: u64,
        mut schedule: Vec<(SimTime, u64)>,
        gain: f64,
        min_rwnd: u64,
        n_flows: usize,
    ) -> Self {
        schedule.sort_by_key(|c| c.0);
        IpAbr {
            share_bps: share as f64 / 8.0,
            schedule: schedule.into_iter().map(|(t, r)| (t, r as f64 / 8.0)).collect(),
            next_change: 0,
            gain,
            min_rwnd,
            flows: (0..n_flows).map(|_| FlowState::default()).collect(),
        }
    }

    /// The window (bytes) the proxy currently allows flow `f`, once it has estimates.
    pub fn window(&self, f: usize) -> Option<u64> {
        let s = &self.flows[f];
        let rtt = s.rtt_fwd? + s.rtt_rev.unwrap_or(0.0);
        let w = self.share_bps * rtt * s.l_data? / s.l_pkt?;
        Some((w as u64).max(self.min_rwnd))
    }

    fn on_data(&mut self, now: SimTime, p: &Packet) {
        let s = &mut self.flows[p.flow.idx()];
        let seq = p.tcp.seq;
        let cover = if byte_sequenced(p) { seq + p.tcp.payload as u64 } else { seq };
        if s.last_ack.is_some_and(|a| cover <= a) {
            return;
        }
        if let Some(m) = s.max_seq.filter(|&m| seq <= m) {
            s.frozen_until = Some(m);
            s.acks.clear(); // the ACK clock restarts after recovery
            return;
        }
        s.max_seq = Some(seq);
        s.sent.push_back((cover, now));
        while s.acks.front().is_some_and(|&(edge, _)| edge < cover) {
            s.acks.pop_front();
        }
        if let Some(&(_, t)) = s.acks.front().filter(|_| s.frozen_until.is_none()) {
            ewma(&mut s.rtt_rev, now.since(t).as_secs_f64(), self.gain);
        }
        ewma(&mut s.l_pkt, p.size as f64, self.gain);
        ewma(&mut s.l_data, p.tcp.payload as f64, self.gain);
    }

    /// Takes an RTT sample from a non-duplicate ACK; returns whether it was one.
    fn on_ack(&mut self, now: SimTime, ack: u64, f: usize) -> bool {
        let s = &mut self.flows[f];
        if s.last_ack.is_some_and(|a| ack <= a) {
            return false;
        }
        s.last_ack = Some(ack);
        let mut covered = None;
        while let Some(&(cover, t)) = s.sent.front() {
            if cover > ack {
                break;
            }
            covered = Some(t);
            s.sent.pop_front();
        }
        match s.frozen_until {
            Some(until) => {
                if ack >= until {
                    s.frozen_until = None;
                }
            }
            None => {
                if let Some(t) = covered {
                    ewma(&mut s.rtt_fwd, now.since(t).as_secs_f64(), self.gain);
                }
            }
        }
        s.frozen_until.is_none()
    }

    /// Remembers how far a non-duplicate ACK advertising `rwnd` bytes lets the sender go:
    /// whole segments past a packet number, or bytes past a byte sequence number.
    fn note_edge(&mut self, now: SimTime, p: &Packet) {
        let (ack, rwnd) = (p.tcp.ack, p.tcp.rwnd);
        let s = &mut self.flows[p.flow.idx()];
        if let (Some(l_data), false) = (s.l_data, rwnd == crate::packet::TcpHdr::NO_RWND) {
            let edge = if byte_sequenced(p) {
                ack + rwnd as u64
            } else {
                ack + ((rwnd as f64 / l_data) as u64).max(1)
            };
            s.acks.push_back((edge, now));
        }
    }
}

impl IpAbr {
    /// Takes the scheduled shares due by `now`.
    fn catch_up(&mut self, now: SimTime) {
        while let Some(&(_, share)) = self.schedule.get(self.next_change).filter(|c| c.0 <= now) {
            self.share_bps = share;
            self.next_change += 1;
        }
    }
}

impl Hook for IpAbr {
    fn on_packet(&mut self, now: SimTime, p: &mut Packet) -> Verdict {
        self.catch_up(now);
        if is_tcp_ack(p) {
            let f = p.flow.idx();
            let fresh = self.on_ack(now, p.tcp.ack, f);
            if let Some(w) = self.window(f) {
                clamp_rwnd(p, w);
            }
            if fresh {
                self.note_edge(now, p);
            }
        } else if p.ptype == PType::Tcp && p.tcp.payload > 0 {
            self.on_data(now, p);
        }
        Verdict::Pass
    }
    fn kind(&self) -> &'static str {
        "ip_abr"
    }
    fn parameters(&self) -> &'static [&'static str] {
        &["share", "gain", "min_rwnd"]
    }
    /// A new share replaces the current one until the next `schedule` entry after `now`; the
    /// averages are kept (only the product W = share · RTT · l_data / l_pkt changes).
    fn change(&mut self, now: SimTime, c: &HookChange) -> Result<(), String> {
        self.catch_up(now);
        match *c {
            HookChange::Share(bps) => self.share_bps = bps as f64 / 8.0,
            HookChange::Gain(g) => self.gain = g,
            HookChange::MinRwnd(b) => self.min_rwnd = b,
            _ => return Err(super::change::no_such_parameter(self, c)),
        }
        Ok(())
    }
}
