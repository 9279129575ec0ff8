//! BBR v1 on scenarios/tcp_bbr.toml (a BBR flow and a paced CUBIC flow in a 100-packet
//! buffer, so both lose packets and recover, BBR with timeouts too): the same seed gives
//! bit-identical results, another seed another PROBE_BW start phase, and every packet is
//! delivered, dropped with a reason, or still queued or in flight.

use crate::common;

fn scenario(seed: u64) -> String {
    let path = format!("{}/../../scenarios/tcp_bbr.toml", env!("CARGO_MANIFEST_DIR"));
    format!("seed = {seed}\n{}", std::fs::read_to_string(path).expect("scenario"))
}

#[test]
fn same_seed_same_results_and_every_packet_accounted() {
    let a = common::run(&scenario(1));
    let b = common::run(&scenario(1));
    assert_eq!(common::fingerprint(&a), common::fingerprint(&b));
    let acc = &a.accounting;
    assert!(acc.balanced(), "{acc:?}");
    let bbr = &a.flows[0];
    assert!(bbr.dropped_pkts > 0 && bbr.fast_retransmits > 0, "the check must cover loss recovery: {bbr:?}");
    assert_eq!(acc.dropped, a.flows.iter().map(|f| f.dropped_pkts + f.ack_dropped_pkts).sum::<u64>());
    let c = common::run(&scenario(2));
    assert!(c.accounting.balanced());
    assert_ne!(common::fingerprint(&a), common::fingerprint(&c), "the seed draws BBR's start phase and the clock phases");
}
