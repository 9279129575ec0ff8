use std::collections::HashMap;

use super::*;
use crate::ids::FlowId;
use crate::packet::Packet;
use crate::queue::testbench::{Bench, PKT};
use crate::record::DropReason;
use crate::time::Dur;
use crate::units::BitsPerSec;

fn prio(toml_text: &str) -> Box<dyn QueueDisc> {
    let flows: HashMap<String, FlowId> =
        [("cbr".to_string(), FlowId(0)), ("be".to_string(), FlowId(1))].into();
    let ctx = BuildCtx { link_rate: BitsPerSec(1_000_000), link_delay: Dur::ZERO, flows: &flows };
    let cfg: PrioConfig = toml::from_str(toml_text).unwrap();
    cfg.validate("q").unwrap();
    cfg.build(&ctx).unwrap()
}

const TWO_CLASSES: &str = r#"
classes = [
  { name = "cbr", match = { flows = ["cbr"] }, queue = { kind = "droptail", limit = 3 } },
  { name = "be", queue = { kind = "droptail", limit = 4 } },
]"#;

#[test]
fn high_class_always_leaves_first() {
    let mut b = Bench::new();
    let mut q = prio(TWO_CLASSES);
    let be1 = b.offer(&mut *q, Packet { flow: FlowId(1), ..PKT });
    let be2 = b.offer(&mut *q, Packet { flow: FlowId(1), ..PKT });
    let c1 = b.offer(&mut *q, Packet { flow: FlowId(0), ..PKT });
    assert_eq!(b.take(&mut *q), Some(c1));
    let c2 = b.offer(&mut *q, Packet { flow: FlowId(0), ..PKT });
    assert_eq!(b.take(&mut *q), Some(c2));
    assert_eq!(b.take(&mut *q), Some(be1));
    assert_eq!(b.take(&mut *q), Some(be2));
    assert_eq!(b.take(&mut *q), None);
}

#[test]
fn each_class_has_its_own_buffer_and_counters() {
    let mut b = Bench::new();
    let mut q = prio(TWO_CLASSES);
    for _ in 0..5 {
        b.offer(&mut *q, Packet { flow: FlowId(1), ..PKT });
    }
    let c = b.offer(&mut *q, Packet { flow: FlowId(0), ..PKT });
    assert!(!b.dropped(c), "a full BE queue does not touch the CBR class");
    assert_eq!(b.drops_of(DropReason::Overflow), 2);
    let s = q.class_stats();
    assert_eq!((s[0].name.as_str(), s[0].arrivals, s[0].queued_pkts), ("cbr", 1, 1));
    assert_eq!(
        (s[1].arrivals, s[1].drops[DropReason::Overflow.idx()], s[1].queued_pkts),
        (5, 2, 3)
    );
    assert_eq!(q.len_packets(), 4);
}

#[test]
fn classes_nest_a_round_robin_under_strict_priority() {
    // Noureddine 2002's connection-level scheduler: strict priority between classes, WRR inside.
    let mut b = Bench::new();
    let mut q = prio(
        r#"classes = [
          { name = "interactive", match = { prios = [0] } },
          { name = "rest", queue = { kind = "wrr", classes = [
              { match = { flows = ["cbr"] }, weight = 2 },
              { weight = 1 },
          ] } },
        ]"#,
    );
    let a: Vec<_> =
        (0..4).map(|_| b.offer(&mut *q, Packet { flow: FlowId(0), prio: 1, ..PKT })).collect();
    let c: Vec<_> =
        (0..2).map(|_| b.offer(&mut *q, Packet { flow: FlowId(1), prio: 1, ..PKT })).collect();
    let hi = b.offer(&mut *q, Packet { flow: FlowId(1), prio: 0, ..PKT });
    let order: Vec<_> = (0..7).map(|_| b.take(&mut *q).unwrap()).collect();
    assert_eq!(order, vec![hi, a[0], a[1], c[0], a[2], a[3], c[1]]);
}
