use super::*;

#[test]
fn holes_below_the_highest_sack_are_retransmitted_once_in_order() {
    let mut sb = ScoreBoard::new(8);
    sb.update(13, &[(15, 17), (18, 20)]);
    assert!(sb.changed());
    assert_eq!(sb.next_retran(), Some(14));
    sb.mark_retran(14, 20);
    assert_eq!(sb.next_retran(), Some(17));
    sb.mark_retran(17, 20);
    assert_eq!(sb.next_retran(), None);
    assert_eq!(sb.next_unacked(15), 17);
}

#[test]
fn repeated_blocks_do_not_count_as_new_information() {
    let mut sb = ScoreBoard::new(8);
    sb.update(13, &[(15, 16)]);
    assert!(sb.changed());
    sb.update(13, &[(15, 16)]);
    assert!(!sb.changed());
}

#[test]
fn cumulative_ack_slides_the_ring_and_reports_acked_retransmissions() {
    let mut sb = ScoreBoard::new(4);
    sb.update(13, &[(15, 16)]);
    sb.mark_retran(14, 16);
    assert_eq!(sb.update(15, &[]), 1);
    assert_eq!(sb.next_retran(), None);
}

#[test]
fn sack_beyond_a_retransmission_means_it_was_lost() {
    let mut sb = ScoreBoard::new(8);
    sb.update(13, &[(15, 16)]);
    sb.mark_retran(14, 20);
    assert!(!sb.retransmission_lost());
    sb.update(13, &[(20, 21)]);
    assert!(sb.retransmission_lost());
}
