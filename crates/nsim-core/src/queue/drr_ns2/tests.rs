use super::*;
use crate::ids::NodeId;
use crate::packet::Packet;
use crate::queue::testbench::{Bench, PKT};

fn from(src: u32, size: u32) -> Packet {
    Packet { src: NodeId(src), size, ..PKT }
}

/// ns-2's hash worked by hand: h(a) = a + (a >> 8) + !(a >> 4) + 1 for small a, so
/// h(0) = 0, h(2) = 2, h(3) = 3, h(16) = 15, h(17) = 16; with `mask` 2 and 3 both hash as 0.
#[test]
fn buckets_follow_ns2_hash_of_the_source_node() {
    let q = DrrNs2::new(7, 25_000, 500, false);
    assert_eq!([0, 2, 3, 16, 17].map(|a| q.bucket_of(a)), [0, 2, 3, 1, 2]);
    let masked = DrrNs2::new(7, 25_000, 500, true);
    assert_eq!([2, 3, 17].map(|a| masked.bucket_of(a)), [0, 0, 1]);
}

/// S&V 1995: backlogged buckets get equal bytes whatever their packet sizes.
#[test]
fn backlogged_buckets_share_bytes_equally() {
    let mut q = DrrNs2::new(10, 1_000_000, 500, false);
    let mut b = Bench::new();
    let mut sent = [0u64; 2];
    for _ in 0..2000 {
        while q.buckets[2].fifo.packets() < 8 {
            b.offer(&mut q, from(2, 250));
        }
        while q.buckets[3].fifo.packets() < 8 {
            b.offer(&mut q, from(3, 1000));
        }
        let id = b.take(&mut q).unwrap();
        let p = b.pool.get(id);
        sent[(p.src.0 - 2) as usize] += p.size as u64;
        b.pool.free(id);
    }
    let (a, c) = (sent[0] as f64, sent[1] as f64);
    assert!((a / c - 1.0).abs() < 0.01, "{sent:?}");
}

/// drr.cc `enque`: the arrival is queued, then the longest bucket loses its head.
#[test]
fn overflow_drops_the_head_of_the_longest_bucket() {
    let mut q = DrrNs2::new(10, 2_000, 250, false);
    let mut b = Bench::new();
    let first = b.offer(&mut q, from(2, 500));
    b.offer(&mut q, from(2, 500));
    b.offer(&mut q, from(2, 500));
    b.offer(&mut q, from(3, 250));
    assert!(b.drops.is_empty());
    b.offer(&mut q, from(3, 500)); // 2,250 bytes: node 2's bucket (1,500) is the longest
    assert_eq!(b.drops, vec![(first, DropReason::Overflow)]);
    assert_eq!((q.len_packets(), q.len_bytes()), (4, 1_750));
}

/// Node 2's bucket has 250 B of deficit per visit for a 500 B packet: it sends on every
/// second visit, node 3's 250 B packets on every visit.
#[test]
fn deficit_carries_over_to_the_next_round() {
    let mut q = DrrNs2::new(10, 100_000, 250, false);
    let mut b = Bench::new();
    for _ in 0..4 {
        b.offer(&mut q, from(2, 500));
        b.offer(&mut q, from(3, 250));
    }
    let order: Vec<u32> = (0..6)
        .map(|_| {
            let id = b.take(&mut q).unwrap();
            b.pool.get(id).src.0
        })
        .collect();
    assert_eq!(order, [3, 2, 3, 3, 2, 3]);
}

#[test]
fn impossible_parameters_are_refused() {
    let cfg = |t: &str| -> DrrNs2Config { toml::from_str(t).unwrap() };
    assert!(cfg("buckets = 0").validate("q").unwrap_err().contains("buckets"));
    assert!(cfg("quantum = 0").validate("q").unwrap_err().contains("quantum"));
    assert!(cfg("blimit = 0").validate("q").unwrap_err().contains("blimit"));
    assert!(cfg("").validate("q").is_ok());
}
