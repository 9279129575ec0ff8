use std::collections::HashMap;

use super::*;
use crate::ids::FlowId;
use crate::packet::Packet;
use crate::queue::testbench::{Bench, PKT};
use crate::units::BitsPerSec;

fn fq(text: &str) -> Box<dyn QueueDisc> {
    let flows = HashMap::new();
    let ctx = BuildCtx { link_rate: BitsPerSec(1_000_000), link_delay: Dur::ZERO, flows: &flows };
    let cfg: FqCodelConfig = toml::from_str(text).unwrap();
    cfg.validate("q").unwrap();
    cfg.build(&ctx).unwrap()
}

fn pkt(flow: u32, size: u32) -> Packet {
    Packet { flow: FlowId(flow), size, ..PKT }
}

#[test]
fn a_new_sparse_flow_goes_before_a_backlogged_one() {
    let mut b = Bench::new();
    let mut q = fq("");
    let hog: Vec<_> = (0..10).map(|_| b.offer(&mut *q, pkt(0, 1500))).collect();
    assert_eq!(b.take(&mut *q), Some(hog[0]));
    assert_eq!(b.take(&mut *q), Some(hog[1]), "deficit 1514 - 1500 > 0: the hog keeps its turn");
    let sparse = b.offer(&mut *q, pkt(1, 100));
    assert_eq!(b.take(&mut *q), Some(sparse), "new flows are served first");
    assert_eq!(q.len_packets(), 8);
}

#[test]
fn backlogged_flows_share_bytes_equally() {
    let mut b = Bench::new();
    let mut q = fq("");
    let (mut sent, mut queued) = ([0u64; 2], [0u64; 2]);
    for _ in 0..20_000 {
        for (f, size) in [(0, 1500), (1, 300)] {
            while queued[f] < 20 {
                b.offer(&mut *q, pkt(f as u32, size));
                queued[f] += 1;
            }
        }
        let id = b.take(&mut *q).unwrap();
        let p = *b.pool.get(id);
        sent[p.flow.idx()] += p.size as u64;
        queued[p.flow.idx()] -= 1;
        b.pool.free(id);
    }
    let share = sent[0] as f64 / (sent[0] + sent[1]) as f64;
    assert!((share - 0.5).abs() < 0.01, "{share}");
}

#[test]
fn overflow_drops_from_the_fattest_flow_not_the_arrival() {
    let mut b = Bench::new();
    let mut q = fq("limit = 10");
    let fat: Vec<_> = (0..8).map(|_| b.offer(&mut *q, pkt(0, 1000))).collect();
    b.offer(&mut *q, pkt(1, 1000));
    b.offer(&mut *q, pkt(1, 1000));
    let thin = b.offer(&mut *q, pkt(2, 1000));
    assert!(!b.dropped(thin));
    // Over the limit by one: half of the fat flow's 8 packets go, from its head.
    assert_eq!(b.drops.iter().map(|d| d.0).collect::<Vec<_>>(), fat[..4].to_vec());
    assert_eq!(q.len_packets(), 7);
}
