//! The video source in a whole run (scenarios/video_layered_af.toml): layer tags reach the
//! drop-priority queue, per-layer counts and per-packet delays are recorded.

mod common;
use common::run;

#[test]
fn layered_video_loses_enhancement_before_base() {
    let r = run(include_str!("../../../scenarios/video_layered_af.toml"));
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
    for v in &r.flows[..2] {
        assert_eq!(v.app, "video");
        let loss = |sent: u64, got: u64| 1.0 - got as f64 / sent as f64;
        let (base, enh) = (loss(v.sent_high_pkts, v.delivered_high_pkts), loss(v.sent_low_pkts, v.delivered_low_pkts));
        assert!(v.sent_high_pkts > 0 && v.sent_med_pkts > 0 && v.sent_low_pkts > 0);
        assert!(base < 0.01 && enh > base, "{}: base loss {base}, enhancement loss {enh}", v.name);
        assert!(v.deadline_miss_fraction.is_some());
    }
    let pd = r.packet_delays.as_ref().expect("recorded");
    let video_pkts: u64 = r.flows[..2].iter().map(|f| f.delivered_pkts).sum();
    assert_eq!(pd.delay_s.len() as u64, video_pkts);
    assert!(pd.prio.iter().all(|&p| p <= 2) && pd.prio.contains(&0) && pd.prio.contains(&2));
}

/// A CBR flow whose every packet takes exactly 8 ms (1000 B at 1 Mb/s) + 10 ms, no queueing.
fn cbr_with_deadline(deadline: &str) -> String {
    format!(
        r#"
duration = "1s"
hosts = ["a", "b"]
[[links]]
between = ["a", "b"]
rate = "1Mb"
delay = "10ms"
[[flows]]
from = "a"
to = "b"
app = {{ kind = "cbr", interval = "10ms", size = "1000B" }}
deadline = "{deadline}"
"#
    )
}

#[test]
fn a_packet_is_late_only_when_its_delay_exceeds_the_deadline() {
    // Packets sent at 0, 10, ..., 990 ms; those sent up to 982 ms arrive by 1 s: 99.
    let on_time = run(&cbr_with_deadline("18ms"));
    let late = run(&cbr_with_deadline("17.999ms"));
    let (a, b) = (&on_time.flows[0], &late.flows[0]);
    assert_eq!((a.delivered_pkts, a.late_pkts, a.deadline_miss_fraction), (99, 0, Some(0.0)));
    assert_eq!((b.delivered_pkts, b.late_pkts, b.deadline_miss_fraction), (99, 99, Some(1.0)));
}
