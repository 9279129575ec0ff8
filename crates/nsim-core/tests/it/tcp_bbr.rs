//! BBR v1 on scenarios/tcp_bbr.toml (a BBR flow and a paced CUBIC flow in a 100-packet
//! buffer, so both lose packets and recover, BBR with timeouts too): the same seed gives
//! bit-identical results, another seed another PROBE_BW start phase, and every packet is
//! delivered, dropped with a reason, or still queued or in flight.

use crate::common;

#[test]
fn same_seed_same_results_and_every_packet_accounted() {
    let a = common::same_seed_same_results(
        "tcp_bbr.toml",
        "the seed draws BBR's start phase and the clock phases",
    );
    let bbr = &a.flows[0];
    assert!(
        bbr.dropped_pkts > 0 && bbr.fast_retransmits > 0,
        "the check must cover loss recovery: {bbr:?}"
    );
}
