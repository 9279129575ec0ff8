//! RACK-TLP (RFC 8985, `loss_detection = "rack"`) against duplicate-ACK counting on drop-list
//! scenarios, checked against the RFC's own examples:
//! - §3.2 / §7 (tail loss): the last two segments of a transfer are lost. No duplicate ACK
//!   comes, so RFC 6675 waits for the RTO (min 200 ms); TLP probes the last segment 2·SRTT
//!   after the last ACK that acknowledged new data (§7.2 re-arms the probe timeout on each;
//!   FlightSize 2: no delayed-ACK allowance), its SACK lets RACK mark the other lost (§6.2
//!   step 5), and the transfer ends without an RTO.
//! - §3.3 / §9.3 (lost retransmission): a segment and its fast retransmission are both lost.
//!   RFC 6675 cannot see the second loss (HighRxt has passed it) and waits for the RTO; RACK
//!   marks the retransmission lost once a segment sent after it is SACKed and retransmits it
//!   again, without an RTO.
//! - §2.2 / §6.2 steps 3-4 (reordering): after a first shallow reordering has been seen, a
//!   reordering 4 packets deep but shorter than the reordering window costs the duplicate-ACK
//!   sender a spurious fast retransmit and RACK nothing (nsim reorders only when routes change:
//!   links come up on shorter paths).
//! - Determinism and accounting on scenarios/tcp_rack_tlp.toml.

use crate::common;

/// 10 Mb/s, 40 ms round trip (s -> r 100 Mb/s 1 ms, r -> k 10 Mb/s 19 ms), a 100-packet
/// buffer, `drops` (1-based indexes of the flow's packets entering r -> k, the SYN being 1)
/// dropped; one flow "f" with `app` over RFC 6675 recovery (with PRR if `prr`) and `transport`
/// (the rest of a tcp table).
pub(crate) fn path(drops: &[u64], app: &str, prr: bool, transport: &str) -> String {
    let sack1 = if prr {
        r#"{ algorithm = "rfc6675", prr = "ssrb" }"#
    } else {
        r#"{ algorithm = "rfc6675" }"#
    };
    let drops: Vec<String> = drops.iter().map(|d| d.to_string()).collect();
    format!(
        r#"
duration = "5s"
hosts = ["s", "r", "k"]
[[links]]
between = ["s", "r"]
rate = "100Mb"
delay = "1ms"
[[links]]
between = ["r", "k"]
rate = "10Mb"
delay = "19ms"
queue = {{ kind = "droptail", limit = "100p" }}
error = {{ kind = "drop_list", packets = [{}], flow = "f" }}
error_at = "enqueue"
[[flows]]
name = "f"
from = "s"
to = "k"
app = {app}
transport = {{ kind = "tcp", variant = "sack1", window = 100, clock_offset = "5ms", sack1 = {sack1}, {transport} }}
[record]
series = ["tcp"]
interval = "10ms"
"#,
        drops.join(", ")
    )
}

/// Send times of data segment `seq` at the source (node 0), in order.
pub(crate) fn sends(evs: &[common::Ev], seq: u64) -> Vec<f64> {
    evs.iter()
        .filter(|e| e.op == '+' && e.from == 0 && e.kind == "tcp" && e.seq == seq)
        .map(|e| e.t)
        .collect()
}

pub(crate) const FILE: &str = r#"{ kind = "file", size = "50000B" }"#;

/// A 50-segment file (segments 1..=50 after the SYN) loses its last two segments.
pub(crate) fn tail_loss(prr: bool, transport: &str) -> (nsim_core::Results, Vec<common::Ev>) {
    let (r, evs) = common::run_traced(&path(&[50, 51], FILE, prr, transport), "rack_tail");
    assert!(r.accounting.balanced());
    (r, evs)
}

#[test]
fn a_tail_loss_is_repaired_by_the_probe_not_by_an_rto() {
    let (dup, _) = tail_loss(false, r#"loss_detection = "dupthresh""#);
    assert!(dup.flows[0].timeouts >= 1, "without RACK-TLP the tail waits for the RTO");

    let (r, evs) = tail_loss(false, r#"loss_detection = "rack""#);
    let f = &r.flows[0];
    assert_eq!(f.timeouts, 0);
    assert!(f.completion_s.is_some());
    let (last, probe) = (sends(&evs, 50), sends(&evs, 49));
    assert_eq!(last.len(), 2, "segment 50 is sent, then probed");
    assert_eq!(probe.len(), 2, "segment 49 is retransmitted once, after the probe's SACK");
    // §7.2: the probe leaves PTO = 2·SRTT after the last ACK that acknowledged new data,
    // SRTT being the estimator's (a multiple of its 10 ms clock).
    let acked = evs
        .iter()
        .filter(|e| e.op == 'r' && e.to == 0 && e.kind == "ack" && e.t < last[1])
        .map(|e| e.t)
        .fold(0.0, f64::max);
    let tcp = &r.series.tcp;
    let srtt = tcp
        .time_s
        .iter()
        .zip(&tcp.srtt_s)
        .rfind(|(t, _)| **t <= acked)
        .map(|(_, s)| *s)
        .expect("sampled");
    assert!(srtt > 0.0);
    assert!(
        (last[1] - acked - 2.0 * srtt).abs() < 1e-9,
        "probe {:.6} s after the last ACK, SRTT {srtt} s",
        last[1] - acked
    );
    // The probe's SACK comes back one RTT later and RACK marks 49 lost at once (sent 2·SRTT
    // before the probe, far beyond the reordering window).
    let rtt = probe[1] - last[1];
    assert!((0.04..0.06).contains(&rtt), "49 retransmitted {rtt:.4} s after the probe");
    assert!(f.completion_s.unwrap() < dup.flows[0].completion_s.unwrap() - 0.1);
}

/// Index (1-based, among the flow's data packets leaving the source, the SYN being 1) of the
/// second transmission of segment `seq`.
fn retransmission_index(evs: &[common::Ev], seq: u64) -> u64 {
    let out: Vec<&common::Ev> =
        evs.iter().filter(|e| e.op == '+' && e.from == 0 && e.kind == "tcp").collect();
    let mut seen = 0;
    for (i, e) in out.iter().enumerate() {
        if e.seq == seq {
            seen += 1;
            if seen == 2 {
                return i as u64 + 1;
            }
        }
    }
    panic!("segment {seq} was not retransmitted");
}

/// A bulk flow loses segment 59 in slow start (the flight, about 60 packets, leaves room in the
/// 100-packet receiver window for new data during recovery) and then its fast retransmission.
fn lost_retransmission(prr: bool, transport: &str) -> (nsim_core::Results, Vec<common::Ev>) {
    let bulk = r#"{ kind = "bulk" }"#;
    let (_, once) = common::run_traced(&path(&[60], bulk, prr, transport), "rack_rtx1");
    let again = retransmission_index(&once, 59);
    let (r, evs) = common::run_traced(&path(&[60, again], bulk, prr, transport), "rack_rtx2");
    assert!(r.accounting.balanced());
    (r, evs)
}

#[test]
fn a_lost_retransmission_is_detected_by_rack_without_an_rto() {
    let (dup, evs) = lost_retransmission(false, r#"loss_detection = "dupthresh""#);
    assert!(dup.flows[0].timeouts >= 1, "RFC 6675 repairs a lost retransmission only by the RTO");
    assert!(sends(&evs, 59).len() >= 3);

    let (r, evs) = lost_retransmission(false, r#"loss_detection = "rack""#);
    assert_eq!(r.flows[0].timeouts, 0);
    let t = sends(&evs, 59);
    assert_eq!(t.len(), 3, "sent, retransmitted, lost again and retransmitted again");
    // §6.2 step 5: the second retransmission follows the SACK of the first segment sent after
    // the first retransmission, one RTT (about 41 ms) after that segment left: in recovery,
    // with no reordering seen, the reordering window is 0.
    let after = evs
        .iter()
        .find(|e| e.op == '+' && e.from == 0 && e.kind == "tcp" && e.t > t[1] && e.seq != 59)
        .expect("new data");
    let wait = t[2] - after.t;
    assert!(
        (0.04..0.045).contains(&wait),
        "second retransmission {wait:.4} s after the next segment"
    );
}

/// Three paths r1 -> r2, chosen by hop count as links come up (routes recomputed at once):
/// C (3 hops, 15 ms), B (2 hops, 13.5 ms), A (direct, 10 ms), behind a 10 Mb/s first hop that
/// spaces a saturating flow's packets 0.83 ms apart. B comes up at 2 s: the last packets still
/// on C are overtaken by 1 packet on B (1.5 ms later: 1 duplicate ACK). A comes up at 4 s: the
/// last packets on B are overtaken by 4 on A (3.5 ms: 4 duplicate ACKs). No packet is lost.
/// With `b_up` at 5 s instead, the only reordering is C -> A at 4 s (5 ms: 6 packets deep).
fn reordering(b_up: &str, transport: &str) -> nsim_core::Results {
    let toml = format!(
        r#"
duration = "6s"
hosts = ["s", "d"]
routers = ["r1", "r2", "r3", "r4", "r5"]
links = [
  {{ between = ["s", "r1"], rate = "10Mb", delay = "1ms", queue = {{ kind = "droptail", limit = "100p" }} }},
  {{ between = ["r1", "r2"], rate = "100Mb", delay = "10ms" }},
  {{ between = ["r1", "r3"], rate = "100Mb", delay = "5ms" }},
  {{ between = ["r3", "r2"], rate = "100Mb", delay = "8.5ms" }},
  {{ between = ["r1", "r4"], rate = "100Mb", delay = "5ms" }},
  {{ between = ["r4", "r5"], rate = "100Mb", delay = "5ms" }},
  {{ between = ["r5", "r2"], rate = "100Mb", delay = "5ms" }},
  {{ between = ["r2", "d"], rate = "100Mb", delay = "1ms" }},
]
[[event]]
at = "0s"
action = "down"
link = "r1-r2"
[[event]]
at = "0s"
action = "down"
link = "r1-r3"
[[event]]
at = "{b_up}"
action = "up"
link = "r1-r3"
[[event]]
at = "4s"
action = "up"
link = "r1-r2"
[[flows]]
name = "f"
from = "s"
to = "d"
start = "0.5s"
app = {{ kind = "bulk" }}
transport = {{ kind = "tcp", variant = "sack1", window = 60, clock_offset = "5ms", sack1 = {{ algorithm = "rfc6675" }}, {transport} }}
"#
    );
    common::run_balanced(&toml)
}

/// RFC 8985 §6.2 steps 3-4 (and §2.2's motivation): the first reordering (1 packet, below
/// DupThresh) is tolerated by both and teaches RACK that the path reorders (RACK.reordering_seen);
/// the second, 4 packets deep but 3.5 ms, under the reordering window min_RTT / 4 (about 7 ms
/// here), costs the duplicate-ACK sender a spurious fast retransmit and RACK nothing. Without
/// the first lesson RACK is as quick as DupThresh (step 4: reo_wnd = 0 while no reordering has
/// been seen and DupThresh packets are SACKed) and retransmits too.
#[test]
fn reordering_within_the_window_causes_no_spurious_retransmission() {
    let dup = reordering("2s", r#"loss_detection = "dupthresh""#);
    assert_eq!(dup.accounting.dropped, 0);
    assert_eq!(dup.flows[0].fast_retransmits, 1, "4 duplicate ACKs at the second switch");
    assert_eq!(dup.flows[0].retransmits, 1);
    let rack = reordering("2s", r#"loss_detection = "rack""#);
    assert_eq!(rack.accounting.dropped, 0);
    assert_eq!(
        (rack.flows[0].fast_retransmits, rack.flows[0].retransmits, rack.flows[0].timeouts),
        (0, 0, 0)
    );
    let unwarned = reordering("5s", r#"loss_detection = "rack""#);
    assert_eq!(unwarned.accounting.dropped, 0);
    assert_eq!((unwarned.flows[0].fast_retransmits, unwarned.flows[0].retransmits), (1, 1));
}

fn scenario() -> String {
    let path = format!("{}/../../scenarios/tcp_rack_tlp.toml", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("scenario")
}

#[test]
fn the_example_scenario_is_deterministic_and_accounts_for_every_packet() {
    let (a, b) = (common::run_balanced(&scenario()), common::run_balanced(&scenario()));
    assert_eq!(common::fingerprint(&a), common::fingerprint(&b));
    let acc = &a.accounting;
    assert!(acc.dropped > 0, "the scenario loses packets: {acc:?}");
    assert_eq!(acc.created, acc.delivered + acc.dropped + acc.queued + acc.in_flight);
}

/// With PRR (RFC 6937) deciding how many packets each ACK releases, RACK-TLP still repairs the
/// tail loss and the lost retransmission without an RTO.
#[test]
fn rack_works_with_prr() {
    let (r, _) = tail_loss(true, r#"loss_detection = "rack""#);
    assert_eq!((r.flows[0].timeouts, r.flows[0].retransmits), (0, 2));
    let (r, evs) = lost_retransmission(true, r#"loss_detection = "rack""#);
    assert_eq!((r.flows[0].timeouts, sends(&evs, 59).len()), (0, 3));
}

#[test]
fn rack_needs_rfc6675_sack_recovery() {
    let bulk = r#"{ kind = "bulk" }"#;
    let ns2_sack = path(&[], bulk, false, r#"loss_detection = "rack""#)
        .replace(r#"sack1 = { algorithm = "rfc6675" }, "#, "");
    assert!(
        common::config_error(&ns2_sack).contains("loss_detection"),
        "sack1's ns-2 recovery has no RACK"
    );
    let reno = path(&[], bulk, false, r#"loss_detection = "rack""#)
        .replace(r#"variant = "sack1""#, r#"variant = "reno""#);
    let e = common::config_error(&reno);
    assert!(e.contains("loss_detection") && e.contains("reno"), "{e}");
    let tlp_alone = path(&[], bulk, false, "tlp = true");
    assert!(common::config_error(&tlp_alone).contains("tlp"));
}

/// BBR (v1) over a lossy path (20 Mb/s, 100 ms, 1 % random loss, 20 s, 3 seeds): every lost
/// retransmission costs ns-2's Sack1 recovery (BBR's default) a timeout, so it times out every
/// few seconds; with RFC 6675 recovery and RACK (RFC 8985 §3.3, as Linux runs BBR) a lost
/// retransmission is found once later data is SACKed, and the flow never times out. BBR's
/// model is what RACK leaves alone: its rate should not depend on which recovery finds a loss.
/// With RACK it holds the link rate times the fraction delivered, as the Linux BBR patch says
/// ("If the packet loss rate is below 15% then BBR is able to fully utilize the path"): at
/// least 85 % of 20 Mb/s × 0.99 × 1000/1040 (payload over wire) in every seed, 20 s with
/// STARTUP. Before BBR counted RACK's marks in its pipe, paced its recovery and kept its
/// bandwidth estimate through PROBE_RTT, seeds of the 100 Mb/s path stayed at a third of it.
#[test]
fn bbr_with_rack_does_not_time_out_on_random_loss() {
    let run = |seed: u64, recovery: &str| {
        let transport = format!("{{ kind = \"tcp\", variant = \"bbr\", window = 10000, initial_window = 10{recovery} }}");
        let path = common::one_link("20Mb", "50ms", "20s", "{ kind = \"bulk\" }", &transport)
            .replace(
                "limit = \"1000p\" }",
                "limit = \"250p\" }\nerror = { kind = \"uniform\", rate = 0.01 }",
            );
        let text = format!("seed = {seed}\n{path}");
        let r = common::run(&text);
        assert!(r.accounting.balanced());
        (r.flows[0].timeouts, r.flows[0].goodput_bps)
    };
    let (mut ns2_timeouts, mut rack_timeouts) = (0, 0);
    for seed in 1..=3 {
        let (t, _) = run(seed, "");
        let (tr, goodput) =
            run(seed, r#", sack1 = { algorithm = "rfc6675" }, loss_detection = "rack""#);
        ns2_timeouts += t;
        rack_timeouts += tr;
        assert!(
            goodput > 0.85 * 20e6 * 0.99 * 1000.0 / 1040.0,
            "seed {seed}: BBR with RACK {goodput} b/s"
        );
    }
    assert!(ns2_timeouts >= 3, "ns-2's Sack1 recovery: {ns2_timeouts} timeouts in 3 runs");
    assert_eq!(rack_timeouts, 0);
}
