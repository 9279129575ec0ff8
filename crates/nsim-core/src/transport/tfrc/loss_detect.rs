//! Loss detection at the TFRC receiver (RFC 5348 §5.1-5.2): a packet is lost once `ndupack`
//! packets with higher sequence numbers have arrived (NDUPACK = 3, so up to two packets of
//! reordering are tolerated); its send time is interpolated between the received packets
//! around it, so the receiver can tell whether it starts a new loss event.
//!
//! Sequence numbers from the oldest undecided one up to the highest received sit in a ring
//! that grows only to its high-water mark (no allocation per packet in steady state).

use std::collections::VecDeque;

use crate::time::SimTime;

pub struct LossDetector {
    ndupack: u32,
    /// Lowest sequence number not yet classified as received or lost.
    base: u64,
    /// Slot i is sequence `base + i`: its send time if received.
    ring: VecDeque<Option<SimTime>>,
    /// Received packets in the ring.
    received: u32,
    /// The last classified received packet: (seq, send time), for interpolation.
    before: Option<(u64, SimTime)>,
    max_seq: Option<u64>,
}

impl LossDetector {
    pub fn new(ndupack: u32) -> Self {
        LossDetector {
            ndupack,
            base: 0,
            ring: VecDeque::with_capacity(64),
            received: 0,
            before: None,
            max_seq: None,
        }
    }

    /// Highest sequence number received so far.
    pub fn max_seq(&self) -> Option<u64> {
        self.max_seq
    }

    /// Records packet `seq` sent at `ts`; appends every packet now known to be lost, as
    /// (seq, interpolated send time), in sequence order. Late packets (already declared
    /// lost) and duplicates are ignored.
    pub fn on_packet(&mut self, seq: u64, ts: SimTime, lost: &mut Vec<(u64, SimTime)>) {
        if seq < self.base {
            return;
        }
        self.max_seq = Some(self.max_seq.map_or(seq, |m| m.max(seq)));
        let i = (seq - self.base) as usize;
        if i >= self.ring.len() {
            self.ring.resize(i + 1, None);
        }
        if self.ring[i].is_none() {
            self.ring[i] = Some(ts);
            self.received += 1;
        }
        while let Some(&front) = self.ring.front() {
            match front {
                Some(t) => {
                    self.before = Some((self.base, t));
                    self.received -= 1;
                }
                None if self.received >= self.ndupack => lost.push((self.base, self.interpolate())),
                None => break,
            }
            self.ring.pop_front();
            self.base += 1;
        }
    }

    /// Send time of the missing packet at `base`, interpolated between the packets received
    /// before and after it (RFC 5348 §5.2).
    fn interpolate(&self) -> SimTime {
        let (j, t_after) = self
            .ring
            .iter()
            .enumerate()
            .find_map(|(j, s)| s.map(|t| (j, t)))
            .expect("a later packet was received");
        let s_after = self.base + j as u64;
        match self.before {
            Some((s_before, t_before)) if t_after >= t_before => {
                let frac = (self.base - s_before) as f64 / (s_after - s_before) as f64;
                SimTime(t_before.0 + ((t_after.0 - t_before.0) as f64 * frac) as u64)
            }
            _ => t_after,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(d: &mut LossDetector, seqs: &[u64]) -> Vec<(u64, SimTime)> {
        let mut lost = Vec::new();
        for &s in seqs {
            d.on_packet(s, SimTime(s * 10), &mut lost);
        }
        lost
    }

    #[test]
    fn a_gap_is_a_loss_only_after_three_later_packets() {
        let mut d = LossDetector::new(3);
        assert!(feed(&mut d, &[0, 1, 3, 4]).is_empty());
        assert_eq!(feed(&mut d, &[5]), vec![(2, SimTime(20))]);
    }

    #[test]
    fn reordering_within_the_threshold_is_not_a_loss() {
        let mut d = LossDetector::new(3);
        assert!(feed(&mut d, &[0, 2, 3, 1, 4, 5, 6]).is_empty());
    }

    #[test]
    fn the_send_time_of_a_loss_is_interpolated() {
        let mut d = LossDetector::new(1);
        let mut lost = Vec::new();
        d.on_packet(0, SimTime(0), &mut lost);
        d.on_packet(3, SimTime(300), &mut lost);
        assert_eq!(lost, vec![(1, SimTime(100)), (2, SimTime(200))]);
    }

    #[test]
    fn late_and_duplicate_packets_are_ignored() {
        let mut d = LossDetector::new(1);
        let lost = feed(&mut d, &[0, 2, 1, 2, 3]);
        assert_eq!(lost, vec![(1, SimTime(10))]);
        assert_eq!(d.max_seq(), Some(3));
    }
}
