//! Ethernet port tests against IEEE 802.3 arithmetic (Annex 31B, clause 4.4.2) and the PAUSE
//! rules of Annex 31B.3; Noureddine 2002's watermark hysteresis (§3.4).

use super::framing::{pause_duration, pause_wire_bytes, wire_bytes};
use super::pause::{PauseTime, PauseTimers, Scope, ALL_COS};
use super::watermark::{Detector, QueueLevel, Selectivity, Style};
use crate::ids::NodeId;
use crate::time::{Dur, SimTime};
use crate::units::BitsPerSec;

const MB10: BitsPerSec = BitsPerSec(10_000_000);

fn us(t: u64) -> SimTime {
    SimTime(Dur::from_micros(t).0)
}

#[test]
fn a_pause_quantum_is_512_bit_times() {
    // 802.3 Annex 31B.2: 51.2 us at 10 Mb/s, 5.12 us at 100 Mb/s, 0.512 us at 1 Gb/s.
    assert_eq!(pause_duration(1, MB10), Dur::from_nanos(51_200));
    assert_eq!(pause_duration(1, BitsPerSec(100_000_000)), Dur::from_nanos(5_120));
    assert_eq!(pause_duration(1, BitsPerSec(1_000_000_000)), Dur::from_ps(512_000));
}

#[test]
fn the_longest_pause_is_3_355_s_at_10_mb() {
    // 65535 quanta x 51.2 us = 3.355392 s Noureddine 2002 (§3.3: "about 3 seconds"; notes: 3.36 s).
    assert_eq!(pause_duration(u16::MAX, MB10), Dur::from_micros(3_355_392));
    assert_eq!(pause_duration(u16::MAX, BitsPerSec(1_000_000_000)), Dur::from_nanos(33_553_920));
}

#[test]
fn framing_pads_to_64_bytes_and_adds_preamble_and_gap() {
    // 802.3 clause 3.1.1 / 4.4.2: a 40-byte IP packet is padded to a 64-byte frame; a 1500-byte
    // one becomes 1518; each adds 8 bytes of preamble+SFD and 12 of inter-packet gap.
    assert_eq!(wire_bytes(40, true), 84);
    assert_eq!(wire_bytes(46, true), 84);
    assert_eq!(wire_bytes(47, true), 85);
    assert_eq!(wire_bytes(1500, true), 1538);
    assert_eq!(wire_bytes(1500, false), 1500);
    // A PAUSE frame is a minimum frame: 672 bit times with framing.
    assert_eq!(pause_wire_bytes(true) * 8, 672);
    assert_eq!(pause_wire_bytes(false), 64);
}

/// Queue `q` holding every class and `bytes`.
fn lv(q: usize, bytes: u64) -> QueueLevel {
    QueueLevel { q, cos: ALL_COS, bytes }
}

/// A 100 KB port that sends no PAUSE, without framing.
fn port_config(classes: usize, blocked_cap: Option<u64>) -> super::spec::PortConfig {
    super::spec::PortConfig {
        buffer: 100_000,
        classes,
        framing: false,
        pause: Selectivity::Off,
        style: Style::XonXoff,
        high: 80_000,
        low: 70_000,
        ignore_pause: false,
        blocked_cap,
    }
}

fn all() -> Scope {
    Scope { dst: None, cos: ALL_COS }
}

#[test]
fn a_new_pause_overrides_and_zero_cancels() {
    let q = pause_duration(1, MB10);
    let mut t = PauseTimers::default();
    let d = NodeId(0);
    t.apply(all(), PauseTime::Quanta(100), us(0), q, 1);
    assert!(t.blocks(0, d, us(5_119)) && !t.blocks(0, d, us(5_120)));
    // A shorter PAUSE received later replaces the timer (Annex 31B.3.4: the timer is loaded).
    t.apply(all(), PauseTime::Quanta(10), us(1_000), q, 1);
    assert!(t.blocks(7, d, us(1_511)) && !t.blocks(7, d, us(1_512)));
    // pause_time = 0 resumes at once.
    t.apply(all(), PauseTime::Quanta(100), us(2_000), q, 1);
    t.apply(all(), PauseTime::Quanta(0), us(2_100), q, 1);
    assert!(!t.blocks(0, d, us(2_100)));
    // Paused: [0, 1512) and [2000, 2100).
    assert_eq!(t.paused_time(us(10_000)), Dur::from_micros(1_512 + 100));
    assert_eq!(t.next_expiry(us(2_100)), None);
}

#[test]
fn xoff_holds_until_xon_and_scopes_are_selective() {
    let q = pause_duration(1, MB10);
    let mut t = PauseTimers::default();
    let (d1, d2) = (NodeId(1), NodeId(2));
    t.apply(Scope { dst: Some(d1), cos: ALL_COS }, PauseTime::Xoff, us(0), q, 3);
    assert!(t.blocks(0, d1, us(1_000_000_000)) && !t.blocks(0, d2, us(10)));
    assert!(!t.blocks_all(us(10)));
    t.apply(Scope { dst: None, cos: 1 << 5 }, PauseTime::Xoff, us(0), q, 3);
    assert!(t.blocks(5, d2, us(10)) && !t.blocks(4, d2, us(10)));
    t.apply(Scope { dst: Some(d1), cos: ALL_COS }, PauseTime::Quanta(0), us(50), q, 3);
    assert!(!t.blocks(0, d1, us(50)) && t.blocks(5, d1, us(50)));
}

#[test]
fn watermarks_have_hysteresis() {
    // 70 KB buffer: XOFF above 56 KB, nothing between, XON below 49 KB Noureddine 2002 (§3.5).
    let mut det = Detector::new(Selectivity::Simple, Style::XonXoff, 56_000, 49_000, 1);
    let mut out = Vec::new();
    let d = NodeId(0);
    det.on_enqueue(lv(0, 56_000), d, std::iter::empty, us(0), &mut out);
    assert!(out.is_empty(), "at the high watermark, not above it");
    det.on_enqueue(lv(0, 57_000), d, std::iter::empty, us(1), &mut out);
    assert_eq!(out, vec![(all(), PauseTime::Xoff)]);
    out.clear();
    det.on_enqueue(lv(0, 58_000), d, std::iter::empty, us(2), &mut out);
    det.on_dequeue(lv(0, 50_000), &mut out);
    det.on_dequeue(lv(0, 49_000), &mut out);
    assert!(out.is_empty(), "still congested down to the low watermark");
    det.on_dequeue(lv(0, 48_000), &mut out);
    assert_eq!(out, vec![(all(), PauseTime::Quanta(0))]);
    out.clear();
    det.on_dequeue(lv(0, 1_000), &mut out);
    det.on_enqueue(lv(0, 55_000), d, std::iter::empty, us(3), &mut out);
    assert!(out.is_empty());
}

#[test]
fn destination_pause_names_the_destinations_in_the_congested_queue() {
    let mut det = Detector::new(Selectivity::Destination, Style::XonXoff, 100, 50, 1);
    let mut out = Vec::new();
    let dsts = [NodeId(3), NodeId(4), NodeId(3)];
    det.on_enqueue(lv(0, 150), NodeId(3), || dsts.into_iter(), us(0), &mut out);
    let named: Vec<_> = out.iter().map(|(s, _)| s.dst).collect();
    assert_eq!(named, vec![Some(NodeId(3)), Some(NodeId(4))]);
    out.clear();
    det.on_enqueue(lv(0, 160), NodeId(5), std::iter::empty, us(1), &mut out);
    assert_eq!(out, vec![(Scope { dst: Some(NodeId(5)), cos: ALL_COS }, PauseTime::Xoff)]);
    out.clear();
    det.on_dequeue(lv(0, 10), &mut out);
    assert_eq!(out.len(), 3);
    assert!(out.iter().all(|(_, t)| *t == PauseTime::Quanta(0)));
}

#[test]
fn a_timed_pause_is_renewed_once_it_has_run_out() {
    let mut det = Detector::new(Selectivity::Simple, Style::Timed(1000), 100, 50, 1);
    det.refresh = pause_duration(1000, MB10); // 51.2 ms
    let mut out = Vec::new();
    let d = NodeId(0);
    det.on_enqueue(lv(0, 150), d, std::iter::empty, us(0), &mut out);
    assert_eq!(out, vec![(all(), PauseTime::Quanta(1000))]);
    out.clear();
    det.on_enqueue(lv(0, 160), d, std::iter::empty, us(51_199), &mut out);
    assert!(out.is_empty());
    det.on_enqueue(lv(0, 160), d, std::iter::empty, us(51_200), &mut out);
    assert_eq!(out, vec![(all(), PauseTime::Quanta(1000))]);
}

mod on_a_link {
    use super::*;
    use crate::ids::LinkId;
    use crate::net::ethernet::port::EthPort;
    use crate::net::{Link, Net, Node, NodeKind, RouteTable};
    use crate::packet::Packet;
    use crate::queue::droptail::DropTail;
    use crate::units::Limit;

    /// Hosts a and b joined by a 10 Mb/s Ethernet link without framing (1 us each way).
    fn two_hosts() -> Net {
        let nodes = vec![
            Node { name: "a".into(), kind: NodeKind::Host },
            Node { name: "b".into(), kind: NodeKind::Host },
        ];
        let cfg = port_config(1, None);
        let link = |from, to, id| {
            let mut l = Link::new(
                NodeId(from),
                NodeId(to),
                MB10,
                Dur::from_micros(1),
                Box::new(DropTail::new(Limit::Packets(1), false)),
                0,
                id,
            );
            l.set_eth(EthPort::new(cfg.clone(), MB10));
            l
        };
        let routes = RouteTable::shortest_paths(
            2,
            &[(NodeId(0), NodeId(1), 0), (NodeId(1), NodeId(0), 0)],
            crate::net::routing::Metric::Hops,
        );
        Net::new(nodes, vec![link(0, 1, 0), link(1, 0, 1)], routes, 1)
    }

    /// Runs events up to `t`; returns the arrival times of delivered packets (freed).
    fn run(net: &mut Net, t: SimTime) -> Vec<SimTime> {
        crate::net::testkit::run_links(net, t, |_, _, _| {}).into_iter().map(|(at, _)| at).collect()
    }

    fn send(net: &mut Net) {
        let id = net.pool.alloc(Packet {
            src: NodeId(0),
            dst: NodeId(1),
            size: 1500,
            ..Default::default()
        });
        assert!(net.forward(NodeId(0), id).is_none());
    }

    fn pause(net: &mut Net, time: PauseTime) {
        let now = net.now;
        net.eth_port(LinkId(0)).receive(all(), time, now, 2);
        net.kick(LinkId(0));
    }

    #[test]
    fn the_frame_in_transmission_completes_and_the_next_waits_for_xon() {
        let mut net = two_hosts();
        send(&mut net);
        send(&mut net);
        // 1500 B at 10 Mb/s = 1.2 ms; PAUSE (XOFF) arrives half way through the first frame.
        assert!(run(&mut net, us(600)).is_empty());
        pause(&mut net, PauseTime::Xoff);
        assert_eq!(run(&mut net, us(10_000)), vec![us(1_201)], "no pre-emption");
        assert_eq!(net.links[0].waiting(), 1);
        pause(&mut net, PauseTime::Quanta(0));
        assert_eq!(run(&mut net, us(20_000)), vec![us(11_201)]);
        assert_eq!(net.eth_port(LinkId(0)).timers.paused_time(us(20_000)), Dur::from_micros(9_400));
    }

    #[test]
    fn a_timed_pause_runs_out_by_itself() {
        let mut net = two_hosts();
        send(&mut net);
        send(&mut net);
        run(&mut net, us(600));
        pause(&mut net, PauseTime::Quanta(100)); // 5.12 ms: until 5.72 ms
        assert_eq!(run(&mut net, us(20_000)), vec![us(1_201), us(5_720 + 1_201)]);
    }

    #[test]
    fn a_non_responsive_sender_ignores_pause_but_counts_it() {
        let mut net = two_hosts();
        net.eth_port(LinkId(0)).cfg.ignore_pause = true;
        send(&mut net);
        send(&mut net);
        run(&mut net, us(600));
        pause(&mut net, PauseTime::Xoff);
        assert_eq!(run(&mut net, us(20_000)), vec![us(1_201), us(2_401)]);
        assert_eq!(net.eth_port(LinkId(0)).stats.pause_received, 1);
    }
}

mod in_a_port {
    use super::*;
    use crate::net::ethernet::port::EthPort;
    use crate::packet::{Packet, PacketPool};
    use crate::record::DropReason;

    fn port(classes: usize, blocked_cap: Option<u64>) -> EthPort {
        EthPort::new(port_config(classes, blocked_cap), MB10)
    }

    fn pkt(pool: &mut PacketPool, dst: u32, prio: u8) -> crate::packet::PacketId {
        pool.alloc(Packet { dst: NodeId(dst), size: 1000, prio, ..Default::default() })
    }

    #[test]
    fn blocked_frames_are_capped_and_skipped_over() {
        // Noureddine 2002 §3.5.2: cap what stopped flows may hold; others pass them by.
        let (mut p, mut pool, mut out) = (port(1, Some(2_500)), PacketPool::default(), Vec::new());
        p.receive(Scope { dst: Some(NodeId(1)), cos: ALL_COS }, PauseTime::Xoff, us(0), 3);
        let a = pkt(&mut pool, 1, 0);
        let b = pkt(&mut pool, 1, 0);
        let c = pkt(&mut pool, 1, 0);
        let d = pkt(&mut pool, 2, 0);
        assert_eq!(p.admit(a, us(1), &pool, &mut out), Ok(()));
        assert_eq!(p.admit(b, us(2), &pool, &mut out), Ok(()));
        assert_eq!(p.admit(c, us(3), &pool, &mut out), Err(DropReason::BlockedCap));
        assert_eq!(p.admit(d, us(4), &pool, &mut out), Ok(()));
        assert_eq!(p.next(us(5), &mut out), Some(d));
        assert_eq!(p.next(us(6), &mut out), None);
        p.receive(Scope { dst: Some(NodeId(1)), cos: ALL_COS }, PauseTime::Quanta(0), us(7), 3);
        assert_eq!(p.next(us(7), &mut out), Some(a));
        assert_eq!(p.next(us(8), &mut out), Some(b));
        assert_eq!(p.buf.queues[0].drops[DropReason::BlockedCap.idx()], 1);
    }

    #[test]
    fn a_class_pause_stops_only_its_class_and_priority_is_strict() {
        let (mut p, mut pool, mut out) = (port(2, None), PacketPool::default(), Vec::new());
        // Queue 1 holds priorities 1..7 (mask 0xFE), queue 0 priority 0.
        assert_eq!((p.buf.cos_mask(0), p.buf.cos_mask(1)), (0x01, 0xFE));
        let lo = pkt(&mut pool, 1, 0);
        let hi = pkt(&mut pool, 1, 5);
        p.admit(lo, us(0), &pool, &mut out).unwrap();
        p.admit(hi, us(0), &pool, &mut out).unwrap();
        p.receive(Scope { dst: None, cos: p.buf.cos_mask(1) }, PauseTime::Xoff, us(1), 2);
        assert_eq!(p.next(us(2), &mut out), Some(lo), "the stopped class waits");
        let lo2 = pkt(&mut pool, 1, 0);
        p.admit(lo2, us(3), &pool, &mut out).unwrap();
        p.receive(Scope { dst: None, cos: p.buf.cos_mask(1) }, PauseTime::Quanta(0), us(4), 2);
        assert_eq!(p.next(us(5), &mut out), Some(hi), "strict priority once resumed");
        assert_eq!(p.next(us(6), &mut out), Some(lo2));
    }

    #[test]
    fn lanes_serve_exactly_as_a_scan_for_the_first_unstopped_frame() {
        // Noureddine 2002 §3.4's rule read literally: strict priority over the class queues, and in
        // a queue the first frame (in arrival order) its timers do not stop; the bytes stopped
        // are those of the stopped frames. Random arrivals, departures and PAUSE frames over
        // 3 destinations and 8 classes in 3 queues; the port must agree at every step.
        use crate::net::ethernet::pause::cos_of;
        use crate::packet::PacketId;
        let (mut p, mut pool, mut out) = (port(3, None), PacketPool::default(), Vec::new());
        let mut fifos: Vec<Vec<(PacketId, u32, usize, NodeId)>> = vec![Vec::new(); 3];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut draw = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for step in 0..20_000u64 {
            let now = us(step);
            match draw(10) {
                0..=4 => {
                    let (dst, prio, size) = (draw(3) as u32, draw(8) as u8, 40 + draw(1460) as u32);
                    let id =
                        pool.alloc(Packet { dst: NodeId(dst), size, prio, ..Default::default() });
                    if p.admit(id, now, &pool, &mut out).is_ok() {
                        fifos[p.buf.queue_of(prio)].push((id, size, cos_of(prio), NodeId(dst)));
                    }
                }
                5..=7 => {
                    let expect = (0..3).rev().find_map(|q| {
                        let i = fifos[q]
                            .iter()
                            .position(|&(_, _, c, d)| !p.timers.blocks(c, d, now))?;
                        Some(fifos[q].remove(i).0)
                    });
                    assert_eq!(p.next(now, &mut out), expect, "step {step}");
                }
                _ => {
                    let dst = if draw(2) == 0 { None } else { Some(NodeId(draw(3) as u32)) };
                    let time = match draw(3) {
                        0 => PauseTime::Xoff,
                        1 => PauseTime::Quanta(0),
                        _ => PauseTime::Quanta(draw(40) as u16),
                    };
                    p.receive(Scope { dst, cos: draw(256) as u8 }, time, now, 3);
                }
            }
            for (q, fifo) in fifos.iter().enumerate() {
                let stopped = fifo
                    .iter()
                    .filter(|&&(_, _, c, d)| p.timers.blocks(c, d, now))
                    .map(|&(_, s, _, _)| s as u64)
                    .sum::<u64>();
                assert_eq!(p.buf.blocked_bytes(q, &p.timers, now), stopped, "step {step}");
                let mut firsts: Vec<NodeId> = Vec::new();
                for &(_, _, _, d) in fifo {
                    if !firsts.contains(&d) {
                        firsts.push(d);
                    }
                }
                let mut listed: Vec<NodeId> = Vec::new();
                for d in p.buf.dsts_in_order(q) {
                    if !listed.contains(&d) {
                        listed.push(d);
                    }
                }
                assert_eq!(listed, firsts, "step {step}");
            }
        }
    }
}
