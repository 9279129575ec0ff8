//! STP PDUs (Henderson & Katz 1999, after SSCOP, ITU-T Q.2110 §7) carried in the packet's
//! fixed-size transport header ([`TcpHdr`]). Only this file knows the mapping.
//!
//! | PDU | `seq` | `ack` | `ts_echo` | `sack` |
//! |---|---|---|---|---|
//! | SD (data) | N(S) | | send time | |
//! | POLL | N(PS), poll count | N(S), next new seq | send time | |
//! | STAT | echoed N(PS) | N(R), next seq expected | echoed POLL time | gaps [a, b), lowest first |
//! | USTAT | 0 | N(R) | 0 | the new gap |
//!
//! A STAT carries at most 3 gap ranges (the fixed header's three slots); further gaps are
//! reported by later STATs once the first ones are repaired. Each range adds 8 bytes on the
//! wire (two 4-byte SSCOP list elements).

use crate::packet::TcpHdr;
use crate::time::SimTime;

/// Gap ranges one STAT can carry.
pub const MAX_GAPS: usize = 3;
/// Wire bytes per gap range.
pub const GAP_BYTES: u32 = 8;
/// `flags` bit marking an unsolicited STAT.
const USTAT: u8 = 1;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Poll {
    pub ps: u64,
    pub next_seq: u64,
    pub sent: SimTime,
}

impl Poll {
    pub fn encode(&self) -> TcpHdr {
        TcpHdr { seq: self.ps, ack: self.next_seq, ts_echo: self.sent, ..TcpHdr::default() }
    }

    pub fn decode(h: &TcpHdr) -> Self {
        Poll { ps: h.seq, next_seq: h.ack, sent: h.ts_echo }
    }
}

/// A STAT (solicited, answering POLL `ps`) or USTAT (unsolicited, `poll` = None).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stat {
    pub poll: Option<(u64, SimTime)>,
    /// N(R): every packet below it has arrived.
    pub cum: u64,
    pub gaps: [(u64, u64); MAX_GAPS],
    pub ngaps: usize,
}

impl Stat {
    pub fn encode(&self) -> TcpHdr {
        let (seq, ts, flags) = self.poll.map_or((0, SimTime::ZERO, USTAT), |(ps, t)| (ps, t, 0));
        TcpHdr {
            seq,
            ack: self.cum,
            ts_echo: ts,
            flags,
            nsack: self.ngaps as u8,
            sack: self.gaps,
            ..TcpHdr::default()
        }
    }

    pub fn decode(h: &TcpHdr) -> Self {
        let poll = (h.flags & USTAT == 0).then_some((h.seq, h.ts_echo));
        Stat { poll, cum: h.ack, gaps: h.sack, ngaps: h.nsack as usize }
    }

    pub fn gaps(&self) -> &[(u64, u64)] {
        &self.gaps[..self.ngaps]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdus_round_trip() {
        let p = Poll { ps: 4, next_seq: 99, sent: SimTime(7) };
        assert_eq!(Poll::decode(&p.encode()), p);
        let s = Stat {
            poll: Some((4, SimTime(7))),
            cum: 50,
            gaps: [(51, 53), (60, 61), (0, 0)],
            ngaps: 2,
        };
        assert_eq!(Stat::decode(&s.encode()), s);
        let u = Stat { poll: None, ..s };
        assert_eq!(Stat::decode(&u.encode()), u);
        assert_eq!(u.gaps(), &[(51, 53), (60, 61)]);
    }
}
