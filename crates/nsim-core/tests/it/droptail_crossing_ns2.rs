//! A DropTail bottleneck fed by data and the ACKs of crossing flows, against ns-2.35: the
//! reduced case of the 800-host mix's drop split (reference/ns2/dropsplit/README.md). Bulk
//! NewReno flows both ways over one 10 Mb/s, 20-packet DropTail bottleneck: every enqueue,
//! dequeue, drop and receive on its two directions matches ns-2's trace up to 1.1 s, where a
//! same-instant tie (which ns-2 breaks by the rounding of its floating-point clock, nsim by
//! event order) first sends the two runs apart.


use crate::common::{reference, run_traced, Ev};

const UNTIL_S: f64 = 1.1;

/// Bottleneck events (L = node 6, R = node 7) up to `UNTIL_S`, times rounded to ns-2's 1 us and
/// same-microsecond events sorted (their order is the tie-break this case is about). Not
/// `common::canonical`: that sorts at 0.1 us and keeps no link, while this compares the two
/// directions of one link at the trace's own resolution.
fn bottleneck_events(evs: &[Ev]) -> Vec<(i64, String, char, u64, u32, u32, u32)> {
    let mut v: Vec<_> = evs
        .iter()
        .filter(|e| ((e.from, e.to) == (6, 7) || (e.from, e.to) == (7, 6)) && e.t <= UNTIL_S)
        .map(|e| ((e.t * 1e6).round() as i64, e.kind.clone(), e.op, e.seq, e.from, e.to, e.size))
        .collect();
    v.sort();
    v
}

#[test]
fn bottleneck_events_match_ns2_until_the_first_tie_that_matters() {
    let path = format!("{}/../../reference/ns2/dropsplit/crossing.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("crossing.toml");
    let (_, evs) = run_traced(&text, "crossing");
    let (ours, theirs) = (bottleneck_events(&evs), bottleneck_events(&reference("dropsplit", "crossing_bottleneck")));
    assert!(theirs.len() > 10_000, "reference events: {}", theirs.len());
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert!((a.0 - b.0).abs() <= 1 && (&a.1, a.2, a.3, a.4, a.5, a.6) == (&b.1, b.2, b.3, b.4, b.5, b.6), "event {i} differs\n nsim: {a:?}\n ns-2: {b:?}");
    }
    assert_eq!(ours.len(), theirs.len(), "events up to {UNTIL_S} s");
}
