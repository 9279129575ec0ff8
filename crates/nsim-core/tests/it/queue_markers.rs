//! Colour markers (RFC 2697 srTCM, RFC 2698 trTCM) inside whole runs: the colour they write
//! is the drop precedence the `af` queue reads. The token arithmetic itself is checked
//! against the RFCs by hand in the unit tests (`queue/srtcm/tests.rs`, `queue/trtcm/tests.rs`).

use crate::common::run;
use nsim_core::{build, RunOptions, Scenario};

/// The error building a scenario gives (parameters are checked at build).
fn build_error(toml: &str) -> String {
    let scn = Scenario::from_toml(toml, "t.toml").expect("parses");
    build(&scn, &RunOptions::default()).err().expect("rejected").to_string()
}

const SRTCM: &str = include_str!("../../../../scenarios/colour_marker_srtcm.toml");

fn loss(r: &nsim_core::Results, flow: &str) -> f64 {
    let f = r.flows.iter().find(|f| f.name == flow).unwrap();
    f.dropped_pkts as f64 / f.sent_pkts as f64
}

#[test]
fn colour_aware_srtcm_protects_green_and_red_takes_the_drops() {
    let r = run(SRTCM);
    assert!(r.accounting.balanced(), "{:?}", r.accounting);
    let core = r.queues.iter().find(|q| q.from == "core" && q.to == "dst").unwrap();
    assert!(core.drops.get("drop_priority").copied().unwrap_or(0) > 500, "{core:?}");
    let (gold, bulk) = (loss(&r, "gold"), loss(&r, "bulk"));
    // 1.2 Mb/s of capacity for 1.5 Mb/s offered: bulk (red) loses about 0.3 / 0.5 = 60%.
    assert!(gold < 0.01, "gold loss {gold}");
    assert!((bulk - 0.6).abs() < 0.1, "bulk loss {bulk}");
}

#[test]
fn colour_blind_srtcm_lets_pre_red_packets_compete_for_green() {
    let r = run(&SRTCM.replace("mode = \"aware\"", "mode = \"blind\""));
    let (gold, bulk) = (loss(&r, "gold"), loss(&r, "bulk"));
    assert!(gold > 0.05, "blind, gold loses part of its protection: {gold}");
    assert!(bulk < 0.5, "blind, bulk gets green tokens: {bulk}");
}

#[test]
fn trtcm_in_a_scenario_and_its_rfc_2698_parameter_rules() {
    let q = "kind = \"trtcm\", pir = \"2Mb\", pbs = \"10KB\", cir = \"1Mb\", cbs = \"5KB\", queue = { kind = \"droptail\", limit = 100 }";
    let toml = SRTCM.replace("kind = \"srtcm\", cir = \"1.1Mb\", cbs = \"10KB\", ebs = \"10KB\", mode = \"aware\", queue = { kind = \"droptail\", limit = 100 }", q);
    assert!(run(&toml).accounting.balanced());
    for (bad, why) in [
        ("pir = \"2Mb\"", "pir: must be at least cir"),
        ("pbs = \"10KB\"", "pbs: must be above 0"),
        ("cbs = \"5KB\"", "cbs: must be above 0"),
    ] {
        let fixed = match bad {
            "pir = \"2Mb\"" => "pir = \"0.5Mb\"",
            "pbs = \"10KB\"" => "pbs = \"0B\"",
            _ => "cbs = \"0B\"",
        };
        let err = build_error(&toml.replace(bad, fixed));
        assert!(err.contains("links[2].queue") && err.contains(why), "{err}");
    }
    let both_zero = SRTCM.replace("cbs = \"10KB\", ebs = \"10KB\"", "cbs = \"0B\", ebs = \"0B\"");
    let err = build_error(&both_zero);
    assert!(err.contains("cbs and ebs cannot both be 0"), "{err}");
}
