//! When a segment shorter than the MSS may leave: the sender side of silly window syndrome
//! avoidance (RFC 1122 §4.2.3.4) combined with Nagle's algorithm (RFC 896) and Minshall's
//! variant (draft-minshall-nagle-01).
//!
//! RFC 1122 §4.2.3.4: send when (1) a full segment can go, (2) all queued data can go and
//! Nagle allows it, (3) at least half the largest window the peer ever offered can go and
//! Nagle allows it, or (4) the override (persist/retransmission) timer forces it. Nagle
//! allows a short segment when nothing is unacknowledged; Minshall's variant when no
//! *short* segment is unacknowledged.

/// Sender state a short-segment decision needs.
#[derive(Clone, Copy, Debug)]
pub struct ShortSegment {
    /// Bytes that could go now (already cut by the windows).
    pub len: u64,
    /// Bytes queued and unsent.
    pub queued: u64,
    pub mss: u64,
    /// Largest window the peer has offered (RFC 1122 "max(SND.WND)").
    pub max_sndwnd: u64,
    /// Some data is sent and unacknowledged.
    pub unacked: bool,
    /// A segment shorter than the MSS is sent and unacknowledged (Minshall).
    pub short_unacked: bool,
}

#[derive(Clone, Copy, Debug)]
pub struct Nagle {
    pub enabled: bool,
    pub minshall: bool,
}

impl Nagle {
    /// Whether the segment of `s.len` bytes may be sent now.
    pub fn may_send(&self, s: &ShortSegment) -> bool {
        if s.len >= s.mss {
            return true;
        }
        let nagle_ok = !self.enabled || if self.minshall { !s.short_unacked } else { !s.unacked };
        nagle_ok && (s.len == s.queued || 2 * s.len >= s.max_sndwnd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(len: u64, queued: u64, unacked: bool, short_unacked: bool) -> ShortSegment {
        ShortSegment { len, queued, mss: 1000, max_sndwnd: 20_000, unacked, short_unacked }
    }

    /// RFC 896: with data in flight a short segment waits; alone it goes.
    #[test]
    fn nagle_holds_short_segments_while_data_is_unacked() {
        let n = Nagle { enabled: true, minshall: false };
        assert!(n.may_send(&seg(1000, 5000, true, false)));
        assert!(!n.may_send(&seg(100, 100, true, false)));
        assert!(n.may_send(&seg(100, 100, false, false)));
        let off = Nagle { enabled: false, minshall: false };
        assert!(off.may_send(&seg(100, 100, true, false)));
    }

    /// Minshall: a short tail behind full segments goes at once; a second short one waits.
    #[test]
    fn minshall_holds_only_behind_a_short_segment() {
        let m = Nagle { enabled: true, minshall: true };
        assert!(m.may_send(&seg(100, 100, true, false)));
        assert!(!m.may_send(&seg(100, 100, true, true)));
    }

    /// RFC 1122 §4.2.3.4 sender SWS: a short segment that is only part of the queued data goes
    /// only if it is at least half the largest offered window.
    #[test]
    fn sender_sws_avoidance() {
        let n = Nagle { enabled: false, minshall: false };
        let mut s = seg(500, 5000, false, false);
        s.max_sndwnd = 1000;
        assert!(n.may_send(&s));
        s.max_sndwnd = 1000 * 20;
        assert!(!n.may_send(&s));
    }
}
