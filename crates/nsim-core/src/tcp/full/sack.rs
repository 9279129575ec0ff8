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
//! RFC 6675 (`recovery_rules = "rfc"`) differs, and is implemented too: pipe is recomputed
//! from the scoreboard (SetPipe(): every unSACKed byte not yet deemed lost, plus every byte
//! retransmitted, counts once); a hole is deemed lost (IsLost()) once `dupthresh` SACKed
//! blocks or more than (`dupthresh` - 1) x MSS SACKed bytes lie above it; a segment may go
//! while cwnd - pipe >= 1 MSS, chosen by NextSeg(): the first lost hole above HighRxt, else new
//! data, else the first other hole above HighRxt (no rescue retransmission, rule 4). Pipe
//! control ends at the ACK that covers the recovery point, or at a timeout (§5.1).
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

    /// Where the first SACKed block above `seq` starts: a retransmission at `seq` should stop
    /// there.
    pub fn next_block_after(&self, seq: u64) -> Option<u64> {
        self.blocks.iter().map(|&(s, _)| s).find(|&s| s > seq)
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

impl SackBoard {
    /// The unSACKed ranges between `una` and `max`, lowest first, each with the SACKed blocks
    /// and bytes above it; the last one (above every block) has none.
    fn holes(&self, una: u64, max: u64) -> impl Iterator<Item = (u64, u64, usize, u64)> + '_ {
        let mut cur = una;
        let mut k = 0;
        std::iter::from_fn(move || {
            while cur < max {
                let Some(&(s, e)) = self.blocks.get(k) else {
                    let hole = (cur, max, 0, 0);
                    cur = max;
                    return Some(hole);
                };
                k += 1;
                if e <= cur {
                    continue;
                }
                let hole = (cur, s.min(max));
                cur = e;
                if hole.0 < hole.1 {
                    let above = &self.blocks[k - 1..];
                    return Some((
                        hole.0,
                        hole.1,
                        above.len(),
                        above.iter().map(|&(a, b)| b - a).sum(),
                    ));
                }
            }
            None
        })
    }
}

/// What RFC 6675's functions need to know about the connection.
#[derive(Clone, Copy, Debug)]
pub struct Flight {
    pub una: u64,
    pub nxt: u64,
    pub max: u64,
    /// One past the last byte the application has handed over.
    pub data_end: u64,
    /// snd_una + the peer's window.
    pub wnd_edge: u64,
    pub mss: u64,
    pub dupthresh: u32,
}

impl Flight {
    /// RFC 6675 IsLost() for the bytes of a hole with `blocks` SACKed blocks and `bytes`
    /// SACKed bytes above it.
    fn lost(&self, blocks: usize, bytes: u64) -> bool {
        blocks >= self.dupthresh as usize || bytes > (self.dupthresh as u64 - 1) * self.mss
    }
}

/// The SACK sender's recovery state (ns-2 `pipe_`, `pipectrl_`, `h_seqno_`; RFC 6675
/// HighRxt).
#[derive(Clone, Debug, Default)]
pub struct SackSender {
    /// RFC 6675 instead of ns-2's rules.
    pub rfc: bool,
    pub board: SackBoard,
    /// Estimated bytes in the network during pipe control.
    pub pipe: i64,
    /// Sending is governed by `pipe` instead of the window.
    pub pipectrl: bool,
    /// Next sequence number to consider for a hole fill.
    pub h_seqno: u64,
    /// RFC 6675: one past the highest byte retransmitted in this recovery (HighRxt + 1).
    pub high_rxt: u64,
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
        self.high_rxt = snd_una + amt;
    }

    /// An ACK arrived in fast recovery: ns-2 takes one segment off pipe (RFC 6675 recomputes
    /// pipe instead).
    pub fn ack_in_recovery(&mut self, mss: u64) {
        if !self.rfc {
            self.pipe -= mss as i64;
        }
    }

    /// A partial ACK (below `recover`) in fast recovery: one more segment left the network.
    pub fn partial_ack(&mut self, ack: u64, mss: u64) {
        self.board.trim(ack);
        self.ack_in_recovery(mss);
        self.h_seqno = self.h_seqno.max(ack);
    }

    /// A retransmission timeout: the scoreboard is forgotten (RFC 2018 §8, ns-2
    /// `clear_on_timeout_`); RFC 6675 §5.1 also ends the recovery, while ns-2 keeps pipe
    /// control until the next ACK that is not partial.
    pub fn timed_out(&mut self, snd_una: u64) {
        self.board.clear();
        if self.rfc {
            self.pipectrl = false;
            self.high_rxt = snd_una;
        }
    }

    /// RFC 6675 SetPipe(), in bytes.
    pub fn set_pipe(&self, f: &Flight) -> u64 {
        let rxt_end = self.high_rxt.max(f.una);
        self.board
            .holes(f.una, f.max)
            .map(|(a, b, blocks, bytes)| {
                let in_net = if f.lost(blocks, bytes) { 0 } else { b - a };
                in_net + rxt_end.min(b).saturating_sub(a)
            })
            .sum()
    }

    /// RFC 6675 NextSeg() rules 1-3: (sequence number, most bytes to send there).
    pub fn next_seg(&self, f: &Flight) -> Option<(u64, u64)> {
        let below_sacked = || self.board.holes(f.una, f.max).filter(|h| h.2 > 0);
        let from = |(a, b, _, _): (u64, u64, usize, u64)| {
            let start = a.max(self.high_rxt);
            (start < b).then(|| (start, (b - start).min(f.mss)))
        };
        if let Some(seg) = below_sacked().filter(|h| f.lost(h.2, h.3)).find_map(from) {
            return Some(seg);
        }
        let len = f.mss.min(f.data_end.saturating_sub(f.nxt));
        if len > 0 && f.nxt + len <= f.wnd_edge {
            return Some((f.nxt, len));
        }
        below_sacked().find_map(from)
    }

    /// Any other new ACK: pipe control ends.
    pub fn full_ack(&mut self, ack: u64) {
        self.pipectrl = false;
        self.board.trim(ack);
        self.h_seqno = self.h_seqno.max(ack);
    }

    /// `amt` sequence numbers sent at `seq`; below `resent_below` (the recovery point, or
    /// snd_nxt for a hole above it) they are a retransmission and move HighRxt (RFC 6675 §2:
    /// the highest sequence number retransmitted in this recovery, wherever the hole is).
    pub fn sent(&mut self, seq: u64, amt: u64, resent_below: u64) {
        if seq == self.h_seqno {
            self.h_seqno += amt;
        }
        self.pipe += amt as i64;
        if seq < resent_below {
            self.high_rxt = self.high_rxt.max(seq + amt);
        }
    }

    /// Pipe control lets a segment at `seq` go: below the peer's window edge, and pipe below
    /// floor(cwnd) segments (ns-2) or at least one MSS below cwnd (RFC 6675).
    pub fn allows(&self, seq: u64, cwnd: f64, f: &Flight) -> bool {
        let cwnd = (cwnd.floor() as u64) * f.mss;
        if self.rfc {
            return seq < f.wnd_edge && self.set_pipe(f) + f.mss <= cwnd;
        }
        seq < f.wnd_edge && self.pipe < cwnd as i64
    }

    /// Where to send next in recovery: ns-2: a hole (moving `h_seqno` up to it), else
    /// `snd_nxt`; RFC 6675: NextSeg().
    pub fn next_seq(&mut self, f: &Flight) -> u64 {
        if self.rfc {
            return self.next_seg(f).map_or(f.nxt, |(seq, _)| seq);
        }
        let snd_nxt = f.nxt;
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
        let f = flight(1001, 21_001);
        assert!(!s.allows(21_001, 10.5, &f));
        for _ in 0..8 {
            s.pipe -= 1000;
        }
        assert!(s.allows(21_001, 10.5, &f));
        s.sent(21_001, 1000, 21_001);
        assert!(!s.allows(22_001, 10.5, &f));
    }

    fn flight(una: u64, max: u64) -> Flight {
        Flight {
            una,
            nxt: max,
            max,
            data_end: u64::MAX,
            wnd_edge: una + 100_000,
            mss: 1000,
            dupthresh: 3,
        }
    }

    /// RFC 6675 §4 SetPipe() and IsLost() by hand: segments 1001..11001 out; 2001-3001 and
    /// 5001-8001 SACKed. Hole 1001 has 4000 B SACKed above (> 2 MSS): lost; hole 3001-5001
    /// has 3000 B above: lost; the tail 8001-11001 has nothing above: in the network. Pipe =
    /// 3000 B, plus 1000 B once 1001 is retransmitted.
    #[test]
    fn rfc6675_set_pipe_and_next_seg() {
        let mut s = SackSender { rfc: true, ..SackSender::default() };
        s.board.add(2001, 3001);
        s.board.add(5001, 8001);
        let f = flight(1001, 11_001);
        s.high_rxt = 1001;
        assert_eq!(s.set_pipe(&f), 3000);
        assert_eq!(s.next_seg(&f), Some((1001, 1000)));
        s.sent(1001, 1000, 11_001);
        assert_eq!(s.set_pipe(&f), 4000);
        assert_eq!(s.next_seg(&f), Some((3001, 1000)), "rule 1: the next lost hole above HighRxt");
        s.sent(3001, 1000, 11_001);
        s.sent(4001, 1000, 11_001);
        assert_eq!(s.set_pipe(&f), 6000);
        assert_eq!(s.next_seg(&f), Some((11_001, 1000)), "rule 2: new data");
        // One block above a one-segment hole is not a loss (1000 B <= 2 MSS): rule 3 only
        // once no new data may go.
        let mut t = SackSender { rfc: true, ..SackSender::default() };
        t.board.add(2001, 3001);
        let g = Flight { data_end: 5001, ..flight(1001, 5001) };
        t.high_rxt = 1001;
        assert_eq!(t.set_pipe(&g), 3000);
        assert_eq!(t.next_seg(&g), Some((1001, 1000)), "rule 3");
    }

    /// A lost hole above the recovery point (data sent during the recovery, 12001-13001, with
    /// 3 segments SACKed above it), resent with the bound the connection passes (snd_nxt, above
    /// it): HighRxt moves past it, SetPipe counts it and NextSeg moves on. The connection passed
    /// only the recovery point until 2026-11-29, so this hole was picked again and again (a
    /// hang under random loss); that end-to-end case is
    /// `tcp_full_prr::rfc6675_recovery_resends_each_hole_once_under_random_loss`.
    #[test]
    fn a_hole_above_the_recovery_point_moves_high_rxt() {
        let mut s = SackSender { rfc: true, ..SackSender::default() };
        s.board.add(13_001, 16_001);
        let f = Flight { nxt: 16_001, ..flight(12_001, 16_001) };
        s.high_rxt = 11_001;
        let recover = 11_001;
        assert_eq!((s.set_pipe(&f), s.next_seg(&f)), (0, Some((12_001, 1000))));
        // snd_nxt (16001) is above the hole: the send is a retransmission.
        s.sent(12_001, 1000, recover.max(f.nxt));
        assert_eq!(s.high_rxt, 13_001);
        assert_eq!(
            (s.set_pipe(&f), s.next_seg(&f)),
            (1000, Some((16_001, 1000))),
            "rule 2: new data next"
        );
    }
}
