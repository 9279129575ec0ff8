//! Hand-computed RFC 2698 §3 token sequences. CIR = 8 kb/s = 1000 B/s (one token per ms),
//! PIR = 16 kb/s = 2000 B/s (two per ms).

use super::*;
use crate::queue::meter::colours;
use crate::units::BitsPerSec;

const G: u8 = 0;
const Y: u8 = 1;
const R: u8 = 2;

#[test]
fn colour_blind_sequence_matches_rfc_2698_section_3_by_hand() {
    // PBS 400, CBS 200, both full at 0. 100 B packets unless said.
    // t=0, five: G (Tp 300, Tc 100), G (200, 0), Y (100, 0), Y (0, 0), R.
    // t=50ms: Tp 100, Tc 50: Y (Tp 0).   t=100ms: Tp 100, Tc 100: G (0, 0), then R.
    // t=1s: Tp 400, Tc 200 (capped). 300 B: Tc 200 < 300: Y (Tp 100). 100: G (0, 100). 100: R.
    let m = Trtcm::new(BitsPerSec(16_000), 400, BitsPerSec(8_000), 200);
    let mut train = vec![(0, 100, 0); 5];
    train.extend([(50_000, 100, 0), (100_000, 100, 0), (100_000, 100, 0)]);
    train.extend([(1_000_000, 300, 0), (1_000_000, 100, 0), (1_000_000, 100, 0)]);
    assert_eq!(colours(m, ColourMode::Blind, &train), [G, G, Y, Y, R, Y, G, R, Y, G, R]);
}

#[test]
fn colour_aware_sequence_matches_rfc_2698_section_3_by_hand() {
    // PBS 300, CBS 200, 100 B. t=0, pre R Y G G G: R (no tokens), Y (Tp 200), G (100, 100),
    // G (0, 0), R (Tp 0). t=100ms: Tp 200, Tc 100; pre G G: G (100, 0), Y (Tp 0).
    let m = Trtcm::new(BitsPerSec(16_000), 300, BitsPerSec(8_000), 200);
    let train = [
        (0, 100, R),
        (0, 100, Y),
        (0, 100, G),
        (0, 100, G),
        (0, 100, G),
        (100_000, 100, G),
        (100_000, 100, G),
    ];
    assert_eq!(colours(m, ColourMode::Aware, &train), [R, Y, G, G, R, G, Y]);
}

#[test]
fn a_prio_above_two_is_red_when_colour_aware() {
    let m = Trtcm::new(BitsPerSec(16_000), 300, BitsPerSec(8_000), 200);
    assert_eq!(colours(m, ColourMode::Aware, &[(0, 100, 7), (0, 100, 0)]), [R, G]);
}
