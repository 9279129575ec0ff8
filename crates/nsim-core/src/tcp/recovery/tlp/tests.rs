//! TLP's rules (RFC 8985 §7): PTO, probe choice and the end of an episode.

use super::{probe, pto, Episode, EpisodeEnd, Probe};
use crate::time::Dur;

const MS: fn(u64) -> Dur = Dur::from_millis;

/// §7.2: 2·SRTT; plus WCDelAckT with one packet in flight; 1 s without SRTT; never past the RTO.
#[test]
fn pto_is_two_srtt_plus_the_delayed_ack_time_for_one_packet() {
    let delack = MS(200);
    assert_eq!(pto(Some(MS(100)), 5, delack, MS(1000)), MS(200));
    assert_eq!(pto(Some(MS(100)), 1, delack, MS(1000)), MS(400));
    assert_eq!(pto(None, 5, delack, MS(3000)), MS(1000));
    assert_eq!(pto(Some(MS(100)), 1, delack, MS(300)), MS(300), "capped by the RTO");
}

/// §7.3: new data if the application has some and the receiver window allows it, else the
/// highest packet sent again.
#[test]
fn probe_sends_new_data_else_the_last_packet() {
    assert_eq!(probe(10, 20, 4, 10, 9), Probe::New(10));
    assert_eq!(probe(10, 10, 4, 10, 9), Probe::Last(9), "no new data");
    assert_eq!(probe(15, 20, 4, 10, 14), Probe::Last(14), "receiver window full");
}

/// §7.4.2: a new-data probe's episode ends when it is acknowledged; a retransmitted probe's
/// waits past its own ACK (a DSACK could still come) and ends as a repaired loss on an ACK
/// beyond it, or without loss on a duplicate ACK at TLP.end_seq that carries no SACK block.
#[test]
fn episode_ends() {
    let new = Episode { end_seq: 11, is_retrans: false };
    assert_eq!(new.on_ack(9, false), EpisodeEnd::Open);
    assert_eq!(new.on_ack(10, false), EpisodeEnd::Over);
    let retrans = Episode { end_seq: 10, is_retrans: true };
    assert_eq!(retrans.on_ack(8, false), EpisodeEnd::Open);
    assert_eq!(
        retrans.on_ack(8, true),
        EpisodeEnd::Open,
        "a duplicate ACK below TLP.end_seq says nothing"
    );
    assert_eq!(retrans.on_ack(9, false), EpisodeEnd::Open);
    assert_eq!(retrans.on_ack(9, true), EpisodeEnd::Over, "both copies arrived");
    assert_eq!(retrans.on_ack(10, false), EpisodeEnd::RepairedLoss);
}
