//! UBR switch drop policies: the frame-level decision an ATM output port makes on the first
//! cell of each frame.
//!
//! Read first: Romanow & Floyd, "Dynamics of TCP Traffic over ATM Networks", IEEE JSAC 13(4),
//! 1995 (Partial and Early Packet Discard); Goyal, Jain et al., "UBR+: Improving Performance of
//! TCP over ATM-UBR Service", ICC'97 (Selective Drop), and ATM Forum/97-0423 §5.2, Goyal-Jain 1997,
//! whose formulas are quoted below; Heinanen & Kilkki (Fair Buffer Allocation, as given in
//! Goyal-Jain 1997). Notation of Goyal-Jain 1997: K buffer capacity, X total occupancy, R threshold, Y_i the
//! occupancy of VC i, N_a "number of VCs with at least one cell the buffer", 0 < Z <= 1.
//!
//! The decision is taken on the first cell of a frame, with X, Y_i and N_a as they are just
//! before that cell (the cell itself not yet counted). A discarded frame loses every cell,
//! its end-of-frame cell included. What happens to a frame already accepted when the buffer
//! fills is the port's business (partial discard, `port.rs`), not the policy's.

use crate::record::DropReason;

/// A frame-level drop policy with its thresholds in cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Plain UBR: no frame-level decision; cells are lost only when the buffer is full.
    TailDrop,
    /// Early Packet Discard (Romanow & Floyd 1995): "When the buffer occupancy exceeds R,
    /// then all new incoming packets are dropped" Goyal-Jain 1997 (§5.2): discard if X > R.
    Epd { r: f64 },
    /// Selective Drop (Goyal et al. ICC'97): discard if X > R and Y_i·N_a/X > Z
    /// Goyal-Jain 1997 (§5.2; R is the fraction of K already multiplied out, in cells).
    SelectiveDrop { r: f64, z: f64 },
    /// Fair Buffer Allocation (Heinanen & Kilkki, as in Goyal-Jain 1997 §5.2): discard if X > R and
    /// Y_i·N_a/X > Z·(K − R)/(X − R).
    Fba { r: f64, z: f64 },
}

impl Policy {
    /// Whether a new frame of a VC holding `y` cells is discarded when the buffer of `k` cells
    /// holds `x` cells of `n_active` VCs, and why.
    pub fn discard_frame(&self, x: u64, y: u64, n_active: u64, k: u64) -> Option<DropReason> {
        let (x, y, na, k) = (x as f64, y as f64, n_active as f64, k as f64);
        // X > R > ... guarantees X > 0 below, so Y_i·N_a/X is defined.
        match *self {
            Policy::TailDrop => None,
            Policy::Epd { r } => (x > r).then_some(DropReason::Epd),
            Policy::SelectiveDrop { r, z } => {
                (x > r && y * na / x > z).then_some(DropReason::SelectiveDrop)
            }
            Policy::Fba { r, z } => {
                (x > r && y * na / x > z * (k - r) / (x - r)).then_some(DropReason::Fba)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const K: u64 = 1000;

    #[test]
    fn tail_drop_never_discards_a_whole_frame() {
        assert_eq!(Policy::TailDrop.discard_frame(K, K, 1, K), None);
    }

    #[test]
    fn epd_discards_new_frames_only_above_r() {
        let p = Policy::Epd { r: 800.0 };
        assert_eq!(p.discard_frame(800, 800, 1, K), None, "X = R does not exceed R");
        assert_eq!(
            p.discard_frame(801, 0, 1, K),
            Some(DropReason::Epd),
            "EPD ignores per-VC occupancy"
        );
    }

    #[test]
    fn selective_drop_compares_with_z_times_the_fair_share() {
        // X = 950 of 5 active VCs: fair share X/N_a = 190 cells; Z = 0.8 allows 152.
        let p = Policy::SelectiveDrop { r: 900.0, z: 0.8 };
        assert_eq!(p.discard_frame(950, 152, 5, K), None, "152·5/950 = 0.8 is not > Z");
        assert_eq!(p.discard_frame(950, 153, 5, K), Some(DropReason::SelectiveDrop));
        // Below R nothing is dropped however unfair the occupancy.
        assert_eq!(p.discard_frame(900, 900, 1, K), None);
        // A VC with no cells queued is never dropped (0 < Z).
        assert_eq!(p.discard_frame(999, 0, 5, K), None);
    }

    #[test]
    fn fba_tolerates_more_unfairness_when_the_buffer_is_lightly_loaded() {
        let p = Policy::Fba { r: 500.0, z: 0.8 };
        // X = 600: allowance Z(K-R)/(X-R) = 0.8·500/100 = 4 fair shares (600/5 = 120 cells each).
        assert_eq!(p.discard_frame(600, 480, 5, K), None, "480·5/600 = 4.0 is not > 4");
        assert_eq!(p.discard_frame(600, 481, 5, K), Some(DropReason::Fba));
        // Near K the allowance falls to Z: X = 1000, Z(K-R)/(X-R) = 0.8 -> 160 cells.
        assert_eq!(p.discard_frame(1000, 160, 5, K), None);
        assert_eq!(p.discard_frame(1000, 161, 5, K), Some(DropReason::Fba));
        assert_eq!(p.discard_frame(500, 500, 1, K), None, "X = R: not above the threshold");
    }
}
