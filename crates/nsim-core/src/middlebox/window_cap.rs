//! Window cap in segments: every passing TCP ACK advertises at most `segments` times the
//! flow's data bytes per segment, as learnt from the data segments that passed this node.
//!
//! This is Holl 2003's §6.3 "window limiting" (each BE source capped at W_optimal = 5/6/7
//! segments) done in the network instead of at the source: the same cap, written into ACKs.
//! Until a data segment of the flow has passed, its ACKs are left alone.

use super::{clamp_rwnd, is_tcp_ack, Hook, HookChange, Verdict};
use crate::packet::Packet;
use crate::time::SimTime;

pub struct WindowCap {
    pub segments: u64,
    /// Largest payload seen per flow (bytes; 0 = none yet), indexed by flow.
    mss: Vec<u32>,
}

impl WindowCap {
    pub fn new(segments: u64, n_flows: usize) -> Self {
        WindowCap { segments, mss: vec![0; n_flows] }
    }
}

impl Hook for WindowCap {
    fn on_packet(&mut self, _now: SimTime, p: &mut Packet) -> Verdict {
        let mss = &mut self.mss[p.flow.idx()];
        if is_tcp_ack(p) {
            if *mss > 0 {
                clamp_rwnd(p, self.segments * *mss as u64);
            }
        } else if p.tcp.payload > *mss {
            *mss = p.tcp.payload;
        }
        Verdict::Pass
    }
    fn kind(&self) -> &'static str {
        "window_cap"
    }
    fn parameters(&self) -> &'static [&'static str] {
        &["segments"]
    }
    fn change(&mut self, _now: SimTime, c: &HookChange) -> Result<(), String> {
        match *c {
            HookChange::Segments(n) => self.segments = n,
            _ => return Err(super::change::no_such_parameter(self, c)),
        }
        Ok(())
    }
}
