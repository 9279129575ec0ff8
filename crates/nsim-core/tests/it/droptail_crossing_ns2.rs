//! A DropTail bottleneck fed by data and the ACKs of crossing flows, against ns-2.35: the
//! reduced case of the 800-host mix's drop split (reference/ns2/dropsplit/README.md). Bulk
//! NewReno flows both ways over one 10 Mb/s, 20-packet DropTail bottleneck: every enqueue,
//! dequeue, drop and receive on its two directions matches ns-2's trace up to 1.1 s, where a
//! same-instant tie (which ns-2 breaks by the rounding of its floating-point clock, nsim by
//! event order) first sends the two runs apart. With `run.tie_order = "ns2"` every event of
//! the 5 s matches, in ns-2's own order.

use crate::common::{reference, run_traced, Ev};
use std::fmt::Write;

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
    let path =
        format!("{}/../../reference/ns2/dropsplit/crossing.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("crossing.toml");
    let (_, evs) = run_traced(&text, "crossing");
    let (ours, theirs) = (
        bottleneck_events(&evs),
        bottleneck_events(&reference("dropsplit", "crossing_bottleneck")),
    );
    assert!(theirs.len() > 10_000, "reference events: {}", theirs.len());
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert!(
            (a.0 - b.0).abs() <= 1
                && (&a.1, a.2, a.3, a.4, a.5, a.6) == (&b.1, b.2, b.3, b.4, b.5, b.6),
            "event {i} differs\n nsim: {a:?}\n ns-2: {b:?}"
        );
    }
    assert_eq!(ours.len(), theirs.len(), "events up to {UNTIL_S} s");
}

/// FNV-1a (64 bit) of the bottleneck's events in file order, one line each
/// `op time_us from to type size seq`, and their count: the fingerprint of
/// reference/ns2/dropsplit/crossing_bottleneck_5s.txt (made from ns-2.35's whole trace by the
/// command in that folder's README).
fn fingerprint(evs: &[Ev]) -> (usize, u64) {
    let mut line = String::new();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut n = 0;
    for e in evs.iter().filter(|e| (e.from, e.to) == (6, 7) || (e.from, e.to) == (7, 6)) {
        line.clear();
        let _ = writeln!(
            line,
            "{} {} {} {} {} {} {}",
            e.op,
            (e.t * 1e6).round() as i64,
            e.from,
            e.to,
            e.kind,
            e.size,
            e.seq
        );
        for b in line.bytes() {
            hash = (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        n += 1;
    }
    (n, hash)
}

/// ns-2's order of same-instant events (`run.tie_order = "ns2"`): the 45 Mb/s access links'
/// serialization times are not whole picoseconds, so the ties are ns-2's sums of doubles, not
/// nsim's own. Every event on the bottleneck matches ns-2.35's trace in file order, ties
/// included: to 1.1 s line by line, and all 5 s (53,816 events) by fingerprint. (In nsim's
/// own order the file order parts at event 148, 59.437 ms.)
#[test]
fn in_ns2_order_every_bottleneck_event_matches_ns2_in_file_order() {
    let dir = format!("{}/../../reference/ns2/dropsplit", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(format!("{dir}/crossing.toml")).expect("crossing.toml");
    let (_, evs) =
        run_traced(&format!("{text}\n[run]\ntie_order = \"ns2\"\n"), "crossing ns2 order");
    let line =
        |e: &Ev| ((e.t * 1e6).round() as i64, e.op, e.from, e.to, e.kind.clone(), e.size, e.seq);
    let ours: Vec<_> = evs
        .iter()
        .filter(|e| ((e.from, e.to) == (6, 7) || (e.from, e.to) == (7, 6)) && e.t <= UNTIL_S)
        .map(line)
        .collect();
    let theirs: Vec<_> = reference("dropsplit", "crossing_bottleneck").iter().map(line).collect();
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert!(
            (a.0 - b.0).abs() <= 1
                && (a.1, a.2, a.3, &a.4, a.5, a.6) == (b.1, b.2, b.3, &b.4, b.5, b.6),
            "event {i} differs\n nsim: {a:?}\n ns-2: {b:?}"
        );
    }
    assert_eq!(ours.len(), theirs.len(), "events up to {UNTIL_S} s");
    let want =
        std::fs::read_to_string(format!("{dir}/crossing_bottleneck_5s.txt")).expect("fingerprint");
    let (n, hash) = fingerprint(&evs);
    assert_eq!(
        format!("{n} {hash:016x}"),
        want.trim(),
        "count and FNV-1a of the 5 s of bottleneck events"
    );
}
