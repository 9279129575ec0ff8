//! STP vs TCP goodput against bit error rate on Holl's chapter 5 set-up
//! (`scenarios/stp_satellite_ber.toml`; Holl 2003 §3.2, Fig. 5.3): all protocols alike up to
//! BER 2e-6; STP ahead from 4e-6; at 1e-4 STP ~5,250 b/s per flow and TCP ~750 b/s
//! (DropTail); TCP near zero from 2e-4; STP quenched by 7e-4.
//!
//! 12 runs of 128 flows x 128.6 s: about 4 s with the (optimized) test profile.

use crate::common;

/// Mean per-flow payload rate (b/s) over Holl's window 63.6-123.6 s.
fn mean_goodput(transport: &str, ber: f64) -> f64 {
    let path = format!("{}/../../scenarios/stp_satellite_ber.toml", env!("CARGO_MANIFEST_DIR"));
    let toml = std::fs::read_to_string(path)
        .expect("scenario")
        .replace("ber = 1e-4", &format!("ber = {ber:e}"))
        .replace(r#"transport = { kind = "stp", packet_size = "536B" }"#, transport);
    let r = common::run(&toml);
    assert!(r.accounting.balanced());
    let sum = |f: fn(&nsim_core::results::FlowRow) -> u64| r.flows.iter().map(f).sum::<u64>();
    eprintln!(
        "  timeouts {} retransmits {} ustats {}",
        sum(|f| f.timeouts),
        sum(|f| f.retransmits),
        sum(|f| f.ustats)
    );
    let ft = &r.series.flow_throughput;
    let bytes: u64 = ft
        .time_s
        .iter()
        .zip(&ft.delivered_bytes)
        .filter(|(t, _)| **t > 63.6 && **t <= 123.6)
        .map(|(_, b)| *b)
        .sum();
    // Delivered wire bytes to payload: 536 of every 576.
    bytes as f64 * 8.0 * 536.0 / 576.0 / 60.0 / r.flows.len() as f64
}

#[test]
fn stp_outlasts_tcp_under_bit_errors() {
    let stp = r#"transport = { kind = "stp", packet_size = "536B" }"#;
    let tcp = r#"transport = { kind = "tcp", variant = "newreno", packet_size = "536B" }"#;
    let mut rows = Vec::new();
    for ber in [1e-6, 1e-5, 3e-5, 1e-4, 2e-4, 7e-4] {
        let (s, t) = (mean_goodput(stp, ber), mean_goodput(tcp, ber));
        eprintln!("BER {ber:e}: STP {s:.0} b/s, TCP newreno {t:.0} b/s");
        rows.push((ber, s, t));
    }
    let at = |b: f64| *rows.iter().find(|r| r.0 == b).unwrap();
    // Holl: 5,250 b/s for STP and 750 b/s for TCP at 1e-4; band: STP 2.5-10 kb/s, and at
    // least three times TCP.
    let (_, s4, t4) = at(1e-4);
    assert!((2500.0..10_000.0).contains(&s4) && s4 > 3.0 * t4, "1e-4: STP {s4:.0}, TCP {t4:.0}");
    // TCP collapses by 2e-4 (Holl: "At 2e-4 TCP throughput -> 0"), STP by 7e-4.
    let (_, s6, t6) = at(1e-6);
    let (_, _, t2) = at(2e-4);
    let (_, s7, _) = at(7e-4);
    assert!(t2 < 0.05 * t6, "2e-4: TCP {t2:.0}");
    assert!(s7 < 0.05 * s6, "7e-4: STP {s7:.0}");
    // Known difference: at low BER Holl finds all protocols alike (18-20 kb/s); nsim's STP
    // gets ~70 % of TCP there (see docs/models/stp.md). Band: 0.5-1.1 of TCP.
    assert!((0.5..1.1).contains(&(s6 / t6)), "1e-6: STP {s6:.0}, TCP {t6:.0}");
}
