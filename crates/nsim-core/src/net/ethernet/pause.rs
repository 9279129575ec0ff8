//! PAUSE frames and what a transmitter does with the ones it receives (IEEE 802.3 Annex 31B).
//!
//! Annex 31B.3.4: a received PAUSE loads the pause timer with `pause_time`; while it runs, the
//! MAC sends no data frame (the frame in transmission completes: there is no pre-emption); a
//! new PAUSE overrides the timer and `pause_time = 0` cancels it. MAC Control frames are
//! consumed by the MAC and never forwarded. The scope extends the standard the way Noureddine 2002
//! Noureddine 2002 (§3.4 and §3.5.4) proposes: a PAUSE may name classes of service (a
//! priority mask, as 802.1Qbb later standardised) and a destination MAC address; then only
//! frames of those classes (to that destination) stop.

use crate::ids::{LinkId, NodeId};
use crate::time::{Dur, SimTime};

/// Number of 802.1p priorities (classes of service).
pub const COS: usize = 8;
/// A priority mask naming every class.
pub const ALL_COS: u8 = 0xFF;

/// How long a PAUSE stops its scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseTime {
    /// Timed: `pause_time` in quanta of 512 bit times; 0 cancels (Annex 31B).
    Quanta(u16),
    /// Explicit stop until a resume (the XOFF of Noureddine 2002's simulations, §3.4 (iii)(b)).
    Xoff,
}

/// What a PAUSE frame stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scope {
    /// Only frames to this destination (Noureddine 2002's destination-address scheme), or all.
    pub dst: Option<NodeId>,
    /// Classes of service stopped (bit p = priority p).
    pub cos: u8,
}

/// A PAUSE frame in flight on a link direction, for the transmitter of link `target` (the
/// opposite direction) at the far end.
#[derive(Clone, Copy, Debug)]
pub struct PauseFrame {
    pub target: LinkId,
    pub scope: Scope,
    pub time: PauseTime,
}

/// The 802.1p class of a packet: its `prio`, clamped to 7.
#[inline]
pub fn cos_of(prio: u8) -> usize {
    (prio as usize).min(COS - 1)
}

/// The pause timers of one transmitter, per class and per (destination, class), and the time
/// during which any of them ran.
#[derive(Clone, Debug, Default)]
pub struct PauseTimers {
    /// Until when each class is stopped for every destination.
    all: [SimTime; COS],
    /// Until when each class is stopped per destination node (empty until a destination PAUSE).
    by_dst: Vec<[SimTime; COS]>,
    /// The latest of all timers in `by_dst` (skips the per-destination check when past).
    dst_latest: SimTime,
    /// Start of the current paused stretch and its end as the timers stand.
    since: SimTime,
    until: SimTime,
    /// Closed paused stretches, in picoseconds.
    paused_ps: u64,
}

impl PauseTimers {
    /// Applies a PAUSE received at `now`; `quantum` is 512 bit times on this link.
    pub fn apply(
        &mut self,
        scope: Scope,
        time: PauseTime,
        now: SimTime,
        quantum: Dur,
        n_nodes: usize,
    ) {
        self.close_stretch(now);
        let until = match time {
            PauseTime::Xoff => SimTime::MAX,
            PauseTime::Quanta(q) => now + Dur(quantum.0 * q as u64),
        };
        let timers = match scope.dst {
            None => &mut self.all,
            Some(d) => {
                if self.by_dst.is_empty() {
                    self.by_dst = vec![[SimTime::ZERO; COS]; n_nodes];
                }
                &mut self.by_dst[d.idx()]
            }
        };
        for (c, t) in timers.iter_mut().enumerate() {
            if scope.cos & (1 << c) != 0 {
                *t = until;
            }
        }
        self.dst_latest = self.by_dst.iter().flatten().copied().max().unwrap_or(SimTime::ZERO);
        self.until = self.all.iter().copied().max().unwrap_or(SimTime::ZERO).max(self.dst_latest);
    }

    /// Ends the paused stretch as of `now` (it restarts at `now` if timers still run).
    fn close_stretch(&mut self, now: SimTime) {
        let end = self.until.min(now);
        if end > self.since {
            self.paused_ps += end.0 - self.since.0;
        }
        self.since = now;
    }

    /// Whether a frame of class `cos` to `dst` may not start at `now`.
    #[inline]
    pub fn blocks(&self, cos: usize, dst: NodeId, now: SimTime) -> bool {
        self.all[cos] > now || (self.dst_latest > now && self.by_dst[dst.idx()][cos] > now)
    }

    /// Whether any timer runs at `now`.
    #[inline]
    pub fn any(&self, now: SimTime) -> bool {
        self.until > now
    }

    /// Whether every class is stopped for every destination at `now` (nothing may start).
    pub fn blocks_all(&self, now: SimTime) -> bool {
        self.all.iter().all(|&t| t > now)
    }

    /// The earliest timed expiry after `now` (an idle transmitter retries then), if any.
    pub fn next_expiry(&self, now: SimTime) -> Option<SimTime> {
        self.all
            .iter()
            .chain(self.by_dst.iter().flatten())
            .copied()
            .filter(|&t| t > now && t != SimTime::MAX)
            .min()
    }

    /// Total time during which some timer ran, over [0, end].
    pub fn paused_time(&self, end: SimTime) -> Dur {
        let open = self.until.min(end).0.saturating_sub(self.since.0);
        Dur(self.paused_ps + open)
    }
}
