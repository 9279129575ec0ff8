use super::reno::Reno;
use super::tahoe::Tahoe;
use super::vegas::Vegas;
use super::*;
use crate::tcp::config::VegasConfig;

fn ack(cc: &mut dyn CongestionControl, ack: i64, rtt_ms: u64) {
    let s = AckSample {
        now: SimTime::ZERO,
        acked_pkts: 1,
        acked_bytes: 1000,
        rtt: Some(Dur::from_millis(rtt_ms)),
        snd_nxt: ack + 20,
        ack,
    };
    cc.on_ack(&s);
}

fn view(win: f64) -> SenderView {
    SenderView { win }
}

#[test]
fn slow_start_adds_one_segment_per_ack() {
    let mut cc = Reno::new(2.0, 20.0);
    for i in 0..4 {
        ack(&mut cc, i, 100);
    }
    assert_eq!(cc.cwnd(), 6.0);
}

#[test]
fn congestion_avoidance_adds_about_one_segment_per_window() {
    let mut cc = Reno::new(10.0, 5.0);
    for i in 0..10 {
        ack(&mut cc, i, 100);
    }
    assert!((cc.cwnd() - 10.95).abs() < 0.01, "{}", cc.cwnd());
}

#[test]
fn fast_retransmit_halves_cwnd_and_ssthresh() {
    let mut cc = Reno::new(10.0, 20.0);
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(10.0));
    assert_eq!((cc.cwnd(), cc.ssthresh()), (5.0, 5.0));
    // ssthresh is whole packets and at least 2; cwnd keeps the fraction (ns-2 precisionReduce_).
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(3.0));
    assert_eq!((cc.cwnd(), cc.ssthresh()), (1.5, 2.0));
}

#[test]
fn rto_closes_cwnd_to_one_and_halves_ssthresh() {
    let mut cc = Reno::new(16.0, 20.0);
    cc.on_rto(RtoKind::Loss, &view(16.0));
    assert_eq!((cc.cwnd(), cc.ssthresh()), (1.0, 8.0));
    // A second timeout with cwnd = 1 halves again, down to the floor of 2 (ns-2 behaviour;
    // RFC 5681 §3.1 would keep ssthresh when the retransmission itself is lost).
    cc.on_rto(RtoKind::Loss, &view(1.0));
    assert_eq!((cc.cwnd(), cc.ssthresh()), (1.0, 2.0));
}

#[test]
fn repeated_rto_after_ecn_holds_ssthresh() {
    let mut cc = Reno::new(16.0, 20.0);
    cc.on_congestion(CongestionEvent::EcnEcho, &view(16.0));
    cc.on_rto(RtoKind::NoNewReduction, &view(8.0));
    cc.on_rto(RtoKind::NoNewReduction, &view(1.0));
    assert_eq!((cc.cwnd(), cc.ssthresh()), (1.0, 8.0));
}

#[test]
fn tahoe_fast_retransmit_closes_cwnd_to_one_but_ecn_halves() {
    let mut cc = Tahoe(Reno::new(12.0, 20.0));
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(12.0));
    assert_eq!((cc.cwnd(), cc.ssthresh()), (1.0, 6.0));
    let mut cc = Tahoe(Reno::new(12.0, 20.0));
    cc.on_congestion(CongestionEvent::EcnEcho, &view(12.0));
    assert_eq!((cc.cwnd(), cc.ssthresh()), (6.0, 6.0));
}

/// A Vegas in congestion avoidance with BaseRTT 100 ms and cwnd 10, then one round at `rtt_ms`.
fn vegas_round(rtt_ms: u64) -> f64 {
    let mut v = Vegas::new(Reno::new(10.0, 2.0), VegasConfig::default());
    ack(&mut v, 0, 100); // first round: BaseRTT = 100 ms
    let c = v.cwnd();
    ack(&mut v, 30, rtt_ms);
    v.cwnd() - c
}

#[test]
fn vegas_holds_cwnd_between_alpha_and_beta() {
    // diff = cwnd (RTT - BaseRTT) / RTT packets queued.
    assert_eq!(vegas_round(100), 1.0, "diff 0 < alpha: grow");
    assert_eq!(vegas_round(125), 0.0, "diff 2 in [alpha, beta]: hold");
    assert_eq!(vegas_round(200), -1.0, "diff 5 > beta: shrink");
}

#[test]
fn vegas_leaves_slow_start_when_diff_exceeds_gamma() {
    let mut v = Vegas::new(Reno::new(8.0, 64.0), VegasConfig::default());
    ack(&mut v, 0, 100);
    ack(&mut v, 30, 200);
    assert!(v.cwnd() < v.ssthresh() + 1.0 && v.ssthresh() < 64.0, "cwnd {} ssthresh {}", v.cwnd(), v.ssthresh());
}
