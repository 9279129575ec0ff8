//! SACK scoreboard (ns-2 `ScoreBoard`, tcp/scoreboard.cc): per-packet flags for the sequence
//! numbers between the cumulative ACK and the highest SACKed packet, kept in a ring that only
//! grows to its high-water mark (no allocation or hashing per packet, STYLE.md item 10).
//!
//! SACK blocks are `[left, right)` in packets (RFC 2018 §3 with packet sequence numbers).

use std::collections::VecDeque;

/// Initial ring size cap (see [`ScoreBoard::new`]).
pub(crate) const INITIAL_SLOTS: usize = 64;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    sacked: bool,
    retran: bool,
    /// RACK (RFC 8985 §6.2 step 5) found it lost; with `retran` it was sent again since.
    lost: bool,
    /// `t_seqno` when this packet was retransmitted: a SACK for data sent after it means the
    /// retransmission was lost too (ns-2 `snd_nxt_`, used by FACK).
    snd_nxt: i64,
}

#[derive(Clone, Debug, Default)]
pub struct ScoreBoard {
    /// Sequence number of `ring[0]`: the cumulative ACK + 1.
    base: i64,
    ring: VecDeque<Entry>,
    changed: bool,
}

impl ScoreBoard {
    /// The ring starts at min(window, 64) + 8 entries and grows (amortized, never shrinking)
    /// only when more packets than ever before are outstanding: no allocation in steady state,
    /// and thousands of flows with a large `window` do not reserve memory they never use.
    pub fn new(window: usize) -> Self {
        ScoreBoard {
            base: 0,
            ring: VecDeque::with_capacity(window.min(INITIAL_SLOTS) + 8),
            changed: false,
        }
    }

    pub fn clear(&mut self) {
        self.ring.clear();
        self.changed = false;
    }

    /// Inlined: `update` calls it for every SACKed packet of every block, and LLVM's own choice
    /// flips with unrelated code (callgrind: +7 % instructions per event on `tcp_cubic` when
    /// it was not inlined).
    #[inline(always)]
    fn entry(&mut self, seq: i64) -> &mut Entry {
        let i = (seq - self.base) as usize;
        if i >= self.ring.len() {
            self.ring.resize(i + 1, Entry::default());
        }
        &mut self.ring[i]
    }

    /// Applies cumulative ACK `ack` and SACK `blocks`. Returns how many retransmitted packets
    /// these acknowledge (FACK's `retran_data` decrement); [`Self::changed`] tells whether any
    /// packet was newly SACKed (ns-2 `UpdateScoreBoard` + `CheckUpdate`).
    pub fn update(&mut self, ack: i64, blocks: &[(u64, u64)]) -> u32 {
        let mut retran_acked = 0;
        if self.ring.is_empty() {
            self.base = ack + 1;
        }
        while self.base <= ack {
            if let Some(e) = self.ring.pop_front() {
                retran_acked += (e.retran && !e.sacked) as u32;
            }
            self.base += 1;
        }
        self.changed = false;
        for &(l, r) in blocks {
            for seq in (l as i64).max(self.base)..r as i64 {
                let e = self.entry(seq);
                if !e.sacked {
                    e.sacked = true;
                    retran_acked += e.retran as u32;
                    self.changed = true;
                }
            }
        }
        retran_acked
    }

    /// Whether the last [`Self::update`] SACKed new data.
    pub fn changed(&self) -> bool {
        self.changed
    }

    pub fn mark_retran(&mut self, seq: i64, snd_nxt: i64) {
        if seq >= self.base {
            let e = self.entry(seq);
            e.retran = true;
            e.snd_nxt = snd_nxt;
        }
    }

    /// The first hole below the highest SACKed packet not yet retransmitted (ns-2
    /// `GetNextRetran`).
    pub fn next_retran(&self) -> Option<i64> {
        let top = self.ring.iter().rposition(|e| e.sacked)?;
        self.ring
            .iter()
            .take(top)
            .position(|e| !e.sacked && !e.retran)
            .map(|i| self.base + i as i64)
    }

    /// The first packet at or after `seq` that is not SACKed (ns-2 `GetNextUnacked`).
    pub fn next_unacked(&self, seq: i64) -> i64 {
        let from = (seq - self.base).max(0) as usize;
        match self.ring.iter().skip(from).position(|e| !e.sacked) {
            Some(i) => self.base + (from + i) as i64,
            None => self.base + self.ring.len().max(from) as i64,
        }
    }

    /// SACKed packets above the cumulative ACK (RFC 6937 SACKd, counted only by PRR).
    pub fn sacked_count(&self) -> i64 {
        self.ring.iter().filter(|e| e.sacked).count() as i64
    }

    pub fn is_sacked(&self, seq: i64) -> bool {
        seq >= self.base && self.ring.get((seq - self.base) as usize).is_some_and(|e| e.sacked)
    }

    /// Visits the packets from `high_data` down to the cumulative ACK + 1 with, for each, the
    /// number of SACKed packets above it (RFC 6675 IsLost() counts these).
    fn scan_down(&self, high_data: i64, mut visit: impl FnMut(i64, bool, u32)) {
        let mut above = 0;
        let mut seq = high_data;
        while seq >= self.base {
            let sacked = self.is_sacked(seq);
            visit(seq, sacked, above);
            above += sacked as u32;
            seq -= 1;
        }
    }

    /// RFC 6675 §4 SetPipe(), in packets: every packet up to `high_data` that is not SACKed
    /// counts once if it is not lost (IsLost: at least `dupthresh` SACKed packets above it)
    /// and once more if it was retransmitted (at or below `high_rxt`).
    pub fn pipe(&self, high_data: i64, high_rxt: i64, dupthresh: u32) -> i64 {
        let mut pipe = 0;
        self.scan_down(high_data, |seq, sacked, above| {
            if !sacked {
                pipe += (above < dupthresh) as i64 + (seq <= high_rxt) as i64;
            }
        });
        pipe
    }

    /// RFC 6675 §4 NextSeg() rule 1: the first packet above `high_rxt` that is neither SACKed
    /// nor retransmitted yet and is lost (IsLost).
    pub fn first_lost_after(&self, high_rxt: i64, high_data: i64, dupthresh: u32) -> Option<i64> {
        let mut first = None;
        self.scan_down(high_data, |seq, sacked, above| {
            if seq > high_rxt && !sacked && above >= dupthresh {
                first = Some(seq);
            }
        });
        first
    }

    /// RACK found `seq` lost (RFC 8985 §6.2 step 5): it awaits a retransmission, again if it
    /// was a lost retransmission.
    pub fn mark_lost(&mut self, seq: i64) {
        if seq >= self.base {
            let e = self.entry(seq);
            e.lost = true;
            e.retran = false;
        }
    }

    /// Whether `seq` is marked lost and not sent again since.
    pub fn awaits_retransmission(&self, seq: i64) -> bool {
        seq >= self.base
            && self
                .ring
                .get((seq - self.base) as usize)
                .is_some_and(|e| e.lost && !e.retran && !e.sacked)
    }

    /// The first packet marked lost and not sent again since (NextSeg() rule 1 with RACK's
    /// marks in place of IsLost()).
    pub fn first_awaiting_retransmission(&self) -> Option<i64> {
        self.ring
            .iter()
            .position(|e| e.lost && !e.retran && !e.sacked)
            .map(|i| self.base + i as i64)
    }

    /// RFC 6675 SetPipe() with RACK's marks in place of IsLost(), in packets: every packet up
    /// to `high_data` that is not SACKed counts once unless it is marked lost, and once more if
    /// it was sent again since (Linux `tcp_packets_in_flight`: packets_out - sacked_out -
    /// lost_out + retrans_out).
    pub fn pipe_marked(&self, high_data: i64) -> i64 {
        let outstanding = (high_data - self.base + 1).max(0);
        let tracked = self.ring.iter().take(outstanding as usize);
        outstanding
            - tracked
                .map(|e| if e.sacked { 1 } else { e.lost as i64 - e.retran as i64 })
                .sum::<i64>()
    }

    /// True if a retransmitted, still missing packet has SACKed data sent after it: its
    /// retransmission was lost (ns-2 `CheckSndNxt`).
    pub fn retransmission_lost(&self) -> bool {
        let Some(top) = self.ring.iter().rposition(|e| e.sacked) else { return false };
        let highest = self.base + top as i64;
        self.ring.iter().take(top).any(|e| e.retran && !e.sacked && highest >= e.snd_nxt)
    }
}

#[cfg(test)]
mod tests;
