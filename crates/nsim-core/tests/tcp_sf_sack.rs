//! SF-SACK beside TCP SACK on seed 004's RED dumbbell (`scenarios/sf_sack_red_dumbbell.toml`).
//! Reference: Bakthavachalu 2004 §6.2.3 (Figs. 6.7/6.8): "SF-SACK is not friendly to the other
//! protocols ... as it always obtains more bandwidth", because it is less responsive (a loss
//! cuts its window by about 10 %, not 50 %). Checked here: the SF-SACK class gets more than
//! its fair share and SACK less, after a 10 s warm-up, with the link still full.

mod common;

#[test]
fn sf_sack_takes_more_than_its_share_from_sack() {
    let path = format!("{}/../../scenarios/sf_sack_red_dumbbell.toml", env!("CARGO_MANIFEST_DIR"));
    let r = common::run(&std::fs::read_to_string(path).expect("scenario"));
    assert!(r.accounting.balanced());
    let ft = &r.series.flow_throughput;
    let mut bytes = vec![0u64; r.flows.len()];
    for ((t, f), b) in ft.time_s.iter().zip(&ft.flow).zip(&ft.delivered_bytes) {
        if *t > 10.0 {
            bytes[*f as usize] += b;
        }
    }
    let fair = bytes.iter().sum::<u64>() as f64 / bytes.len() as f64;
    let class = |prefix: &str| {
        let v: Vec<f64> = r.flows.iter().filter(|f| f.name.starts_with(prefix)).map(|f| bytes[f.flow as usize] as f64 / fair).collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    let (sf, sack) = (class("sfsack"), class("sack"));
    let util = bytes.iter().sum::<u64>() as f64 * 8.0 / 20.0 / 15e6;
    eprintln!("normalized throughput: SF-SACK {sf:.2}, SACK {sack:.2}; utilization {util:.3}");
    assert!(sf > 1.1 && sack < 0.9, "SF-SACK {sf:.2}, SACK {sack:.2}");
    assert!(util > 0.95, "utilization {util:.3}");
}
