//! Token buckets inside whole runs: the shaper's long-run rate (which needs the link to be
//! woken by the queue) and the burst it lets through.

use crate::common::run;

#[test]
fn shaped_link_delivers_the_token_rate() {
    let r = run(include_str!("../../../../scenarios/token_bucket_shaper.toml"));
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
    let f = &r.flows[0];
    // Over 20 s, the bucket lets through depth + rate·t: 10 KB + 1 Mb/s · (20 s - 0.011 s
    // of path delay for the last departures to arrive) — within one packet.
    let want = 10_000.0 + 1e6 / 8.0 * (20.0 - 0.0118);
    assert!((f.delivered_bytes as f64 - want).abs() <= 2000.0, "{} vs {want}", f.delivered_bytes);
    let q = &r.queues[2];
    assert_eq!((q.from.as_str(), q.to.as_str()), ("r0", "dst"));
    assert!(q.drops.get("overflow").copied().unwrap_or(0) > 1000);
    assert!(q.utilization < 0.11, "the link idles between shaped departures: {}", q.utilization);
}
