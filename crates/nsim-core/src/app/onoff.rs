//! On/off source with exponential or Pareto periods (ns-2 `Application/Traffic/Exponential`
//! app/expoo.cc and `Application/Traffic/Pareto` app/pareto.cc).
//!
//! As in ns-2: at the start of each burst the burst length in packets is drawn as
//! round(on_time · rate / (8 · size)) with on_time from the on distribution (at least one
//! packet); packets in a burst are sent at the peak rate; after the burst the source is idle
//! for a drawn off time. Pareto periods use `shape` (ns-2 default 1.5) with the scale chosen
//! so the mean equals the configured mean: scale = mean·(shape-1)/shape.

use rand_distr::{Distribution, Exp, Pareto, Uniform};

use super::size::SizeDist;
use super::{Emission, Generator};
use crate::rng::SimRng;
use crate::time::Dur;

/// An exponential, Pareto or uniform distribution given by its mean (period lengths in
/// seconds here; transfer sizes and think times of [`super::repeat`], keystroke gaps and web
/// think times too).
#[derive(Clone, Copy, Debug)]
pub enum Period {
    Exponential(Exp<f64>),
    Pareto(Pareto<f64>),
    /// Uniform on [0, 2·mean] (Noureddine 2002's web think time U(0, 5 s), mean 2.5 s).
    Uniform(Uniform<f64>),
}

impl Period {
    pub fn exponential(mean_s: f64) -> Self {
        Period::Exponential(Exp::new(1.0 / mean_s).expect("positive mean"))
    }
    pub fn pareto(mean_s: f64, shape: f64) -> Self {
        Period::Pareto(Pareto::new(mean_s * (shape - 1.0) / shape, shape).expect("valid pareto"))
    }
    pub fn uniform(mean_s: f64) -> Self {
        Period::Uniform(Uniform::new(0.0, 2.0 * mean_s).expect("positive mean"))
    }
    pub fn draw(&self, rng: &mut SimRng) -> f64 {
        match self {
            Period::Exponential(d) => d.sample(rng),
            Period::Pareto(d) => d.sample(rng),
            Period::Uniform(d) => d.sample(rng),
        }
    }
}

pub struct OnOff {
    /// Gap between packets inside a burst (size / peak rate).
    pub interval: Dur,
    pub size: SizeDist,
    pub on: Period,
    pub off: Period,
    /// Packets left in the current burst.
    left: u64,
}

impl OnOff {
    pub fn new(interval: Dur, size: SizeDist, on: Period, off: Period) -> Self {
        OnOff { interval, size, on, off, left: 0 }
    }
}

impl Generator for OnOff {
    fn next(&mut self, rng: &mut SimRng) -> Emission {
        if self.left == 0 {
            let pkts = (self.on.draw(rng) / self.interval.as_secs_f64()).round() as u64;
            self.left = pkts.max(1);
        }
        self.left -= 1;
        let mut gap = self.interval;
        if self.left == 0 {
            gap = gap + Dur::from_secs_f64(self.off.draw(rng));
        }
        Emission { size: self.size.draw(rng), gap }
    }
}

#[cfg(test)]
mod tests;
