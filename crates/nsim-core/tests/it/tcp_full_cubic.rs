//! CUBIC (RFC 9438) and HyStart++ (RFC 9406) on the two-way TCP (`tcp_full`, `cc = "cubic"`).
//!
//! 1. RFC 9438 §4.2 and §4.6: one flow, one loss (a `drop_list`), a path that never queues (1 Gb/s,
//!    200 ms RTT, a queue larger than any window: Reno's recovery sends 0.7·W_max at once when
//!    it ends). At the fast retransmit ssthresh = β·W_max exactly (β = 0.7, cwnd = W_max at
//!    the event, floats: tcp_full does not truncate); from the first congestion-avoidance ACK
//!    (t_epoch) the window follows W_cubic(t) = C·(t − K)³ + W_max with K = ∛(W_max(1 − β)/C),
//!    C = 0.4. The window grows per ACK towards W_cubic(t + RTT) (§4.4), and the ACKs of what
//!    it sends come back one RTT later (recovery ends with nothing in flight), so it lies
//!    between W_cubic(t − RTT) and W_cubic(t + RTT), one packet either way; it reaches
//!    W_max within ∛(1/C) + RTT of K (the curve is within one packet of W_max for ∛(1/C) = 1.36 s
//!    either side of K).
//! 2. The one-way CUBIC agent on the same path and loss gives the same epoch: W_max and the window
//!    at t_epoch + K/4 ... 5K/4 within 2 % (the lost segment is not quite the same one: the
//!    two-way opener's SYN and handshake ACK count as its packets on the link).
//! 3. HyStart++ on a deep buffer (10 Mb/s, 100 ms, 500 packets, about 4 BDP): slow start ends in
//!    Conservative Slow Start before any loss, once the queue has added RttThresh =
//!    max(4 ms, min(RTT/8, 16 ms)) = 12.6 ms to the round's minimum RTT (§4.2): not before a
//!    standing queue of that much has formed at the bottleneck (its samples stay at 15 packets
//!    or more from then on), and within two rounds of it; the one-way agent's HyStart++ (itself
//!    beside ns-3.37's, tcp_cubic_hystart_ns3.rs) enters CSS within 5 ms and 2 packets of it;
//!    standard slow start on the same path overflows the buffer instead, at a window more than
//!    twice as large.

use crate::common;

use nsim_core::record::series::CwndSeries;

const C: f64 = 0.4;
const BETA: f64 = 0.7;
/// 2 x 2 x 50 ms plus a 1040 B segment and a 40 B ACK at 1 Gb/s on each of the two links.
const RTT: f64 = 0.200 + 2.0 * (1040.0 + 40.0) * 8.0 / 1e9;

/// One flow over 2 x 50 ms at 1 Gb/s ([`common::lossy_path_of`]) whose first link has a queue no
/// burst fills and loses the `drop`-th data packet of the flow; cwnd changes recorded.
fn one_loss(drop: u64, transport: &str) -> String {
    let first_link = format!("queue = {{ kind = \"droptail\", limit = \"100000p\" }}\nerror = {{ kind = \"drop_list\", packets = [{drop}], flow = \"flow0\" }}");
    common::lossy_path_of(&first_link, 16.0, transport)
        + "[record]\nseries = [\"cwnd\", \"cc\"]\ninterval = \"1s\"\n"
}

const FULL: &str = r#"{ kind = "tcp_full", cc = "cubic", mss = "1000B", window = 100000, window_scale = true, initial_window = 2 }"#;
const ONE_WAY: &str = r#"{ kind = "tcp", variant = "cubic", window = 100000, initial_window = 2 }"#;

/// The congestion epoch after the only loss, read from the cwnd series.
struct Epoch {
    w_max: f64,
    ssthresh: f64,
    /// The first congestion-avoidance ACK after recovery (t_epoch).
    start: f64,
    /// (time since t_epoch, cwnd) from then on.
    rows: Vec<(f64, f64)>,
}

impl Epoch {
    fn of(c: &CwndSeries) -> Epoch {
        let event = (1..c.time_s.len())
            .find(|&i| c.ssthresh_pkts[i] < c.cwnd_pkts[i - 1])
            .expect("a reduction");
        let (w_max, ssthresh) = (c.cwnd_pkts[event - 1], c.ssthresh_pkts[event]);
        let first = (event..c.time_s.len())
            .find(|&i| c.state[i] == "open" && c.cwnd_pkts[i] < ssthresh + 1.0)
            .expect("recovery ends");
        let start = c.time_s[first];
        let rows = (first..c.time_s.len()).map(|i| (c.time_s[i] - start, c.cwnd_pkts[i])).collect();
        assert!(c.ssthresh_pkts[first..].iter().all(|&s| s == ssthresh), "a second reduction");
        Epoch { w_max, ssthresh, start, rows }
    }

    /// K = ∛(W_max(1 − β)/C) (RFC 9438 §4.2 Eq. 2, cwnd_epoch = β·W_max).
    fn k(&self) -> f64 {
        (self.w_max * (1.0 - BETA) / C).cbrt()
    }

    fn w_cubic(&self, t: f64) -> f64 {
        C * (t - self.k()).powi(3) + self.w_max
    }

    /// cwnd at `t` seconds after t_epoch (the last change before it).
    fn cwnd_at(&self, t: f64) -> f64 {
        self.rows.iter().take_while(|r| r.0 <= t).last().expect("after t_epoch").1
    }
}

fn epoch(transport: &str, drop: u64) -> Epoch {
    let r = common::run_balanced(&one_loss(drop, transport));
    assert_eq!((r.flows[0].fast_retransmits, r.flows[0].timeouts), (1, 0), "{transport}");
    let e = Epoch::of(&r.series.cwnd);
    // The `cc` series' W_max (RFC 9438 §4.7, the first event: W_max = cwnd) at the end.
    let cc = &r.series.cc;
    let w_max =
        (0..cc.time_s.len()).rev().find(|&i| cc.variable[i] == "w_max_pkts").map(|i| cc.value[i]);
    assert_eq!(w_max, Some(e.w_max), "{transport}");
    e
}

#[test]
fn after_a_loss_the_window_follows_rfc9438_cubic_function() {
    for variant in ["reno", "newreno", "sack"] {
        let e = epoch(&FULL.replace("cc =", &format!("variant = \"{variant}\", cc =")), 1000);
        let k = e.k();
        println!(
            "{variant}: W_max {:.1}, ssthresh {:.2}, t_epoch {:.3} s, K {k:.3} s",
            e.w_max, e.ssthresh, e.start
        );
        assert!(
            e.w_max > 900.0,
            "the loss came in slow start at about the 1000th packet: W_max {}",
            e.w_max
        );
        assert!(
            (e.ssthresh - BETA * e.w_max).abs() < 1e-9,
            "ssthresh {} vs β·W_max {}",
            e.ssthresh,
            BETA * e.w_max
        );
        for &(t, cwnd) in e.rows.iter().filter(|r| r.0 <= 1.5 * k) {
            let (low, high) = (e.w_cubic(t - RTT) - 1.0, e.w_cubic(t + RTT) + 1.0);
            assert!(
                (low..=high).contains(&cwnd),
                "{variant}: cwnd {cwnd:.2} at t_epoch + {t:.3} s, W_cubic {low:.2}..{high:.2}"
            );
        }
        let reach = e.rows.iter().find(|r| r.1 >= e.w_max).expect("W_max regained").0;
        println!("{variant}: W_max regained {reach:.3} s after t_epoch (K {k:.3} s)");
        assert!(
            (reach - k).abs() <= (1.0 / C).cbrt() + RTT,
            "regained at {reach:.3} s, K = {k:.3} s"
        );
    }
}

#[test]
fn the_epoch_matches_the_one_way_cubic_agent_on_the_same_path() {
    let full = epoch(FULL, 1000);
    let one_way = epoch(ONE_WAY, 1000);
    println!(
        "W_max: tcp_full {:.1}, tcp {:.1}; K {:.3} s vs {:.3} s",
        full.w_max,
        one_way.w_max,
        full.k(),
        one_way.k()
    );
    assert!((full.w_max / one_way.w_max - 1.0).abs() <= 0.02);
    for f in [0.25, 0.5, 0.75, 1.0, 1.25] {
        let (a, b) = (full.cwnd_at(f * full.k()), one_way.cwnd_at(f * one_way.k()));
        println!("t_epoch + {f} K: cwnd {a:.1} vs {b:.1}");
        assert!((a / b - 1.0).abs() <= 0.02, "at {f} K: tcp_full {a:.1}, tcp {b:.1}");
    }
}

/// One bulk flow s -> r -> d: 1 Gb/s 1 ms, then 10 Mb/s 49 ms into a 500-packet drop-tail
/// buffer (about 4 BDP); cwnd changes and the queue every millisecond recorded.
fn deep_buffer(transport: &str) -> String {
    format!(
        r#"
duration = "4s"
hosts = ["s", "d"]
routers = ["r"]
[[links]]
between = ["s", "r"]
rate = "1Gb"
delay = "1ms"
[[links]]
between = ["r", "d"]
rate = "10Mb"
delay = "49ms"
queue = {{ kind = "droptail", limit = "500p" }}
[[flows]]
name = "f"
from = "s"
to = "d"
app = {{ kind = "bulk" }}
transport = {transport}
[record]
series = ["cwnd", "queue"]
interval = "1ms"
"#
    )
}

/// (time, cwnd) of the first reduction of ssthresh below the window, if any.
fn first_reduction(c: &CwndSeries) -> Option<(f64, f64)> {
    (1..c.time_s.len())
        .find(|&i| c.ssthresh_pkts[i] < c.cwnd_pkts[i - 1])
        .map(|i| (c.time_s[i], c.cwnd_pkts[i - 1]))
}

#[test]
fn hystart_leaves_slow_start_on_rfc9406_rtt_increase_on_a_deep_buffer() {
    let table = |hystart: bool| {
        format!(
            r#"{{ kind = "tcp_full", cc = "cubic", variant = "sack", mss = "1000B", window = 100000, window_scale = true, initial_window = 10, cubic = {{ hystart = {hystart} }} }}"#
        )
    };
    let r = common::run_balanced(&deep_buffer(&table(true)));
    let c = &r.series.cwnd;
    // Slow start adds whole segments (no byte counting), CSS quarters: its first fractional
    // window marks CSS's start (RFC 9406 §4.2, CSS_GROWTH_DIVISOR = 4).
    let css = (0..c.time_s.len()).find(|&i| c.cwnd_pkts[i].fract() != 0.0).expect("CSS starts");
    let (t_css, w_css) = (c.time_s[css], c.cwnd_pkts[css]);
    let loss = first_reduction(c);
    println!("HyStart++: CSS at {t_css:.4} s, cwnd {w_css}; first reduction {loss:?}");
    assert!(loss.is_none_or(|(t, _)| t > t_css), "a loss before CSS");
    // RttThresh = base RTT / 8 here (between 4 and 16 ms): 1040 B and 40 B at 10 Mb/s, 1 Gb/s.
    let tx: f64 = 1040.0 * 8.0 / 10e6;
    let base = 0.100 + tx + 40.0 * 8.0 / 10e6 + (1040.0 + 40.0) * 8.0 / 1e9;
    let thresh = base / 8.0;
    let q = &r.series.queue;
    let bottleneck =
        q.link[(0..q.time_s.len()).max_by_key(|&i| q.len_pkts[i]).expect("queue samples")];
    let samples = || (0..q.time_s.len()).filter(move |&i| q.link[i] == bottleneck);
    let queue_at =
        |t: f64| samples().take_while(|&i| q.time_s[i] <= t).last().map_or(0, |i| q.len_pkts[i]);
    // Before the window exceeds the path's BDP each round's burst queues briefly and drains,
    // which leaves the round's minimum RTT at the base RTT. The rule needs a standing queue:
    // from `t_standing` on the bottleneck's queue stays at RttThresh or more.
    let pkts = (thresh / tx).floor() as u64;
    let t_standing = samples()
        .filter(|&i| q.time_s[i] < t_css && q.len_pkts[i] < pkts)
        .map(|i| q.time_s[i])
        .fold(0.0, f64::max);
    let round = base + queue_at(t_css) as f64 * tx;
    println!("queue at {pkts} packets or more (RttThresh {:.1} ms) from {t_standing:.4} s; a round at CSS {round:.3} s", thresh * 1e3);
    // Not before a segment queued behind it has been ACKed (half a base RTT at least); within
    // two rounds (the first round entirely behind the standing queue has its minimum RTT raised
    // by far more than RttThresh: in slow start the queue grows by about a BDP per round).
    assert!(
        t_css >= t_standing + base / 2.0,
        "CSS at {t_css:.4} s before the queue held RttThresh ({t_standing:.4} s)"
    );
    assert!(
        t_css <= t_standing + 2.0 * round,
        "CSS at {t_css:.4} s, more than two rounds after {t_standing:.4} s"
    );
    // The one-way agent's HyStart++ (compared with ns-3.37's in tcp_cubic_hystart_ns3.rs) on
    // the same path enters CSS in the same round: per-ACK RTTs from send times (here) and from
    // echoed timestamps (there) agree when every segment is ACKed at once.
    let one_way = common::run_balanced(&deep_buffer(
        r#"{ kind = "tcp", variant = "cubic", window = 100000, initial_window = 10, cubic = { hystart = true } }"#,
    ));
    let o = &one_way.series.cwnd;
    let o_css = (0..o.time_s.len()).find(|&i| o.cwnd_pkts[i].fract() != 0.0).expect("CSS starts");
    println!("one-way HyStart++: CSS at {:.4} s, cwnd {}", o.time_s[o_css], o.cwnd_pkts[o_css]);
    assert!((o.time_s[o_css] - t_css).abs() <= 0.005 && (o.cwnd_pkts[o_css] - w_css).abs() <= 2.0);
    // Standard slow start on the same path overflows the buffer, at a larger window.
    let std = common::run_balanced(&deep_buffer(&table(false)));
    let (t_loss, w_loss) =
        first_reduction(&std.series.cwnd).expect("standard slow start overflows");
    println!(
        "standard slow start: first reduction at {t_loss:.4} s, cwnd {w_loss}; drops {} vs {}",
        std.flows[0].dropped_pkts, r.flows[0].dropped_pkts
    );
    assert!((0..std.series.cwnd.time_s.len()).all(
        |i| std.series.cwnd.cwnd_pkts[i].fract() == 0.0 || std.series.cwnd.time_s[i] >= t_loss
    ));
    assert!(w_loss > 2.0 * w_css && std.flows[0].dropped_pkts > r.flows[0].dropped_pkts);
}

/// scenarios/fulltcp_cubic.toml: the same seed gives bit-identical results and every packet is
/// accounted for; CUBIC there enters CSS before its first loss and out-delivers Reno.
#[test]
fn the_example_is_deterministic_and_balanced() {
    let r = common::same_seed_same_results(
        "fulltcp_cubic.toml",
        "the seed draws the flows' start jitter",
    );
    let c = &r.series.cwnd;
    let css = (0..c.time_s.len())
        .find(|&i| c.flow[i] == 0 && c.cwnd_pkts[i].fract() != 0.0)
        .expect("CSS");
    let loss = (1..c.time_s.len())
        .find(|&i| c.flow[i] == 0 && c.ssthresh_pkts[i] < 10000.0)
        .expect("a loss");
    assert!(c.time_s[css] < c.time_s[loss]);
    assert!(r.flows[0].goodput_bps > r.flows[1].goodput_bps);
}

/// Bad CUBIC settings on a full connection name the field and say why, as on the one-way TCP.
#[test]
fn bad_cubic_settings_name_the_field() {
    common::assert_transport_errors(&[
        (
            r#"{ kind = "tcp_full", cc = "cubic", variant = "tahoe" }"#,
            "flows[0].transport.variant",
            "tahoe",
        ),
        (
            r#"{ kind = "tcp_full", cc = "cubic", cubic = { beta = 1.5 } }"#,
            "flows[0].transport.cubic",
            "0 < beta < 1",
        ),
        (
            r#"{ kind = "tcp_full", cubic = { hystart = true } }"#,
            "flows[0].transport.cubic",
            "cc = \"cubic\"",
        ),
    ]);
}
