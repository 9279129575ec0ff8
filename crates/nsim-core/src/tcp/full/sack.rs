//! SACK for the full TCP (RFC 2018), as ns-2.35 `Agent/TCP/FullTcp/Sack` (tcp/tcp-full.cc
//! `SackFullTcpAgent`, tcp/rq.cc `ReassemblyQueue`): the sender keeps the byte ranges the
//! receiver reported (its scoreboard, ns-2 `sq_`), and during recovery sends while an estimate
//! of the bytes in the network (`pipe`) is below cwnd, holes first (ns-2 `nxt_tseq`), then new
//! data. The receiver's side (which blocks an ACK carries) is in [`super::reassembly`].
//!
//! ns-2 FullTcp/Sack, step by step (what nsim reproduces):
//! - the third duplicate ACK (outside a recovery of the same data, RFC 6582's `recover`)
//!   halves cwnd and ssthresh, retransmits the first unacknowledged segment, and sets
//!   pipe = snd_max - snd_una - SACKed bytes; the retransmission itself is not added to pipe;
//! - every ACK during fast recovery (a pure ACK, or one that acknowledges new data) takes one
//!   MSS off pipe, a partial ACK a second MSS; every segment sent adds its length;
//! - a segment may be sent while pipe < floor(cwnd) x MSS and it lies within the peer's
//!   window; it is the first hole at or above `h_seqno` (the hole-fill pointer) that has a
//!   SACK block above it, else new data;
//! - a partial ACK does not open cwnd (ns-2 `open_cwnd_on_pack_ false`) and there is no
//!   window inflation (`reno_fastrecov_ false`); the ACK that covers `recover` ends pipe
//!   control without deflating cwnd;
//! - a timeout forgets the scoreboard (`clear_on_timeout_ true`) but leaves pipe control on
//!   until the next ACK that is not partial.
//!
//! RFC 6675 differs: pipe is recomputed from the scoreboard on every ACK (SetPipe() with
//! IsLost()), a hole is retransmitted only once lost (three SACKed segments above it), and
//! the first retransmission counts in pipe. nsim implements ns-2's rules only (documented in
//! docs/models/tcp_full.md).
//!
//! Why not [`crate::tcp::scoreboard`]: it numbers packets (the one-way agents' sequence space)
//! and keeps per-packet flags; here sequence numbers are bytes and segments vary in length, so
//! the scoreboard is a list of byte ranges, as ns-2's FullTcp keeps it.

/// Bytes of the SACK option without blocks (kind, length; ns-2 `sack_option_size_`).
pub const OPTION_BYTES: u64 = 2;
/// Bytes per SACK block (two 32-bit edges; ns-2 `sack_block_size_`).
pub const BLOCK_BYTES: u64 = 8;
/// Blocks per ACK (RFC 2018 §3: at most 3 with the timestamp option; ns-2 `max_sack_blocks_`).
pub const MAX_BLOCKS: usize = 3;

/// The byte ranges `[start, end)` above the cumulative ACK that the receiver reported, sorted
/// and merged (ns-2 `sq_`). Grows only to its high-water mark.
#[derive(Clone, Debug, Default)]
pub struct SackBoard {
    blocks: Vec<(u64, u64)>,
}

impl SackBoard {
    /// Records a reported block; overlapping and adjacent ranges merge.
    pub fn add(&mut self, start: u64, end: u64) {
        if end <= start {
            return;
        }
        let i = self.blocks.partition_point(|&(_, e)| e < start);
        let mut j = i;
        let (mut s, mut e) = (start, end);
        while j < self.blocks.len() && self.blocks[j].0 <= e {
            s = s.min(self.blocks[j].0);
            e = e.max(self.blocks[j].1);
            j += 1;
        }
        self.blocks.splice(i..j, std::iter::once((s, e)));
    }

    /// Forgets what lies below the cumulative ACK `ack` (ns-2 `cleartonxt`).
    pub fn trim(&mut self, ack: u64) {
        let gone = self.blocks.partition_point(|&(_, e)| e <= ack);
        self.blocks.drain(..gone);
        if let Some(b) = self.blocks.first_mut() {
            b.0 = b.0.max(ack);
        }
    }

    pub fn clear(&mut self) {
        self.blocks.clear();
    }

    /// SACKed bytes.
    pub fn total(&self) -> u64 {
        self.blocks.iter().map(|&(s, e)| e - s).sum()
    }

    /// The first hole at or after `seq` that has a SACKed block above it: `seq` itself if it
    /// lies in a hole, the end of the block holding `seq` if another block follows, else none
    /// (ns-2 `nexthole` with `sack_rtx_threshmode_ 1`, `sack_rtx_cthresh_ 1`: one block above
    /// a hole is enough to fill it). A block's end counts as inside it, as in ns-2.
    pub fn next_hole(&self, seq: u64) -> Option<u64> {
        for (k, &(s, e)) in self.blocks.iter().enumerate() {
            if s > seq {
                return Some(seq);
            }
            if seq <= e {
                return (k + 1 < self.blocks.len()).then_some(e);
            }
        }
        None
    }
}

/// The SACK sender's recovery state (ns-2 `pipe_`, `pipectrl_`, `h_seqno_`).
#[derive(Clone, Debug, Default)]
pub struct SackSender {
    pub board: SackBoard,
    /// Estimated bytes in the network during pipe control.
    pub pipe: i64,
    /// Sending is governed by `pipe` instead of the window.
    pub pipectrl: bool,
    /// Next sequence number to consider for a hole fill.
    pub h_seqno: u64,
}

impl SackSender {
    /// Pipe at the third duplicate ACK: outstanding bytes not SACKed.
    pub fn estimate_pipe(&mut self, snd_una: u64, snd_max: u64) {
        self.pipe = snd_max as i64 - snd_una as i64 - self.board.total() as i64;
    }

    /// Fast retransmit of `amt` sequence numbers at `snd_una`: pipe control starts and hole
    /// filling continues after the retransmitted segment.
    pub fn fast_retransmitted(&mut self, snd_una: u64, amt: u64) {
        self.pipectrl = true;
        self.h_seqno = snd_una + amt;
    }

    /// A partial ACK (below `recover`) in fast recovery: one more segment left the network.
    pub fn partial_ack(&mut self, ack: u64, mss: u64) {
        self.board.trim(ack);
        self.pipe -= mss as i64;
        self.h_seqno = self.h_seqno.max(ack);
    }

    /// Any other new ACK: pipe control ends.
    pub fn full_ack(&mut self, ack: u64) {
        self.pipectrl = false;
        self.board.trim(ack);
        self.h_seqno = self.h_seqno.max(ack);
    }

    /// `amt` sequence numbers sent at `seq`.
    pub fn sent(&mut self, seq: u64, amt: u64) {
        if seq == self.h_seqno {
            self.h_seqno += amt;
        }
        self.pipe += amt as i64;
    }

    /// Pipe control lets a segment at `seq` go: below the peer's window edge `wnd_edge` and
    /// pipe below floor(cwnd) segments.
    pub fn allows(&self, seq: u64, wnd_edge: u64, cwnd: f64, mss: u64) -> bool {
        seq < wnd_edge && self.pipe < (cwnd.floor() as i64) * mss as i64
    }

    /// Where to send next in recovery: a hole (moving `h_seqno` up to it), else `snd_nxt`.
    pub fn next_seq(&mut self, snd_nxt: u64) -> u64 {
        match self.board.next_hole(self.h_seqno) {
            Some(hole) => {
                self.h_seqno = self.h_seqno.max(hole);
                hole
            }
            None => snd_nxt,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-2 tcp/rq.cc merging: overlapping and adjacent reports become one range.
    #[test]
    fn reports_merge_and_trim() {
        let mut b = SackBoard::default();
        b.add(15_001, 20_001);
        b.add(15_001, 21_001);
        b.add(29_001, 30_001);
        assert_eq!(b.total(), 7000);
        b.add(21_001, 29_001);
        assert_eq!(b.blocks, vec![(15_001, 30_001)]);
        b.trim(16_001);
        assert_eq!(b.blocks, vec![(16_001, 30_001)]);
        b.trim(30_001);
        assert_eq!(b.total(), 0);
    }

    /// ns-2 `nexthole`: a hole below a block, a block's end when another block follows, none
    /// above the last block.
    #[test]
    fn next_hole_needs_a_block_above() {
        let mut b = SackBoard::default();
        b.add(15_001, 28_001);
        b.add(29_001, 35_001);
        assert_eq!(b.next_hole(14_001), Some(14_001));
        assert_eq!(b.next_hole(15_001), Some(28_001));
        assert_eq!(b.next_hole(28_001), Some(28_001));
        assert_eq!(b.next_hole(29_001), None);
        assert_eq!(b.next_hole(40_001), None);
    }

    /// Fall & Floyd (1996) §3 pipe arithmetic in bytes: 20 segments out, 3 SACKed, so pipe
    /// is 17 segments; cwnd 10 lets nothing go until pipe drops below 10 segments.
    #[test]
    fn pipe_gates_sending() {
        let mut s = SackSender::default();
        s.board.add(2001, 5001);
        s.estimate_pipe(1001, 21_001);
        assert_eq!(s.pipe, 17_000);
        assert!(!s.allows(21_001, 29_001, 10.5, 1000));
        for _ in 0..8 {
            s.pipe -= 1000;
        }
        assert!(s.allows(21_001, 29_001, 10.5, 1000));
        s.sent(21_001, 1000);
        assert!(!s.allows(22_001, 29_001, 10.5, 1000));
    }
}
