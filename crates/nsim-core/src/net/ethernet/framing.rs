//! Ethernet framing arithmetic: the bytes a packet occupies on the wire, and PAUSE times.
//!
//! Sources: IEEE 802.3-2018 clause 3.1.1 (frame = 14-byte header + payload + 4-byte FCS,
//! padded to the 64-byte minimum frame), clause 4.4.2 (8 bytes of preamble and SFD, a 96-bit
//! inter-packet gap) and Annex 31B.2 (pause_time counts `pause_quanta` of 512 bit times).

use crate::time::Dur;
use crate::units::BitsPerSec;

/// Destination, source and EtherType (14 bytes) plus the FCS (4 bytes).
pub const HEADER_FCS: u32 = 18;
/// The minimum frame, header and FCS included (802.3 clause 4.4.2, `minFrameSize` 512 bits).
pub const MIN_FRAME: u32 = 64;
/// Preamble (7) and start-of-frame delimiter (1).
pub const PREAMBLE: u32 = 8;
/// The 96-bit inter-packet gap.
pub const IFG: u32 = 12;
/// A PAUSE frame is a minimum-size MAC Control frame (Annex 31B.2).
pub const PAUSE_FRAME: u32 = MIN_FRAME;
/// Bit times in one pause quantum (Annex 31B.2: `pause_quanta` = 512 bit times).
pub const QUANTUM_BITS: u64 = 512;
/// The largest `pause_time` (a 16-bit field).
pub const MAX_QUANTA: u16 = u16::MAX;

/// Bytes the transmitter is busy for when it sends an IP packet of `size` bytes: with
/// `framing`, the Ethernet frame padded to 64 bytes plus preamble and gap; without, `size`
/// (ns-2's plain link, which the seed's simulations used).
#[inline]
pub fn wire_bytes(size: u32, framing: bool) -> u32 {
    if framing {
        (size + HEADER_FCS).max(MIN_FRAME) + PREAMBLE + IFG
    } else {
        size
    }
}

/// Bytes the transmitter is busy for when it sends one PAUSE frame (always a full frame on
/// the wire: 64 bytes, plus preamble and gap with `framing`).
pub fn pause_wire_bytes(framing: bool) -> u32 {
    if framing {
        PAUSE_FRAME + PREAMBLE + IFG
    } else {
        PAUSE_FRAME
    }
}

/// How long `quanta` pause quanta last on a link of `rate` (512 bit times each).
pub fn pause_duration(quanta: u16, rate: BitsPerSec) -> Dur {
    rate.tx_time(quanta as u64 * QUANTUM_BITS / 8)
}
