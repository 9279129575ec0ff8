//! STP behaviour against its specification (Henderson & Katz, JSAC 1999; SSCOP, ITU-T
//! Q.2110) and against the analytic reverse-load argument of Holl 2003 (§2.3.2,
//! §8.1): a TCP receiver sends one ACK per data packet, an STP receiver one STAT per POLL
//! (POLLs by timer, once per RTT, and after every MaxPD packets) plus one USTAT per new gap.
//!
//! Path: s -(10 Mb/s, 5 ms)- r -(1.536 Mb/s, 450 ms)- d, Holl's satellite hop; 536 B
//! payload + 40 B header = Holl's 576 B MTU; window 64 (a fifth of the 1.536 Mb/s x 0.92 s
//! pipe) and 200-packet queues, so STP's window-sized bursts cause no queue loss.

use crate::common;

fn scenario(transport: &str, drops: &str, duration: f64) -> String {
    format!(
        r#"
duration = "{duration}s"
hosts = ["s", "d"]
routers = ["r"]
[[links]]
between = ["s", "r"]
rate = "10Mb"
delay = "5ms"
queue = {{ kind = "droptail", limit = "200p" }}
[[links]]
between = ["r", "d"]
rate = "1.536Mb"
delay = "450ms"
queue = {{ kind = "droptail", limit = "200p" }}
{drops}
[[flows]]
name = "f"
from = "s"
to = "d"
app = {{ kind = "bulk" }}
transport = {transport}
"#
    )
}

const STP: &str = r#"{ kind = "stp", window = 64, packet_size = "536B" }"#;
/// STP polling by timer only (SSCOP MaxPD off).
const STP_TIMER_POLLS: &str =
    r#"{ kind = "stp", window = 64, packet_size = "536B", poll_after_packets = 0 }"#;
const TCP: &str = r#"{ kind = "tcp", variant = "sack1", window = 64, packet_size = "536B" }"#;
/// Propagation RTT of the path.
const RTT: f64 = 0.910;

#[test]
fn reverse_traffic_is_one_stat_per_rtt_instead_of_one_ack_per_packet() {
    let d = 120.0;
    let stp = common::run(&scenario(STP_TIMER_POLLS, "", d));
    let tcp = common::run(&scenario(TCP, "", d));
    assert!(stp.accounting.balanced() && tcp.accounting.balanced());
    let (s, t) = (&stp.flows[0], &tcp.flows[0]);
    eprintln!(
        "STP: {} data, {} polls, {} stats, {} ustats, goodput {:.0} b/s; TCP: {} data, {} acks, goodput {:.0} b/s",
        s.sent_pkts, s.polls, s.stats, s.ustats, s.goodput_bps, t.sent_pkts, t.ack_sent_pkts, t.goodput_bps
    );
    // TCP (no delayed ACKs): one ACK per data packet.
    assert!((t.ack_sent_pkts as f64 / t.sent_pkts as f64 - 1.0).abs() < 0.01);
    // STP: one STAT per POLL, one POLL per smoothed RTT (queueing adds a little to the RTT).
    assert!(s.polls - s.stats <= 2, "every POLL but those in flight at the end is answered");
    let per_rtt = s.stats as f64 / (d / RTT);
    assert!((0.8..=1.0).contains(&per_rtt), "{per_rtt:.2} STATs per propagation RTT");
    assert_eq!(s.ustats, 0, "no loss, no USTAT");
    // Reverse load: packets per delivered data packet, far below TCP's 1.
    let ratio = (s.stats + s.ustats) as f64 / s.delivered_pkts as f64;
    assert!(ratio < 0.05, "STP reverse packets per data packet {ratio:.3}");
    // Window-limited without loss, TCP delivers a window per RTT (ACK clocking). STP learns
    // of delivery only from the STAT answering the first POLL sent after a burst, which
    // returns 1 to 2 RTTs after the burst (the poll timer's phase is arbitrary): between a
    // window per 2 RTTs and a window per RTT.
    let window_per_rtt = 64.0 * 536.0 * 8.0 / RTT;
    assert!((t.goodput_bps / window_per_rtt - 1.0).abs() < 0.05, "TCP {:.0} b/s", t.goodput_bps);
    assert!(
        (0.5 * window_per_rtt..window_per_rtt).contains(&s.goodput_bps),
        "STP {:.0} b/s",
        s.goodput_bps
    );
}

#[test]
fn a_poll_follows_every_max_pd_data_packets() {
    // SSCOP (Q.2110): a POLL when VT(PD), the SDs sent since the last POLL, reaches MaxPD
    // (25). The poll timer is out of reach, so only MaxPD POLLs move the window: the first
    // burst of 25 ends with one, the start-up POLL follows it, then one every 25 SDs:
    // polls = 2 + (sent - 25) / 25 exactly. (A burst shorter than 25 would wait for the timer.)
    let stp = r#"{ kind = "stp", window = 64, packet_size = "536B", poll_interval = "100s", initial_window = 25 }"#;
    let r = common::run(&scenario(stp, "", 60.0));
    assert!(r.accounting.balanced());
    let f = &r.flows[0];
    eprintln!("sent {} polls {} stats {}", f.sent_pkts, f.polls, f.stats);
    assert!(f.sent_pkts > 1000, "the STATs answering MaxPD POLLs keep the window moving");
    assert_eq!(f.polls, 2 + (f.sent_pkts - 25) / 25);
}

#[test]
fn reverse_bandwidth_is_an_order_of_magnitude_below_tcp() {
    // Henderson & Katz 1999 (abstract): STP's chief benefit is "up to an order of magnitude
    // reduction in the bandwidth used in the reverse path, as compared to" TCP. Defaults
    // (POLL once per RTT and after every 25 packets) on a 43 packet/s flow.
    let d = 120.0;
    let stp = common::run(&scenario(STP, "", d));
    let tcp = common::run(&scenario(TCP, "", d));
    let (s, t) = (&stp.flows[0], &tcp.flows[0]);
    let per_data =
        |f: &nsim_core::results::FlowRow| f.ack_sent_pkts as f64 / f.delivered_pkts as f64;
    eprintln!(
        "reverse packets per data packet: STP {:.3} (polls {}), TCP {:.3}",
        per_data(s),
        s.polls,
        per_data(t)
    );
    // STATs (40 B, no gaps here) against TCP's 40 B ACKs: packets compare as bytes.
    assert!(s.stats as f64 / s.delivered_pkts as f64 * 10.0 < per_data(t));
    assert!(s.polls > s.sent_pkts / 25, "MaxPD POLLs on top of the timer's");
}

#[test]
fn lost_packets_are_reported_by_ustat_and_resent_once() {
    let drops = r#"error = { kind = "drop_list", packets = [100, 101, 250, 400], flow = "f" }"#;
    let r = common::run(&scenario(STP, drops, 60.0));
    assert!(r.accounting.balanced());
    let f = &r.flows[0];
    eprintln!(
        "sent {} delivered {} retransmits {} ustats {} timeouts {}",
        f.sent_pkts, f.delivered_pkts, f.retransmits, f.ustats, f.timeouts
    );
    assert_eq!(f.retransmits, 4, "each lost packet is resent exactly once");
    assert_eq!(f.ustats, 3, "one USTAT per new gap (100-101 is one gap)");
    assert_eq!(f.timeouts, 0);
    assert_eq!(f.dropped_pkts, 4);
    // In-order goodput: whole packets, all but the last window's out-of-order ones delivered.
    let goodput_bytes = (f.goodput_bps * 60.0 / 8.0).round() as u64;
    assert_eq!(goodput_bytes % 536, 0);
    assert!(
        goodput_bytes / 536 + 64 >= f.delivered_pkts && goodput_bytes / 536 <= f.delivered_pkts
    );
}

#[test]
fn with_gap_cuts_window_off_a_gap_is_only_resent() {
    // SSCOP has no congestion window: a gap is repaired and the sending window stays. With
    // `gap_cuts_window = false` four early drops (3 gaps, in slow start) cost only the repair:
    // the flow sends within 3 % of the lossless run. With the default halving, congestion
    // avoidance (+1 packet per RTT, RFC 5681 §3.1) needs about 30 RTTs (27 s) to regrow from
    // the cut to the 64-packet window, so the 60 s run sends at least 10 % less.
    let drops = r#"error = { kind = "drop_list", packets = [100, 101, 250, 400], flow = "f" }"#;
    let no_cut = r#"{ kind = "stp", window = 64, packet_size = "536B", gap_cuts_window = false }"#;
    let lossless = common::run(&scenario(no_cut, "", 60.0)).flows[0].sent_pkts as f64;
    let repaired = common::run(&scenario(no_cut, drops, 60.0));
    let halved = common::run(&scenario(STP, drops, 60.0));
    let (r, h) = (&repaired.flows[0], &halved.flows[0]);
    eprintln!(
        "sent: lossless {lossless}, gaps only resent {}, window halved {}",
        r.sent_pkts, h.sent_pkts
    );
    assert!(repaired.accounting.balanced() && r.timeouts == 0 && r.retransmits == 4);
    assert!(r.sent_pkts as f64 >= 0.97 * lossless);
    assert!((h.sent_pkts as f64) < 0.9 * r.sent_pkts as f64);
}
