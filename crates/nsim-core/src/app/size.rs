//! Packet size distributions: fixed, uniform, exponential (rounded to whole bytes, at least 1).

use rand::RngExt;
use rand_distr::{Distribution, Exp};

use crate::rng::SimRng;

#[derive(Clone, Copy, Debug)]
pub enum SizeDist {
    Fixed(u32),
    /// Uniform over [min, max] bytes, inclusive.
    Uniform {
        min: u32,
        max: u32,
    },
    /// Exponential with mean `mean`, clamped to [min, max].
    Exponential {
        mean: f64,
        min: u32,
        max: u32,
    },
}

impl SizeDist {
    pub fn draw(&self, rng: &mut SimRng) -> u32 {
        match *self {
            SizeDist::Fixed(s) => s,
            SizeDist::Uniform { min, max } => rng.random_range(min..=max),
            SizeDist::Exponential { mean, min, max } => {
                let x = Exp::new(1.0 / mean).expect("positive mean").sample(rng);
                (x.round() as u64).clamp(min as u64, max as u64) as u32
            }
        }
    }

    /// Mean size in bytes (for rate-to-interval conversions).
    pub fn mean(&self) -> f64 {
        match *self {
            SizeDist::Fixed(s) => s as f64,
            SizeDist::Uniform { min, max } => (min as f64 + max as f64) / 2.0,
            SizeDist::Exponential { mean, .. } => mean,
        }
    }
}
