//! The video source in a whole run (scenarios/video_layered_af.toml): layer tags reach the
//! drop-priority queue, per-layer counts and per-packet delays are recorded.

use crate::common::run;

#[test]
fn layered_video_loses_enhancement_before_base() {
    let r = run(include_str!("../../../../scenarios/video_layered_af.toml"));
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
    for v in &r.flows[..2] {
        assert_eq!(v.app, "video");
        let loss = |sent: u64, got: u64| 1.0 - got as f64 / sent as f64;
        let (base, enh) = (
            loss(v.sent_high_pkts, v.delivered_high_pkts),
            loss(v.sent_low_pkts, v.delivered_low_pkts),
        );
        assert!(v.sent_high_pkts > 0 && v.sent_med_pkts > 0 && v.sent_low_pkts > 0);
        assert!(base < 0.01 && enh > base, "{}: base loss {base}, enhancement loss {enh}", v.name);
        assert!(v.deadline_miss_fraction.is_some());
    }
    let pd = r.packet_delays.as_ref().expect("recorded");
    let video_pkts: u64 = r.flows[..2].iter().map(|f| f.delivered_pkts).sum();
    assert_eq!(pd.delay_s.len() as u64, video_pkts);
    assert!(pd.prio.iter().all(|&p| p <= 2) && pd.prio.contains(&0) && pd.prio.contains(&2));
    // The video log agrees with the per-mark counters: every packet sent, by layer, and every
    // delivered one (on time or late).
    let log = r.video_packets.as_ref().expect("recorded");
    for (k, v) in r.flows[..2].iter().enumerate() {
        let rows = |layer: u8, arrived: bool| {
            (0..log.flow.len())
                .filter(|&i| log.flow[i] == k as u32 && log.layer[i] == layer)
                .filter(|&i| !arrived || log.fate[i] == "delivered" || log.fate[i] == "late")
                .count() as u64
        };
        assert_eq!(
            [rows(0, false), rows(1, false), rows(2, false)],
            [v.sent_high_pkts, v.sent_med_pkts, v.sent_low_pkts]
        );
        assert_eq!(
            [rows(0, true), rows(1, true), rows(2, true)],
            [v.delivered_high_pkts, v.delivered_med_pkts, v.delivered_low_pkts]
        );
        let late = (0..log.flow.len())
            .filter(|&i| log.flow[i] == k as u32 && log.fate[i] == "late")
            .count() as u64;
        assert_eq!(late, v.late_pkts);
    }
    assert!(log.fate.iter().any(|f| f == "dropped:drop_priority"));
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

/// `record.video_packets` on a hand-computed case: the toy layered trace (frame 0: base 1200 B,
/// middle 800 B, enhancement 500 B; frame 1 empty; frame 2: base 1000 B; frame 3: enhancement
/// 999 B), 1000 B packets sent in bursts at 30 frames/s with no gap between plays, over one
/// 10 Mb/s, 10 ms link that loses the 2nd and 7th packet (drop_list).
#[test]
fn video_log_tags_every_packet_with_its_frame_layer_and_fate() {
    let trace = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/video/toy_layered.trace");
    let r =
        run(&include_str!("../../../../tests/data/video/toy_lossy_log.toml")
            .replace("{trace}", trace));
    let log = r.video_packets.as_ref().expect("recorded");
    // One play = 6 packets over 4 frames (133.3 ms): plays start at 0, 133.3 and 266.7 ms;
    // the third's frame 0 (4 packets) leaves at 266.7 ms and is still on its way at 270 ms.
    let play = |s: u32| {
        [
            (s, 0, 0, 1000),
            (s, 0, 0, 200),
            (s, 0, 1, 800),
            (s, 0, 2, 500),
            (s, 2, 0, 1000),
            (s, 3, 2, 999),
        ]
    };
    let expected: Vec<(u32, u32, u8, u32)> =
        play(0).into_iter().chain(play(1)).chain(play(2).into_iter().take(4)).collect();
    let got: Vec<(u32, u32, u8, u32)> = (0..log.seq.len())
        .map(|i| (log.sequence[i], log.frame[i], log.layer[i], log.size[i]))
        .collect();
    assert_eq!(got, expected);
    assert_eq!(log.seq, (0..16).collect::<Vec<u64>>());
    // Burst of frame 0: the packets wait for each other, so they arrive 10.8, (lost), 11.6 and
    // 12.0 ms after the frame starts: the middle and enhancement packets miss the 11 ms deadline.
    // Frames 2 and 3 take 10.8 and 10.7992 ms.
    let fates: Vec<&str> = log.fate.iter().map(String::as_str).collect();
    // The 7th packet is lost as it starts transmission, within its source's send call.
    let (d, l, x, f) = ("delivered", "late", "dropped:error_model", "in_flight");
    assert_eq!(fates, vec![d, x, l, l, d, d, x, d, l, l, d, d, f, f, f, f]);
    assert!((log.delay_s[2].unwrap() - 0.0116).abs() < 1e-12);
    assert!((log.delay_s[5].unwrap() - 0.0107992).abs() < 1e-12);
    assert_eq!(log.delay_s[1], None);
    assert!((log.sent_s[6] - 0.4 / 3.0).abs() < 1e-9);
    // The log agrees with the flow's counters.
    let v = &r.flows[0];
    assert_eq!(v.late_pkts, 4);
    assert_eq!(v.delivered_pkts, 10);
}

#[test]
fn video_log_refuses_a_flow_that_is_not_video() {
    let err = nsim_core::Scenario::from_toml(
        &format!("{}\n[record]\nvideo_packets = [\"flow0\"]\n", cbr_with_deadline("18ms")),
        "x.toml",
    )
    .and_then(|s| nsim_core::build(&s, &Default::default()).map(|_| ()))
    .unwrap_err();
    assert!(
        err.to_string().contains("record.video_packets[0]")
            && err.to_string().contains("not a video flow"),
        "{err}"
    );
}
