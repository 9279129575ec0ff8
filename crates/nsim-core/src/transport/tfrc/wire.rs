//! TFRC header fields (RFC 5348 §3.2.1 data, §3.2.2 feedback), carried in the packet's
//! fixed-size transport header ([`TcpHdr`]) so packets stay `Copy` and allocation-free. Only
//! this file knows the mapping.
//!
//! | TFRC field | data packet | feedback packet |
//! |---|---|---|
//! | sequence number | `seq` | `seq` (feedback count) |
//! | timestamp | `ts_echo` (send time) | `ts_echo` = t_recvdata |
//! | sender's RTT estimate R | `ack` (ps; 0 = none yet) | |
//! | t_delay | | `ack` (ps) |
//! | X_recv (B/s), p | | `sack[0]` (f64 bits) |

use crate::packet::TcpHdr;
use crate::time::{Dur, SimTime};

/// What a data packet tells the receiver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DataHdr {
    pub seq: u64,
    pub ts: SimTime,
    /// The sender's RTT estimate (None before its first feedback).
    pub rtt: Option<Dur>,
    pub payload: u32,
}

impl DataHdr {
    pub fn encode(&self) -> TcpHdr {
        TcpHdr {
            seq: self.seq,
            ts_echo: self.ts,
            ack: self.rtt.map_or(0, |d| d.0),
            payload: self.payload,
            ..TcpHdr::default()
        }
    }

    pub fn decode(h: &TcpHdr) -> Self {
        DataHdr {
            seq: h.seq,
            ts: h.ts_echo,
            rtt: (h.ack > 0).then_some(Dur(h.ack)),
            payload: h.payload,
        }
    }
}

/// What a feedback packet tells the sender.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeedbackHdr {
    pub seq: u64,
    /// Send time of the last data packet received.
    pub t_recvdata: SimTime,
    /// Time between that packet's arrival and this feedback.
    pub t_delay: Dur,
    /// Receive rate since the previous feedback, bytes per second.
    pub x_recv: f64,
    /// Loss event rate.
    pub p: f64,
}

impl FeedbackHdr {
    pub fn encode(&self) -> TcpHdr {
        let mut h = TcpHdr {
            seq: self.seq,
            ts_echo: self.t_recvdata,
            ack: self.t_delay.0,
            ..TcpHdr::default()
        };
        h.sack[0] = (self.x_recv.to_bits(), self.p.to_bits());
        h
    }

    pub fn decode(h: &TcpHdr) -> Self {
        FeedbackHdr {
            seq: h.seq,
            t_recvdata: h.ts_echo,
            t_delay: Dur(h.ack),
            x_recv: f64::from_bits(h.sack[0].0),
            p: f64::from_bits(h.sack[0].1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_round_trip() {
        let d =
            DataHdr { seq: 7, ts: SimTime(123), rtt: Some(Dur::from_millis(48)), payload: 1000 };
        assert_eq!(DataHdr::decode(&d.encode()), d);
        let d0 = DataHdr { rtt: None, ..d };
        assert_eq!(DataHdr::decode(&d0.encode()), d0);
        let f = FeedbackHdr {
            seq: 3,
            t_recvdata: SimTime(99),
            t_delay: Dur(5),
            x_recv: 12345.6,
            p: 0.0123,
        };
        assert_eq!(FeedbackHdr::decode(&f.encode()), f);
    }
}
