//! Tail Loss Probe, RFC 8985 §7 (in packets). When the last packets of a flight are lost no
//! duplicate ACK or SACK arrives to start fast recovery, and only the RTO would repair them.
//! TLP sends one probe a probe timeout (PTO) after the last transmission so that its ACK or
//! SACK lets RACK (or fast recovery) find the loss.
//!
//! - §7.2 TLP_calc_PTO: PTO = 2 · SRTT, plus the receiver's worst-case delayed-ACK time
//!   (WCDelAckT, `max_ack_delay`, default 200 ms) when one packet is in flight; 1 s without an
//!   SRTT; never past the RTO's expiry.
//! - §7.2: armed after new data is sent or new data is cumulatively acknowledged, only in the
//!   open state (not in fast or RTO recovery), with data in flight, and while no probe of the
//!   episode is outstanding (TLP.end_seq is None).
//! - §7.3 TLP_send_probe: a new packet if one is available and the receiver window allows it,
//!   else a retransmission of the highest-sequence packet sent; TLP.end_seq = SND.NXT,
//!   TLP.is_retrans; then the RTO is re-armed, and no second probe is sent in the episode.
//! - §7.4 TLP_process_ack: the episode ends when the cumulative ACK reaches TLP.end_seq. A
//!   new-data probe ends it with nothing to do. A retransmitted probe ends it when an ACK goes
//!   beyond TLP.end_seq (the original or the probe was lost: the congestion control must react,
//!   a repaired loss), or with nothing to do on a DSACK for the probe or a duplicate ACK
//!   without SACK information at TLP.end_seq (both copies arrived). nsim's receivers send no
//!   DSACK (RFC 2883), so only the last two cases end a retransmitted probe's episode.
//! - An episode also ends when the sender enters fast recovery or takes an RTO: the recovery's
//!   own window reduction stands for the probe's (Linux `tcp_init_cwnd_reduction` clears
//!   `tlp_high_seq`; the caller does this).

use crate::time::Dur;

/// §7.2 TLP_calc_PTO: `srtt` None before the first sample, `flight` packets outstanding,
/// `rto_left` until the retransmission timer expires.
pub fn pto(srtt: Option<Dur>, flight: i64, max_ack_delay: Dur, rto_left: Dur) -> Dur {
    let pto = match srtt {
        Some(s) if flight == 1 => Dur(2 * s.0) + max_ack_delay,
        Some(s) => Dur(2 * s.0),
        None => Dur::from_secs(1),
    };
    pto.min(rto_left)
}

/// What a probe sends (§7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// The lowest-sequence unsent packet.
    New(i64),
    /// A retransmission of the highest-sequence packet sent.
    Last(i64),
}

/// §7.3: `t_seqno` next new packet, `curseq` one past the last the application supplied,
/// `highest_ack` the cumulative ACK, `wnd` the receiver window, `maxseq` the highest sent.
pub fn probe(t_seqno: i64, curseq: i64, highest_ack: i64, wnd: i64, maxseq: i64) -> Probe {
    if t_seqno < curseq && t_seqno <= highest_ack + wnd {
        Probe::New(t_seqno)
    } else {
        Probe::Last(maxseq)
    }
}

/// One TLP episode (§7.1: TLP.end_seq, TLP.is_retrans).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Episode {
    /// SND.NXT after the probe, packets (one past its sequence number).
    pub end_seq: i64,
    pub is_retrans: bool,
}

/// The outcome of an ACK for an outstanding episode (§7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpisodeEnd {
    /// The probe is not acknowledged yet.
    Open,
    /// Over, nothing to do (the new-data probe was delivered).
    Over,
    /// Over, and the retransmitted probe repaired a loss: reduce the window.
    RepairedLoss,
}

impl Episode {
    /// §7.4.2 for a cumulative ACK `ack` (ns-2 convention: the highest in-order packet, so the
    /// RFC's ACK number is `ack + 1`); `pure_dupack` when it acknowledges nothing new and
    /// carries no SACK block.
    pub fn on_ack(&self, ack: i64, pure_dupack: bool) -> EpisodeEnd {
        let ack_number = ack + 1;
        if ack_number < self.end_seq {
            EpisodeEnd::Open
        } else if !self.is_retrans {
            EpisodeEnd::Over
        } else if ack_number > self.end_seq {
            EpisodeEnd::RepairedLoss
        } else if pure_dupack {
            // The receiver had the probed segment already: both copies arrived, nothing lost.
            EpisodeEnd::Over
        } else {
            // Only a later ACK (or a DSACK, which nsim's receivers do not send) tells.
            EpisodeEnd::Open
        }
    }
}

#[cfg(test)]
mod tests;
