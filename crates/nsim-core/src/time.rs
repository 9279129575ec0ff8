//! Simulated time: an integer number of picoseconds.
//!
//! DESIGN.md "Engine decisions": no floating-point time, so every run is exact and identical on
//! every machine. `u64` picoseconds cover 213 days of simulated time.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// Picoseconds per second.
pub const PS_PER_SEC: u64 = 1_000_000_000_000;

/// An instant of simulated time, in picoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// A span of simulated time, in picoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dur(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);
    pub const MAX: SimTime = SimTime(u64::MAX);

    /// Seconds as a float, for reporting only (never for scheduling).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_SEC as f64
    }

    /// Time elapsed since `earlier` (zero if `earlier` is later).
    pub fn since(self, earlier: SimTime) -> Dur {
        Dur(self.0.saturating_sub(earlier.0))
    }
}

impl Dur {
    pub const ZERO: Dur = Dur(0);

    pub const fn from_ps(ps: u64) -> Dur {
        Dur(ps)
    }
    pub const fn from_nanos(ns: u64) -> Dur {
        Dur(ns * 1_000)
    }
    pub const fn from_micros(us: u64) -> Dur {
        Dur(us * 1_000_000)
    }
    pub const fn from_millis(ms: u64) -> Dur {
        Dur(ms * 1_000_000_000)
    }
    pub const fn from_secs(s: u64) -> Dur {
        Dur(s * PS_PER_SEC)
    }

    /// Nearest picosecond to `s` seconds; negative and NaN inputs give zero.
    pub fn from_secs_f64(s: f64) -> Dur {
        if s.is_finite() && s > 0.0 {
            Dur((s * PS_PER_SEC as f64).round() as u64)
        } else {
            Dur(0)
        }
    }

    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_SEC as f64
    }

    pub fn mul_f64(self, k: f64) -> Dur {
        Dur::from_secs_f64(self.as_secs_f64() * k)
    }
}

impl Add<Dur> for SimTime {
    type Output = SimTime;
    fn add(self, d: Dur) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}
impl AddAssign<Dur> for SimTime {
    fn add_assign(&mut self, d: Dur) {
        self.0 = self.0.saturating_add(d.0);
    }
}
impl Sub<SimTime> for SimTime {
    type Output = Dur;
    fn sub(self, o: SimTime) -> Dur {
        Dur(self.0 - o.0)
    }
}
impl Add for Dur {
    type Output = Dur;
    fn add(self, d: Dur) -> Dur {
        Dur(self.0.saturating_add(d.0))
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}s", fmt_secs(self.0))
    }
}
impl fmt::Display for Dur {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}s", fmt_secs(self.0))
    }
}

/// Exact decimal seconds, trailing zeros trimmed ("1.5", "0.000000000001").
pub fn fmt_secs(ps: u64) -> String {
    let whole = ps / PS_PER_SEC;
    let frac = ps % PS_PER_SEC;
    if frac == 0 {
        return whole.to_string();
    }
    let s = format!("{whole}.{frac:012}");
    s.trim_end_matches('0').to_string()
}
