//! Per link-direction (queue) counters, always on.

use super::{DropCounts, DropReason};
use crate::time::SimTime;

/// Counters for one link direction and its queue. Occupancy is time-averaged by integrating
/// the queue length between changes, so it is exact, not sampled.
///
/// Laid out (`repr(C)`) with the counters every packet updates first, so that within a
/// [`crate::net::Link`] they share its first cache lines; drop and mark counters come last.
#[derive(Default, Clone)]
#[repr(C)]
pub struct LinkStats {
    area_pkts: u128,
    area_bytes: u128,
    last_change: SimTime,
    cur_pkts: u64,
    cur_bytes: u64,
    pub max_pkts: u64,
    pub max_bytes: u64,
    pub arrivals: u64,
    pub arrival_bytes: u64,
    pub departures: u64,
    pub departure_bytes: u64,
    /// Picoseconds the transmitter spent sending.
    pub busy_ps: u64,
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
