//! Synthetic stand-ins for the MPEG-2 sequences of Noureddine 2002 (Tables 5.2 and
//! 5.3), whose traces are not published: each sequence has the table's length and per-layer
//! mean bit rates (Data Partitioning into base, middle and enhancement layers).
//!
//! Frame sizes are VBR: frame i of a play has `X_i · m_l` bytes in layer l, where m_l =
//! rate_l / (8 · frame_rate) is the layer's mean frame size and X_i an independent lognormal
//! factor with mean 1 and coefficient of variation `cv` (default 0.5), rounded to whole bytes.
//! Why lognormal: frame sizes of VBR MPEG video are well described by lognormal marginals
//! (Krunz & Tripathi, "On the characterization of VBR MPEG streams", SIGMETRICS 1997); one
//! factor for all layers keeps a frame's layers in the table's proportions. What this leaves
//! out: the GOP pattern (I/P/B sizes) and scene-level correlation; `cv` is an assumption (the
//! seed gives no frame statistics), so only the mean rates are validated, against the tables.
//! With `layered = false` all of a frame's bytes are one layer at Table 5.2's total rate.

use rand_distr::{Distribution, LogNormal};

use crate::rng::SimRng;
use crate::time::Dur;

/// The four sequences of Tables 5.2 / 5.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SequenceName {
    Barca,
    Flower,
    Baseball,
    Basket,
}

impl SequenceName {
    /// Length in seconds, total rate in bit/s (Table 5.2) and base, middle, enhancement
    /// rates in bit/s (Table 5.3). The layers add up to the total except for basket, whose
    /// layers add up to 7.3 Mbps against a total of 7.2 Mbps in both tables (as printed).
    pub fn table(self) -> (f64, f64, [f64; 3]) {
        match self {
            SequenceName::Barca => (4.0, 6.15e6, [2.3e6, 1.45e6, 2.4e6]),
            SequenceName::Flower => (5.0, 5.95e6, [2.5e6, 1.35e6, 2.1e6]),
            SequenceName::Baseball => (14.84, 3.9e6, [2.25e6, 0.55e6, 1.1e6]),
            SequenceName::Basket => (8.8, 7.2e6, [2.8e6, 1.4e6, 3.1e6]),
        }
    }
}

/// A synthetic sequence: `frames` frames `interval` apart, each drawn afresh on every play.
#[derive(Clone, Debug)]
pub struct Synthetic {
    pub frames: usize,
    pub interval: Dur,
    /// Mean bytes per frame in each layer.
    pub mean: [f64; 3],
    factor: LogNormal<f64>,
}

impl Synthetic {
    /// `name` at `frame_rate` frames/s: round(length · frame_rate) frames. `cv` > 0.
    pub fn new(name: SequenceName, frame_rate: f64, cv: f64, layered: bool) -> Synthetic {
        let (length, total, rates) = name.table();
        let per_frame = |r: f64| r / 8.0 / frame_rate;
        let mean = if layered { rates.map(per_frame) } else { [per_frame(total), 0.0, 0.0] };
        // Lognormal with mean 1: sigma² = ln(1 + cv²), mu = -sigma²/2.
        let s2 = (1.0 + cv * cv).ln();
        Synthetic {
            frames: ((length * frame_rate).round() as usize).max(1),
            interval: Dur::from_secs_f64(1.0 / frame_rate),
            mean,
            factor: LogNormal::new(-s2 / 2.0, s2.sqrt()).expect("valid lognormal"),
        }
    }

    /// The bytes per layer of one frame (at least one byte in total).
    pub fn draw(&self, rng: &mut SimRng) -> [u32; 3] {
        let x = self.factor.sample(rng);
        let mut l = self.mean.map(|m| (x * m).round() as u32);
        l[0] = l[0].max(1);
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_add_up_to_the_printed_totals_except_basket() {
        // Table 5.3 as printed: basket's layers 2.8 + 1.4 + 3.1 = 7.3 Mbps, its total 7.2.
        for name in [
            SequenceName::Barca,
            SequenceName::Flower,
            SequenceName::Baseball,
            SequenceName::Basket,
        ] {
            let (_, total, layers) = name.table();
            let off = if name == SequenceName::Basket { 0.1e6 } else { 0.0 };
            assert!((layers.iter().sum::<f64>() - total - off).abs() < 1.0, "{name:?}");
        }
    }

    #[test]
    fn frame_count_is_length_times_rate() {
        assert_eq!(Synthetic::new(SequenceName::Baseball, 30.0, 0.5, true).frames, 445);
        assert_eq!(Synthetic::new(SequenceName::Barca, 25.0, 0.5, false).mean[1], 0.0);
    }
}
