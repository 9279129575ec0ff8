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
