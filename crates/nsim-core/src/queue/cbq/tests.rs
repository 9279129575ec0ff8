use std::collections::HashMap;

use super::*;
use crate::ids::FlowId;
use crate::packet::Packet;
use crate::queue::testbench::{Bench, PKT};
use crate::time::{Dur, SimTime};
use crate::units::BitsPerSec;

const RATE: u64 = 1_000_000;

fn cbq(classes: &str) -> Box<dyn QueueDisc> {
    let flows: HashMap<String, FlowId> = (0..3).map(|i| (format!("f{i}"), FlowId(i))).collect();
    let ctx = BuildCtx { link_rate: BitsPerSec(RATE), link_delay: Dur::ZERO, flows: &flows };
    let cfg: CbqConfig = toml::from_str(&format!("classes = [{classes}]")).unwrap();
    cfg.validate("q").unwrap();
    cfg.build(&ctx).unwrap()
}

/// Runs the link for `secs` with the flows in `active` kept backlogged (1000 B packets);
/// returns the bytes each flow sent and the time the link was busy.
fn run_link(q: &mut dyn QueueDisc, active: &[u32], secs: u64) -> (Vec<u64>, f64) {
    let mut b = Bench::new();
    let mut sent = vec![0u64; 3];
    let mut queued = [0u64; 3];
    let end = SimTime::ZERO + Dur::from_secs(secs);
    let mut busy = 0.0;
    while b.now < end {
        for &f in active {
            while queued[f as usize] < 10 {
                b.offer(q, Packet { flow: FlowId(f), ..PKT });
                queued[f as usize] += 1;
            }
        }
        match b.take(q) {
            Some(id) => {
                let p = *b.pool.get(id);
                sent[p.flow.idx()] += p.size as u64;
                queued[p.flow.idx()] -= 1;
                b.pool.free(id);
                let tx = BitsPerSec(RATE).tx_time(p.size as u64);
                busy += tx.as_secs_f64();
                b.now += tx;
            }
            None => b.now = b.wake_at.expect("backlogged but idle: must ask for a wake"),
        }
    }
    (sent, busy / secs as f64)
}

fn share(sent: &[u64], k: usize) -> f64 {
    sent[k] as f64 / sent.iter().sum::<u64>() as f64
}

#[test]
fn a_class_that_may_not_borrow_is_held_to_its_allotment() {
    // Alone on the link, allot 0.3, no borrowing: 30 % of 1 Mb/s, and the link idles.
    let mut q =
        cbq(r#"{ match = { flows = ["f0"] }, allot = 0.3, borrow = false }, { allot = 0.7 }"#);
    let (sent, util) = run_link(&mut *q, &[0], 100);
    let rate = sent[0] as f64 * 8.0 / 100.0;
    assert!((rate / 300_000.0 - 1.0).abs() < 0.02, "{rate}");
    assert!((util - 0.3).abs() < 0.01, "{util}");
}

#[test]
fn a_borrowing_class_takes_the_idle_link() {
    let mut q = cbq(r#"{ match = { flows = ["f0"] }, allot = 0.3 }, { allot = 0.7 }"#);
    let (_, util) = run_link(&mut *q, &[0], 20);
    assert!(util > 0.999, "{util}");
}

#[test]
fn saturated_classes_share_by_allotment_within_2_percent() {
    for (a, borrow) in [(0.25, "true"), (0.3, "false"), (0.5, "true")] {
        let text = format!(
            r#"{{ match = {{ flows = ["f0"] }}, allot = {a}, borrow = {borrow} }}, {{ allot = {} }}"#,
            1.0 - a
        );
        let mut q = cbq(&text);
        let (sent, util) = run_link(&mut *q, &[0, 1], 100);
        assert!((share(&sent, 0) / a - 1.0).abs() < 0.02, "allot {a}: share {}", share(&sent, 0));
        assert!(util > 0.999);
    }
}

#[test]
fn non_borrowing_classes_leave_the_rest_unused() {
    // Two non-borrowing classes with 0.2 + 0.3: the link runs at 50 %.
    let mut q = cbq(
        r#"{ match = { flows = ["f0"] }, allot = 0.2, borrow = false }, { allot = 0.3, borrow = false }"#,
    );
    let (sent, util) = run_link(&mut *q, &[0, 1], 100);
    assert!((util - 0.5).abs() < 0.01, "{util}");
    assert!((share(&sent, 0) - 0.4).abs() < 0.01);
}

#[test]
fn higher_priority_goes_first_as_seed_000_configures_it() {
    // Holl 2003 Table 4.6: CBR priority 1 over BE priority 2, no bandwidth constraints.
    let mut q = cbq(r#"{ match = { flows = ["f0"] }, priority = 1 }, { priority = 2 }"#);
    let mut b = Bench::new();
    let be = b.offer(&mut *q, Packet { flow: FlowId(1), ..PKT });
    let cbr: Vec<_> = (0..3).map(|_| b.offer(&mut *q, Packet { flow: FlowId(0), ..PKT })).collect();
    for id in cbr {
        assert_eq!(b.take(&mut *q), Some(id));
    }
    assert_eq!(b.take(&mut *q), Some(be));
}

#[test]
fn a_holding_leaf_does_not_block_lower_priorities() {
    // A shaper leaf at the top priority holds its second packet; the BE class still sends,
    // and the scheduler asks to be woken when the shaper may send.
    let mut q = cbq(
        r#"{ match = { flows = ["f0"] }, priority = 0, queue = { kind = "shaper", rate = "8kb", depth = "1000B" } }, { priority = 1 }"#,
    );
    let mut b = Bench::new();
    let s: Vec<_> = (0..2).map(|_| b.offer(&mut *q, Packet { flow: FlowId(0), ..PKT })).collect();
    let be = b.offer(&mut *q, Packet { flow: FlowId(1), ..PKT });
    assert_eq!(b.take(&mut *q), Some(s[0]));
    assert_eq!(b.take(&mut *q), Some(be));
    assert_eq!(b.take(&mut *q), None);
    assert_eq!(b.wake_at, Some(SimTime::ZERO + Dur::from_secs(1)));
    b.now = b.wake_at.unwrap();
    assert_eq!(b.take(&mut *q), Some(s[1]));
}
