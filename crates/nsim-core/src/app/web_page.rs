//! Web page composition: the size of a page's HTML index and of each embedded object.
//!
//! - `Fixed`: the same page every time. Noureddine 2002's probe page (notes/seed-002b.md
//!   §2.5) is a 1 KB index plus 8 in-lined images of 10 KB each.
//! - `Surge`: Barford and Crovella's SURGE models (SIGMETRICS 1998) as tabulated in
//!   Noureddine 2002 part A, Table 1.3 (notes/seed-002a.md §2.5): file sizes (the index and
//!   every object) have a lognormal body, ln-mean μ = 9.36 and σ = 1.32, and a Pareto tail,
//!   scale k = 133 KB (133 000 B) and shape α = 1.1; the number of embedded objects is Pareto
//!   with scale 1 and shape 2.43, floored to a whole number (so P(N ≥ n) = n^-2.43, N ≥ 1).
//!   [GAP] The seed gives no body/tail split; here a size is the lognormal draw when it is at
//!   most k, and a fresh Pareto draw otherwise (so the CDF is the lognormal's up to k, and
//!   above k the lognormal's tail mass spread as the Pareto: 3.2 % of files).
//!
//! - `Webtraf`: ns-2 `PagePool/WebTraf` (webcache/webtraf.cc) as the ns-2 web examples set
//!   it up (notes/seed-002b.md §2.5 [EXT]): `objects` objects per page, each of
//!   ceil(ParetoII) packets of the transport's `packet_size`, ParetoII with mean `mean`
//!   packets (10 or 12 in those examples) and shape 1.2: ns-2's `RNG::paretoII(scale, shape)`
//!   = scale·(U^(−1/shape) − 1) with scale = mean·(shape − 1) (a Lomax distribution), at
//!   least 1 packet. WebTraf pages have no index: the first object plays its part here.
//!   (WebTraf launches a page's objects at exponential intervals, mean 10 ms, each on its own
//!   connection; here they follow the `http` app's version.)
//!
//! Sizes are whole bytes, at least 1.

use rand::RngExt;
use rand_distr::{Distribution, LogNormal, Pareto};

use crate::rng::SimRng;

/// SURGE file-size body: ln-mean and ln-standard deviation (Table 1.3).
pub const SURGE_BODY: (f64, f64) = (9.36, 1.32);
/// SURGE file-size tail: Pareto scale (bytes) and shape (Table 1.3).
pub const SURGE_TAIL: (f64, f64) = (133_000.0, 1.1);
/// SURGE embedded-object count: Pareto scale and shape (Table 1.3).
pub const SURGE_OBJECTS: (f64, f64) = (1.0, 2.43);

#[derive(Clone, Copy, Debug)]
pub enum PageDist {
    /// `objects` objects of `object` bytes behind an index of `index` bytes.
    Fixed {
        index: u64,
        objects: u32,
        object: u64,
    },
    Surge(Surge),
    /// `objects` objects of ceil(ParetoII(mean·(shape−1), shape)) packets of `packet` bytes.
    Webtraf {
        objects: u32,
        mean: f64,
        shape: f64,
        packet: u64,
    },
}

#[derive(Clone, Copy, Debug)]
pub struct Surge {
    body: LogNormal<f64>,
    tail: Pareto<f64>,
    objects: Pareto<f64>,
}

impl Default for Surge {
    fn default() -> Self {
        Surge {
            body: LogNormal::new(SURGE_BODY.0, SURGE_BODY.1).expect("valid lognormal"),
            tail: Pareto::new(SURGE_TAIL.0, SURGE_TAIL.1).expect("valid pareto"),
            objects: Pareto::new(SURGE_OBJECTS.0, SURGE_OBJECTS.1).expect("valid pareto"),
        }
    }
}

impl Surge {
    fn file(&self, rng: &mut SimRng) -> u64 {
        let body = self.body.sample(rng);
        let x = if body <= SURGE_TAIL.0 { body } else { self.tail.sample(rng) };
        (x.round() as u64).max(1)
    }
}

impl PageDist {
    /// Draws a page into `sizes`: the index first, then its objects.
    pub fn draw(&self, rng: &mut SimRng, sizes: &mut Vec<u64>) {
        sizes.clear();
        match self {
            PageDist::Fixed { index, objects, object } => {
                sizes.push(*index);
                sizes.extend(std::iter::repeat_n(*object, *objects as usize));
            }
            PageDist::Surge(s) => {
                sizes.push(s.file(rng));
                let n = s.objects.sample(rng).floor() as u64;
                sizes.extend((0..n).map(|_| s.file(rng)));
            }
            PageDist::Webtraf { objects, mean, shape, packet } => {
                let scale = mean * (shape - 1.0);
                sizes.extend((0..*objects).map(|_| {
                    // 1 − U is in (0, 1]: ns-2's uniform() never returns 0 either.
                    let u: f64 = 1.0 - rng.random::<f64>();
                    let pkts = (scale * (u.powf(-1.0 / shape) - 1.0)).ceil().max(1.0);
                    pkts as u64 * packet
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream;

    #[test]
    fn probe_page_is_an_index_then_its_objects() {
        let mut v = Vec::new();
        PageDist::Fixed { index: 1000, objects: 8, object: 10_000 }
            .draw(&mut stream(1, "t"), &mut v);
        assert_eq!(v, [1000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000]);
    }

    #[test]
    fn surge_pages_have_an_index_and_at_least_one_object() {
        // Pareto(1, 2.43) floored is at least 1: every page has an index and an object.
        let (mut rng, mut v) = (stream(3, "t"), Vec::new());
        for _ in 0..1000 {
            PageDist::Surge(Surge::default()).draw(&mut rng, &mut v);
            assert!(v.len() >= 2 && v.iter().all(|&b| b >= 1));
        }
    }
}
