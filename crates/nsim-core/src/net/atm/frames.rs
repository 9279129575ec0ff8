//! The frames whose cells are inside the ATM part of the network.
//!
//! A frame's packet stays in the packet pool while the frame is intact; cells refer to the
//! frame by its index here, never to the packet, so that the packet can be dropped (and
//! counted, with the reason of the first lost cell) the moment the frame is damaged, while its
//! surviving cells ("zombie" cells) go on using buffer space and link time as in a real
//! network. A record is freed when its last cell is consumed or lost. Indexed, no hashing;
//! slots are reused, so a steady-state run allocates nothing.

use crate::ids::NodeId;
use crate::packet::PacketId;

/// One frame travelling as cells.
#[derive(Clone, Copy, Debug)]
pub struct FrameRec {
    /// The packet, while the frame is intact; `None` once a cell has been lost.
    pub pkt: Option<PacketId>,
    /// The packet's run-wide unique id (reassembly tells frames apart by it).
    pub uid: u64,
    pub dst: NodeId,
    /// Cells of the frame not yet consumed by reassembly or lost.
    pub alive: u32,
}

#[derive(Default)]
pub struct FrameTable {
    recs: Vec<FrameRec>,
    free: Vec<u32>,
    /// Frames still intact: their packets are in flight (accounting).
    pub intact: u64,
}

impl FrameTable {
    pub fn alloc(&mut self, rec: FrameRec) -> u32 {
        self.intact += 1;
        match self.free.pop() {
            Some(i) => {
                self.recs[i as usize] = rec;
                i
            }
            None => {
                self.recs.push(rec);
                (self.recs.len() - 1) as u32
            }
        }
    }

    #[inline]
    pub fn get(&self, f: u32) -> &FrameRec {
        &self.recs[f as usize]
    }

    /// One cell of frame `f` is gone (consumed or lost). Returns the packet if this took it
    /// out of the table: `take_pkt` asks for it (a lost cell damages the frame; the last cell
    /// delivers it). Frees the record after its last cell.
    pub fn cell_gone(&mut self, f: u32, take_pkt: bool) -> Option<PacketId> {
        let r = &mut self.recs[f as usize];
        r.alive -= 1;
        let pkt = if take_pkt { r.pkt.take() } else { None };
        if pkt.is_some() {
            self.intact -= 1;
        }
        if r.alive == 0 {
            debug_assert!(r.pkt.is_none(), "a frame's last cell left its packet behind");
            self.free.push(f);
        }
        pkt
    }
}
