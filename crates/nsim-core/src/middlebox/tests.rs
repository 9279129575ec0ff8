//! Hook mechanics on single packets.

use super::ip_abr::IpAbr;
use super::*;
use crate::ids::FlowId;
use crate::packet::TcpHdr;

fn data(seq: u64) -> Packet {
    Packet {
        ptype: PType::Tcp,
        size: 1040,
        flow: FlowId(0),
        tcp: TcpHdr { seq, payload: 1000, ..TcpHdr::default() },
        ..Packet::default()
    }
}

fn ack(n: u64) -> Packet {
    Packet {
        ptype: PType::Ack,
        size: 40,
        flow: FlowId(0),
        tcp: TcpHdr { ack: n, ..TcpHdr::default() },
        ..Packet::default()
    }
}

fn t(ms: u64) -> SimTime {
    SimTime::ZERO + Dur::from_millis(ms)
}

#[test]
fn clamp_only_lowers_the_window() {
    let mut p = ack(0);
    clamp_rwnd(&mut p, 3000);
    assert_eq!(p.tcp.rwnd, 3000);
    clamp_rwnd(&mut p, 9000);
    assert_eq!(p.tcp.rwnd, 3000);
}

/// Holl 2003 eq. 7.1/7.2 by hand: forward RTT 100 ms (data at 0, its ACK at 100 ms), reverse
/// RTT 20 ms (ACK at 100 ms releases data at 120 ms), share 80 kB/s, l_data/l_pkt = 1000/1040.
/// Before the reverse sample the window uses the forward RTT alone.
#[test]
fn ip_abr_window_is_share_times_rtt_times_data_ratio() {
    let mut h = IpAbr::new(640_000, vec![], 1.0, 0, 1);
    assert_eq!(h.on_packet(t(0), &mut data(0)), Verdict::Pass);
    let mut a = ack(0);
    h.on_packet(t(100), &mut a);
    assert_eq!(a.tcp.rwnd as u64, (80_000.0 * 0.100 * 1000.0 / 1040.0) as u64);
    h.on_packet(t(120), &mut data(1));
    let want = (80_000.0 * 0.120 * 1000.0 / 1040.0) as u64;
    assert_eq!(h.window(0), Some(want));
    let mut a = ack(0); // a duplicate is rewritten too
    h.on_packet(t(130), &mut a);
    assert_eq!(a.tcp.rwnd as u64, want);
}

#[test]
fn ip_abr_freezes_rtt_after_a_retransmission_until_all_outstanding_is_acked() {
    let mut h = IpAbr::new(640_000, vec![], 1.0, 0, 1);
    h.on_packet(t(0), &mut data(0));
    h.on_packet(t(100), &mut ack(0));
    h.on_packet(t(120), &mut data(1));
    h.on_packet(t(120), &mut data(2));
    let before = h.window(0);
    h.on_packet(t(500), &mut data(1)); // retransmission: frozen until ack 2
    h.on_packet(t(900), &mut ack(1)); // would be an 780 ms sample
    assert_eq!(h.window(0), before);
    h.on_packet(t(901), &mut ack(2)); // unfreezes, without a sample
    assert_eq!(h.window(0), before);
    h.on_packet(t(921), &mut data(3)); // 20 ms reverse again
    h.on_packet(t(1021), &mut ack(3)); // 100 ms forward again
    assert_eq!(h.window(0), before);
}

#[test]
fn hooks_at_a_node_run_in_order_and_the_first_drop_wins() {
    let hooks = vec![
        Installed {
            name: "r".into(),
            node: NodeId(1),
            flows: None,
            hook: Box::new(delay::Delay::new(Dur::from_millis(2))),
        },
        Installed {
            name: "r".into(),
            node: NodeId(1),
            flows: Some(vec![false]),
            hook: Box::new(drop_every::DropEvery::new(1)),
        },
        Installed {
            name: "r".into(),
            node: NodeId(1),
            flows: None,
            hook: Box::new(delay::Delay::new(Dur::from_millis(3))),
        },
    ];
    let mut mb = Middleboxes::new(3, hooks);
    assert_eq!(mb.inspect(NodeId(0), t(0), &mut data(0)), Verdict::Pass);
    assert_eq!(mb.inspect(NodeId(1), t(0), &mut data(0)), Verdict::Delay(Dur::from_millis(5)));
    let mut mb = Middleboxes::new(
        2,
        vec![Installed {
            name: "r".into(),
            node: NodeId(1),
            flows: None,
            hook: Box::new(drop_every::DropEvery::new(2)),
        }],
    );
    assert_eq!(mb.inspect(NodeId(1), t(0), &mut data(0)), Verdict::Pass);
    assert_eq!(mb.inspect(NodeId(1), t(0), &mut data(1)), Verdict::Drop);
}

/// After a change to a shorter delay a packet still leaves after the one before it: the
/// packet at 2 ms waits for the one held until 10 ms; one at 20 ms gets the new 1 ms.
#[test]
fn a_shorter_delay_never_lets_a_packet_overtake() {
    let mut h = delay::Delay::new(Dur::from_millis(10));
    assert_eq!(h.on_packet(t(0), &mut data(0)), Verdict::Delay(Dur::from_millis(10)));
    h.change(t(1), &HookChange::Delay(Dur::from_millis(1))).unwrap();
    assert_eq!(h.on_packet(t(2), &mut data(1)), Verdict::Delay(Dur::from_millis(8)));
    assert_eq!(h.on_packet(t(20), &mut data(2)), Verdict::Delay(Dur::from_millis(1)));
    assert!(h
        .change(t(21), &HookChange::N(3))
        .unwrap_err()
        .contains("a 'delay' middlebox has no `n`"));
}
