//! CUBIC beside ns-3.37's TcpCubic on one dumbbell (reference/ns3/cubic: our ns-3 program, its
//! reduced output and nsim's twin scenario): one flow, 10 Mb/s, 40 ms, DropTail 100 packets,
//! 60 s. Compared after 10 s: goodput, the window before each reduction (W_max, where the
//! buffer overflows: BDP 50 + 100 queued = about 150 packets) and the epoch length, which
//! fast convergence makes alternate between a long and a short epoch in both simulators.

use crate::common;

#[test]
fn cubic_matches_ns3_tcpcubic_on_the_dumbbell() {
    let path = format!("{}/../../reference/ns3/cubic/scenario.toml", env!("CARGO_MANIFEST_DIR"));
    let r = common::run(&std::fs::read_to_string(path).expect("scenario"));
    assert!(r.accounting.balanced());
    let s = &r.series.tcp;
    // Epochs as reference/ns3/cubic/reduce.py finds them: a fall of more than 10 % ends one.
    let (mut epochs, mut peak, mut last) = (Vec::new(), 0.0f64, None::<f64>);
    for i in 1..s.time_s.len() {
        peak = peak.max(s.cwnd_pkts[i - 1]);
        if s.cwnd_pkts[i] < 0.9 * s.cwnd_pkts[i - 1] {
            let t = s.time_s[i];
            if let (Some(l), true) = (last, t > 10.0) {
                epochs.push((peak, t - l));
            }
            last = Some(t);
            peak = 0.0;
        }
    }
    // In-order payload delivered to the application between 10 and 60 s (ns-3's sink count).
    let g = &r.series.goodput;
    let at = |t: f64| {
        g.time_s
            .iter()
            .zip(&g.goodput_bytes)
            .rfind(|(ts, _)| **ts <= t + 1e-9)
            .map_or(0, |(_, b)| *b)
    };
    let goodput = (at(60.0) - at(10.0)) as f64 * 8.0 / 50.0 / 1e6;
    let w_max = epochs.iter().map(|e| e.0).sum::<f64>() / epochs.len() as f64;
    let epoch = epochs.iter().map(|e| e.1).sum::<f64>() / epochs.len() as f64;
    let ns3 = common::ns3_summary("cubic");
    println!("nsim: goodput {goodput:.3} Mb/s, {} epochs, W_max {w_max:.1}, epoch {epoch:.2} s; ns-3: {ns3:?}", epochs.len());
    let close = |a: f64, b: f64, tol: f64| (a / b - 1.0).abs() <= tol;
    assert!(
        close(goodput, ns3["goodput_mbps_10_60"], 0.03),
        "goodput {goodput:.3} vs {}",
        ns3["goodput_mbps_10_60"]
    );
    assert!(
        close(w_max, ns3["w_max_mean_pkts"], 0.05),
        "W_max {w_max:.1} vs {}",
        ns3["w_max_mean_pkts"]
    );
    assert!(close(epoch, ns3["epoch_mean_s"], 0.15), "epoch {epoch:.2} vs {}", ns3["epoch_mean_s"]);
}
