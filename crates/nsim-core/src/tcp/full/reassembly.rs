//! Receive side: the next expected sequence number, out-of-order segments waiting for a gap
//! to fill, and the advertised window with receiver-side silly window syndrome avoidance.
//!
//! Read first: RFC 793 §3.3 (acceptable segments, window), RFC 1122 §4.2.3.3 (receiver SWS
//! avoidance: the window's right edge moves only in steps of min(buffer/2, MSS)), RFC 7323
//! §2 (window scaling: a 16-bit field times 2^shift).
//!
//! The window is the buffer less the in-order bytes the application has not read yet (BSD's
//! `sbspace`; out-of-order data in the reassembly queue does not shrink it). An application
//! that reads at once keeps it at the whole buffer.

/// Largest value of the 16-bit window field.
pub const MAX_UNSCALED: u64 = 65_535;

/// An out-of-order range `[start, end)` and its place in the SACK report order (higher =
/// reported first).
#[derive(Clone, Copy, Debug)]
struct Block {
    start: u64,
    end: u64,
    stamp: u64,
}

#[derive(Clone, Debug)]
pub struct Reassembly {
    /// Next sequence number expected (RCV.NXT).
    pub rcv_nxt: u64,
    /// Out-of-order ranges above `rcv_nxt`, sorted and disjoint. Grows only to its
    /// high-water mark.
    ooo: Vec<Block>,
    /// Counter for [`Block::stamp`].
    clock: u64,
    /// SACK block order (RFC 2018 §4): true puts the block holding the most recently received
    /// segment first, as the RFC requires; false is ns-2's tcp/rq.cc, whose report order is a
    /// stack of blocks by creation: a segment that extends or joins blocks leaves the
    /// (leftmost) block where it was.
    pub recent_first: bool,
    buffer: u64,
    /// Right edge of the last advertised window (RCV.NXT + RCV.WND when sent).
    rcv_adv: u64,
    /// RFC 7323 shift applied to the advertised window (0 = no scaling).
    pub shift: u32,
    /// In-order bytes the application has not read.
    pub unread: u64,
}

impl Reassembly {
    pub fn new(buffer: u64) -> Self {
        Reassembly {
            rcv_nxt: 0,
            ooo: Vec::with_capacity(8),
            clock: 0,
            recent_first: false,
            buffer,
            rcv_adv: 0,
            shift: 0,
            unread: 0,
        }
    }

    /// The window scale this end asks for when it may scale (RFC 7323 §2.2): the smallest
    /// shift that fits the buffer in 16 bits, at most 14.
    pub fn wanted_shift(buffer: u64) -> u32 {
        let mut s = 0;
        while (buffer >> s) > MAX_UNSCALED && s < 14 {
            s += 1;
        }
        s
    }

    /// Starts the sequence space at the peer's SYN.
    pub fn syn(&mut self, irs: u64) {
        self.rcv_nxt = irs + 1;
        self.rcv_adv = self.rcv_nxt + self.buffer;
    }

    /// Accepts data `[seq, seq + len)`, trimmed to the window; returns the bytes that became
    /// in-order (deliverable) and whether the segment was out of order or filled a gap (both
    /// call for an immediate ACK, RFC 5681 §4.2).
    pub fn insert(&mut self, seq: u64, len: u64) -> (u64, bool) {
        let had_gap = !self.ooo.is_empty();
        let start = seq.max(self.rcv_nxt);
        let end = (seq + len).min(self.rcv_nxt.max(self.rcv_adv));
        if end <= start {
            return (0, false);
        }
        if start > self.rcv_nxt {
            self.add_range(start, end);
            return (0, true);
        }
        let before = self.rcv_nxt;
        self.rcv_nxt = end;
        while let Some(&b) = self.ooo.first() {
            if b.start > self.rcv_nxt {
                break;
            }
            self.rcv_nxt = self.rcv_nxt.max(b.end);
            self.ooo.remove(0);
        }
        (self.rcv_nxt - before, had_gap)
    }

    fn add_range(&mut self, start: u64, end: u64) {
        let i = self.ooo.partition_point(|b| b.end < start);
        let mut j = i;
        let (mut s, mut e) = (start, end);
        let mut kept = None;
        while j < self.ooo.len() && self.ooo[j].start <= e {
            let b = self.ooo[j];
            // ns-2 drops a block the new range strictly covers, and extends any other.
            let covered = start <= b.start && b.end <= end && (start, end) != (b.start, b.end);
            if !covered && kept.is_none() {
                kept = Some(b.stamp);
            }
            s = s.min(b.start);
            e = e.max(b.end);
            j += 1;
        }
        self.clock += 1;
        let stamp = if self.recent_first { self.clock } else { kept.unwrap_or(self.clock) };
        self.ooo.splice(i..j, std::iter::once(Block { start: s, end: e, stamp }));
    }

    /// The SACK blocks an ACK carries now (RFC 2018 §3), up to [`super::sack::MAX_BLOCKS`], in
    /// report order (see [`Self::recent_first`]).
    pub fn sack_blocks(&self) -> ([(u64, u64); 3], u8) {
        let mut out = [(0, 0); 3];
        let mut n = 0;
        let mut below = u64::MAX;
        while n < out.len() {
            let Some(b) = self.ooo.iter().filter(|b| b.stamp < below).max_by_key(|b| b.stamp)
            else {
                break;
            };
            out[n] = (b.start, b.end);
            below = b.stamp;
            n += 1;
        }
        (out, n as u8)
    }

    /// The peer's FIN at `seq` is in order: it takes one sequence number.
    pub fn fin(&mut self, seq: u64) -> bool {
        if seq == self.rcv_nxt && self.ooo.is_empty() {
            self.rcv_nxt += 1;
            true
        } else {
            false
        }
    }

    /// The window to advertise now, in bytes as the peer will read it (RFC 1122 §4.2.3.3: the
    /// right edge advances only by at least min(buffer/2, MSS); RFC 7323: the 16-bit field
    /// holds window >> shift).
    pub fn advertise(&mut self, mss: u64) -> u32 {
        let edge = self.rcv_nxt + self.buffer - self.unread.min(self.buffer);
        if edge >= self.rcv_adv + (self.buffer / 2).min(mss) {
            self.rcv_adv = edge;
        }
        let wnd = self.rcv_adv.saturating_sub(self.rcv_nxt).min(MAX_UNSCALED << self.shift);
        ((wnd >> self.shift) << self.shift) as u32
    }

    /// The application read `n` bytes: true if the window that can now be advertised is at
    /// least min(buffer/2, MSS) beyond the last one, so a window update should be sent
    /// (RFC 1122 §4.2.3.3).
    pub fn read(&mut self, n: u64, mss: u64) -> bool {
        self.unread -= n.min(self.unread);
        let edge = (self.rcv_nxt + self.buffer).saturating_sub(self.unread);
        edge >= self.rcv_adv + (self.buffer / 2).min(mss)
    }

    /// The window in a SYN or SYN-ACK, which is never scaled (RFC 7323 §2.2).
    pub fn advertise_syn(&self) -> u32 {
        self.buffer.min(MAX_UNSCALED) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::Reassembly;

    #[test]
    fn out_of_order_segments_wait_for_the_gap() {
        let mut r = Reassembly::new(10_000);
        r.syn(0);
        assert_eq!(r.insert(1001, 1000), (0, true));
        assert_eq!(r.insert(2001, 1000), (0, true));
        assert_eq!(r.insert(1, 1000), (3000, true));
        assert_eq!(r.rcv_nxt, 3001);
        assert_eq!(r.insert(1, 1000), (0, false), "duplicate");
        assert_eq!(r.insert(3001, 500), (500, false));
    }

    /// RFC 7323 §2.2-2.3: a 1 MB buffer needs shift 5 (1 MB >> 4 > 65535); without scaling
    /// the window field caps the window at 65535 B.
    #[test]
    fn window_scaling() {
        assert_eq!(Reassembly::wanted_shift(1 << 20), 5);
        assert_eq!(Reassembly::wanted_shift(65_535), 0);
        let mut r = Reassembly::new(1 << 20);
        r.syn(0);
        assert_eq!(r.advertise(1460), 65_535);
        r.shift = 5;
        assert_eq!(r.advertise(1460), 1 << 20);
        assert_eq!(r.advertise_syn(), 65_535);
    }

    /// Unread data closes the window; reading reopens it, and an update is due once it opens by
    /// min(buffer/2, MSS) (RFC 1122 §4.2.3.3).
    #[test]
    fn unread_data_closes_the_window_until_read() {
        let mut r = Reassembly::new(4000);
        r.syn(0);
        r.advertise(1000);
        let (n, _) = r.insert(1, 4000);
        r.unread += n;
        assert_eq!(r.advertise(1000), 0);
        assert!(!r.read(500, 1000), "500 B is less than min(2000, 1000)");
        assert_eq!(r.advertise(1000), 0, "receiver SWS: no 500 B window");
        assert!(r.read(500, 1000));
        assert_eq!(r.advertise(1000), 1000);
    }

    /// RFC 2018 §4: the first block holds the most recently received segment; ns-2 (tcp/rq.cc)
    /// reports blocks newest-created first and leaves an extended block in its place.
    #[test]
    fn sack_block_order() {
        for (recent_first, want) in
            [(false, [(5001, 6001), (2001, 4001)]), (true, [(2001, 4001), (5001, 6001)])]
        {
            let mut r = Reassembly::new(100_000);
            r.recent_first = recent_first;
            r.syn(0);
            r.insert(2001, 1000);
            r.insert(5001, 1000);
            r.insert(3001, 1000);
            let (b, n) = r.sack_blocks();
            assert_eq!((&b[..2], n), (&want[..], 2), "recent_first = {recent_first}");
        }
    }

    /// Data beyond the advertised window is cut off (RFC 793 §3.3 acceptability test).
    #[test]
    fn data_beyond_the_window_is_trimmed() {
        let mut r = Reassembly::new(2000);
        r.syn(0);
        r.advertise(1000);
        assert_eq!(r.insert(1, 3000), (2000, false));
        assert_eq!(r.rcv_nxt, 2001);
    }
}
