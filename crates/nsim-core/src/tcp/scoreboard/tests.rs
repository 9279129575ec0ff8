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

#[test]
fn rfc6675_pipe_counts_unsacked_not_lost_plus_retransmissions() {
    let mut sb = ScoreBoard::new(16);
    // Outstanding 3..=12, SACKed 5, 7, 8, 9: 3 and 4 have >= 3 SACKed above (lost),
    // 6 has 3 above (lost), 10..=12 none (in flight).
    sb.update(2, &[(5, 6), (7, 10)]);
    assert_eq!(sb.pipe(12, 2, 3), 3);
    assert_eq!(sb.first_lost_after(2, 12, 3), Some(3));
    // After retransmitting 3 (HighRxt = 3) it counts again, and 4 is next.
    assert_eq!(sb.pipe(12, 3, 3), 4);
    assert_eq!(sb.first_lost_after(3, 12, 3), Some(4));
    assert_eq!(sb.first_lost_after(6, 12, 3), None);
}

/// RFC 8985 with RFC 6675's pipe: packets 14..=20 outstanding, 16 and 18 SACKed, RACK marks 14
/// and 15 lost. Pipe (Linux `tcp_packets_in_flight`): 7 outstanding - 2 SACKed - 2 lost = 3;
/// each retransmission of a marked packet adds one back; a lost retransmission (14 marked
/// again) takes it away and waits for another.
#[test]
fn rack_marks_drive_pipe_and_the_retransmission_order() {
    let mut sb = ScoreBoard::new(8);
    sb.update(13, &[(16, 17), (18, 19)]);
    assert_eq!(sb.pipe_marked(20), 5);
    sb.mark_lost(14);
    sb.mark_lost(15);
    assert_eq!(sb.pipe_marked(20), 3);
    assert_eq!(sb.first_awaiting_retransmission(), Some(14));
    sb.mark_retran(14, 21);
    assert!(!sb.awaits_retransmission(14));
    assert_eq!(sb.first_awaiting_retransmission(), Some(15));
    assert_eq!(sb.pipe_marked(20), 4);
    sb.mark_lost(14);
    assert_eq!(sb.first_awaiting_retransmission(), Some(14), "a lost retransmission is sent again");
    assert_eq!(sb.pipe_marked(20), 3);
    sb.update(15, &[(16, 17), (18, 19)]);
    assert_eq!(sb.first_awaiting_retransmission(), None, "acknowledged packets leave the board");
    assert_eq!(sb.pipe_marked(20), 3, "17, 19, 20");
}
