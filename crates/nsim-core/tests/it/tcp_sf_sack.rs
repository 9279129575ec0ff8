//! SF-SACK beside TCP SACK on Bakthavachalu 2004's RED dumbbell (`scenarios/sf_sack_red_dumbbell.toml`).
//! Reference: Bakthavachalu 2004 §6.2.3 (Figs. 6.7/6.8): "SF-SACK is not friendly to the other
//! protocols ... as it always obtains more bandwidth", because it is less responsive (a loss
//! cuts its window by about 10 %, not 50 %). Checked here: the SF-SACK class gets more than
//! its fair share and SACK less, after a 10 s warm-up, with the link still full.

use crate::common;

#[test]
fn sf_sack_takes_more_than_its_share_from_sack() {
    let path = format!("{}/../../scenarios/sf_sack_red_dumbbell.toml", env!("CARGO_MANIFEST_DIR"));
    let r = common::run(&std::fs::read_to_string(path).expect("scenario"));
    assert!(r.accounting.balanced());
    let bytes = common::delivered_after(&r, 10.0);
    let (sf, sack) =
        (common::class_share(&r, &bytes, "sfsack"), common::class_share(&r, &bytes, "sack"));
    let util = bytes.iter().sum::<u64>() as f64 * 8.0 / 20.0 / 15e6;
    eprintln!("normalized throughput: SF-SACK {sf:.2}, SACK {sack:.2}; utilization {util:.3}");
    assert!(sf > 1.1 && sack < 0.9, "SF-SACK {sf:.2}, SACK {sack:.2}");
    assert!(util > 0.95, "utilization {util:.3}");
}
