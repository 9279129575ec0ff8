//! The average loss interval (RFC 5348 §5.4) with history discounting (§5.5): the receiver's
//! estimate of the loss event rate p = 1 / I_mean.
//!
//! - I_0 is the open interval (packets since the start of the latest loss event), I_1..I_8
//!   the closed ones, most recent first. Weights w = (1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2)
//!   (RFC 5348 §5.4: w_i = 1 for i < n/2, else 1 - (i - (n/2 - 1))/(n/2 + 1), n = 8).
//! - I_mean = max(I_tot0 / W_tot0, I_tot1 / W_tot1): I_tot0 includes I_0, I_tot1 does not,
//!   so an open interval only ever raises the estimate (p falls smoothly without loss).
//! - History discounting (§5.5, ns-2 `discount_ 1`): once I_0 > 2·I_mean the older intervals
//!   are weighted down by DF = max(0.5, 2·I_mean / I_0) (ns-2 `minDiscountRatio_ 0.5`); when
//!   the next loss event closes I_0, every stored interval keeps the discount it had (DF_i
//!   multiplies by DF), so the history "remembers" how long the loss-free period was.
//!
//! With fewer than 8 closed intervals only those present are averaged (RFC 5348 §5.4).

/// Number of closed intervals kept (RFC 5348 §5.4, n = 8).
pub const N: usize = 8;
/// RFC 5348 §5.4 weights.
pub const WEIGHTS: [f64; N] = [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2];
/// Lower bound of the discount factor (RFC 5348 §5.5; ns-2 `minDiscountRatio_ 0.5`).
const MIN_DF: f64 = 0.5;

#[derive(Clone, Debug)]
pub struct LossIntervals {
    /// Closed intervals I_1..I_k, most recent first, in packets.
    closed: [f64; N],
    /// Their accumulated discount factors DF_i.
    df: [f64; N],
    k: usize,
    discounting: bool,
}

impl LossIntervals {
    pub fn new(discounting: bool) -> Self {
        LossIntervals { closed: [0.0; N], df: [1.0; N], k: 0, discounting }
    }

    /// Closed intervals recorded (at most 8).
    pub fn len(&self) -> usize {
        self.k
    }

    pub fn is_empty(&self) -> bool {
        self.k == 0
    }

    /// Mean of the closed intervals with their stored discounts (I_tot1 / W_tot1).
    fn closed_mean(&self) -> f64 {
        let (mut it, mut wt) = (0.0, 0.0);
        for ((i, w), df) in self.closed.iter().zip(WEIGHTS).zip(self.df).take(self.k) {
            it += i * w * df;
            wt += w * df;
        }
        it / wt
    }

    /// The current discount factor DF for open interval `i0` (1 without discounting).
    pub fn discount(&self, i0: f64) -> f64 {
        if !self.discounting || self.k == 0 {
            return 1.0;
        }
        let mean = self.closed_mean();
        if i0 > 2.0 * mean {
            (2.0 * mean / i0).max(MIN_DF)
        } else {
            1.0
        }
    }

    /// I_mean for open interval `i0` (packets); `None` before the first loss event.
    pub fn mean(&self, i0: f64) -> Option<f64> {
        if self.k == 0 {
            return None;
        }
        let d = self.discount(i0);
        // I_0 with weight w_0, then I_1..I_7 discounted by DF_i·DF.
        let (mut it0, mut wt0) = (i0 * WEIGHTS[0], WEIGHTS[0]);
        for i in 0..self.k.min(N - 1) {
            let w = WEIGHTS[i + 1] * self.df[i] * d;
            it0 += self.closed[i] * w;
            wt0 += w;
        }
        Some((it0 / wt0).max(self.closed_mean()))
    }

    /// Loss event rate p = 1 / I_mean (0 before the first loss event).
    pub fn loss_event_rate(&self, i0: f64) -> f64 {
        self.mean(i0).map_or(0.0, |m| 1.0 / m)
    }

    /// A new loss event closes open interval `i0`: it becomes I_1, the others shift and keep
    /// the discount in force when it closed.
    pub fn close(&mut self, i0: f64) {
        let d = self.discount(i0);
        for i in (1..N).rev() {
            self.closed[i] = self.closed[i - 1];
            self.df[i] = self.df[i - 1] * d;
        }
        self.closed[0] = i0;
        self.df[0] = 1.0;
        self.k = (self.k + 1).min(N);
    }
}
