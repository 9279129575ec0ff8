//! Constant bit rate (ns-2 `Application/Traffic/CBR`, app/cbr_traffic.cc).
//!
//! Parameters: `interval` (or `rate`, converted with the mean packet size), packet size, and
//! `jitter` in [0, 1]: each gap is interval·(1 + jitter·U(-0.5, 0.5)). `jitter = 1` is ns-2's
//! `random_ 1`; the default 0 is ns-2's default `random_ 0`.

use rand::RngExt;

use super::size::SizeDist;
use super::{Emission, Generator};
use crate::rng::SimRng;
use crate::time::Dur;

pub struct Cbr {
    pub interval: Dur,
    pub size: SizeDist,
    pub jitter: f64,
}

impl Generator for Cbr {
    fn next(&mut self, rng: &mut SimRng) -> Emission {
        let gap = if self.jitter > 0.0 {
            let u: f64 = rng.random_range(-0.5..0.5);
            self.interval.mul_f64(1.0 + self.jitter * u)
        } else {
            self.interval
        };
        Emission { size: self.size.draw(rng), gap }
    }
}
