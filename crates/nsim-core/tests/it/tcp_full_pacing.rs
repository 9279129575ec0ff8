//! Pacing on the two-way TCP (`tcp_full`, `pacing`, `pacing_rate`, `pacing_quantum`), as the
//! one-way TCP's ([`nsim_core::tcp::pacing`]): at a fixed rate each 1040-byte segment (1000 B
//! of data and a 40 B header) may leave only 1040 × 8 / rate after the one before, so a bulk
//! sender whose window never binds delivers exactly rate × 1000 / 1040 of data: 7.692 Mb/s at
//! 8 Mb/s. The one-way agent with the same keys on the same path gives the same figure.

use crate::common;

/// One bulk flow over 2 × 50 ms at 1 Gb/s, 10 s, goodput sampled each second.
fn path(transport: &str) -> String {
    common::lossy_path_of("", 10.0, transport)
        + "[record]\nseries = [\"goodput\"]\ninterval = \"1s\"\n"
}

/// Data delivered over 2-10 s (Mb/s), and the packets the flow lost.
fn goodput_2_10(transport: &str) -> (f64, u64) {
    let r = common::run_balanced(&path(transport));
    let g = &r.series.goodput;
    let at = |t: f64| {
        g.time_s.iter().zip(&g.goodput_bytes).rfind(|(s, _)| **s <= t + 1e-9).map_or(0, |(_, b)| *b)
    };
    ((at(10.0) - at(2.0)) as f64 * 8.0 / 8.0 / 1e6, r.flows[0].dropped_pkts)
}

#[test]
fn a_fixed_pacing_rate_spaces_segments_by_their_wire_time() {
    let want = 8.0 * 1000.0 / 1040.0;
    let (full, lost) = goodput_2_10(
        r#"{ kind = "tcp_full", mss = "1000B", window = 10000, window_scale = true, pacing = true, pacing_rate = "8Mb" }"#,
    );
    assert!(
        (full / want - 1.0).abs() < 0.005,
        "tcp_full paced at 8 Mb/s: {full} Mb/s of data, want {want}"
    );
    let (one_way, _) = goodput_2_10(
        r#"{ kind = "tcp", variant = "reno", packet_size = "1000B", window = 10000, pacing = true, pacing_rate = "8Mb" }"#,
    );
    assert!((full / one_way - 1.0).abs() < 0.005, "tcp_full {full} vs one-way {one_way}");
    // Unpaced, slow start sends two segments per ACK at the host link's own 1 Gb/s, so that
    // link's 50-packet queue grows by one per ACK and overflows; paced, nothing queues there.
    let (_, unpaced_lost) = goodput_2_10(
        r#"{ kind = "tcp_full", mss = "1000B", window = 10000, window_scale = true }"#,
    );
    assert!(lost == 0 && unpaced_lost > 0, "lost paced {lost}, unpaced {unpaced_lost}");
}

#[test]
fn bad_pacing_settings_name_the_field() {
    common::assert_transport_errors(&[
        (
            r#"{ kind = "tcp_full", cc = "bbr", pacing = false }"#,
            "flows[0].transport.pacing",
            "cc 'bbr' sets its sending rate by pacing",
        ),
        (
            r#"{ kind = "tcp_full", pacing_rate = "1Mb" }"#,
            "flows[0].transport.pacing_rate",
            "has no effect without pacing = true",
        ),
        (
            r#"{ kind = "tcp_full", pacing = true, pacing_quantum = 0 }"#,
            "flows[0].transport.pacing_quantum",
            "at least 1 packet",
        ),
    ]);
}
