//! Hand-computed RFC 2697 §4 token sequences. CIR = 8 kb/s = 1000 B/s: one token per ms.

use super::*;
use crate::queue::meter::colours;
use crate::units::BitsPerSec;

const G: u8 = 0;
const Y: u8 = 1;
const R: u8 = 2;

#[test]
fn colour_blind_sequence_matches_rfc_2697_section_4_by_hand() {
    // CBS 300, EBS 200, both full at 0.
    // t=0: six 100 B: Tc 300→0 (G G G), Te 200→0 (Y Y), then R.
    // t=50ms: Tc=50 < 100, Te=0: R.   t=100ms: Tc=100: G, Tc=0.
    // t=500ms: 400 ticks: Tc→300 (300 used), Te→100 (100 more). 100 B: G (Tc 200);
    //   250 B: Tc 200 < 250, Te 100 < 250: R; 100: G (100); 100: G (0); 100: Y (Te 0); 1 B: R.
    let m = Srtcm::new(BitsPerSec(8_000), 300, 200);
    let mut train = vec![(0, 100, 0); 6];
    train.extend([(50_000, 100, 0), (100_000, 100, 0)]);
    train.extend([
        (500_000, 100, 0),
        (500_000, 250, 0),
        (500_000, 100, 0),
        (500_000, 100, 0),
        (500_000, 100, 0),
        (500_000, 1, 0),
    ]);
    assert_eq!(colours(m, ColourMode::Blind, &train), [G, G, G, Y, Y, R, R, G, G, R, G, G, Y, R]);
}

#[test]
fn colour_blind_ignores_the_incoming_precedence() {
    let m = Srtcm::new(BitsPerSec(8_000), 100, 100);
    assert_eq!(colours(m, ColourMode::Blind, &[(0, 100, 2), (0, 100, 1), (0, 100, 0)]), [G, Y, R]);
}

#[test]
fn colour_aware_sequence_matches_rfc_2697_section_4_by_hand() {
    // CBS 200, EBS 200, all at t=0, 100 B, pre-colours Y G R G G Y G:
    // Y: Te 200→100 Y. G: Tc 200→100 G. R: R (no tokens). G: Tc→0 G. G: Tc 0, Te 100→0 Y.
    // Y: Te 0 → R. G: R.
    let m = Srtcm::new(BitsPerSec(8_000), 200, 200);
    let pre = [Y, G, R, G, G, Y, G];
    let train: Vec<_> = pre.iter().map(|&p| (0, 100, p)).collect();
    assert_eq!(colours(m, ColourMode::Aware, &train), [Y, G, R, G, Y, R, R]);
}

#[test]
fn tokens_arrive_at_the_instants_k_over_cir_not_pro_rata() {
    // CIR 12 kb/s = 1500 B/s: increments at k/1500 s. EBS 0, CBS 2, two 1 B packets empty C
    // at t=0. Then by 0.6 ms: floor(0.9) = 0 tokens (R); by 0.7 ms: floor(1.05) = 1 (G);
    // by 1.3 ms: floor(1.95) = 1 counted already, 0 new (R); by 1.34 ms: floor(2.01) = 2 (G).
    let m = Srtcm::new(BitsPerSec(12_000), 2, 0);
    let train = [(0, 1, 0), (0, 1, 0), (600, 1, 0), (700, 1, 0), (1300, 1, 0), (1340, 1, 0)];
    assert_eq!(colours(m, ColourMode::Blind, &train), [G, G, R, G, R, G]);
}

#[test]
fn with_cbs_zero_every_token_overflows_into_e() {
    // CBS 0 (RFC 2697 §2 allows one of the two to be 0): every increment overflows into E.
    let m = Srtcm::new(BitsPerSec(8_000), 0, 100);
    assert_eq!(
        colours(m, ColourMode::Blind, &[(0, 100, 0), (0, 100, 0), (100_000, 100, 0)]),
        [Y, R, Y]
    );
}
