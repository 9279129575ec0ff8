use std::collections::HashMap;

use super::*;
use crate::packet::Packet;
use crate::queue::testbench::{Bench, PKT};
use crate::time::Dur;
use crate::units::BitsPerSec;

fn af(text: &str) -> Box<dyn QueueDisc> {
    let flows = HashMap::new();
    let ctx = BuildCtx { link_rate: BitsPerSec(1_000_000), link_delay: Dur::ZERO, flows: &flows };
    let cfg: AfConfig = toml::from_str(text).unwrap();
    cfg.validate("q").unwrap();
    cfg.build(&ctx).unwrap()
}

fn offer(b: &mut Bench, q: &mut dyn QueueDisc, prio: u8) -> bool {
    let id = b.offer(q, Packet { prio, ..PKT });
    !b.dropped(id)
}

#[test]
fn hard_thresholds_follow_table_5_1() {
    // Buffer 10: LOW accepted while the whole queue stays <= 3, MED while HIGH+MED <= 6,
    // HIGH while HIGH <= 10.
    let mut b = Bench::new();
    let mut q = af("limit = 10");
    let low: usize = (0..5).filter(|_| offer(&mut b, &mut *q, 2)).count();
    assert_eq!(low, 3);
    let med: usize = (0..8).filter(|_| offer(&mut b, &mut *q, 1)).count();
    assert_eq!(med, 6, "MED counts only HIGH and MED packets");
    let high: usize = (0..8).filter(|_| offer(&mut b, &mut *q, 0)).count();
    assert_eq!(high, 1, "the buffer (10) is full after 3 LOW + 6 MED + 1 HIGH");
    assert_eq!(b.drops_of(DropReason::Overflow), 7);
    assert_eq!(b.drops_of(DropReason::DropPriority), 2 + 2);
    // With LOW packets queued, a LOW arrival sees all packets: dropped.
    assert!(!offer(&mut b, &mut *q, 2));
}

#[test]
fn red_mode_averages_rio_style_and_drops_low_first() {
    // Averages with weight 1 are the instantaneous counts: 6 HIGH packets queued out of 10
    // put LOW's average at 6 > max 3 (all LOW dropped), MED's at 6 = max (dropped), and
    // HIGH's at 6 = min 6 (p = 0: kept).
    let mut b = Bench::new();
    let mut q = af("limit = 10\nmode = \"red\"\nq_weight = 1.0");
    for _ in 0..6 {
        assert!(offer(&mut b, &mut *q, 0));
    }
    assert!(!offer(&mut b, &mut *q, 2));
    assert!(!offer(&mut b, &mut *q, 1));
    assert!(offer(&mut b, &mut *q, 0));
    assert_eq!(b.drops_of(DropReason::DropPriority), 2);
}

#[test]
fn red_mode_drop_rate_matches_the_linear_curve() {
    // LOW average pinned at 2 of 10 (min 1, max 3, max_p 0.1): p = 0.05, geometric.
    let mut b = Bench::new();
    let mut q = af("limit = 10\nmode = \"red\"\nq_weight = 1.0");
    for _ in 0..2 {
        offer(&mut b, &mut *q, 0);
    }
    let n = 40_000;
    let mut dropped = 0;
    for _ in 0..n {
        let id = b.offer(&mut *q, Packet { prio: 2, ..PKT });
        if b.dropped(id) {
            dropped += 1;
        } else {
            // Keep two packets queued: the oldest leaves (averages resample at 2 too).
            let out = b.take(&mut *q).unwrap();
            b.pool.free(out);
        }
    }
    let frac = dropped as f64 / n as f64;
    assert!((frac - 0.05).abs() < 4.0 * (0.05f64 * 0.95 / n as f64).sqrt(), "{frac}");
}
