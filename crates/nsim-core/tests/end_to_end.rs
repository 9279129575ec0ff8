//! Whole scenarios through the public API.

use nsim_core::{build, RunOptions, Scenario};

fn run(toml: &str) -> nsim_core::Results {
    let scn = Scenario::from_toml(toml, "test.toml").expect("valid scenario");
    build(&scn, &RunOptions::default()).expect("builds").run(&mut |_| true).expect("runs")
}

#[test]
fn example_dumbbell_balances_its_accounting() {
    let r = run(include_str!("../../../scenarios/cbr_dumbbell.toml"));
    let a = &r.accounting;
    assert!(a.balanced(), "{a:?}");
    assert!(a.dropped > 0, "the bottleneck is overloaded");
    assert_eq!(r.flows.len(), 4);
    let bn = &r.queues[0];
    assert_eq!((bn.from.as_str(), bn.to.as_str()), ("r0", "r1"));
    assert!(bn.utilization > 0.95);
}
