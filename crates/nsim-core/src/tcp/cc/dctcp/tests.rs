//! DCTCP's sender rules against RFC 8257 §3.3, with the expected numbers worked by hand.

use super::Dctcp;
use crate::tcp::cc::reno::Reno;
use crate::tcp::cc::{CongestionControl, CongestionEvent, RtoKind, SenderView};
use crate::tcp::config::DctcpConfig;
use crate::time::SimTime;

fn view(win: f64) -> SenderView {
    SenderView { win, whole_packets: false, now: SimTime::ZERO }
}

/// One observation window of `n` ACKs of 1000 B each, `marked` of them with ECE, the window
/// ending at sequence `end` (the ACKs acknowledge end - n + 1 ..= end).
fn window(cc: &mut Dctcp, end: i64, n: i64, marked: i64) {
    for i in 0..n {
        let ack = end - n + 1 + i;
        cc.observe_ack(1000, i < marked, end + 10, ack);
    }
}

#[test]
fn alpha_is_an_ewma_of_the_marked_fraction_with_gain_one_sixteenth() {
    let mut cc = Dctcp::new(Reno::new(10.0, 2.0), &DctcpConfig::default());
    assert_eq!(cc.alpha(), 1.0, "RFC 8257 §3.3: alpha starts at 1");
    // The first ACK ends the window that began before any data (window_end 0).
    cc.observe_ack(1000, false, 10, 0);
    // (1 - 1/16) * 1 + 1/16 * 0 = 0.9375
    assert!((cc.alpha() - 0.9375).abs() < 1e-12);
    // Next window: acknowledges 1..=10, 5 of 10 ACKs marked: F = 0.5.
    window(&mut cc, 10, 10, 5);
    assert!((cc.alpha() - (0.9375 * 15.0 / 16.0 + 0.5 / 16.0)).abs() < 1e-12, "{}", cc.alpha());
}

#[test]
fn an_unmarked_stream_decays_alpha_geometrically() {
    let mut cc = Dctcp::new(Reno::new(10.0, 2.0), &DctcpConfig::default());
    cc.observe_ack(1000, false, 10, 0);
    let mut end = 10;
    for _ in 0..15 {
        window(&mut cc, end, 10, 0);
        end += 20;
    }
    // 16 unmarked windows: alpha = (15/16)^16 = 0.35607.
    assert!((cc.alpha() - (15.0f64 / 16.0).powi(16)).abs() < 1e-12, "{}", cc.alpha());
}

#[test]
fn ecn_echo_cuts_by_half_alpha_and_a_loss_halves() {
    let cfg = DctcpConfig { g: 1.0 / 16.0, initial_alpha: 0.2 };
    let mut cc = Dctcp::new(Reno::new(40.0, 2.0), &cfg);
    cc.on_congestion(CongestionEvent::EcnEcho, &view(40.0));
    // cwnd * (1 - 0.2 / 2) = 36.
    assert_eq!((cc.cwnd(), cc.ssthresh()), (36.0, 36.0));
    let mut cc = Dctcp::new(Reno::new(40.0, 2.0), &cfg);
    cc.on_congestion(CongestionEvent::FastRetransmit, &view(40.0));
    assert_eq!(cc.cwnd(), 20.0, "RFC 8257 §3.4: a loss is answered as standard TCP");
    cc.on_rto(RtoKind::Loss, &view(20.0));
    assert_eq!(cc.cwnd(), 1.0);
}
