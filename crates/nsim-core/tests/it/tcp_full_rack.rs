//! RACK-TLP (RFC 8985) on the two-way TCP (`tcp_full`, `loss_detection = "rack"` with
//! `variant = "sack"`, `recovery_rules = "rfc"`), on the drop-list path of the one-way agent's
//! tests (tcp_rack.rs: 10 Mb/s, 40 ms, 1000 B segments, a 50-segment file), checked against the
//! RFC's rules:
//! - §7 (tail loss): the last two segments are lost. Without RACK-TLP no duplicate ACK comes
//!   and the RTO repairs them; with it the probe leaves PTO = 2·SRTT after the last ACK that
//!   acknowledged new data (two segments in flight: no delayed-ACK allowance), retransmitting
//!   the last segment (no new data is left); its SACK lets RACK mark the other lost (§6.2
//!   step 5), retransmitted at once, and the transfer ends without an RTO. With `tlp = false`
//!   the RTO repairs it again.
//! - §6.2 (time-based marking): segment 48 of 50 is lost, so only two duplicate ACKs come.
//!   Duplicate-ACK counting waits for the RTO; RACK marks it lost at its send time + RACK.rtt +
//!   reo_wnd, with reo_wnd = min_RTT / 4 (step 4: no reordering seen, fewer than DupThresh
//!   segments SACKed), RACK.rtt the RTT of the most recently sent segment SACKed (step 2), and
//!   fast-retransmits it there, when the reordering timer fires.
//! - The one-way agent on the same path and losses: both repair the tail without an RTO, the
//!   probe 2·SRTT after the last new ACK and the other lost segment one round trip after the
//!   probe; the two agents differ in ACK handling (tcp_full's handshake delays its data by one
//!   round trip, its file's last segment carries the FIN, which the receiver drops out of order
//!   and which is resent alone), so what agrees is each agent's time from its last new ACK to
//!   the repair, not the absolute times.

use crate::common::{self, Ev};
use crate::tcp_rack::{path, sends, tail_loss, FILE};

/// The one-way test's path with the two-way TCP (`transport`: the rest of its table) instead,
/// dropping the same data segments (`segments`, 1-based; the handshake's SYN and ACK come first).
fn full_path(segments: &[u64], transport: &str) -> String {
    let drops: Vec<u64> = segments.iter().map(|k| k + 2).collect();
    let one_way = path(&drops, FILE, false, "");
    let full = format!(
        "transport = {{ kind = \"tcp_full\", variant = \"sack\", recovery_rules = \"rfc\", mss = \"1000B\", window = 60, clock_offset = \"5ms\"{transport} }}"
    );
    one_way
        .lines()
        .map(|l| if l.starts_with("transport = ") { full.clone() } else { l.to_string() })
        .collect::<Vec<_>>()
        .join("\n")
}

fn run(segments: &[u64], transport: &str) -> (nsim_core::Results, Vec<Ev>) {
    let (r, evs) = common::run_traced(&full_path(segments, transport), "full_rack");
    assert!(r.accounting.balanced());
    (r, evs)
}

const RACK: &str = r#", loss_detection = "rack""#;
const MSS: u64 = 1000;

/// The first byte of data segment `k` (1-based; byte 1 is the first data byte).
fn byte(k: u64) -> u64 {
    1 + (k - 1) * MSS
}

/// Arrival times at the source of the ACKs received before `t`.
fn acks_before(evs: &[Ev], t: f64) -> impl Iterator<Item = &Ev> {
    evs.iter().filter(move |e| e.op == 'r' && e.to == 0 && e.kind == "ack" && e.t < t)
}

/// The smoothed RTT the `tcp` series shows at `t`.
fn srtt_at(r: &nsim_core::Results, t: f64) -> f64 {
    let tcp = &r.series.tcp;
    tcp.time_s.iter().zip(&tcp.srtt_s).rfind(|(ts, _)| **ts <= t).map(|(_, s)| *s).expect("sampled")
}

/// (time from the last ACK before the probe to the probe, time from the probe to the other lost
/// segment's retransmission) of a tail-loss run: `probe` and `other` are the sends of the last
/// and the second-last segment. No ACK comes between the last ACK of new data and the probe.
fn repair_times(evs: &[Ev], probe: &[f64], other: &[f64]) -> (f64, f64) {
    let acked = acks_before(evs, probe[1]).map(|e| e.t).fold(0.0, f64::max);
    (probe[1] - acked, other[1] - probe[1])
}

#[test]
fn a_tail_loss_is_repaired_by_the_probe_not_by_an_rto() {
    let (dup, _) = run(&[49, 50], "");
    assert_eq!(dup.flows[0].timeouts, 1, "without RACK-TLP the tail waits for the RTO");
    let (no_tlp, _) = run(&[49, 50], r#", loss_detection = "rack", tlp = false"#);
    assert_eq!(
        no_tlp.flows[0].timeouts, 1,
        "RACK alone sees no later delivery to judge the tail by"
    );

    let (r, evs) = run(&[49, 50], RACK);
    let f = &r.flows[0];
    assert_eq!((f.timeouts, f.fast_retransmits), (0, 1));
    let (probe, other) = (sends(&evs, byte(50)), sends(&evs, byte(49)));
    assert_eq!(probe.len(), 2, "segment 50 is sent, then probed (no new data left)");
    assert_eq!(other.len(), 2, "segment 49 is retransmitted once, after the probe's SACK");
    // §7.2: PTO = 2·SRTT after the last ACK that acknowledged new data (the estimator's SRTT,
    // a multiple of its 10 ms clock).
    let (pto, after_probe) = repair_times(&evs, &probe, &other);
    let srtt = srtt_at(&r, probe[1] - pto);
    assert!(srtt > 0.0);
    assert!((pto - 2.0 * srtt).abs() < 1e-9, "probe {pto:.6} s after the last ACK, SRTT {srtt} s");
    // The probe's SACK comes back one round trip later (40.96 ms for 1040 B and a 50 B ACK) and
    // RACK marks 49 lost at once (sent 2·SRTT before the probe, beyond any reordering window).
    assert!(
        (0.0409..0.0411).contains(&after_probe),
        "49 retransmitted {after_probe:.6} s after the probe"
    );
    assert!(f.completion_s.unwrap() < dup.flows[0].completion_s.unwrap() - 0.1);
}

#[test]
fn a_loss_with_two_duplicate_acks_is_marked_by_rack_time_rule() {
    let (dup, _) = run(&[48], "");
    assert_eq!(
        (dup.flows[0].timeouts, dup.flows[0].fast_retransmits),
        (1, 0),
        "two duplicate ACKs do not reach DupThresh"
    );

    let (r, evs) = run(&[48], RACK);
    assert_eq!((r.flows[0].timeouts, r.flows[0].fast_retransmits), (0, 1));
    let lost = sends(&evs, byte(48));
    assert_eq!(lost.len(), 2);
    // min_RTT: the smallest send-to-ACK time of a segment sent once (all ACKed in order here
    // until the loss); RACK.rtt: the last segment's, sent with 49 and SACKed by the second
    // duplicate ACK, the last ACK before the retransmission.
    let out: Vec<&Ev> = evs
        .iter()
        .filter(|e| e.op == '+' && e.from == 0 && e.kind == "tcp" && e.size > 40)
        .collect();
    let acks: Vec<&Ev> = acks_before(&evs, lost[1]).collect();
    let min_rtt = out
        .iter()
        .filter(|e| e.seq < byte(48))
        .filter_map(|e| acks.iter().find(|a| a.seq >= e.seq + MSS).map(|a| a.t - e.t))
        .fold(f64::MAX, f64::min);
    let last_sent = sends(&evs, byte(50))[0];
    let rack_rtt = acks.last().expect("acks").t - last_sent;
    let expected = lost[0] + rack_rtt + min_rtt / 4.0;
    println!("retransmission at {:.7} s, expected {expected:.7} (RACK.rtt {rack_rtt:.7}, min_RTT {min_rtt:.7})", lost[1]);
    assert!(
        (lost[1] - expected).abs() < 1e-6,
        "retransmission {:.7} s, RFC 8985 §6.2 {expected:.7} s",
        lost[1]
    );
    assert!(
        acks.iter().filter(|a| a.seq == byte(48)).count() == 3,
        "the ACK of 47 and two duplicates"
    );
}

#[test]
fn the_one_way_and_the_two_way_agent_repair_a_tail_loss_alike() {
    let (one, one_evs) = tail_loss(false, r#"loss_detection = "rack""#);
    let (full, full_evs) = run(&[49, 50], RACK);
    assert_eq!((one.flows[0].timeouts, full.flows[0].timeouts), (0, 0));
    let (one_pto, one_after) = repair_times(&one_evs, &sends(&one_evs, 50), &sends(&one_evs, 49));
    let (full_pto, full_after) =
        repair_times(&full_evs, &sends(&full_evs, byte(50)), &sends(&full_evs, byte(49)));
    println!("one-way: PTO {one_pto:.6} s, then {one_after:.6} s; tcp_full: PTO {full_pto:.6} s, then {full_after:.6} s");
    // The same RTO estimator on the same path: SRTTs within one 10 ms tick, so PTOs within 20 ms.
    assert!((one_pto - full_pto).abs() <= 0.020 + 1e-9, "PTO {one_pto} vs {full_pto}");
    // One round trip from the probe to the retransmission in both (ACK sizes differ by the
    // SACK option: 10 B at 10 Mb/s).
    assert!((one_after - full_after).abs() < 1e-4, "{one_after} vs {full_after}");
}

#[test]
fn rack_keys_need_rfc6675_sack_recovery() {
    let base = r#"{ kind = "tcp_full", variant = "sack", recovery_rules = "rfc""#;
    for (extra, field) in [
        (r#", recovery_rules = "ns2", loss_detection = "rack""#, "loss_detection"),
        (r#", cc = "bbr", loss_detection = "rack""#, "loss_detection"),
        (r#", tlp = false"#, "tlp"),
    ] {
        let toml = full_path(&[1], "").replace(base, &format!("{base}{extra}"));
        let toml = toml.replace(
            r#"recovery_rules = "rfc", recovery_rules = "ns2""#,
            r#"recovery_rules = "ns2""#,
        );
        let e = common::config_error(&toml);
        assert!(e.contains(&format!("transport.{field}")), "{extra}: {e}");
    }
}
