//! ns-2.35's random number generator, so distance-vector jitter draws ns-2's own numbers.
//!
//! Source: ns-2.35 `tools/rng.cc` (`RNG::U01`, `RNG::rand_int`), which is L'Ecuyer's MRG32k3a
//! combined multiple recursive generator (L'Ecuyer, "Good parameters and implementations for
//! combined multiple recursive random number generators", Operations Research 47(1), 1999),
//! and `tcl/lib/ns-random.tcl` (`RNG instproc uniform {a b}`: `a + (b - a) * next-random /
//! 0x7fffffff`, `next-random` = `rand_int(0, 2^31 - 1)`).
//!
//! Why reproduce it: ns-2's DV agents (tcl/rtglib/route-proto.tcl) draw their first
//! advertisement time and every periodic interval's jitter from one shared generator,
//! `rtglibRNG`. Under ns-2.35 its draws are those of the MRG32k3a stream whose state is
//! (1, 1, 1, 1, 1, 1) (what `$defaultRNG seed 1` sets; checked against ns-2.35 traces: the
//! first three DV advertisements of the distribution's `simple-rtg.tcl` leave at 0.00017 s,
//! 0.27794 s and 0.007102 s). Drawing the same numbers in the same order gives the same
//! routing packets at the same times. All arithmetic is exact in f64 (below 2^53), as in C.

const M1: f64 = 4294967087.0;
const M2: f64 = 4294944443.0;
const NORM: f64 = 1.0 / (M1 + 1.0);
const A12: f64 = 1403580.0;
const A13N: f64 = 810728.0;
const A21: f64 = 527612.0;
const A23N: f64 = 1370589.0;

/// One MRG32k3a stream (ns-2's `RNG`, `anti_` and `inc_prec_` false as by default).
#[derive(Clone, Debug)]
pub struct Ns2Rng {
    s: [f64; 6],
}

impl Ns2Rng {
    /// The stream ns-2.35's `rtglibRNG` draws (state (1, 1, 1, 1, 1, 1)).
    pub fn rtglib() -> Self {
        Ns2Rng { s: [1.0; 6] }
    }

    /// The next uniform in (0, 1) (`RNG::U01`).
    pub fn u01(&mut self) -> f64 {
        let s = &mut self.s;
        let mut p1 = A12 * s[1] - A13N * s[0];
        p1 -= (p1 / M1).trunc() * M1;
        if p1 < 0.0 {
            p1 += M1;
        }
        s[0] = s[1];
        s[1] = s[2];
        s[2] = p1;
        let mut p2 = A21 * s[5] - A23N * s[3];
        p2 -= (p2 / M2).trunc() * M2;
        if p2 < 0.0 {
            p2 += M2;
        }
        s[3] = s[4];
        s[4] = s[5];
        s[5] = p2;
        if p1 > p2 {
            (p1 - p2) * NORM
        } else {
            (p1 - p2 + M1) * NORM
        }
    }

    /// `$rng uniform a b` as ns-2's Tcl computes it, through the 31-bit `next-random`.
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        let r = (2147483648.0 * self.u01()) as u64 as f64;
        a + (b - a) * (r / 2147483647.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-2.35's traces of the distribution's simple-rtg.tcl (three DV nodes): the first
    /// advertisements of nodes 0, 1 and 2 leave at these times (`uniform 0.0 0.5` each, printed
    /// to the microsecond).
    #[test]
    fn first_draws_are_ns2s() {
        let mut r = Ns2Rng::rtglib();
        let t: Vec<f64> = (0..3).map(|_| r.uniform(0.0, 0.5)).collect();
        assert_eq!(format!("{:.6}", t[0]), "0.000170");
        assert_eq!(format!("{:.6}", t[1]), "0.277940");
        assert_eq!(format!("{:.6}", t[2]), "0.007102");
        // simple-dyn.tcl (two nodes): node 0 draws its next interval third, and sends again
        // at 1.805852 s.
        let mut r = Ns2Rng::rtglib();
        let first = r.uniform(0.0, 0.5);
        r.uniform(0.0, 0.5);
        let next = first + 2.0 * r.uniform(0.9, 1.1);
        assert_eq!(format!("{next:.6}"), "1.805852");
    }
}
