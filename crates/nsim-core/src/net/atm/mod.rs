//! ATM below IP: cell links, AAL5 segmentation and reassembly, UBR switch buffers with frame-
//! aware drop policies (docs/models/atm.md).
//!
//! Read first: Goyal-Jain 1997 (Goyal, Jain et al., ATM Forum/97-0423, 1997) and its notes
//! (`/work/shared/notes/seed-001.md`); Romanow & Floyd, IEEE JSAC 13(4), 1995; ITU-T I.361,
//! I.363.5; RFC 2684.
//!
//! A link with an `atm` table carries 53-byte cells. Where an IP datagram enters an ATM link
//! (a host, or a router coming from a non-ATM link) it is segmented into AAL5 cells; a node
//! that receives a cell and forwards it onto another ATM link is an ATM switch (cells are
//! switched one by one, never reassembled); where the path leaves ATM (the destination, or a
//! router onto a non-ATM link) the cells are reassembled and the datagram is delivered or
//! forwarded. One VC per flow and direction: data and ACKs of flow i use VCs 2i and 2i+1.
//!
//! Cells are real events: each cell's arrival at each node is one event, taken in time order
//! with all other cells, so every drop decision (tail drop, partial frames, EPD/PPD/SD/FBA)
//! sees the buffer exactly as a cell switch would. The buffer itself costs no event
//! (`port.rs`); the per-cell path allocates nothing and hashes nothing.
//!
//! Accounting: a frame is a packet. It is in flight while intact; the first lost cell drops
//! it (reason of that cell, counted on that link); its surviving cells still travel and are
//! discarded at reassembly. A link counts a frame as arrived and departed when its end-of-
//! frame cell is accepted intact, or as arrived and dropped when the frame is damaged there;
//! per-VC cell counts are the link's `classes` rows.

pub mod cell;
pub mod frames;
pub mod policy;
pub mod port;
pub mod reassembly;
pub mod spec;

#[cfg(test)]
mod tests;

use self::cell::Cell;
use self::frames::{FrameRec, FrameTable};
use self::reassembly::Closed;
use crate::ids::LinkId;
use crate::net::Net;
use crate::packet::{Packet, PacketId};
use crate::record::DropReason;
use crate::sched::Event;

/// The VC a packet travels on: 2·flow for data, 2·flow + 1 for ACKs.
#[inline]
pub fn vc_of(p: &Packet) -> u32 {
    p.flow.0 * 2 + u32::from(!p.ptype.is_data())
}

/// Names of the VCs in result tables: `vc<flow>` and `vc<flow>/ack`.
pub fn vc_name(vc: usize) -> String {
    if vc.is_multiple_of(2) {
        format!("vc{}", vc / 2)
    } else {
        format!("vc{}/ack", vc / 2)
    }
}

/// Network-wide ATM state.
#[derive(Default)]
pub struct AtmNet {
    pub frames: FrameTable,
}

impl Net {
    /// AAL5 segmentation: datagram `id` enters ATM link `l` as cells, all offered now.
    pub(crate) fn atm_send(&mut self, l: LinkId, id: PacketId) {
        let p = self.pool.get(id);
        let (n, vc) = (cell::cells_for(p.size), vc_of(p));
        let f = self.atm.frames.alloc(FrameRec { pkt: Some(id), uid: p.uid, dst: p.dst, alive: n });
        for k in 0..n {
            self.atm_offer(l, Cell { frame: f, vc, eom: k + 1 == n });
        }
    }

    /// A cell arrives at the output port of `l`.
    fn atm_offer(&mut self, l: LinkId, cell: Cell) {
        let now = self.now;
        let link = &mut self.links[l.idx()];
        let port = link.atm.as_deref_mut().expect("atm_offer on an ATM link");
        match port.offer(cell, now, &mut link.stats) {
            Ok(wire_was_empty) => {
                if wire_was_empty {
                    let t = port.next_arrival().expect("a cell was just accepted");
                    self.sched.schedule(t, Event::Arrive(l));
                }
                if cell.eom {
                    if let Some(id) = self.atm.frames.get(cell.frame).pkt {
                        let size = self.pool.get(id).size as u64;
                        let s = &mut self.links[l.idx()].stats;
                        s.arrivals += 1;
                        s.arrival_bytes += size;
                        s.departures += 1;
                        s.departure_bytes += size;
                    }
                }
            }
            Err(why) => self.atm_lose(l, cell, why),
        }
    }

    /// Cell `cell` is lost at `l`: if it is the frame's first loss, the frame is dropped.
    fn atm_lose(&mut self, l: LinkId, cell: Cell, why: DropReason) {
        if let Some(id) = self.atm.frames.cell_gone(cell.frame, true) {
            let s = &mut self.links[l.idx()].stats;
            s.arrivals += 1;
            s.arrival_bytes += self.pool.get(id).size as u64;
            self.drop_packet(id, why, Some(l));
        }
    }

    /// The cell at the head of ATM link `l` reaches the far node: switched onto the next ATM
    /// link, or reassembled. Returns a reassembled datagram addressed to that node.
    pub(crate) fn atm_arrive(&mut self, l: LinkId) -> Option<PacketId> {
        let link = &mut self.links[l.idx()];
        let port = link.atm.as_deref_mut().expect("atm_arrive on an ATM link");
        let cell = port.pop_arrival(self.now, &mut link.stats)?;
        if let Some(t) = port.next_arrival() {
            self.sched.schedule(t, Event::Arrive(l));
        }
        let at = link.to;
        let dst = self.atm.frames.get(cell.frame).dst;
        if dst != at {
            match self.routes.next_hop(at, dst) {
                Some(next) if self.links[next.idx()].is_atm() => {
                    self.atm_offer(next, cell);
                    return None;
                }
                None => {
                    self.atm_lose(l, cell, DropReason::NoRoute);
                    return None;
                }
                Some(_) => {}
            }
        }
        self.atm_reassemble(l, cell)
    }

    /// AAL5 reassembly at the far end of `l`; a complete, clean frame is delivered (if it is
    /// for this node) or forwarded off the ATM path.
    fn atm_reassemble(&mut self, l: LinkId, cell: Cell) -> Option<PacketId> {
        let uid = self.atm.frames.get(cell.frame).uid;
        let link = &mut self.links[l.idx()];
        let port = link.atm.as_deref_mut().expect("reassembly on an ATM link");
        let closed = port.reasm[cell.vc as usize].on_cell(uid, cell.eom);
        let id = self.atm.frames.cell_gone(cell.frame, closed.is_some())?;
        let at = link.to;
        if closed == Some(Closed::Mixed) {
            // The frame crossed `l` whole but is lost at its end: a drop on `l`, not a departure.
            let size = self.pool.get(id).size as u64;
            link.stats.departures -= 1;
            link.stats.departure_bytes -= size;
            self.drop_packet(id, DropReason::Aal5, Some(l));
            return None;
        }
        if let Some(tr) = self.trace.as_mut() {
            tr.line('r', self.now, link.from, at, self.pool.get(id));
        }
        self.forward(at, id)
    }

    /// Frames intact inside the ATM part of the network (their packets are in flight).
    pub(crate) fn atm_in_flight(&self) -> u64 {
        self.atm.frames.intact
    }
}
