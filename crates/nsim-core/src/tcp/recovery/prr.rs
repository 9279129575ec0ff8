//! Proportional Rate Reduction, RFC 6937 §3 (`sack1.prr = "ssrb"` or `"crb"` with
//! `sack1.algorithm = "rfc6675"`), in packets (MSS = one packet) for the one-way TCP, in bytes
//! for the two-way TCP (`tcp_full`, [`crate::tcp::full::prr`]): one unit, the SMSS, apart.
//!
//! PRR decides how many packets the sender may send on each ACK during fast recovery, so that
//! the flight shrinks smoothly from RecoverFS to ssthresh over one round trip instead of the
//! half-window of silence of RFC 6675's `cwnd - pipe` rule. Which packet goes out is still
//! RFC 6675's NextSeg(). The congestion control chooses ssthresh (RFC 6937 §3
//! "CongCtrlAlg()": Reno halves, CUBIC multiplies by β, DCTCP by 1 - α/2).
//!
//! - Start of recovery (§3): prr_delivered = prr_out = 0, RecoverFS = snd.nxt - snd.una.
//! - Every ACK in recovery (§3): DeliveredData = change in snd.una + change in SACKed data;
//!   prr_delivered += DeliveredData; if pipe > ssthresh, sndcnt = ⌈prr_delivered · ssthresh /
//!   RecoverFS⌉ - prr_out (proportional part); else sndcnt = min(ssthresh - pipe, limit) with
//!   limit = prr_delivered - prr_out (PRR-CRB, conservative) or max(prr_delivered - prr_out,
//!   DeliveredData) + 1 (PRR-SSRB, slow start, the RFC's recommendation, §6).
//! - Every packet sent in recovery (§3): prr_out += 1.
//!
//! nsim specifics: a negative sndcnt sends nothing; the fast retransmit is always sent, even
//! when sndcnt is 0 on the ACK that starts recovery (RFC 5681 §3.2 step 2).

use crate::tcp::config::PrrBound;

/// PRR's state for one recovery episode, in units of which one SMSS is `smss` (1: packets).
#[derive(Clone, Copy, Debug)]
pub struct Prr {
    bound: PrrBound,
    /// One sender maximum segment size, in the units of the other fields (RFC 6937 MSS).
    smss: i64,
    /// Target flight at the end of recovery, packets (RFC 6937 ssthresh).
    ssthresh: i64,
    /// Flight when recovery started, packets (RFC 6937 RecoverFS).
    recover_fs: i64,
    /// Packets delivered to the receiver during recovery (RFC 6937 prr_delivered).
    delivered: i64,
    /// Packets sent during recovery (RFC 6937 prr_out).
    out: i64,
}

impl Prr {
    /// §3, "At the beginning of recovery", in packets: `ssthresh` from the congestion control
    /// (rounded down to whole packets, at least 1), `recover_fs` = snd.nxt - snd.una.
    pub fn start(bound: PrrBound, ssthresh: f64, recover_fs: i64) -> Self {
        Self::start_in_units(bound, ssthresh, recover_fs, 1)
    }

    /// [`Prr::start`] in units of which one SMSS is `smss` (bytes: the MSS): ssthresh rounded
    /// down to a whole unit, at least one SMSS.
    pub fn start_in_units(bound: PrrBound, ssthresh: f64, recover_fs: i64, smss: i64) -> Self {
        Prr {
            bound,
            smss,
            ssthresh: (ssthresh.floor() as i64).max(smss),
            recover_fs: recover_fs.max(1),
            delivered: 0,
            out: 0,
        }
    }

    /// §3, "On every ACK during recovery": takes what this ACK reports delivered and the RFC
    /// 6675 pipe after it; returns sndcnt, what may be sent now.
    pub fn on_ack(&mut self, delivered_data: i64, pipe: i64) -> i64 {
        self.delivered += delivered_data;
        let sndcnt = if pipe > self.ssthresh {
            // ⌈a / b⌉ for a >= 0, b > 0 in integers: exact, no float rounding.
            (self.delivered * self.ssthresh + self.recover_fs - 1) / self.recover_fs - self.out
        } else {
            let limit = match self.bound {
                PrrBound::Crb => self.delivered - self.out,
                PrrBound::Ssrb => (self.delivered - self.out).max(delivered_data) + self.smss,
            };
            (self.ssthresh - pipe).min(limit)
        };
        sndcnt.max(0)
    }

    /// §3, "On any data transmission or retransmission": `amount` sent (1 per packet).
    pub fn on_sent(&mut self, amount: i64) {
        self.out += amount;
    }
}

#[cfg(test)]
mod tests;
