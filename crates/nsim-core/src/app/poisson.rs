//! Poisson arrivals: exponentially distributed gaps with mean `interval` (or the `rate`
//! divided by the mean packet size).

use rand_distr::{Distribution, Exp};

use super::size::SizeDist;
use super::{Emission, Generator};
use crate::rng::SimRng;
use crate::time::Dur;

pub struct Poisson {
    pub exp: Exp<f64>,
    pub size: SizeDist,
}

impl Poisson {
    pub fn new(mean_interval: Dur, size: SizeDist) -> Self {
        Poisson {
            exp: Exp::new(1.0 / mean_interval.as_secs_f64()).expect("positive interval"),
            size,
        }
    }
}

impl Generator for Poisson {
    fn next(&mut self, rng: &mut SimRng) -> Emission {
        Emission { size: self.size.draw(rng), gap: Dur::from_secs_f64(self.exp.sample(rng)) }
    }
}
