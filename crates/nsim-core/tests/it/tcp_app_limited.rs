//! Application-limited TCP (Bakthavachalu 2004 Fig. 6.10; ns-2 `Application/Traffic/CBR` or
//! `Exponential` attached to a TCP agent): when the path is not the bottleneck the TCP
//! delivers exactly what the application offers, and never more.

use crate::common::run;

/// One flow over a 10 Mb/s, 2 x 20 ms path with `app`.
fn path(app: &str, duration: &str) -> String {
    format!(
        r#"
duration = "{duration}"
hosts = ["s", "d"]
[[links]]
between = ["s", "d"]
rate = "10Mb"
delay = "20ms"
[[flows]]
from = "s"
to = "d"
app = {app}
transport = {{ kind = "tcp", variant = "sack1", window = 64 }}
"#
    )
}

#[test]
fn cbr_over_tcp_delivers_the_application_rate() {
    // 1 Mb/s of 1000-byte messages = 125 segments of 1000 B payload per second.
    let r = run(&path(r#"{ kind = "cbr", rate = "1Mb", size = "1000B" }"#, "60s"));
    let f = &r.flows[0];
    assert!((f.goodput_bps / 1e6 - 1.0).abs() < 0.01, "goodput {} b/s", f.goodput_bps);
    assert_eq!((f.retransmits, f.timeouts), (0, 0));
    // The sender only has what the application gave it: about 7500 segments in 60 s.
    assert!((7450..=7502).contains(&f.sent_pkts), "{} segments sent", f.sent_pkts);
}

#[test]
fn messages_smaller_than_a_segment_still_take_a_whole_segment() {
    // ns-2 sendmsg: ceil(500 / 1000) = 1 segment per message, so 2 Mb/s of payload.
    let r = run(&path(r#"{ kind = "cbr", rate = "1Mb", size = "500B" }"#, "30s"));
    let g = r.flows[0].goodput_bps / 1e6;
    assert!((g - 2.0).abs() < 0.02, "goodput {g} Mb/s");
}

#[test]
fn on_off_over_tcp_delivers_the_mean_application_rate() {
    // Exponential on/off, 4 Mb/s while on, mean on = off = 0.5 s: mean offered 2 Mb/s.
    let app = r#"{ kind = "onoff", rate = "4Mb", size = "1000B", on = { dist = "exponential", mean = "500ms" }, off = { dist = "exponential", mean = "500ms" } }"#;
    let r = run(&path(app, "200s"));
    let g = r.flows[0].goodput_bps / 1e6;
    assert!((g - 2.0).abs() < 0.1, "goodput {g} Mb/s");
}
