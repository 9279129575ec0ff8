//! Limited Transmit (RFC 3042) on the two-way TCP (`tcp_full`, `limited_transmit = true`), on
//! the drop-list path of the RACK tests (tcp_rack.rs: 10 Mb/s, 40 ms, 1000 B segments, a
//! 50-segment file), checked against the RFC's rules. The sender's window is capped at three
//! segments (`window = 3`, ns-2 `window_`) while the receiver's buffer is large, RFC 3042 §1's
//! case: when one of three segments in flight is lost, only two duplicate ACKs can come.
//! - Without Limited Transmit (ns-2 FullTcp's behaviour, the default) the sender waits for the
//!   retransmission timeout.
//! - With it (§2), each of the two duplicate ACKs sends one new segment at once, as the peer's
//!   window allows and cwnd + 2 segments bounds; their own duplicate ACKs complete the three
//!   that trigger fast retransmit, and no timeout is needed. No third new segment goes out
//!   before the fast retransmit (the cwnd + 2 bound).
//! - Only within the peer's advertised window (§2): with the receiver's buffer at the same three
//!   segments (tcp_full's default), nothing new may go and the timeout repairs the loss.

use crate::common::{self, Ev};
use crate::tcp_rack::{path, sends, FILE};

/// The data segment (1-based) the path drops: the sender is in its window-limited steady state.
const LOST: u64 = 10;
const MSS: u64 = 1000;

/// The RACK tests' path with the two-way TCP (`extra`: the rest of its table), the sender's
/// window capped at 3 segments; it drops data segment `LOST` (the handshake's SYN and ACK come
/// first on the flow's packet count).
fn full_path(extra: &str) -> String {
    let one_way = path(&[LOST + 2], FILE, false, "");
    let full = format!(
        "transport = {{ kind = \"tcp_full\", variant = \"newreno\", mss = \"1000B\", window = 3, clock_offset = \"5ms\"{extra} }}"
    );
    one_way
        .lines()
        .map(|l| if l.starts_with("transport = ") { full.clone() } else { l.to_string() })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The receiver's buffer of 64 segments: the peer's window never binds.
const WIDE: &str = r#", rcv_buffer = "64000B""#;

fn run(extra: &str) -> (nsim_core::Results, Vec<Ev>) {
    let (r, evs) = common::run_traced(&full_path(extra), "full_lt");
    assert!(r.accounting.balanced());
    (r, evs)
}

/// The first byte of data segment `k` (1-based; byte 1 is the first data byte).
fn byte(k: u64) -> u64 {
    1 + (k - 1) * MSS
}

/// Arrival times at the source of the duplicate ACKs for the lost segment: the ACKs of its
/// first byte after the first one (the new ACK of the segment before it).
fn dupacks(evs: &[Ev]) -> Vec<f64> {
    evs.iter()
        .filter(|e| e.op == 'r' && e.to == 0 && e.kind == "ack" && e.seq == byte(LOST))
        .skip(1)
        .map(|e| e.t)
        .collect()
}

#[test]
fn without_limited_transmit_two_duplicate_acks_wait_for_the_timeout() {
    let (r, _) = run(WIDE);
    let f = &r.flows[0];
    assert_eq!((f.timeouts, f.fast_retransmits), (1, 0), "ns-2 FullTcp has no limited transmit");
}

#[test]
fn limited_transmit_sends_a_new_segment_on_each_of_the_first_two_duplicate_acks() {
    let (r, evs) = run(&format!("{WIDE}, limited_transmit = true"));
    let f = &r.flows[0];
    assert_eq!(
        (f.timeouts, f.fast_retransmits),
        (0, 1),
        "the two new segments' ACKs make the third duplicate"
    );
    let dups = dupacks(&evs);
    assert!(dups.len() >= 3, "duplicate ACKs: {dups:?}");
    // Segments LOST+1 and LOST+2 were in flight with the lost one; LOST+3 and LOST+4 leave on
    // the first and the second duplicate ACK, at the instant each arrives.
    for (k, dup) in [(LOST + 3, dups[0]), (LOST + 4, dups[1])] {
        let first = sends(&evs, byte(k))[0];
        assert!((first - dup).abs() < 1e-9, "segment {k} sent at {first}, duplicate ACK at {dup}");
    }
    // cwnd + 2: nothing newer leaves before the fast retransmit on the third duplicate ACK.
    let fast_retransmit = sends(&evs, byte(LOST))[1];
    assert!(
        (fast_retransmit - dups[2]).abs() < 1e-9,
        "fast retransmit at {fast_retransmit}, third duplicate at {}",
        dups[2]
    );
    assert!(sends(&evs, byte(LOST + 5))[0] > fast_retransmit);
}

#[test]
fn limited_transmit_stays_within_the_peers_window() {
    // RFC 3042 §2: only "if permitted by the receiver's advertised window". With the receiver's
    // buffer at the sender's three segments (tcp_full's default, window × mss) the new
    // segments do not fit, and the loss waits for the timeout as without Limited Transmit.
    let (r, _) = run(", limited_transmit = true, rcv_buffer = \"3000B\"");
    let f = &r.flows[0];
    assert_eq!((f.timeouts, f.fast_retransmits), (1, 0));
}
