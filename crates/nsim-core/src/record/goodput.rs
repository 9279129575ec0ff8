//! Application goodput over time windows (`record.windows`).
//!
//! Goodput is what the receiving application got: in-order payload bytes for TCP (headers,
//! duplicates and out-of-order data excluded until the gap fills), every delivered datagram
//! for UDP. Every flow already counts it (`FlowStats::goodput_bytes`); a window only needs that
//! count at its two ends, so the run takes one snapshot of all flows' counts at each distinct
//! window end (one event per instant, nothing per packet) and reports the differences. This is
//! Holl 2003's "bytes delivered to the receiving application during [63.6, 123.6] s ÷ 60 s"
//! Holl 2003 (§5), measured in one run.
//!
//! A snapshot is taken when its event is popped: deliveries at the very same picosecond that
//! were scheduled before the snapshot count in it (scheduling order, as for series samples).

use serde::Serialize;

use super::FlowStats;
use crate::time::SimTime;

/// Goodput of every flow over one window, in flow order. `None` when the run stopped before
/// the window closed (interrupted).
#[derive(Serialize, Debug, Clone)]
pub struct GoodputWindow {
    pub t0_s: f64,
    pub t1_s: f64,
    pub goodput_bytes: Vec<Option<u64>>,
    pub goodput_bps: Vec<Option<f64>>,
}

/// Windows to measure and the snapshots taken so far.
pub struct GoodputWindows {
    windows: Vec<(SimTime, SimTime)>,
    /// Distinct window ends, ascending; snapshot k is taken at `instants[k]`.
    instants: Vec<SimTime>,
    /// Per instant: every flow's `goodput_bytes` then (empty until taken).
    snaps: Vec<Vec<u64>>,
}

impl GoodputWindows {
    /// `windows` must have t0 < t1 (checked by the config builder).
    pub fn new(windows: Vec<(SimTime, SimTime)>) -> Self {
        let mut instants: Vec<SimTime> = windows.iter().flat_map(|&(a, b)| [a, b]).collect();
        instants.sort_unstable();
        instants.dedup();
        let snaps = vec![Vec::new(); instants.len()];
        GoodputWindows { windows, instants, snaps }
    }

    /// The instants at which `snapshot` must be called, ascending.
    pub fn instants(&self) -> &[SimTime] {
        &self.instants
    }

    /// Records every flow's goodput count at instant `k`.
    pub fn snapshot(&mut self, k: usize, flows: &[FlowStats]) {
        self.snaps[k] = flows.iter().map(|f| f.goodput_bytes).collect();
    }

    fn at(&self, t: SimTime, flow: usize) -> Option<u64> {
        let k = self.instants.binary_search(&t).expect("every window end is an instant");
        // Nothing is delivered before time zero: a window may start there without a snapshot.
        if t == SimTime::ZERO && self.snaps[k].is_empty() {
            return Some(0);
        }
        self.snaps[k].get(flow).copied()
    }

    /// Per-window results for `n_flows` flows.
    pub fn results(&self, n_flows: usize) -> Vec<GoodputWindow> {
        self.windows
            .iter()
            .map(|&(a, b)| {
                let span = b.since(a).as_secs_f64();
                let bytes: Vec<Option<u64>> =
                    (0..n_flows).map(|i| Some(self.at(b, i)? - self.at(a, i)?)).collect();
                GoodputWindow {
                    t0_s: a.as_secs_f64(),
                    t1_s: b.as_secs_f64(),
                    goodput_bps: bytes.iter().map(|x| x.map(|v| v as f64 * 8.0 / span)).collect(),
                    goodput_bytes: bytes,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Dur;

    fn stats(counts: &[u64]) -> Vec<FlowStats> {
        counts.iter().map(|&c| FlowStats { goodput_bytes: c, ..Default::default() }).collect()
    }

    #[test]
    fn shared_ends_are_snapshotted_once_and_differences_are_per_window() {
        let s = |x: u64| SimTime::ZERO + Dur::from_secs(x);
        let mut w = GoodputWindows::new(vec![(s(10), s(20)), (s(0), s(10)), (s(10), s(30))]);
        assert_eq!(w.instants(), &[s(0), s(10), s(20), s(30)]);
        w.snapshot(1, &stats(&[1000, 50]));
        w.snapshot(2, &stats(&[3500, 50]));
        let r = w.results(2);
        assert_eq!(r[0].goodput_bytes, vec![Some(2500), Some(0)]);
        assert_eq!(r[0].goodput_bps[0], Some(2000.0)); // 2500 B * 8 / 10 s
                                                       // Starts at zero: no snapshot needed there.
        assert_eq!(r[1].goodput_bytes, vec![Some(1000), Some(50)]);
        // The run stopped before 30 s: unknown, not zero.
        assert_eq!(r[2].goodput_bytes, vec![None, None]);
    }
}
