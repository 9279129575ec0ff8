//! TFRC competing with TCP SACK on Bakthavachalu 2004's RED dumbbell (`scenarios/tfrc_red_dumbbell.toml`,
//! 4 + 4 flows, 15 Mb/s). Reference: Bakthavachalu 2004, Table 5.4 (TFRC vs Sack, RED, no
//! ECN): the TFRC class gets 0.98 (n = 4) to 1.06 (n = 16) of the fair share, SACK 1.02 to
//! 0.94; across Tables 5.1-5.4 the TCP-like classes stay within about 0.8-1.2. The band here
//! is that: each class within [0.8, 1.2] of the fair share, measured after a 10 s warm-up.

use crate::common;

#[test]
fn tfrc_shares_a_red_bottleneck_fairly_with_sack() {
    let path = format!("{}/../../scenarios/tfrc_red_dumbbell.toml", env!("CARGO_MANIFEST_DIR"));
    let r = common::run(&std::fs::read_to_string(path).expect("scenario"));
    assert!(r.accounting.balanced());
    let bytes = common::delivered_after(&r, 10.0);
    let (tfrc, sack) =
        (common::class_share(&r, &bytes, "tfrc"), common::class_share(&r, &bytes, "sack"));
    let util = bytes.iter().sum::<u64>() as f64 * 8.0 / 50.0 / 15e6;
    eprintln!("normalized throughput: TFRC {tfrc:.2}, SACK {sack:.2}; utilization {util:.3}");
    assert!((0.8..=1.2).contains(&tfrc), "TFRC class gets {tfrc:.2} of the fair share");
    assert!((0.8..=1.2).contains(&sack), "SACK class gets {sack:.2} of the fair share");
    assert!(util > 0.9, "bottleneck utilization {util:.3}");
}

/// RFC 5348 §5 / RFC 3168: with ECN the receiver counts CE marks as losses, so TFRC backs off
/// from marks alone and the RED queue (marking below max_th) barely drops.
#[test]
fn tfrc_backs_off_from_ecn_marks() {
    let path = format!("{}/../../scenarios/tfrc_red_dumbbell.toml", env!("CARGO_MANIFEST_DIR"));
    let toml = std::fs::read_to_string(path)
        .expect("scenario")
        .replace("gentle = true }", "gentle = true, setbit = true }")
        .replace(r#"transport = { kind = "tfrc" }"#, r#"transport = { kind = "tfrc", ecn = true }"#)
        .replace(
            r#"variant = "sack1", window = 1000 }"#,
            r#"variant = "sack1", window = 1000, ecn = true }"#,
        );
    let r = common::run(&toml);
    let q = r.queues.iter().find(|q| q.from == "r0" && q.to == "r1").expect("bottleneck");
    let tfrc: Vec<_> = r.flows.iter().filter(|f| f.transport == "tfrc").collect();
    let drops: u64 = tfrc.iter().map(|f| f.dropped_pkts).sum();
    let sent: u64 = tfrc.iter().map(|f| f.sent_pkts).sum();
    eprintln!(
        "marks {}, TFRC drops {drops} of {sent}, bottleneck utilization {:.3}",
        q.ecn_marks, q.utilization
    );
    assert!(q.ecn_marks > 100, "RED marked {}", q.ecn_marks);
    assert!((drops as f64) < 0.002 * sent as f64, "TFRC lost {drops} of {sent}");
    assert!(q.utilization > 0.9);
}
