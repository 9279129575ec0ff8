//! AAL5 reassembly at the end of an ATM path (ITU-T I.363.5).
//!
//! The receiver appends the payload of every cell of a VC to one open PDU and closes it at the
//! cell whose PTI marks the end of the frame; the CRC-32 and length fields of the trailer then
//! reject any PDU that lost a cell. If a frame's end-of-frame cell is lost, the receiver cannot
//! see the boundary: the next frame's cells join the same PDU and both are discarded at the
//! next end-of-frame cell. This is why Romanow & Floyd's Partial Packet Discard keeps the last
//! cell of a damaged frame. nsim models exactly that: a frame is delivered only if it arrived
//! whole and its PDU held no cell of another frame.

/// The open PDU of one VC.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reassembler {
    /// Uid of the frame whose cells the open PDU last received, if a PDU is open.
    open: Option<u64>,
    /// The open PDU mixes cells of more than one frame.
    mixed: bool,
}

/// What closing a PDU found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// The PDU held cells of this frame only.
    Clean,
    /// The PDU also held cells of an earlier frame that lost its end-of-frame cell.
    Mixed,
}

impl Reassembler {
    /// Appends a cell of frame `uid`; at an end-of-frame cell, closes the PDU.
    pub fn on_cell(&mut self, uid: u64, eom: bool) -> Option<Closed> {
        if self.open.is_some_and(|u| u != uid) {
            self.mixed = true;
        }
        self.open = Some(uid);
        if !eom {
            return None;
        }
        let closed = if self.mixed { Closed::Mixed } else { Closed::Clean };
        *self = Reassembler::default();
        Some(closed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_end_of_frame_cell_takes_the_next_frame_with_it() {
        let mut r = Reassembler::default();
        // Frame 1 arrives whole.
        assert_eq!(r.on_cell(1, false), None);
        assert_eq!(r.on_cell(1, true), Some(Closed::Clean));
        // Frame 2 loses its last cell; frame 3 follows and closes the merged PDU.
        assert_eq!(r.on_cell(2, false), None);
        assert_eq!(r.on_cell(3, false), None);
        assert_eq!(r.on_cell(3, true), Some(Closed::Mixed));
        // The receiver is in sync again.
        assert_eq!(r.on_cell(4, true), Some(Closed::Clean));
    }
}
