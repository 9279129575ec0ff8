//! Receivers: data segments in, ACKs out.

use super::*;
use crate::ids::FlowId;
use crate::net::Net;
use crate::packet::{Ecn, Packet};
use crate::tcp::testkit::{instant_net, ms, run_net};
use crate::time::SimTime;

struct SinkHarness {
    net: Net,
    sink: TcpSink,
}

const ME: (NodeId, AgentId) = (NodeId(1), AgentId(1));

impl SinkHarness {
    fn new(delayed_ack: bool, sack: bool) -> Self {
        Self::with_echo(delayed_ack, sack, false)
    }

    fn with_echo(delayed_ack: bool, sack: bool, dctcp_echo: bool) -> Self {
        let p = SinkParams {
            header: 40,
            delayed_ack,
            delack_interval: Dur::from_millis(100),
            sack,
            inherit_prio: false,
            dctcp_echo,
            ts_echo_bugfix: true,
        };
        SinkHarness {
            net: instant_net(NodeId(1), NodeId(0)),
            sink: TcpSink::new(p, NodeId(0), AgentId(0), 20),
        }
    }

    /// Segment `seq` (1000 B payload) arrives at `at` (or now, if later); returns the ACKs sent by `at` + 1 us.
    fn data_with(&mut self, at: SimTime, seq: u64, ecn: Ecn, fl: u8) -> Vec<TcpHdr> {
        let at = at.max(self.net.now);
        run_net(&mut self.net, &mut self.sink, ME, at);
        let tcp = TcpHdr { seq, payload: 1000, flags: fl, ts_echo: at, ..TcpHdr::default() };
        let id = self.net.pool.alloc(Packet { tcp, ecn, ..Packet::default() });
        self.sink.on_packet(
            id,
            &mut AgentCtx { net: &mut self.net, me: ME.1, node: ME.0, flow: FlowId(0) },
        );
        self.net.pool.free(id);
        self.run(at + Dur::from_micros(1))
    }

    fn data(&mut self, at: SimTime, seq: u64) -> Vec<TcpHdr> {
        self.data_with(at, seq, Ecn::Ect, 0)
    }

    fn run(&mut self, t: SimTime) -> Vec<TcpHdr> {
        run_net(&mut self.net, &mut self.sink, ME, t).iter().map(|p| p.tcp).collect()
    }

    fn acks(&mut self, at: SimTime, seqs: &[u64]) -> Vec<u64> {
        seqs.iter().flat_map(|&s| self.data(at, s)).map(|h| h.ack).collect()
    }
}

#[test]
fn immediate_sink_acks_every_segment_with_the_highest_in_order() {
    let mut h = SinkHarness::new(false, false);
    assert_eq!(h.acks(ms(0), &[0, 1, 3, 4, 2, 5]), [0, 1, 1, 1, 4, 5]);
    assert_eq!(h.net.flows[0].goodput_bytes, 6000);
}

#[test]
fn goodput_counts_in_order_payload_once() {
    let mut h = SinkHarness::new(false, false);
    h.acks(ms(0), &[0, 2, 2, 1, 1]);
    assert_eq!(h.net.flows[0].goodput_bytes, 3000);
}

#[test]
fn delayed_ack_every_second_segment_or_after_the_timer() {
    let mut h = SinkHarness::new(true, false);
    assert!(h.data(ms(0), 0).is_empty());
    assert_eq!(h.data(ms(10), 1).iter().map(|a| a.ack).collect::<Vec<_>>(), [1]);
    assert!(h.data(ms(20), 2).is_empty());
    assert!(h.run(ms(119)).is_empty());
    let late = h.run(ms(121));
    assert_eq!(late.iter().map(|a| (a.ack, a.ts_echo)).collect::<Vec<_>>(), [(2, ms(20))]);
}

/// ns-2.35 `ts_echo_bugfix_ true` (tcp-sink.cc `Acker::update_ts`; RFC 7323 §4.3): ACKs of
/// segments above a hole echo the last in-order segment's timestamp, the hole's filler its own;
/// `false` (ns-2 before 2003/08/13) echoes each arriving segment's.
#[test]
fn acks_above_a_hole_echo_the_last_in_order_timestamp_with_ts_echo_bugfix() {
    for (bugfix, echoes) in [(true, [0, 10, 10, 10, 40, 50]), (false, [0, 10, 30, 35, 40, 50])] {
        let mut h = SinkHarness::new(false, false);
        h.sink.p.ts_echo_bugfix = bugfix;
        let got: Vec<_> = [(0, 0), (10, 1), (30, 3), (35, 4), (40, 2), (50, 5)]
            .iter()
            .flat_map(|&(t, seq)| h.data(ms(t), seq))
            .map(|a| (a.ack, a.ts_echo))
            .collect();
        let want: Vec<_> =
            [0, 1, 1, 1, 4, 5].into_iter().zip(echoes).map(|(a, t)| (a, ms(t))).collect();
        assert_eq!(got, want, "ts_echo_bugfix = {bugfix}");
    }
}

/// RFC 7323 §4.3 (ns-2 `ts_echo_bugfix_ true`): a delayed ACK echoes the earlier of its two
/// segments, as the second is above the last ACK sent plus one; `false`: the second.
#[test]
fn a_delayed_ack_echoes_its_first_segment_with_ts_echo_bugfix() {
    for (bugfix, echo) in [(true, 10), (false, 20)] {
        let mut h = SinkHarness::new(true, false);
        h.sink.p.ts_echo_bugfix = bugfix;
        h.acks(ms(0), &[0]);
        h.run(ms(101));
        assert!(h.data(ms(110), 1).is_empty());
        let acks: Vec<_> = h.data(ms(120), 2).iter().map(|a| (a.ack, a.ts_echo)).collect();
        assert_eq!(acks, [(2, ms(echo + 100))], "ts_echo_bugfix = {bugfix}");
    }
}

#[test]
fn delayed_ack_is_immediate_out_of_order_and_on_filling_a_gap() {
    let mut h = SinkHarness::new(true, false);
    h.acks(ms(0), &[0, 1]);
    assert_eq!(h.acks(ms(10), &[3]), [1], "out of order");
    assert_eq!(h.acks(ms(20), &[2]), [3], "fills the gap");
}

#[test]
fn sack_blocks_most_recent_first_at_most_three() {
    let mut h = SinkHarness::new(false, true);
    h.acks(ms(0), &[0]);
    let mut last = TcpHdr::default();
    for s in [2, 4, 6, 8] {
        last = h.data(ms(1), s).pop().unwrap();
    }
    assert_eq!((last.ack, last.nsack), (0, 3));
    assert_eq!(last.sack, [(8, 9), (6, 7), (4, 5)]);
    // 5 joins [4, 5) and [6, 7): the merged block comes first; blocks it covers disappear,
    // and [2, 3), no longer among the last three reported, is not repeated (nsim, like ns-2,
    // remembers only the blocks it reported).
    let a = h.data(ms(2), 5).pop().unwrap();
    assert_eq!(a.nsack, 2);
    assert_eq!(a.sack[..2], [(4, 7), (8, 9)]);
}

#[test]
fn sack_ack_grows_by_eight_bytes_per_block() {
    let mut h = SinkHarness::new(false, true);
    h.data(ms(0), 0);
    run_net(&mut h.net, &mut h.sink, ME, ms(1));
    let before = h.net.links[0].stats.arrival_bytes;
    h.data(ms(2), 2);
    assert_eq!(h.net.links[0].stats.arrival_bytes - before, 48);
}

#[test]
fn ce_is_echoed_until_cwr() {
    let mut h = SinkHarness::new(false, false);
    let ece = |v: Vec<TcpHdr>| v[0].flags & flags::ECE != 0;
    assert!(!ece(h.data(ms(0), 0)));
    assert!(ece(h.data_with(ms(1), 1, Ecn::Ce, 0)));
    assert!(ece(h.data(ms(2), 2)));
    assert!(!ece(h.data_with(ms(3), 3, Ecn::Ect, flags::CWR)));
}

/// RFC 8257 §3.2: each ACK echoes the CE state of the segments it acknowledges; no CWR needed.
#[test]
fn dctcp_sink_echoes_exactly_the_marked_segments() {
    let mut h = SinkHarness::with_echo(false, false, true);
    let ece = |v: Vec<TcpHdr>| v[0].flags & flags::ECE != 0;
    assert!(!ece(h.data(ms(0), 0)));
    assert!(ece(h.data_with(ms(1), 1, Ecn::Ce, 0)));
    assert!(
        !ece(h.data(ms(2), 2)),
        "the next unmarked segment's ACK carries no ECE (RFC 3168 would)"
    );
    assert!(ece(h.data_with(ms(3), 3, Ecn::Ce, 0)));
}

/// RFC 8257 §3.2, delayed ACK: when the CE state changes while an ACK is held, that ACK goes
/// at once with the old state (the state machine's "send an immediate ACK").
#[test]
fn dctcp_sink_with_delayed_ack_flushes_the_held_ack_on_a_ce_change() {
    let mut h = SinkHarness::with_echo(true, false, true);
    assert!(h.data(ms(0), 0).is_empty(), "held");
    let out = h.data_with(ms(1), 1, Ecn::Ce, 0);
    let got: Vec<(u64, bool)> = out.iter().map(|a| (a.ack, a.flags & flags::ECE != 0)).collect();
    assert_eq!(
        got,
        [(0, false)],
        "the held ACK for segment 0 goes unmarked; segment 1 is now held"
    );
    let out = h.data_with(ms(2), 2, Ecn::Ce, 0);
    assert_eq!(
        out.iter().map(|a| (a.ack, a.flags & flags::ECE != 0)).collect::<Vec<_>>(),
        [(2, true)]
    );
}

#[test]
fn acks_inherit_the_precedence_of_the_data_they_answer_when_asked() {
    // TCP-DS Noureddine 2002 (§4.6.1): "ACKs are marked with the priority of the data they acknowledge".
    for inherit in [true, false] {
        let mut h = SinkHarness::new(false, false);
        h.sink.p.inherit_prio = inherit;
        let mut prios = vec![];
        for (seq, prio) in [(0u64, 2u8), (1, 0), (2, 1)] {
            run_net(&mut h.net, &mut h.sink, ME, ms(seq));
            let tcp = TcpHdr { seq, payload: 1000, ts_echo: ms(seq), ..TcpHdr::default() };
            let id = h.net.pool.alloc(Packet { tcp, prio, ..Packet::default() });
            h.sink.on_packet(
                id,
                &mut AgentCtx { net: &mut h.net, me: ME.1, node: ME.0, flow: FlowId(0) },
            );
            h.net.pool.free(id);
            prios.extend(
                run_net(&mut h.net, &mut h.sink, ME, ms(seq) + Dur::from_micros(1))
                    .iter()
                    .map(|p| p.prio),
            );
        }
        assert_eq!(prios, if inherit { [2, 0, 1] } else { [0, 0, 0] });
    }
}
