//! Every queue benchmark scenario runs, balances its accounting, and drops for the reasons
//! its discipline gives.

use nsim_core::{build, RunOptions, Scenario};

fn run_file(name: &str) -> nsim_core::Results {
    let path = format!("{}/../../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let scn = Scenario::from_toml(&text, &path).unwrap();
    let opts = RunOptions { duration: Some(nsim_core::time::Dur::from_secs(3)), ..Default::default() };
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
        let r = run_file(&format!("bench_queue_{family}.toml"));
        assert!(r.accounting.balanced(), "{family}: {:?}", r.accounting);
        let bn = &r.queues[0];
        assert_eq!((bn.from.as_str(), bn.to.as_str()), ("r0", "r1"));
        assert!(bn.drops.get(reason).copied().unwrap_or(0) > 0, "{family}: {:?}", bn.drops);
    }
}
