use std::collections::HashMap;

use super::*;
use crate::ids::FlowId;
use crate::packet::Packet;
use crate::queue::testbench::{Bench, PKT};
use crate::time::Dur;
use crate::units::BitsPerSec;

fn build<C: QueueConfig + serde::de::DeserializeOwned>(text: &str) -> Box<dyn QueueDisc> {
    let flows: HashMap<String, FlowId> = (0..3).map(|i| (format!("f{i}"), FlowId(i))).collect();
    let ctx = BuildCtx { link_rate: BitsPerSec(1_000_000), link_delay: Dur::ZERO, flows: &flows };
    let cfg: C = toml::from_str(text).unwrap();
    cfg.validate("q").unwrap();
    cfg.build(&ctx).unwrap()
}

/// Keeps every class backlogged with packets of `sizes[i]` and counts what leaves in
/// `n` dequeues: (packets, bytes) per class.
fn saturate(q: &mut dyn QueueDisc, sizes: &[u32], n: usize) -> Vec<(u64, u64)> {
    let mut b = Bench::new();
    let mut out = vec![(0, 0); sizes.len()];
    for _ in 0..n {
        for (i, &s) in sizes.iter().enumerate() {
            while q.class_stats()[i].queued_pkts < 4 {
                b.offer(q, Packet { flow: FlowId(i as u32), size: s, ..PKT });
            }
        }
        let id = b.take(q).expect("backlogged");
        let p = b.pool.get(id);
        out[p.flow.idx()].0 += 1;
        out[p.flow.idx()].1 += p.size as u64;
        b.pool.free(id);
    }
    out
}

const CLASSES3: &str = r#"
  { match = { flows = ["f0"] }, weight = 1 },
  { match = { flows = ["f1"] }, weight = 2 },
  { match = { flows = ["f2"] }, weight = 3 },
]"#;

#[test]
fn wrr_in_packets_sends_weight_packets_per_round() {
    let mut q = build::<WrrConfig>(&format!("classes = [{CLASSES3}"));
    let got = saturate(&mut *q, &[1000, 200, 1500], 6000);
    assert_eq!(got.iter().map(|c| c.0).collect::<Vec<_>>(), vec![1000, 2000, 3000]);
}

#[test]
fn wrr_in_bytes_shares_bytes_by_weight_within_2_percent() {
    let text = format!(
        "unit = \"bytes\"\nclasses = [{}",
        CLASSES3.replace("weight = ", "weight = 1500 * ")
    );
    let text =
        text.replace("1500 * 1", "1500").replace("1500 * 2", "3000").replace("1500 * 3", "4500");
    let mut q = build::<WrrConfig>(&text);
    let got = saturate(&mut *q, &[1000, 200, 1500], 30_000);
    let total: u64 = got.iter().map(|c| c.1).sum();
    for (i, w) in [1.0, 2.0, 3.0].iter().enumerate() {
        let share = got[i].1 as f64 / total as f64;
        assert!((share / (w / 6.0) - 1.0).abs() < 0.02, "class {i}: share {share}");
    }
}

#[test]
fn drr_byte_shares_follow_quanta_whatever_the_packet_sizes() {
    // S&V 1995: throughput shares proportional to quanta. Quanta 1514 : 3028, packet sizes
    // 1500 B against 64 B.
    let text = r#"classes = [
      { match = { flows = ["f0"] }, quantum = 1514 },
      { match = { flows = ["f1"] }, quantum = 3028 },
    ]"#;
    let mut q = build::<DrrConfig>(text);
    let got = saturate(&mut *q, &[1500, 64], 50_000);
    let share0 = got[0].1 as f64 / (got[0].1 + got[1].1) as f64;
    assert!((share0 / (1.0 / 3.0) - 1.0).abs() < 0.02, "{share0}");
}

#[test]
fn an_idle_class_leaves_the_round_and_others_take_everything() {
    let mut q = build::<DrrConfig>(
        r#"classes = [{ match = { flows = ["f0"] } }, { match = { flows = ["f1"] } }]"#,
    );
    let mut b = Bench::new();
    let ids: Vec<_> = (0..3).map(|_| b.offer(&mut *q, Packet { flow: FlowId(1), ..PKT })).collect();
    for id in ids {
        assert_eq!(b.take(&mut *q), Some(id));
    }
    assert_eq!(b.take(&mut *q), None);
    assert_eq!(q.len_packets(), 0);
}

#[test]
fn zero_weight_is_rejected() {
    let cfg: WrrConfig = toml::from_str("classes = [{ weight = 0 }]").unwrap();
    assert_eq!(cfg.validate("q").unwrap_err(), "classes[0].weight: must be at least 1");
}

#[test]
fn a_class_that_empties_forfeits_its_deficit() {
    // Quanta 1000 B, packets 600 B. f0 sends its only packet with 400 B of credit left; when
    // f0 gets packets again it rejoins behind f1 with no credit (S&V 1995), so f1 goes next.
    let mut q = build::<DrrConfig>(
        r#"classes = [{ match = { flows = ["f0"] }, quantum = 1000 }, { match = { flows = ["f1"] }, quantum = 1000 }]"#,
    );
    let mut b = Bench::new();
    let p0 = b.offer(&mut *q, Packet { flow: FlowId(0), size: 600, ..PKT });
    let f1: Vec<_> =
        (0..6).map(|_| b.offer(&mut *q, Packet { flow: FlowId(1), size: 600, ..PKT })).collect();
    assert_eq!(b.take(&mut *q), Some(p0));
    b.offer(&mut *q, Packet { flow: FlowId(0), size: 600, ..PKT });
    assert_eq!(b.take(&mut *q), Some(f1[0]), "f0 must not spend credit banked while it was empty");
}
