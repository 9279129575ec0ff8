//! ns-2.35's order of same-instant events (`run.tie_order = "ns2"`).
//!
//! Source: ns-2.35 common/scheduler.cc. ns-2's clock is a double: `Scheduler::schedule` sets
//! an event's time to `clock_ + delay` and its `uid_` to a counter, and the calendar runs
//! equal times first in, first out, that is by uid. Events that are simultaneous in exact
//! arithmetic reach the scheduler along different sums of doubles (a packet's arrival is
//! `start + (txt + delay)`, a transmission end `start + txt`), so they differ in the last bits
//! and ns-2 breaks such ties by rounding, both ways within one run
//! (reference/ns2/dropsplit/README.md, Findings 1-2).
//!
//! nsim keeps its integer picosecond clock for every decision; this module orders the events
//! of one picosecond as ns-2 would. Each event carries, beside its integer time, the double
//! ns-2 would have given it and a uid taken when ns-2 would have scheduled it. Both fit in the
//! low 64 bits of the scheduler's key (the high 64 bits stay the picosecond):
//!
//! * bits 40-63: the double's distance in units in the last place (ULPs) from the double
//!   nearest the event's picosecond, offset by 2^23 so that the bits sort as the doubles do
//!   (positive doubles sort as their bit patterns); clamped at ±(2^23 - 1);
//! * bits 0-39: the uid (1.1e12 events).
//!
//! Keys then compare as (picosecond, double, uid), which is ns-2's (double, uid) when each
//! event's picosecond is its double rounded ([`picoseconds`]; rounding keeps the order): the
//! links give their events those times in this order (net/ns2_link_order.rs), since with a
//! rate that does not divide into whole picoseconds (1040 B at 45 Mb/s: 184,888.9 ns) nsim's
//! own sums drift from ns-2's by picoseconds. Within half a picosecond of the double the
//! distance fits 24 bits from 0.24 ms on (an ULP there is 2^-64 s); earlier ties fall back to
//! the uid. The clock's double is recovered from a popped key, so the calendar carries
//! nothing more. With the default `"fifo"` order none of this runs.

use crate::time::{SimTime, PS_PER_SEC};

/// Bits of the uid in the low half of a key.
const UID_BITS: u32 = 40;
const UID_MASK: u64 = (1 << UID_BITS) - 1;
/// Largest ULP distance kept exactly (beyond it the order falls back to the uid).
const MAX_ULPS: i64 = (1 << 23) - 1;
/// Offset that makes the distance non-negative.
const ULPS_ZERO: i64 = 1 << 23;

/// How same-instant events are ordered (`run.tie_order`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TieOrder {
    /// In the order nsim schedules them (its lazily scheduled link events included).
    #[default]
    Fifo,
    /// As ns-2.35 would: by its double-precision time, then by its scheduling order.
    Ns2,
}

/// A duration or instant of picoseconds in seconds as ns-2 holds it: the double nearest the
/// exact value (ns-2 parses "100ms" as 100 * 1e-3, which is that double for millisecond
/// values; microsecond ones may differ by an ULP).
#[inline]
pub fn seconds(ps: u64) -> f64 {
    ps as f64 / PS_PER_SEC as f64
}

/// The picosecond nearest ns-2's time `s` (seconds): the integer time of an event nsim places
/// by ns-2's sums. Monotonic, so ordering by it first keeps ns-2's order.
#[inline]
pub fn picoseconds(s: f64) -> SimTime {
    SimTime((s * PS_PER_SEC as f64).round() as u64)
}

/// The low half of the key of an event at `at` to which ns-2 gives time `ns2_time` and `uid`.
#[inline]
pub fn tie_key(at: SimTime, ns2_time: f64, uid: u64) -> u64 {
    let ulps =
        (ns2_time.to_bits() as i64 - seconds(at.0).to_bits() as i64).clamp(-MAX_ULPS, MAX_ULPS);
    (((ulps + ULPS_ZERO) as u64) << UID_BITS) | (uid & UID_MASK)
}

/// ns-2's time of the event at `at` with key half `key` (exact unless the distance was clamped).
#[inline]
pub fn ns2_time(at: SimTime, key: u64) -> f64 {
    let ulps = (key >> UID_BITS) as i64 - ULPS_ZERO;
    f64::from_bits((seconds(at.0).to_bits() as i64 + ulps) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sort_by_double_then_uid() {
        // One instant, 0.6204 s, along two of ns-2's sums (an arrival, start + (txt + delay);
        // a later event, (start + txt) + delay), which differ in the last bit.
        let at = SimTime(620_400_000_000);
        let a: f64 = 0.5 + (0.0104 + 0.11);
        let b: f64 = (0.5 + 0.0104) + 0.11;
        assert_ne!(a, b, "the example needs two different roundings");
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        assert!(
            tie_key(at, lo, 9) < tie_key(at, hi, 1),
            "the smaller double first, whatever the uid"
        );
        assert!(tie_key(at, lo, 1) < tie_key(at, lo, 2), "equal doubles by uid");
        assert_eq!(ns2_time(at, tie_key(at, a, 5)), a);
        assert_eq!(ns2_time(at, tie_key(at, b, 5)), b);
    }

    #[test]
    fn seconds_are_ns2s_doubles() {
        // Values printed by ns-2.35 for links of these delays (`[$link set delay_]`, %.17g).
        assert_eq!(seconds(100_000_000_000), 0.1);
        assert_eq!(seconds(35_000_000_000), 0.035);
        assert_eq!(seconds(1_500_000_000), 0.0015);
    }

    #[test]
    fn a_far_double_is_clamped_not_wrapped() {
        let at = SimTime(PS_PER_SEC);
        assert!(tie_key(at, 0.5, 1) < tie_key(at, 1.0, 1));
        assert!(tie_key(at, 1.0, 1) < tie_key(at, 2.0, 1));
    }
}
