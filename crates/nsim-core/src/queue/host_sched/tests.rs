//! Design #3 against hand-computed schedules: token arithmetic, remarking after maxdelay,
//! strict classes with per-mark WRR, and the blocking rule of Algorithm 2.

use std::collections::HashMap;

use super::*;
use crate::ids::FlowId;
use crate::packet::Packet;
use crate::queue::testbench::{Bench, PKT};

/// Flows a, b, c, d = ids 0..3.
fn sched(toml_text: &str) -> Box<dyn QueueDisc> {
    let flows: HashMap<String, FlowId> = ["a", "b", "c", "d"]
        .iter()
        .enumerate()
        .map(|(i, n)| (n.to_string(), FlowId(i as u32)))
        .collect();
    let cfg: HostSchedConfig = toml::from_str(toml_text).unwrap();
    cfg.validate("q").unwrap();
    cfg.build(&BuildCtx { link_rate: BitsPerSec(1_000_000), link_delay: Dur::ZERO, flows: &flows })
        .unwrap()
}

fn pkt(flow: u32, prio: u8, size: u32) -> Packet {
    Packet { flow: FlowId(flow), prio, size, ..PKT }
}

/// Dequeues at `t` ms: (flow, prio it left with) or None, and the wake request.
fn take_at(b: &mut Bench, q: &mut dyn QueueDisc, ms: u64) -> (Option<(u32, u8)>, Option<u64>) {
    b.at(Dur::from_millis(ms));
    let out = b.take(q).map(|id| (b.pool.get(id).flow.0, b.pool.get(id).prio));
    (out, b.wake_at.map(|t| t.0 / 1_000_000_000))
}

/// 8 kb/s = 1000 B/s HIGH bucket of `depth` B; no remarking unless `maxdelay` says so.
const SLOW_HIGH: &str = "high = { rate = \"8kb\", depth = \"1500B\" }\nmaxdelay_high = \"100s\"\nmaxdelay_med = \"100s\"\n";

#[test]
fn high_packets_wait_for_tokens_and_the_link_is_woken_when_they_exist() {
    // Full bucket 1500 B: the first 1000 B leaves at 0 (500 left); the second needs 500 more
    // B at 1000 B/s: 0.5 s; the third then needs 1000 B: 1.5 s.
    let mut q = sched(SLOW_HIGH);
    let mut b = Bench::new();
    for _ in 0..3 {
        b.offer(&mut *q, pkt(0, 0, 1000));
    }
    assert_eq!(take_at(&mut b, &mut *q, 0), (Some((0, 0)), None));
    assert_eq!(take_at(&mut b, &mut *q, 0), (None, Some(500)));
    assert_eq!(take_at(&mut b, &mut *q, 500), (Some((0, 0)), None));
    assert_eq!(take_at(&mut b, &mut *q, 500), (None, Some(1500)));
    assert_eq!(
        take_at(&mut b, &mut *q, 1499),
        (None, Some(1500)),
        "a re-check before the time sends nothing"
    );
    assert_eq!(take_at(&mut b, &mut *q, 1500), (Some((0, 0)), None));
}

#[test]
fn waiting_packets_are_remarked_med_after_200ms_and_low_after_400ms() {
    // HIGH 1000 B/s from 1500 B full, MED 1000 B/s depth 1000 B. Three 1000 B HIGH packets at 0.
    // 0: p1 HIGH (HIGH 500 left). p2 waits: wake at 200 ms (anxious) before 500 ms (tokens).
    // 200: HIGH has 700 B; p2 is anxious and MED has 1000 B: p2 leaves as MED.
    // 200: p3 (anxious too): HIGH 700 B, MED 0 B: wake at 400 ms (very anxious).
    // 400: HIGH 900 B, MED 200 B: p3 leaves as LOW.
    let mut q = sched("high = { rate = \"8kb\", depth = \"1500B\" }\nmed = { rate = \"8kb\", depth = \"1000B\" }\n");
    let mut b = Bench::new();
    for _ in 0..3 {
        b.offer(&mut *q, pkt(0, 0, 1000));
    }
    assert_eq!(take_at(&mut b, &mut *q, 0), (Some((0, 0)), None));
    assert_eq!(take_at(&mut b, &mut *q, 0), (None, Some(200)));
    assert_eq!(take_at(&mut b, &mut *q, 200), (Some((0, 1)), None));
    assert_eq!(take_at(&mut b, &mut *q, 200), (None, Some(400)));
    assert_eq!(take_at(&mut b, &mut *q, 400), (Some((0, 2)), None));
}

#[test]
fn classes_are_strict_and_each_class_runs_wrr_per_mark() {
    // a: class 1 HIGH; d: class 2 MED; b (weight 2) and c: class 3 LOW. Buckets never limit.
    // Order: a, d, then the class-3 LOW round from b (first to arrive): b, b, c, b, c.
    let mut q = sched(
        "connections = [ { match = { flows = [\"a\"] }, class = 1 }, { match = { flows = [\"d\"] }, class = 2 },
                         { match = { flows = [\"b\"] }, class = 3, weight = 2 } ]",
    );
    let mut b = Bench::new();
    for (f, prio) in [(1, 2), (1, 2), (1, 2), (2, 2), (2, 2), (0, 0), (3, 1)] {
        b.offer(&mut *q, pkt(f, prio, 100));
    }
    let order: Vec<(u32, u8)> = (0..7).map(|_| take_at(&mut b, &mut *q, 0).0.unwrap()).collect();
    assert_eq!(order, vec![(0, 0), (3, 1), (1, 2), (1, 2), (2, 2), (1, 2), (2, 2)]);
    assert_eq!(q.len_packets(), 0);
    let stats = q.class_stats();
    assert_eq!(stats.iter().map(|s| s.departures).collect::<Vec<_>>(), vec![1, 1, 5]);
}

#[test]
fn a_higher_class_waiting_for_a_high_token_blocks_lower_classes_at_high_only() {
    // 1000 B/s, depth 1000 B. a (class 1) drains the bucket at 0 with 1000 B; then a queues
    // another 1000 B, b (class 3) a 100 B HIGH packet, c (class 3) a LOW packet.
    // At 100 ms the bucket holds 100 B: b's packet would fit, but a waits for HIGH tokens,
    // so b may not send at HIGH; c's LOW packet leaves. a leaves at 1 s; b at 1.1 s.
    let mut q = sched(
        "connections = [ { match = { flows = [\"a\"] }, class = 1 } ]\nhigh = { rate = \"8kb\", depth = \"1000B\" }\nmaxdelay_high = \"100s\"\nmaxdelay_med = \"100s\"\n",
    );
    let mut b = Bench::new();
    b.offer(&mut *q, pkt(0, 0, 1000));
    assert_eq!(take_at(&mut b, &mut *q, 0), (Some((0, 0)), None));
    b.offer(&mut *q, pkt(0, 0, 1000));
    b.offer(&mut *q, pkt(1, 0, 100));
    b.offer(&mut *q, pkt(2, 2, 1000));
    assert_eq!(take_at(&mut b, &mut *q, 100), (Some((2, 2)), None));
    assert_eq!(take_at(&mut b, &mut *q, 100), (None, Some(1000)));
    assert_eq!(take_at(&mut b, &mut *q, 1000), (Some((0, 0)), None));
    assert_eq!(take_at(&mut b, &mut *q, 1000), (None, Some(1100)));
    assert_eq!(take_at(&mut b, &mut *q, 1100), (Some((1, 0)), None));
}

#[test]
fn arrivals_beyond_the_limit_are_dropped_and_bad_config_is_named() {
    let mut q = sched("limit = 2");
    let mut b = Bench::new();
    let ids: Vec<_> = (0..3).map(|_| b.offer(&mut *q, pkt(0, 2, 100))).collect();
    assert!(b.dropped(ids[2]) && !b.dropped(ids[1]));
    let bad = |t: &str| toml::from_str::<HostSchedConfig>(t).unwrap().validate("q").unwrap_err();
    assert!(bad("connections = [ { match = { flows = [\"a\"] }, class = 4 } ]")
        .starts_with("connections[0].class"));
    assert!(bad("default_class = 0").starts_with("default_class"));
    assert!(bad("high = { rate = \"8kb\", depth = \"0B\" }").starts_with("high"));
}

/// A TCP segment of `flow` with `payload` bytes (0: a pure ACK) and TCP `flags`.
fn seg(flow: u32, prio: u8, size: u32, payload: u32, fl: u8) -> Packet {
    let tcp = crate::packet::TcpHdr { payload, flags: fl, ..crate::packet::TcpHdr::EMPTY };
    Packet { flow: FlowId(flow), prio, size, ptype: crate::packet::PType::Tcp, tcp, ..PKT }
}

#[test]
fn a_must_keep_packet_is_never_remarked_and_waits_for_its_token() {
    // As the remarking test, but p2 carries the MUST flag Noureddine 2002 (§3.7 "packets flagged
    // MUST are never remarked"): no anxiety wake-up at 200 ms; it waits until the HIGH bucket
    // holds 1000 B again (500 B left at 0, 1000 B/s: 500 ms) and leaves HIGH.
    let mut q = sched("high = { rate = \"8kb\", depth = \"1500B\" }\nmed = { rate = \"8kb\", depth = \"1000B\" }\n");
    let mut b = Bench::new();
    b.offer(&mut *q, seg(0, 0, 1000, 960, 0));
    b.offer(&mut *q, seg(0, 0, 1000, 960, crate::packet::flags::MUST_KEEP));
    assert_eq!(take_at(&mut b, &mut *q, 0), (Some((0, 0)), None));
    assert_eq!(take_at(&mut b, &mut *q, 0), (None, Some(500)));
    assert_eq!(
        take_at(&mut b, &mut *q, 450),
        (None, Some(500)),
        "still HIGH at 450 ms, past maxdelay_med"
    );
    assert_eq!(take_at(&mut b, &mut *q, 500), (Some((0, 0)), None));
}

/// Dequeues at `t` ms: (flow, size) of what leaves, and the wake request.
fn take_size(b: &mut Bench, q: &mut dyn QueueDisc, ms: u64) -> (Option<(u32, u32)>, Option<u64>) {
    b.at(Dur::from_millis(ms));
    let out = b.take(q).map(|id| (b.pool.get(id).flow.0, b.pool.get(id).size));
    (out, b.wake_at.map(|t| t.0 / 1_000_000_000))
}

#[test]
fn pure_acks_bypass_the_connection_queues_and_tokens() {
    // A slow HIGH bucket (1500 B full, 1000 B/s); HIGH data of connections 0 and 1, then a
    // pure ACK (no payload) of connection 1 behind its data. With bypass Noureddine 2002 (§3.7) the
    // ACK leaves first and takes no tokens; without, it waits behind connection 1's data,
    // which waits for tokens: 1000 B at 500 ms, then the ACK's 40 B at 540 ms.
    let offer = |q: &mut dyn QueueDisc, b: &mut Bench| {
        b.offer(q, seg(0, 0, 1000, 960, 0));
        b.offer(q, seg(1, 0, 1000, 960, 0));
        b.offer(q, seg(1, 0, 40, 0, crate::packet::flags::ACK));
    };
    let mut q = sched(&format!("{SLOW_HIGH}ack_bypass = true\n"));
    let mut b = Bench::new();
    offer(&mut *q, &mut b);
    assert_eq!(take_size(&mut b, &mut *q, 0), (Some((1, 40)), None), "the ACK first");
    assert_eq!(take_size(&mut b, &mut *q, 0), (Some((0, 1000)), None), "the bucket is still full");
    assert_eq!(take_size(&mut b, &mut *q, 0), (None, Some(500)));
    let mut q = sched(SLOW_HIGH);
    let mut b = Bench::new();
    offer(&mut *q, &mut b);
    assert_eq!(take_size(&mut b, &mut *q, 0), (Some((0, 1000)), None));
    assert_eq!(take_size(&mut b, &mut *q, 0), (None, Some(500)));
    assert_eq!(take_size(&mut b, &mut *q, 500), (Some((1, 1000)), None));
    assert_eq!(take_size(&mut b, &mut *q, 500), (None, Some(540)));
    assert_eq!(take_size(&mut b, &mut *q, 540), (Some((1, 40)), None));
}
