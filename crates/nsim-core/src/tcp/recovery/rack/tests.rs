//! RACK's rules (RFC 8985 §6.2) on hand-made deliveries. Fixture: packet k sent at k ms,
//! packet 0 delivered at 100 ms (RACK.rtt = min_RTT = 100 ms), SRTT 100 ms, DupThresh 3.

use super::{sent_after, Delivered, Rack};
use crate::tcp::testkit::ms;
use crate::time::Dur;

fn sent(seq: i64) -> Delivered {
    Delivered { seq, xmit_ts: ms(seq as u64), retransmitted: false }
}

fn rack_after_first() -> Rack {
    let mut r = Rack::default();
    r.on_delivered(ms(100), &[sent(0)]);
    r
}

const SRTT: Dur = Dur::from_millis(100);

#[test]
fn sent_after_orders_by_time_then_sequence() {
    assert!(sent_after(ms(2), 1, ms(1), 5));
    assert!(sent_after(ms(1), 6, ms(1), 5));
    assert!(!sent_after(ms(1), 5, ms(1), 5));
}

/// §6.2 step 2: RACK.xmit_ts and end_seq follow the most recently sent delivered packet.
#[test]
fn tracks_the_most_recently_sent_delivered_packet() {
    let mut r = rack_after_first();
    r.on_delivered(ms(103), &[sent(3)]);
    r.on_delivered(ms(104), &[sent(2)]);
    assert_eq!((r.xmit_ts, r.end_seq, r.rtt), (ms(3), 4, Dur::from_millis(102)));
    assert_eq!(r.min_rtt, Some(Dur::from_millis(100)));
}

/// §6.2 step 3: packet 2 delivered after 3 (never retransmitted) is reordering.
#[test]
fn a_delivery_below_fack_is_reordering() {
    let mut r = rack_after_first();
    r.on_delivered(ms(103), &[sent(3)]);
    assert!(!r.reordering_seen);
    r.on_delivered(ms(104), &[sent(2)]);
    assert!(r.reordering_seen);
}

/// §6.2 step 4: no window before reordering is seen in recovery or with DupThresh SACKed
/// packets; else min_RTT / 4, at most SRTT.
#[test]
fn reordering_window_rules() {
    let mut r = rack_after_first();
    assert_eq!(r.reo_wnd(false, 1, 3, SRTT), Dur::from_millis(25));
    assert_eq!(r.reo_wnd(true, 1, 3, SRTT), Dur::ZERO);
    assert_eq!(r.reo_wnd(false, 3, 3, SRTT), Dur::ZERO);
    r.reordering_seen = true;
    assert_eq!(r.reo_wnd(true, 5, 3, SRTT), Dur::from_millis(25));
    assert_eq!(r.reo_wnd(false, 1, 3, Dur::from_millis(10)), Dur::from_millis(10));
}

/// §6.2 step 5: packet 2 is SACKed at 102 ms, packet 1 is not. Within the reordering window
/// (1 ms + RACK.rtt 100 ms + reo_wnd 25 ms = 126 ms) it is not lost and the reorder timer is
/// due at 126 ms; from then on it is lost. Packet 3, sent after RACK.xmit_ts, cannot be judged.
#[test]
fn reordering_within_the_window_is_not_a_loss_beyond_it_is() {
    let mut r = rack_after_first();
    r.on_delivered(ms(102), &[sent(2)]);
    let reo = r.reo_wnd(false, 1, 3, SRTT);
    assert_eq!(
        r.remaining(ms(102), 1, ms(1), reo),
        Some(Dur::from_millis(24)),
        "timer at xmit_ts + RTT + reo_wnd"
    );
    assert_eq!(r.remaining(ms(125), 1, ms(1), reo), Some(Dur::from_millis(1)));
    assert_eq!(r.remaining(ms(126), 1, ms(1), reo), None, "lost when the timer fires");
    assert_eq!(r.remaining(ms(126), 3, ms(3), reo), Some(Dur::ZERO), "sent after RACK.xmit_ts");
}

/// §6.2 step 2: an ACK of a retransmission faster than min_RTT is probably for the original:
/// it moves neither RACK.xmit_ts nor RACK.rtt.
#[test]
fn a_retransmission_acked_too_soon_is_ignored() {
    let mut r = rack_after_first();
    r.on_delivered(ms(150), &[Delivered { seq: 1, xmit_ts: ms(120), retransmitted: true }]);
    assert_eq!((r.xmit_ts, r.rtt), (ms(0), Dur::from_millis(100)));
    r.on_delivered(ms(230), &[Delivered { seq: 2, xmit_ts: ms(125), retransmitted: true }]);
    assert_eq!((r.xmit_ts, r.rtt), (ms(125), Dur::from_millis(105)));
}

/// §6.1: the send-time ring keeps each outstanding packet's last transmission and whether it
/// was ever sent again, for `window` packets outstanding.
#[test]
fn send_times_keep_the_last_transmission_of_each_outstanding_packet() {
    use super::send_times::{SendTimes, Sent};
    let mut t = SendTimes::new(4);
    for seq in 10..15 {
        t.record(seq, ms(seq as u64), false);
    }
    t.record(11, ms(50), true);
    assert_eq!(t.get(11), Sent { at: ms(50), retransmitted: true });
    assert_eq!(t.get(14), Sent { at: ms(14), retransmitted: false });
    assert_eq!(
        t.get(10),
        Sent { at: ms(10), retransmitted: false },
        "window + 1 slots: 10..=14 all kept"
    );
}
