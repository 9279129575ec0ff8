//! Loss recovery driven by synthetic ACK sequences. Fixture: `n` segments 0..n-1 in flight
//! (cwnd = n, ssthresh 50, window 50, no SYN); segment 3 (and more) lost.

use crate::packet::TcpHdr;
use crate::tcp::config::Variant;
use crate::tcp::testkit::{ms, TcpHarness, ACK};
use crate::tcp::CongState;

fn in_flight(variant: Variant, n: u64) -> TcpHarness {
    let mut h = TcpHarness::new(variant, |p| p.window = 50);
    h.tx.cc.set_cwnd(n as f64);
    assert_eq!(h.start(), (0..n).collect::<Vec<_>>());
    h
}

/// An ACK of `ack` with SACK blocks `[l, r)`.
fn sack(ack: u64, blocks: &[(u64, u64)]) -> TcpHdr {
    let mut h = TcpHdr { ack, nsack: blocks.len() as u8, ..ACK };
    h.sack[..blocks.len()].copy_from_slice(blocks);
    h
}

/// Segments 0-2 arrive, 3 is lost, 4.. arrive: three duplicate ACKs of 2 (the first ACK of 2
/// is new). Returns what the sender sent in response to each duplicate.
fn lose_3(h: &mut TcpHarness) -> Vec<Vec<u64>> {
    h.cum(ms(100), 2);
    (0..3).map(|i| h.cum(ms(101 + i), 2)).collect()
}

#[test]
fn limited_transmit_sends_new_data_on_the_first_two_dupacks() {
    let mut h = in_flight(Variant::Reno, 10);
    let sent = lose_3(&mut h);
    // The ACK of 2 opened cwnd to 11 and released 10..=13; each of the first two duplicates
    // releases one more (t_seqno <= highest_ack + cwnd + dupacks).
    assert_eq!(sent[0], [14]);
    assert_eq!(sent[1], [15]);
}

#[test]
fn three_dupacks_halve_flight_not_cwnd_growth() {
    let mut h = in_flight(Variant::Reno, 10);
    let sent = lose_3(&mut h);
    assert_eq!(sent[2], [3], "fast retransmit of the first hole");
    assert_eq!(h.state(), CongState::Recovery);
    // cwnd was 11 when the loss was detected: ssthresh = floor(11/2), cwnd = 11/2.
    assert_eq!((h.cwnd(), h.ssthresh()), (5.5, 5.0));
    assert_eq!(h.counters().fast_retransmits, 1);
}

#[test]
fn reno_inflates_by_one_per_dupack_then_deflates_on_the_full_ack() {
    let mut h = in_flight(Variant::Reno, 10);
    lose_3(&mut h);
    // window = int(5.5) + dupwnd, and 3..=15 are out: segment 16 may leave once
    // 2 + 5 + dupwnd >= 16, i.e. at dupwnd 9, the 6th duplicate after the fast retransmit.
    let more: Vec<Vec<u64>> = (0..7).map(|i| h.cum(ms(110 + i), 2)).collect();
    assert!(more[..5].iter().all(|s| s.is_empty()), "{more:?}");
    assert_eq!(more[5], [16]);
    assert_eq!(more[6], [17]);
    h.cum(ms(200), 17);
    assert_eq!(h.state(), CongState::Open);
    assert!((h.cwnd() - (5.5 + 1.0 / 5.5)).abs() < 1e-9, "deflated to ssthresh-ish: {}", h.cwnd());
}

#[test]
fn reno_second_loss_in_window_waits_for_the_timeout() {
    let mut h = in_flight(Variant::Reno, 10);
    lose_3(&mut h);
    // 7 lost too: the retransmission of 3 is acked up to 6 (a partial ACK): Reno leaves
    // recovery, and the following duplicate ACKs of 6 cannot trigger another fast retransmit.
    h.cum(ms(200), 6);
    assert_eq!(h.state(), CongState::Open);
    let sent: Vec<u64> = (0..5).flat_map(|i| h.cum(ms(201 + i), 6)).collect();
    assert!(!sent.contains(&7), "{sent:?}");
    assert_eq!(h.counters().fast_retransmits, 1);
}

#[test]
fn partial_ack_stays_in_recovery() {
    let mut h = in_flight(Variant::Newreno, 10);
    lose_3(&mut h);
    // 3 repaired, 7 lost as well: the ACK of 6 is partial (recover = 15, the highest sent).
    assert_eq!(h.cum(ms(200), 6), [7], "the next hole is retransmitted at once");
    assert_eq!(h.state(), CongState::Recovery);
    assert_eq!(h.counters().fast_retransmits, 1);
    h.cum(ms(300), 15);
    assert_eq!(h.state(), CongState::Open);
    assert_eq!(h.counters().timeouts, 0);
}

#[test]
fn partial_ack_deflates_the_window() {
    let mut h = in_flight(Variant::Newreno, 10);
    lose_3(&mut h);
    let before = h.cwnd();
    h.cum(ms(200), 6);
    // deflate = 6 - 2 = 4 > dupwnd 3: cwnd -= 4 - 3, dupwnd = 1 (RFC 6582 §3.2 step 5).
    assert_eq!(h.cwnd(), before - 1.0);
}

#[test]
fn tahoe_goes_back_n_with_cwnd_one() {
    let mut h = in_flight(Variant::Tahoe, 10);
    let sent = lose_3(&mut h);
    assert_eq!(sent[2], [3]);
    assert_eq!(h.cwnd(), 1.0);
    // The ACK of the retransmission (everything up to 14 arrived) resumes after 14.
    assert_eq!(h.cum(ms(200), 14), [15, 16]);
}

#[test]
fn sack_dupacks_count_only_with_new_sack_information() {
    let mut h = in_flight(Variant::Sack1, 10);
    h.cum(ms(100), 2);
    h.ack(ms(101), sack(2, &[(4, 5)]));
    h.ack(ms(102), sack(2, &[(4, 5)])); // nothing new: not a duplicate
    h.ack(ms(103), sack(2, &[(4, 6)]));
    assert_eq!(h.state(), CongState::Disorder);
    assert_eq!(h.ack(ms(104), sack(2, &[(4, 7)])), [3]);
    assert_eq!(h.state(), CongState::Recovery);
}

#[test]
fn sack_retransmits_every_hole_before_new_data() {
    let mut h = in_flight(Variant::Sack1, 10);
    h.cum(ms(100), 2);
    // 3 and 5 lost; 4, 6, 7, ... SACKed.
    for (i, r) in [5u64, 7, 8].iter().enumerate() {
        h.ack(ms(101 + i as u64), sack(2, &[(6, *r), (4, 5)]));
    }
    let sent: Vec<u64> =
        (0..6).flat_map(|i| h.ack(ms(110 + i), sack(2, &[(6, 9 + i), (4, 5)]))).collect();
    assert_eq!(sent.iter().filter(|&&s| s < 12).copied().collect::<Vec<_>>(), [5], "{sent:?}");
    let full = h.cum(ms(300), 20);
    assert_eq!(h.state(), CongState::Open, "{full:?}");
    assert_eq!(h.counters().fast_retransmits, 1);
}

#[test]
fn fack_enters_recovery_when_sacked_data_reaches_past_dupthresh() {
    let mut h = in_flight(Variant::Fack, 10);
    h.cum(ms(100), 2);
    // One ACK SACKing 4..8: fack = 7, 7 - 2 - 1 = 4 >= 3 "duplicates" at once.
    assert_eq!(h.ack(ms(101), sack(2, &[(4, 8)]))[0], 3);
    assert_eq!(h.state(), CongState::Recovery);
    assert_eq!(h.cwnd(), 1.0, "ns-2 FACK restarts cwnd and grows it during recovery");
}

#[test]
fn timeout_during_recovery_enters_loss_and_counts_once() {
    let mut h = in_flight(Variant::Newreno, 10);
    lose_3(&mut h);
    let rto = h.tx.core.rtt.rto();
    let sent = h.advance(ms(200) + rto);
    assert_eq!(sent.first(), Some(&3));
    assert_eq!(h.state(), CongState::Loss);
    assert_eq!(h.counters().timeouts, 1);
}

fn rfc6675(n: u64) -> TcpHarness {
    let mut h = TcpHarness::new(Variant::Sack1, |p| {
        p.window = 50;
        p.sack1.algorithm = crate::tcp::config::SackAlgorithm::Rfc6675;
    });
    h.tx.cc.set_cwnd(n as f64);
    assert_eq!(h.start(), (0..n).collect::<Vec<_>>());
    h
}

#[test]
fn rfc6675_enters_recovery_when_the_first_hole_is_lost_by_sack_count() {
    let mut h = rfc6675(10);
    h.cum(ms(100), 2);
    // One ACK SACKing 4..7: three SACKed packets above 3, so IsLost(3) at once (§5 (4)).
    let sent = h.ack(ms(101), sack(2, &[(4, 7)]));
    assert_eq!(sent.first(), Some(&3));
    assert_eq!(h.state(), CongState::Recovery);
}

#[test]
fn rfc6675_retransmits_lost_holes_by_pipe_and_ends_at_the_recovery_point() {
    let mut h = rfc6675(10);
    h.cum(ms(100), 2);
    // 3 and 5 lost, everything else arrives.
    h.ack(ms(101), sack(2, &[(4, 5)]));
    h.ack(ms(102), sack(2, &[(6, 7), (4, 5)]));
    let entry = h.ack(ms(103), sack(2, &[(6, 8), (4, 5)]));
    assert_eq!(entry.first(), Some(&3));
    // cwnd 5.5 after halving, 3..=15 outstanding: pipe must fall below 4.5 before anything
    // leaves; 5 is IsLost from the ACK SACKing 6..9 on.
    let more: Vec<Vec<u64>> =
        (0..6).map(|i| h.ack(ms(104 + i), sack(2, &[(6, 9 + i), (4, 5)]))).collect();
    assert!(more[..4].iter().all(|s| s.is_empty()), "{more:?}");
    assert_eq!(more[4], [5], "pipe = 4 (13..15 in flight, 3 retransmitted)");
    assert_eq!(more[5], [16], "then new data (NextSeg rule 2)");
    let more: Vec<u64> = more.concat();
    assert_eq!(more.iter().filter(|&&s| s == 3 || s == 5).count(), 1, "each hole once: {more:?}");
    h.cum(ms(300), 30);
    assert_eq!(h.state(), CongState::Open);
    assert_eq!((h.counters().fast_retransmits, h.counters().timeouts), (1, 0));
}

/// RFC 6675 §5.1: a new recovery may start once HighACK reaches the last RecoveryPoint. Here the
/// first packet sent after RecoveryPoint is lost and recovery ends on an ACK of exactly
/// RecoveryPoint: its duplicates start a second fast retransmit at once. Under ns-2's
/// `highest_ack > recover` they could not, and the loss would wait for the timer.
#[test]
fn rfc6675_recovers_a_loss_just_after_the_recovery_point_by_fast_retransmit() {
    let mut h = rfc6675(10);
    h.cum(ms(100), 2);
    let mut sent: Vec<u64> = Vec::new();
    for (i, hi) in (5..8).enumerate() {
        sent.extend(h.ack(ms(101 + i as u64), sack(2, &[(4, hi)])));
    }
    // Limited transmit sends 14 and 15, the third duplicate retransmits 3: RecoveryPoint 15.
    assert_eq!((sent.as_slice(), h.state()), (&[14, 15, 3][..], CongState::Recovery));
    let recovery_point = 15;
    // 4..=15 arrive and are SACKed, then 3's retransmission: the ACK of exactly RecoveryPoint.
    // 16, the first packet sent after RecoveryPoint, is lost.
    for (i, hi) in (8..=recovery_point + 1).enumerate() {
        sent.extend(h.ack(ms(110 + i as u64), sack(2, &[(4, hi)])));
    }
    let lost = recovery_point + 1;
    sent.extend(h.ack(ms(130), sack(recovery_point, &[])));
    assert_eq!(h.state(), CongState::Open, "the ACK of RecoveryPoint ends recovery");
    assert_eq!(
        sent[3..],
        [16, 17, 18, 19, 20],
        "new data in recovery, then from the ACK of RecoveryPoint"
    );
    let dupacks: Vec<Vec<u64>> = (1..=3)
        .map(|k| h.ack(ms(140 + k), sack(recovery_point, &[(lost + 1, lost + 1 + k)])))
        .collect();
    // Two duplicates release new data by limited transmit; the third retransmits 16 (under
    // `highest_ack > recover` it sends nothing, and 16 waits for the timer).
    assert_eq!(dupacks, [vec![21], vec![22], vec![lost]]);
    assert_eq!(h.state(), CongState::Recovery);
    assert_eq!((h.counters().fast_retransmits, h.counters().timeouts), (2, 0));
}

/// Goyal-Jain 1997 §4.2 (`sack1.pipe_start = "cwnd"`): "sets PIPE to CWND − 3, and sets CWND to
/// CWND/2", against ns-2's outstanding − 3. The receiver window (10) holds the flight below
/// cwnd (20): after losing 3 and 5, ns-2's pipe (10 − 3) lets the partial ACK release the
/// hole 5, Goyal-Jain 1997's (20 − 3) keeps the sender silent.
#[test]
fn sack1_pipe_start_cwnd_minus_three_as_seed_001() {
    let mut sent_in_recovery = Vec::new();
    for start in [crate::tcp::config::PipeStart::Outstanding, crate::tcp::config::PipeStart::Cwnd] {
        let mut h = TcpHarness::new(Variant::Sack1, |p| {
            p.window = 10;
            p.limited_transmit = false;
            p.sack1.pipe_start = start;
        });
        h.tx.cc.set_cwnd(20.0);
        assert_eq!(h.start(), (0..10).collect::<Vec<_>>());
        assert_eq!(h.cum(ms(100), 2), [10, 11, 12]); // 3 and 5 are lost
        let mut sent = Vec::new();
        for (i, r) in [7u64, 8, 9, 10, 11, 12, 13].iter().enumerate() {
            sent.extend(h.ack(ms(101 + i as u64), sack(2, &[(6, *r), (4, 5)])));
        }
        sent.extend(h.ack(ms(150), sack(4, &[(6, 13)]))); // the retransmitted 3 arrives
        sent_in_recovery.push(sent);
    }
    assert_eq!(sent_in_recovery, [vec![3, 5, 13, 14], vec![3]]);
}
