//! Per link-direction (queue) counters, always on.

use super::{DropCounts, DropReason};
use crate::time::SimTime;

/// Counters for one link direction and its queue. Occupancy is time-averaged by integrating
/// the queue length between changes, so it is exact, not sampled.
///
/// Laid out (`repr(C)`) with the counters every packet updates first, in 64 bytes that fill
/// line 1 of a [`crate::net::Link`]: a packet passing an empty queue touches only those
/// ([`LinkStats::pass_through`]); the occupancy integral follows, drop and mark counters last.
#[derive(Default, Clone)]
#[repr(C)]
pub struct LinkStats {
    pub arrivals: u64,
    pub arrival_bytes: u64,
    pub departures: u64,
    pub departure_bytes: u64,
    /// Picoseconds the transmitter spent sending.
    pub busy_ps: u64,
    cur_pkts: u64,
    pub max_pkts: u64,
    pub max_bytes: u64,
    cur_bytes: u64,
    last_change: SimTime,
    area_pkts: u128,
    area_bytes: u128,
    pub ecn_marks: u64,
    pub dropped_bytes: u64,
    pub drops: DropCounts,
}

impl LinkStats {
    /// Records that the queue now holds `pkts` packets and `bytes` bytes.
    #[inline]
    pub fn occupancy(&mut self, now: SimTime, pkts: u64, bytes: u64) {
        // A lazily shown idle instant may precede the last change; it adds no area.
        let dt = now.0.saturating_sub(self.last_change.0) as u128;
        self.area_pkts += dt * self.cur_pkts as u128;
        self.area_bytes += dt * self.cur_bytes as u128;
        self.last_change = self.last_change.max(now);
        self.cur_pkts = pkts;
        self.cur_bytes = bytes;
        self.max_pkts = self.max_pkts.max(pkts);
        self.max_bytes = self.max_bytes.max(bytes);
    }

    /// One packet through an empty queue in no time (the cut-through of
    /// [`crate::queue::QueueDisc::cut_through_max`]): the same as recording one packet held and
    /// then none at one instant. That adds no area, and while nothing is held `last_change`
    /// only ever multiplies zero packets until the next change sets it again, so only the
    /// maxima can move, and the integral's cache line is left alone.
    #[inline]
    pub fn pass_through(&mut self, bytes: u64) {
        debug_assert_eq!((self.cur_pkts, self.cur_bytes), (0, 0));
        self.max_pkts = self.max_pkts.max(1);
        self.max_bytes = self.max_bytes.max(bytes);
    }

    /// Packets held as of the last recorded change (the queue's length after its last call).
    #[inline]
    pub fn held_pkts(&self) -> u64 {
        self.cur_pkts
    }

    #[inline]
    pub fn on_drop(&mut self, size: u32, reason: DropReason) {
        self.drops[reason.idx()] += 1;
        self.dropped_bytes += size as u64;
    }

    /// The integrals of the queue's length over time (packet·ps, byte·ps) up to its last
    /// change, and that instant: the state of ns-2's `Integrator` in a `QueueMonitor`
    /// (`sum_` up to `lastx_`), which ns-2 scripts read live (python/nsim/ns2/monitors.py).
    pub fn area(&self) -> (u128, u128, SimTime) {
        (self.area_pkts, self.area_bytes, self.last_change)
    }

    pub fn total_drops(&self) -> u64 {
        self.drops.iter().sum()
    }

    /// Time-averaged (packets, bytes) held over [0, end].
    pub fn mean_occupancy(&self, end: SimTime) -> (f64, f64) {
        if end.0 == 0 {
            return (0.0, 0.0);
        }
        let dt = end.0.saturating_sub(self.last_change.0) as u128;
        let ap = self.area_pkts + dt * self.cur_pkts as u128;
        let ab = self.area_bytes + dt * self.cur_bytes as u128;
        (ap as f64 / end.0 as f64, ab as f64 / end.0 as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a packet passing an empty queue updates stays in the first 64 bytes (see above).
    #[test]
    fn per_packet_counters_fill_the_first_64_bytes() {
        use std::mem::offset_of;
        let ends = [
            offset_of!(LinkStats, arrivals),
            offset_of!(LinkStats, arrival_bytes),
            offset_of!(LinkStats, departures),
            offset_of!(LinkStats, departure_bytes),
            offset_of!(LinkStats, busy_ps),
            offset_of!(LinkStats, cur_pkts),
            offset_of!(LinkStats, max_pkts),
            offset_of!(LinkStats, max_bytes),
        ]
        .map(|o| o + 8);
        assert!(ends.iter().all(|&e| e <= 64), "{ends:?}");
    }

    /// A pass-through leaves the same mean and maxima as holding one packet for no time.
    #[test]
    fn a_pass_through_is_an_instant_of_one_packet() {
        let (mut a, mut b) = (LinkStats::default(), LinkStats::default());
        for s in [&mut a, &mut b] {
            s.occupancy(SimTime(0), 2, 200);
            s.occupancy(SimTime(10), 0, 0);
        }
        a.occupancy(SimTime(20), 1, 1500);
        a.occupancy(SimTime(20), 0, 0);
        b.pass_through(1500);
        for s in [&mut a, &mut b] {
            s.occupancy(SimTime(5), 0, 0);
            s.occupancy(SimTime(30), 3, 300);
        }
        assert_eq!(a.mean_occupancy(SimTime(40)), b.mean_occupancy(SimTime(40)));
        assert_eq!((a.max_pkts, a.max_bytes), (b.max_pkts, b.max_bytes));
    }

    #[test]
    fn occupancy_is_time_weighted() {
        let mut s = LinkStats::default();
        s.occupancy(SimTime(0), 2, 200);
        s.occupancy(SimTime(10), 0, 0);
        let (p, b) = s.mean_occupancy(SimTime(40));
        assert!((p - 0.5).abs() < 1e-12);
        assert!((b - 50.0).abs() < 1e-12);
        assert_eq!(s.max_pkts, 2);
    }
}
