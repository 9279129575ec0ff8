//! Every queue benchmark scenario runs, balances its accounting, and drops for the reasons
//! its discipline gives.

use nsim_core::{build, RunOptions, Scenario};

fn run_file(name: &str) -> nsim_core::Results {
    let path = format!("{}/../../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let scn = Scenario::from_toml(&text, &path).unwrap();
    let opts =
        RunOptions { duration: Some(nsim_core::time::Dur::from_secs(3)), ..Default::default() };
    build(&scn, &opts).unwrap().run(&mut |_| true).unwrap()
}

#[test]
fn bench_scenarios_drop_for_their_disciplines_reasons() {
    let expect = [
        ("red", "red_early"),
        ("prio", "overflow"),
        ("wrr", "overflow"),
        ("drr", "overflow"),
        ("cbq", "overflow"),
        ("af", "drop_priority"),
        ("token_bucket", "drop_priority"),
        ("codel", "codel"),
        ("fq_codel", "codel"),
        ("pie", "pie"),
    ];
    for (family, reason) in expect {
        let r = run_file(&format!("../benches/scenarios/queue_{family}.toml"));
        assert!(r.accounting.balanced(), "{family}: {:?}", r.accounting);
        let bn = &r.queues[0];
        assert_eq!((bn.from.as_str(), bn.to.as_str()), ("r0", "r1"));
        assert!(bn.drops.get(reason).copied().unwrap_or(0) > 0, "{family}: {:?}", bn.drops);
    }
}

fn run_full(name: &str) -> nsim_core::Results {
    let path = format!("{}/../../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let scn = Scenario::from_toml(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
    build(&scn, &RunOptions::default()).unwrap().run(&mut |_| true).unwrap()
}

fn bytes_of(r: &nsim_core::Results, flow: &str) -> f64 {
    r.flows.iter().find(|f| f.name == flow).unwrap().delivered_bytes as f64
}

#[test]
fn wrr_and_drr_runs_share_the_link_by_weight_within_2_percent() {
    let r = run_full("wrr_video_data.toml");
    let video = bytes_of(&r, "video") / (bytes_of(&r, "video") + bytes_of(&r, "data"));
    assert!((video / 0.9 - 1.0).abs() < 0.02, "{video}");
    let r = run_full("drr_mixed_sizes.toml");
    let total: f64 = ["small", "medium", "large"].iter().map(|f| bytes_of(&r, f)).sum();
    for f in ["small", "medium", "large"] {
        let share = bytes_of(&r, f) / total;
        assert!((share * 3.0 - 1.0).abs() < 0.02, "{f}: {share}");
    }
}

#[test]
fn af_run_protects_high_then_med() {
    let r = run_full("af_three_priorities.toml");
    let loss = |f: &str| {
        let row = r.flows.iter().find(|x| x.name == f).unwrap();
        row.dropped_pkts as f64 / row.sent_pkts as f64
    };
    assert_eq!(loss("high"), 0.0);
    assert!(loss("med") < 0.01, "{}", loss("med"));
    assert!(loss("low") > 0.45, "{}", loss("low"));
}

#[test]
fn queue_schema_is_exported_with_nested_classes() {
    let schema = Scenario::json_schema().to_string();
    for kind in
        ["red", "af", "prio", "wrr", "drr", "cbq", "policer", "shaper", "codel", "fq_codel", "pie"]
    {
        assert!(schema.contains(&format!("\"{kind}\"")), "{kind} missing from the schema");
    }
}

#[test]
fn bad_queue_parameters_are_reported_with_their_path() {
    let base = std::fs::read_to_string(format!(
        "{}/../../scenarios/cbq_link_sharing.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let cases = [
        (
            "flows = [\"a\"]",
            "flows = [\"nobody\"]",
            "classes[0].match.flows: unknown flow 'nobody'",
        ),
        ("allot = 0.3", "allot = 1.3", "classes[0].allot: 1.3 is not in (0, 1]"),
        (
            "allot = 0.7, borrow = true }",
            "allot = 0.7, borrow = true, queue = { kind = \"red\", min_th = 9, max_th = 3 } }",
            "classes[1].queue.max_th",
        ),
    ];
    for (from, to, want) in cases {
        let text = base.replacen(from, to, 1);
        let scn = Scenario::from_toml(&text, "t.toml").unwrap();
        let err = build(&scn, &RunOptions::default()).err().expect("rejected");
        assert_eq!(err.path, "links[2].queue", "{err:?}");
        assert!(err.reason.starts_with(want), "{}", err.reason);
    }
}

#[test]
fn random_disciplines_are_deterministic_per_seed() {
    // Same scenario and seed: identical results (RED, AF and PIE draw from the link's stream).
    for family in ["red", "af", "pie"] {
        let (a, b) = (
            run_file(&format!("../benches/scenarios/queue_{family}.toml")),
            run_file(&format!("../benches/scenarios/queue_{family}.toml")),
        );
        assert_eq!(a.events, b.events, "{family}");
        assert_eq!(a.queues[0].drops, b.queues[0].drops, "{family}");
        assert_eq!(a.queues[0].departure_bytes, b.queues[0].departure_bytes, "{family}");
    }
}
