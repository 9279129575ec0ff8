//! ATM cells and the AAL5 cell tax: how many 53-byte cells an IP datagram costs.
//!
//! Read first: ITU-T I.361 (the 53-byte cell: 5-byte header, 48-byte payload; the PTI bit
//! that marks the last cell of an AAL5 frame), ITU-T I.363.5 (AAL5 CPCS-PDU: payload, pad to a
//! multiple of 48, 8-byte trailer with length and CRC-32), RFC 2684 (formerly RFC 1483) §4.1
//! (LLC/SNAP encapsulation of routed IP: an 8-byte header `AA-AA-03 00-00-00 08-00`).
//! Goyal-Jain 1997 §6.2 quotes the same stack: "20 bytes of TCP header, 20 bytes of IP header, 8 bytes
//! of LLC header, and 8 bytes of AAL5 trailer", giving 12 cells per 512-byte segment and "a net
//! possible throughput of 80.5% of the ATM layer data rate = 125.2 Mbps on a 155.52 Mbps link".

use crate::time::Dur;
use crate::units::BitsPerSec;

/// Bytes in a cell on the wire (I.361).
pub const CELL_BYTES: u32 = 53;
/// Payload bytes per cell (I.361: 48 of the 53).
pub const CELL_PAYLOAD: u32 = 48;
/// LLC/SNAP header for routed IP over AAL5 (RFC 2684 §4.1).
pub const LLC_SNAP: u32 = 8;
/// AAL5 CPCS-PDU trailer: UU, CPI, length, CRC-32 (I.363.5).
pub const AAL5_TRAILER: u32 = 8;

/// Cells needed to carry one IP datagram of `ip_bytes` (headers included): the AAL5 PDU
/// (datagram + LLC/SNAP + trailer) padded up to a multiple of 48 bytes.
#[inline]
pub const fn cells_for(ip_bytes: u32) -> u32 {
    (ip_bytes + LLC_SNAP + AAL5_TRAILER).div_ceil(CELL_PAYLOAD)
}

/// Bytes one IP datagram occupies on an ATM link (its cells times 53).
pub const fn wire_bytes(ip_bytes: u32) -> u64 {
    cells_for(ip_bytes) as u64 * CELL_BYTES as u64
}

/// Serialization time of one cell at `rate` (one 424-bit slot), rounded up to the picosecond
/// as every nsim link does.
pub fn slot(rate: BitsPerSec) -> Dur {
    rate.tx_time(CELL_BYTES as u64)
}

/// The largest TCP goodput (bit/s) a link of `rate` can carry when every segment holds `mss`
/// payload bytes behind `headers` bytes of TCP/IP headers: the efficiency denominator of
/// Goyal-Jain 1997 §4 ("maximum possible TCP throughput" after header and cell overhead).
pub fn max_goodput_bps(rate: BitsPerSec, mss: u32, headers: u32) -> f64 {
    rate.0 as f64 * mss as f64 / wire_bytes(mss + headers) as f64
}

/// One cell in a buffer or on a wire: which frame it belongs to, on which virtual circuit,
/// and whether it is the frame's last (the AAL5 end-of-frame PTI bit). Plain 12 bytes, no heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Index in the frame table ([`super::frames::FrameTable`]).
    pub frame: u32,
    /// Virtual circuit: one per flow and direction (see [`super::vc_of`]).
    pub vc: u32,
    /// AAL5 end of frame (ATM-layer-user-to-user bit of the PTI field set).
    pub eom: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_001_segment_is_twelve_cells_and_636_bytes() {
        // 512 data + 20 TCP + 20 IP = 552-byte datagram; + 16 = 568; padded to 576 = 12 x 48.
        assert_eq!(cells_for(552), 12);
        assert_eq!(wire_bytes(552), 636);
        // A bare ACK (40 bytes) is 56 bytes of PDU: 2 cells (Goyal-Jain 1997 notes §2.1).
        assert_eq!(cells_for(40), 2);
        // Exact fits and one byte past them.
        assert_eq!(cells_for(32), 1);
        assert_eq!(cells_for(33), 2);
        assert_eq!(cells_for(80), 2);
        assert_eq!(cells_for(81), 3);
    }

    #[test]
    fn seed_001_efficiency_denominator_is_125_2_mbps() {
        let oc3 = BitsPerSec(155_520_000);
        let max = max_goodput_bps(oc3, 512, 40);
        // 512/636 x 155.52 Mb/s = 125.198 Mb/s: "80.5% ... = 125.2 Mbps".
        assert_eq!((max / 1e5).round() / 10.0, 125.2);
        assert_eq!((512.0f64 / 636.0 * 1000.0).round() / 10.0, 80.5);
        // Satellite MSS 9180: 9236-byte PDU needs 193 cells (Goyal-Jain 1997 notes, derived).
        assert_eq!(cells_for(9180 + 40), 193);
    }

    #[test]
    fn oc3_slot_is_424_bits_at_155_52_mbps() {
        // 424 / 155.52e6 s = 2.726337... us, rounded up to 2,726,338 ps; 366,792 cells/s.
        let s = slot(BitsPerSec(155_520_000));
        assert_eq!(s, Dur(2_726_338));
        assert_eq!((155_520_000u64 / 424) as u32, 366_792);
    }
}
