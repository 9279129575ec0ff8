//! Proportional Rate Reduction (RFC 6937 §3) in the two-way TCP's RFC 6675 SACK recovery
//! (`prr = "ssrb"` or `"crb"` with `variant = "sack"`, `recovery_rules = "rfc"`), in bytes: the
//! glue between the connection ([`super::conn`]) and the arithmetic it shares with the one-way
//! TCP ([`crate::tcp::recovery::prr::Prr`], in units of one byte, SMSS = the MSS).
//!
//! - Start of recovery (the fast retransmit): RecoverFS = snd_max - snd_una, ssthresh (bytes) =
//!   the congestion control's ssthresh × MSS; the entering ACK's newly SACKed bytes are the first
//!   DeliveredData, with the pipe before the retransmission.
//! - Every later ACK in recovery: DeliveredData = change in snd_una + change in SACKed bytes
//!   (RFC 6937 §3), pipe = RFC 6675 SetPipe() after the ACK; sndcnt from [`Prr::on_ack`], and
//!   cwnd shows pipe + sndcnt.
//! - A segment goes while sndcnt ≥ 1 MSS (RFC 6675's `cwnd - pipe >= 1 SMSS` with cwnd = pipe
//!   + sndcnt); each byte sent in recovery (the fast retransmit included) is prr_out.
//! - The ACK that ends recovery sets cwnd = ssthresh (RFC 6937 §3, as the one-way TCP: no
//!   growth on that ACK); a timeout ends the episode without touching cwnd.
//!
//! Cost per ACK in recovery: the SACKed byte count and SetPipe() each scan the scoreboard's
//! ranges once (at most one per hole in the window); without PRR nothing is counted.

use crate::tcp::config::PrrBound;
use crate::tcp::recovery::prr::Prr;

/// PRR's per-connection state: the bound, the episode in progress, and what the last ACK
/// still lets go.
#[derive(Clone, Debug)]
pub struct PrrRecovery {
    bound: PrrBound,
    episode: Option<Prr>,
    /// Bytes PRR still lets go after the last ACK (its sndcnt less what was sent since).
    sndcnt: i64,
    /// snd_una and the SACKed bytes when the ACK being processed arrived.
    before: (u64, u64),
}

impl PrrRecovery {
    pub fn new(bound: PrrBound) -> Self {
        PrrRecovery { bound, episode: None, sndcnt: 0, before: (0, 0) }
    }

    /// In a PRR episode (between the fast retransmit and the end of recovery or a timeout).
    pub fn active(&self) -> bool {
        self.episode.is_some()
    }

    /// An ACK arrived: remember `snd_una` and the SACKed bytes before it is processed.
    pub fn ack_arrived(&mut self, snd_una: u64, sacked: u64) {
        self.before = (snd_una, sacked);
    }

    /// RFC 6937 DeliveredData of the ACK being processed, given `snd_una` and the SACKed bytes
    /// after it: change_in(snd.una) + change_in(SACKd).
    pub fn delivered(&self, snd_una: u64, sacked: u64) -> i64 {
        (snd_una - self.before.0) as i64 + sacked as i64 - self.before.1 as i64
    }

    /// Recovery starts: `ssthresh` in segments of `mss` bytes, `recover_fs` bytes outstanding.
    pub fn start(&mut self, ssthresh: f64, mss: u64, recover_fs: u64) {
        let ssthresh_bytes = ssthresh * mss as f64;
        self.episode =
            Some(Prr::start_in_units(self.bound, ssthresh_bytes, recover_fs as i64, mss as i64));
        self.sndcnt = 0;
    }

    /// An ACK in recovery delivered `delivered` bytes and left `pipe` bytes in the network:
    /// returns the congestion window to show, pipe + sndcnt, in bytes.
    pub fn on_ack(&mut self, delivered: i64, pipe: u64) -> u64 {
        if let Some(prr) = &mut self.episode {
            self.sndcnt = prr.on_ack(delivered, pipe as i64);
        }
        pipe + self.sndcnt as u64
    }

    /// Whether a segment may go now (sndcnt ≥ one MSS).
    pub fn allows(&self, mss: u64) -> bool {
        self.sndcnt >= mss as i64
    }

    /// `amount` sequence numbers were sent in recovery.
    pub fn sent(&mut self, amount: u64) {
        if let Some(prr) = &mut self.episode {
            prr.on_sent(amount as i64);
            self.sndcnt -= amount as i64;
        }
    }

    /// Recovery (or the episode, at a timeout) ends; whether one was in progress.
    pub fn end(&mut self) -> bool {
        self.sndcnt = 0;
        self.episode.take().is_some()
    }
}
