//! The design #3 host scheduler in a whole run (scenarios/host_sched_telnet_bulk.toml): a
//! HIGH-marked Telnet-like flow is not delayed behind bulk LOW traffic on the host link,
//! where a drop-tail host queue makes it wait behind the TCP window.

use crate::common::run;

const SCENARIO: &str = include_str!("../../../../scenarios/host_sched_telnet_bulk.toml");

#[test]
fn telnet_waits_at_most_one_bulk_packet_at_the_host() {
    let r = run(SCENARIO);
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
    let (telnet, bulk) = (&r.flows[0], &r.flows[1]);
    // Path: 100 B at 1 Mb/s (0.8 ms) + 5 ms + 100 B at 10 Mb/s (0.08 ms) + 20 ms = 25.88 ms,
    // plus at most one bulk packet (1040 B with headers at 1 Mb/s: 8.32 ms) being sent.
    let bound = 0.02588 + 0.00832 + 1e-9;
    assert!(telnet.delay_max_s.unwrap() <= bound, "telnet max delay {:?}", telnet.delay_max_s);
    assert_eq!(telnet.deadline_miss_fraction, Some(0.0));
    assert_eq!(
        (telnet.sent_high_pkts, bulk.sent_low_pkts > 0, bulk.sent_high_pkts),
        (telnet.sent_pkts, true, 0)
    );
    // Work-conserving for LOW: the bulk transfer still fills most of the 1 Mb/s link.
    assert!(r.queues[0].utilization > 0.95, "host link utilization {}", r.queues[0].utilization);
}

#[test]
fn a_drop_tail_host_queue_delays_telnet_behind_the_tcp_window() {
    let droptail = SCENARIO.replace(
        "queue = { kind = \"host_sched\",",
        "queue = { kind = \"droptail\", limit = 1000 }\n# ",
    );
    let r = run(&droptail);
    let telnet = &r.flows[0];
    assert!(telnet.delay_p50_s.unwrap() > 0.2, "telnet median delay {:?}", telnet.delay_p50_s);
    assert!(telnet.deadline_miss_fraction.unwrap() > 0.5, "{:?}", telnet.deadline_miss_fraction);
}

#[test]
fn design_1_is_prio_over_per_mark_shapers() {
    // HIGH offered at 500 kb/s through a 250 kb/s, 6000 B HIGH shaper; LOW offered at 1 Mb/s.
    // Over 20 s HIGH delivers depth + rate·t (within two packets) and LOW fills the rest of
    // the 1 Mb/s link: the composition documented in docs/models/host_scheduler.md.
    let toml = r#"
duration = "20s"
hosts = ["h1", "h2"]
[[links]]
between = ["h1", "h2"]
rate = "1Mb"
delay = "1ms"
queue = { kind = "prio", classes = [
  { match = { prios = [0] }, queue = { kind = "shaper", rate = "250kb", depth = "6000B", queue = { kind = "droptail", limit = 100 } } },
  { queue = { kind = "droptail", limit = 100 } },
] }
[[flows]]
name = "high"
from = "h1"
to = "h2"
app = { kind = "cbr", rate = "500kb", size = "500B" }
[[flows]]
name = "low"
from = "h1"
to = "h2"
app = { kind = "cbr", rate = "1Mb", size = "1000B" }
prio = 2
"#;
    let r = run(toml);
    let (high, low) = (&r.flows[0], &r.flows[1]);
    let want = 6000.0 + 250e3 / 8.0 * 20.0;
    assert!(
        (high.delivered_bytes as f64 - want).abs() <= 1000.0,
        "{} vs {want}",
        high.delivered_bytes
    );
    let link = 1e6 / 8.0 * 20.0;
    assert!(
        ((high.delivered_bytes + low.delivered_bytes) as f64) > 0.98 * link,
        "{} + {}",
        high.delivered_bytes,
        low.delivered_bytes
    );
}

#[test]
fn tcp_ds_senders_behind_the_host_scheduler_finish_and_get_remarked() {
    // Noureddine 2002 §4.6: TCP-DS marks (HIGH up to 4 segments, MED up to 8), the host's SLA of
    // 250 Kbps HIGH and 500 Kbps MED tokens, design #3 with maxdelay 200 / 400 ms. Six 300 KB
    // transfers start together (about 7 HIGH segments each in slow start, 43 KB against a
    // 6000 B bucket filling at 31 KB/s): their slow-start HIGH segments outrun the HIGH tokens, wait,
    // and some leave remarked (delivered at a lower mark than sent); both transfers finish.
    let toml = r#"
duration = "30s"
hosts = ["h1", "h2"]
routers = ["r0"]
[[links]]
between = ["h1", "r0"]
rate = "10Mb"
delay = "1ms"
queue = { kind = "host_sched" }
reverse_queue = { kind = "droptail", limit = 100 }
[[links]]
between = ["r0", "h2"]
rate = "10Mb"
delay = "20ms"
[[flows]]
name = "ftp{i}"
repeat = 6
from = "h1"
to = "h2"
app = { kind = "file", size = "300KB" }
transport = { kind = "tcp", variant = "newreno", window = 64, tcp_ds = { high = 4, med = 8 } }
"#;
    let r = run(toml);
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
    for f in &r.flows {
        assert!(f.completion_s.is_some(), "{} did not finish", f.name);
    }
    let sent_high: u64 = r.flows.iter().map(|f| f.sent_high_pkts).sum();
    let got_high: u64 = r.flows.iter().map(|f| f.delivered_high_pkts).sum();
    let dropped: u64 = r.flows.iter().map(|f| f.dropped_pkts).sum();
    assert!(
        got_high + dropped < sent_high,
        "no HIGH packet was remarked: sent {sent_high}, delivered {got_high}"
    );
}

/// ACK bypass Noureddine 2002 (§3.7) end to end: the receiver's host scheduler has a tiny HIGH
/// bucket (8 kb/s) and its ACKs inherit the TCP-DS marks of the data. Without bypass the
/// HIGH ACKs wait for tokens (or 200 / 400 ms to be remarked) and the transfer slows down;
/// with bypass pure ACKs leave in arrival order without tokens, exactly as through a FIFO:
/// the transfer completes at the same instant as with a drop-tail queue there.
#[test]
fn bypassed_acks_leave_as_through_a_fifo() {
    let completion = |reverse: &str| {
        let toml = format!(
            r#"
duration = "30s"
hosts = ["h1", "h2"]
[[links]]
between = ["h1", "h2"]
rate = "10Mb"
delay = "20ms"
reverse_queue = {reverse}
[[flows]]
from = "h1"
to = "h2"
app = {{ kind = "file", size = "300KB" }}
transport = {{ kind = "tcp", variant = "newreno", window = 64, tcp_ds = {{ high = 4, med = 8 }} }}
"#
        );
        let r = run(&toml);
        assert!(r.accounting.balanced(), "{:?}", r.accounting);
        r.flows[0].completion_s.expect("the transfer finishes")
    };
    let fifo = completion(r#"{ kind = "droptail", limit = 100 }"#);
    let sched = r#"kind = "host_sched", high = { rate = "8kb", depth = "100B" }, med = { rate = "8kb", depth = "100B" }"#;
    let bypass = completion(&format!("{{ {sched}, ack_bypass = true }}"));
    let held = completion(&format!("{{ {sched} }}"));
    assert_eq!(bypass, fifo);
    assert!(held > fifo + 0.2, "held ACKs: {held} s vs {fifo} s");
}
