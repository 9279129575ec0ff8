//! Switched Ethernet below IP: output-buffered switch ports with per-class byte buffers,
//! optional framing overhead, and IEEE 802.3x PAUSE flow control with the selective variants
//! of Noureddine 2002 (docs/models/ethernet.md).
//!
//! Read first: IEEE 802.3-2018 Annex 31B (MAC Control PAUSE) (Noureddine 2002,
//! Stanford PhD thesis, chapter 3) and its notes (`/work/shared/notes/seed-002a.md` §4).
//!
//! A link direction with an `ethernet` table is a port: its packets wait in the port's class
//! queues instead of a queue discipline. When a queue passes its high watermark the node
//! sends PAUSE frames to every upstream neighbour (every Ethernet port that delivers into this
//! node, except this port's own reverse direction); below the low watermark it sends resumes.
//! A PAUSE frame occupies the reverse transmitter for one minimum frame, ahead of queued
//! data but after the frame in transmission, propagates, and sets the pause timers of the
//! upstream transmitter on arrival; that transmitter then starts no frame the timers stop.
//! Frames held upstream fill that port's buffer, which pauses its own upstream in turn, hop
//! by hop to the hosts, whose NIC port (a large `buffer`, `pause = "off"`) holds them.
//!
//! PAUSE frames are MAC Control frames: they are not packets (no pool slot, no flow, never
//! forwarded, outside the packet accounting); ports count them (`pause_sent`, `resume_sent`,
//! `pause_received`) and the time their transmitter was paused.

pub mod bridge;
pub mod buffer;
pub mod framing;
pub mod pause;
pub mod port;
pub mod spec;
pub mod watermark;

#[cfg(test)]
mod tests;

use self::framing::pause_wire_bytes;
use self::pause::{PauseFrame, PauseTime, Scope};
use self::port::EthPort;
use crate::ids::LinkId;
use crate::net::{Link, Net};
use crate::packet::PacketId;
use crate::sched::Event;
use crate::time::{Dur, SimTime};

/// Network-wide Ethernet state.
#[derive(Default)]
pub struct EthNet {
    /// Reused list of the PAUSE frames one buffer change triggers (no allocation per packet).
    out: Vec<(Scope, PauseTime)>,
}

/// Finds each Ethernet port's upstream neighbours and the reverse directions that carry
/// PAUSE frames to them; sets how often a timed PAUSE is renewed (its shortest duration
/// among the upstream links). Called once, after all links are built.
pub fn connect_upstream(links: &mut [Link]) {
    for l in 0..links.len() {
        if !links[l].is_eth() {
            continue;
        }
        let (node, down) = (links[l].from, links[l].to);
        let mut upstream = Vec::new();
        for (u, ul) in links.iter().enumerate() {
            if ul.to != node || ul.from == down || !ul.is_eth() {
                continue;
            }
            if let Some(r) =
                links.iter().position(|rl| rl.from == node && rl.to == ul.from && rl.is_eth())
            {
                upstream.push((LinkId(u as u32), LinkId(r as u32)));
            }
        }
        let quanta = match links[l].eth.as_deref().expect("checked above").detector.style {
            watermark::Style::Timed(q) => q,
            watermark::Style::XonXoff => 0,
        };
        let refresh = upstream
            .iter()
            .map(|&(u, _)| framing::pause_duration(quanta, links[u.idx()].rate))
            .min()
            .unwrap_or(Dur::ZERO);
        let port = links[l].eth.as_deref_mut().expect("checked above");
        port.upstream = upstream;
        port.detector.refresh = refresh;
    }
}

impl Net {
    fn eth_port(&mut self, l: LinkId) -> &mut EthPort {
        self.links[l.idx()].eth_mut().expect("an Ethernet link")
    }

    /// Packet `id` arrives at Ethernet port `l`: queued or dropped, and PAUSE sent upstream if
    /// its queue became congested.
    pub(crate) fn eth_admit(&mut self, l: LinkId, id: PacketId) {
        let now = self.now;
        let mut out = std::mem::take(&mut self.eth.out);
        let link = &mut self.links[l.idx()];
        let port = link.eth.as_deref_mut().expect("eth_admit on an Ethernet link");
        let admitted = port.admit(id, now, &self.pool, &mut out);
        link.stats.occupancy(now, port.buf.len_packets(), port.buf.len_bytes());
        if let Err(why) = admitted {
            self.drop_packet(id, why, Some(l));
        }
        self.send_pauses(l, &mut out);
        self.eth.out = out;
    }

    /// The next packet port `l` may start now, and when to retry if its timers hold packets
    /// back until a timed PAUSE runs out.
    pub(crate) fn eth_next(&mut self, l: LinkId) -> (Option<PacketId>, Option<SimTime>) {
        let now = self.now;
        let mut out = std::mem::take(&mut self.eth.out);
        let link = &mut self.links[l.idx()];
        let port = link.eth.as_deref_mut().expect("eth_next on an Ethernet link");
        let next = port.next(now, &mut out);
        link.stats.occupancy(now, port.buf.len_packets(), port.buf.len_bytes());
        let retry = match next {
            None if port.buf.len_packets() > 0 => port.timers.next_expiry(now),
            _ => None,
        };
        self.send_pauses(l, &mut out);
        self.eth.out = out;
        (next, retry)
    }

    /// Sends the PAUSE frames in `out`, triggered by port `l`'s buffer, to every upstream port.
    fn send_pauses(&mut self, l: LinkId, out: &mut Vec<(Scope, PauseTime)>) {
        for (scope, time) in out.drain(..) {
            for k in 0..self.eth_port(l).upstream.len() {
                let (target, via) = self.eth_port(l).upstream[k];
                self.send_pause(via, PauseFrame { target, scope, time });
            }
        }
    }

    /// Puts a PAUSE frame on the wire of `via`: after the frame in transmission, ahead of the
    /// queued ones, whatever the pause timers of `via` say (Annex 31B.3.3).
    fn send_pause(&mut self, via: LinkId, frame: PauseFrame) {
        let now = self.now;
        let link = &mut self.links[via.idx()];
        let port = link.eth.as_deref_mut().expect("PAUSE frames travel on Ethernet links");
        let tx = link.rate.tx_time(pause_wire_bytes(port.cfg.framing) as u64);
        link.busy_until = link.busy_until.max(now) + tx;
        link.idle_polled = false;
        link.stats.busy_ps += tx.0;
        let arrive = link.busy_until + link.delay;
        match frame.time {
            PauseTime::Quanta(0) => port.stats.resume_sent += 1,
            _ => port.stats.pause_sent += 1,
        }
        port.wire.push_back((arrive, frame));
        self.sched.schedule(arrive, Event::EthControl(via));
    }

    /// The PAUSE frame at the head of `via`'s wire reaches its target transmitter.
    pub fn on_eth_control(&mut self, via: LinkId) {
        let now = self.now;
        let n_nodes = self.nodes.len();
        let (_, frame) =
            self.eth_port(via).wire.pop_front().expect("one EthControl event per PAUSE frame");
        self.eth_port(frame.target).receive(frame.scope, frame.time, now, n_nodes);
        self.kick(frame.target);
    }
}
