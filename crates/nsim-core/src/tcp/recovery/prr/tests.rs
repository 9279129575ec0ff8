//! PRR against RFC 6937 §3.1's worked examples (cwnd = FlightSize = pipe = 20 packets,
//! ssthresh 10, limited transmit on, segment 0 lost, or segments 0-14), ACK by ACK: first the
//! arithmetic alone with the RFC's own pipe rows, then the whole sender.

use super::Prr;
use crate::packet::TcpHdr;
use crate::tcp::config::{PrrBound, SackAlgorithm, TcpConfig, Variant};
use crate::tcp::testkit::{ms, TcpHarness, ACK};
use crate::tcp::CongState;

/// sndcnt on each ACK for (DeliveredData, pipe) pairs, with prr_out += sndcnt.
fn sndcnts(bound: PrrBound, recover_fs: i64, acks: &[(i64, i64)]) -> Vec<i64> {
    let mut prr = Prr::start(bound, 10.0, recover_fs);
    acks.iter()
        .map(|&(delivered, pipe)| {
            let n = prr.on_ack(delivered, pipe);
            (0..n).for_each(|_| prr.on_sent(1));
            n
        })
        .collect()
}

/// §3.1, 15 losses: the 3 ACKs that start and follow recovery (segments 17-19) with the
/// table's pipe rows. PRR-CRB sends 1 per ACK (RB "b": prr_delivered - prr_out), PRR-SSRB 2
/// (RB "bd", "d", "d": DeliveredData + 1), pipe rising 4, 5, 6.
#[test]
fn burst_loss_example_crb_one_per_ack_ssrb_two() {
    assert_eq!(sndcnts(PrrBound::Crb, 20, &[(1, 4), (1, 4), (1, 4)]), [1, 1, 1]);
    assert_eq!(sndcnts(PrrBound::Ssrb, 20, &[(1, 4), (1, 5), (1, 6)]), [2, 2, 2]);
}

/// §3.1, single loss: with the table's pipe row (acks 3-16: 18 18 17 17 ... 12 12) PRR sends
/// on every second ACK (R, N, N, ...), as the table does, with either bound (§3.1: "PRR with
/// either of the Reduction Bounds has the same behavior"). The table's last three columns
/// (nothing at ack 17, one packet at 18 and 19 with RB "s") are not what §3's pseudocode gives
/// for its own pipe row: at ack 18, pipe 10 = ssthresh makes RB "s" = ssthresh - pipe = 0.
/// The pseudocode sends at ack 17 (pipe 11 > ssthresh: ⌈15 · 10 / 20⌉ - 7 = 1) instead, and
/// leaves pipe at exactly ssthresh (§4).
#[test]
fn single_loss_example_sends_on_every_second_ack() {
    let pipes = [18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 13, 13, 12, 12];
    let acks: Vec<(i64, i64)> = pipes.iter().map(|&p| (1, p)).collect();
    let table = [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0];
    for bound in [PrrBound::Ssrb, PrrBound::Crb] {
        assert_eq!(sndcnts(bound, 20, &acks), table, "{bound:?}");
    }
    let mut acks = acks;
    acks.extend([(1, 11), (1, 11), (1, 10)]);
    assert_eq!(sndcnts(PrrBound::Ssrb, 20, &acks)[14..], [1, 0, 0]);
}

/// The same two examples in bytes (SMSS = 1000 B, the two-way TCP's units), a sender that sends
/// whole segments while sndcnt allows one: the burst-loss example sends the same segments; the
/// single-loss example sends on every second ACK as well, one ACK later (⌈1 · 10 / 20⌉ rounds
/// half a segment up to a whole packet, in bytes to 500 B, not yet a segment), 7 segments over
/// the 14 ACKs either way.
#[test]
fn the_examples_in_bytes_send_the_same_segments() {
    const SMSS: i64 = 1000;
    let bytes = |bound: PrrBound, acks: &[(i64, i64)]| -> Vec<i64> {
        let mut prr = Prr::start_in_units(bound, 10.0 * SMSS as f64, 20 * SMSS, SMSS);
        acks.iter()
            .map(|&(delivered, pipe)| {
                let segments = prr.on_ack(delivered * SMSS, pipe * SMSS) / SMSS * SMSS;
                prr.on_sent(segments);
                segments
            })
            .collect()
    };
    let times = |v: &[i64]| v.iter().map(|n| n * SMSS).collect::<Vec<_>>();
    assert_eq!(bytes(PrrBound::Crb, &[(1, 4), (1, 4), (1, 4)]), times(&[1, 1, 1]));
    assert_eq!(bytes(PrrBound::Ssrb, &[(1, 4), (1, 5), (1, 6)]), times(&[2, 2, 2]));
    let pipes = [18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 13, 13, 12, 12];
    let acks: Vec<(i64, i64)> = pipes.iter().map(|&p| (1, p)).collect();
    assert_eq!(bytes(PrrBound::Ssrb, &acks), times(&[0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]));
    // ssthresh is at least one SMSS.
    let mut prr = Prr::start_in_units(PrrBound::Crb, 10.0, 20 * SMSS, SMSS);
    assert_eq!(prr.on_ack(SMSS, 0), SMSS, "ssthresh - pipe = 1 SMSS");
}

/// §4: with a small loss, the flight at the end of recovery is exactly ssthresh, whatever
/// RecoverFS and ssthresh (each ACK delivers one packet; pipe follows what was sent).
#[test]
fn single_loss_ends_with_the_flight_at_ssthresh() {
    for (fs, ss) in [(20, 10), (21, 10), (20, 14), (37, 25), (100, 70), (7, 3)] {
        for bound in [PrrBound::Ssrb, PrrBound::Crb] {
            let mut prr = Prr::start(bound, ss as f64, fs);
            // One packet lost (out of pipe once detected) and retransmitted: fs - 1 ACKs each
            // deliver one packet.
            let mut pipe = fs - 1;
            for _ in 0..fs - 1 {
                pipe -= 1;
                let n = prr.on_ack(1, pipe);
                (0..n).for_each(|_| prr.on_sent(1));
                pipe += n;
            }
            assert_eq!(pipe, ss, "RecoverFS {fs}, ssthresh {ss}, {bound:?}");
        }
    }
}

/// §3: sndcnt is never negative, and the proportional part never sends more in total than
/// ⌈prr_delivered · ssthresh / RecoverFS⌉.
#[test]
fn proportional_part_tracks_the_ratio() {
    let mut prr = Prr::start(PrrBound::Ssrb, 7.0, 10);
    let mut out = 0;
    for delivered in 1..=10 {
        let n = prr.on_ack(1, 50);
        assert!(n >= 0);
        (0..n).for_each(|_| prr.on_sent(1));
        out += n;
        assert_eq!(out, (delivered * 7 + 9) / 10);
    }
}

fn prr_sender(variant: Variant, bound: PrrBound) -> TcpHarness {
    let mut h = TcpHarness::new(variant, |p| {
        p.window = 50;
        p.sack1.algorithm = SackAlgorithm::Rfc6675;
        p.sack1.prr = Some(bound);
    });
    // 0..18 out, the ACK of 0 opens cwnd to 20 and releases 19 and 20: 1..=20 in flight.
    h.tx.cc.set_cwnd(19.0);
    h.start();
    assert_eq!(h.cum(ms(100), 0), [19, 20]);
    h
}

/// An ACK of 0 SACKing `[from, to)`.
fn sack(from: u64, to: u64) -> TcpHdr {
    let mut h = TcpHdr { ack: 0, nsack: 1, ..ACK };
    h.sack[0] = (from, to);
    h
}

/// The single-loss example through the whole sender (RFC 6675 scoreboard and pipe, NextSeg,
/// the congestion control's ssthresh): segment 1 is the RFC's lost segment 0. RecoverFS is
/// snd.nxt - snd.una = 22 (20 plus the two limited-transmit segments), so the sends fall
/// slightly later than in the table; recovery ends with cwnd = ssthresh = 10 and the flight at
/// ssthresh: PRR sent ⌈21 · 10 / 22⌉ = 10 packets for the 21 delivered, the retransmission
/// and 9 new ones, and the exit ACK releases one more.
#[test]
fn sender_single_loss_recovers_to_ssthresh() {
    let mut h = prr_sender(Variant::Sack1, PrrBound::Ssrb);
    let sent: Vec<Vec<u64>> = (1..=19).map(|k| h.ack(ms(200 + k), sack(2, 2 + k))).collect();
    assert_eq!(sent[0], [21]);
    assert_eq!(sent[1], [22]);
    assert_eq!(sent[2], [1], "fast retransmit on the third duplicate ACK");
    assert_eq!(h.ssthresh(), 10.0);
    let per_ack: Vec<usize> = sent[2..].iter().map(Vec::len).collect();
    assert_eq!(per_ack, [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1]);
    // The limited-transmit segments and the retransmission arrive: recovery is over.
    h.ack(ms(230), sack(2, 22));
    h.ack(ms(231), sack(2, 23));
    assert_eq!(h.state(), CongState::Recovery);
    h.cum(ms(240), 22);
    assert_eq!(h.state(), CongState::Open);
    assert_eq!(h.cwnd(), 10.0, "cwnd = ssthresh at exit (the exit ACK does not grow it)");
    let c = &h.tx.core;
    assert_eq!(c.maxseq - c.highest_ack, 10, "the flight after the exit ACK is ssthresh");
    assert_eq!((h.counters().fast_retransmits, h.counters().timeouts), (1, 0));
}

/// PRR's target is the congestion control's ssthresh (RFC 6937 §3 "CongCtrlAlg()"): CUBIC
/// keeps β = 0.7 of the window (RFC 9438 §4.6), so the same single loss ends with cwnd and the
/// flight at 14, after ⌈21 · 14 / 22⌉ = 14 packets sent in recovery.
#[test]
fn sender_takes_ssthresh_from_cubic() {
    let mut h = prr_sender(Variant::Cubic, PrrBound::Ssrb);
    let sent: usize = (1..=21).map(|k| h.ack(ms(200 + k), sack(2, 2 + k)).len()).sum();
    assert_eq!(h.ssthresh(), 14.0);
    assert_eq!(sent, 2 + 14, "two limited-transmit packets, then PRR's");
    h.cum(ms(240), 22);
    assert_eq!((h.state(), h.cwnd()), (CongState::Open, 14.0));
    let c = &h.tx.core;
    assert_eq!(c.maxseq - c.highest_ack, 14);
}

/// The burst example through the sender: segments 1-15 lost, 16.. arrive. IsLost(1) on the
/// third SACK starts recovery with pipe 4: PRR-CRB retransmits 1 packet per ACK, PRR-SSRB 2.
#[test]
fn sender_burst_loss_crb_and_ssrb() {
    for (bound, want) in [
        (PrrBound::Crb, [vec![1], vec![2], vec![3]]),
        (PrrBound::Ssrb, [vec![1, 2], vec![3, 4], vec![5, 6]]),
    ] {
        let mut h = prr_sender(Variant::Sack1, bound);
        assert_eq!(h.ack(ms(201), sack(16, 17)), [21]);
        assert_eq!(h.ack(ms(202), sack(16, 18)), [22]);
        let sent: Vec<Vec<u64>> = (0..3).map(|i| h.ack(ms(203 + i), sack(16, 19 + i))).collect();
        assert_eq!(sent, want, "{bound:?}");
    }
}

/// PRR runs inside RFC 6675 recovery, so it needs that recovery: a clear error otherwise.
#[test]
fn prr_needs_rfc6675_sack_recovery() {
    let resolve = |v: serde_json::Value| {
        serde_json::from_value::<TcpConfig>(v)
            .unwrap()
            .resolve("flows.f.transport")
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let e = resolve(serde_json::json!({ "variant": "sack1", "sack1": { "prr": "ssrb" } }));
    assert!(e.contains("flows.f.transport.sack1.prr") && e.contains("rfc6675"), "{e}");
    let e = resolve(
        serde_json::json!({ "variant": "newreno", "sack1": { "algorithm": "rfc6675", "prr": "crb" } }),
    );
    assert!(e.contains("sack1.prr") && e.contains("newreno"), "{e}");
    let e = resolve(
        serde_json::json!({ "variant": "cubic", "recovery": "reno", "sack1": { "algorithm": "rfc6675", "prr": "crb" } }),
    );
    assert!(e.contains("sack1.prr"), "{e}");
    let ok = serde_json::json!({ "variant": "cubic", "sack1": { "algorithm": "rfc6675", "prr": "ssrb" } });
    assert!(serde_json::from_value::<TcpConfig>(ok).unwrap().resolve("t").is_ok());
}
