//! Sender-core dialogues: segments out for ACKs in (no loss recovery here).

use crate::packet::Ecn;
use crate::packet::TcpHdr;
use crate::tcp::config::{TcpConfig, Variant};
use crate::tcp::testkit::{ms, TcpHarness, ACK};
use crate::tcp::CongState;
use crate::time::Dur;

#[test]
fn slow_start_opens_one_segment_per_ack() {
    let mut h = TcpHarness::new(Variant::Reno, |_| {});
    assert_eq!(h.start(), [0, 1]);
    assert_eq!(h.cum(ms(100), 0), [2, 3]);
    assert_eq!(h.cum(ms(101), 1), [4, 5]);
    assert_eq!(h.cwnd(), 4.0);
}

#[test]
fn window_is_min_of_cwnd_and_receiver_window() {
    let mut h = TcpHarness::new(Variant::Reno, |p| p.window = 4);
    h.tx.cc.set_cwnd(10.0);
    assert_eq!(h.start(), [0, 1, 2, 3]);
    assert_eq!(h.cum(ms(100), 0), [4]);
}

/// RFC 5681 §2: the sender may not send beyond min(cwnd, rwnd); rwnd is in bytes and the
/// one-way sender counts whole 1000 B segments (floor), never fewer than one.
#[test]
fn advertised_rwnd_caps_the_window_in_whole_segments() {
    let mut h = TcpHarness::new(Variant::Reno, |p| p.window = 20);
    h.tx.cc.set_cwnd(10.0);
    assert_eq!(h.start(), (0..10).collect::<Vec<_>>());
    // 2999 B advertised: 2 segments, so after ACK 0 only segments 1..=2 may be out (none new).
    assert_eq!(
        h.ack(ms(100), TcpHdr { ack: 0, rwnd: 2999, ..TcpHdr::default() }),
        Vec::<u64>::new()
    );
    // A window below one segment still lets one segment out once the pipe drains.
    assert_eq!(h.ack(ms(101), TcpHdr { ack: 9, rwnd: 10, ..TcpHdr::default() }), [10]);
    // NO_RWND lifts the limit back to min(cwnd, window).
    let out = h.ack(ms(102), TcpHdr { ack: 10, ..TcpHdr::default() });
    assert!(out.len() >= 10, "{out:?}");
}

#[test]
fn maxburst_limits_segments_per_ack() {
    let mut h = TcpHarness::new(Variant::Reno, |p| p.maxburst = 2);
    h.tx.cc.set_cwnd(10.0);
    assert_eq!(h.start(), [0, 1]);
    assert_eq!(h.cum(ms(100), 0), [2, 3]);
}

#[test]
fn syn_is_header_only_and_the_initial_window_follows_its_ack() {
    let mut h = TcpHarness::new(Variant::Newreno, |p| p.syn = true);
    assert_eq!(h.start(), [0]);
    assert_eq!(h.net.flows[0].sent_bytes, 40);
    assert_eq!(h.cum(ms(200), 0), [1, 2]);
    assert_eq!(h.cwnd(), 2.0);
}

#[test]
fn rto_retransmits_first_unacked_and_doubles() {
    let mut h = TcpHarness::new(Variant::Reno, |_| {});
    assert_eq!(h.start(), [0, 1]);
    // Initial RTO 3 s (ns-2 rtxcur_init_), then 6 s, 12 s.
    assert_eq!(h.advance(ms(2999)), Vec::<u64>::new());
    assert_eq!(h.advance(ms(3001)), [0]);
    assert_eq!(h.state(), CongState::Loss);
    assert_eq!((h.cwnd(), h.ssthresh()), (1.0, 2.0));
    assert_eq!(h.advance(ms(8999)), Vec::<u64>::new());
    assert_eq!(h.advance(ms(9001)), [0]);
    assert_eq!(h.advance(ms(21001)), [0]);
    assert_eq!(h.counters().timeouts, 3);
    assert_eq!(h.counters().retransmits, 3);
}

#[test]
fn karn_no_rtt_sample_from_a_retransmitted_segment() {
    let mut h = TcpHarness::new(Variant::Reno, |_| {});
    h.start();
    h.advance(ms(3000));
    h.cum(ms(3100), 1);
    assert_eq!(h.tx.core.rtt.srtt(), Dur::ZERO);
    assert_eq!(h.tx.core.rtt.backoff(), 2, "no valid sample: the backoff stays");
    assert_eq!(h.state(), CongState::Open, "everything outstanding at the timeout is acked");
}

#[test]
fn first_sample_sets_the_rto_and_ends_the_backoff() {
    let mut h = TcpHarness::new(Variant::Reno, |_| {});
    h.start();
    h.cum(ms(300), 0);
    // 300 ms sample: RTO = 300 + 4 * 150 ms.
    assert_eq!(h.tx.core.rtt.rto(), Dur::from_millis(900));
    assert_eq!(h.tx.core.rtt.srtt(), Dur::from_millis(300));
}

#[test]
fn ack_of_everything_cancels_the_timer() {
    let mut h = TcpHarness::new(Variant::Reno, |p| p.window = 2);
    h.start();
    h.tx.core.curseq = 2; // the application has nothing more
    h.cum(ms(100), 1);
    assert_eq!(h.advance(ms(60_000)), Vec::<u64>::new());
    assert_eq!(h.counters().timeouts, 0);
}

#[test]
fn ecn_echo_halves_once_per_window_and_sets_cwr() {
    let mut h = TcpHarness::new(Variant::Reno, |p| p.ecn = true);
    h.tx.cc.set_cwnd(8.0);
    h.start();
    let ece = TcpHdr { ack: 1, flags: crate::packet::flags::ECE, ..ACK };
    h.ack(ms(100), ece);
    assert_eq!(h.cwnd(), 4.0);
    h.ack(ms(101), TcpHdr { ack: 2, ..ece });
    assert_eq!(h.cwnd(), 4.0, "second ECE in the same window: no new reduction, no growth");
    assert_eq!(h.counters().timeouts + h.counters().fast_retransmits, 0);
}

/// ns-2.35 tcp/tcp-vegas.cc: `VegasTcpAgent::output` never sets ECT, so `ecn = true` leaves
/// Vegas' data not ECN-capable unless `vegas.ect`; an ECN-capable Vegas halves on ECN-Echo
/// (`TcpAgent::ecn`, which `VegasTcpAgent::recv` calls).
#[test]
fn vegas_sends_ect_data_only_with_vegas_ect() {
    for ect in [false, true] {
        let mut cfg = TcpConfig::from_variant(Variant::Vegas);
        cfg.ecn = true;
        cfg.vegas.ect = ect;
        let p = cfg.resolve("t").expect("valid");
        assert_eq!(p.ecn, ect, "vegas.ect {ect}");
        let mut h = TcpHarness::new(Variant::Vegas, |q| {
            q.ecn = p.ecn;
            q.initial_ssthresh = 4;
        });
        h.tx.cc.set_cwnd(8.0);
        let sent = h.start_packets();
        assert!(!sent.is_empty());
        let want = if ect { Ecn::Ect } else { Ecn::NotEct };
        assert!(sent.iter().all(|pk| pk.ecn == want), "vegas.ect {ect}");
        if ect {
            let ece = TcpHdr { ack: 1, flags: crate::packet::flags::ECE, ..ACK };
            h.ack(ms(100), ece);
            assert_eq!(h.cwnd(), 4.0, "an ECN-capable Vegas halves on ECN-Echo");
        }
    }
}

#[test]
fn payload_between_excludes_the_syn_and_shortens_the_last_segment() {
    let mut h = TcpHarness::new(Variant::Reno, |p| p.syn = true);
    h.tx.core = crate::tcp::sender::Core::new(
        h.tx.core.p.clone(),
        crate::ids::NodeId(1),
        crate::ids::AgentId(1),
        Some(2500),
        None,
    );
    h.tx.core.curseq = 4; // SYN + 3 segments: 1000, 1000, 500 B
    let c = &h.tx.core;
    assert_eq!(c.payload_between(0, 3), 2500);
    assert_eq!(c.payload_between(0, 0), 0);
    assert_eq!(c.payload_between(2, 3), 1500);
    assert_eq!(c.payload_between(3, 2), 0);
    assert_eq!((0..=3).map(|q| c.payload(q)).sum::<u64>(), 2500);
}
