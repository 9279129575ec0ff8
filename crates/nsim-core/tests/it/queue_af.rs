//! Edge policing plus drop priorities in a whole run Noureddine 2002 (§3.4 and Table 5.1).

use nsim_core::{build, RunOptions, Scenario};

#[test]
fn conforming_high_traffic_is_protected_and_low_takes_the_drops() {
    let scn = Scenario::from_toml(
        include_str!("../../../../scenarios/token_bucket_policer.toml"),
        "t.toml",
    )
    .unwrap();
    let r = build(&scn, &RunOptions::default()).unwrap().run(&mut |_| true).unwrap();
    assert!(r.accounting.balanced());
    let core = r.queues.iter().find(|q| q.from == "core" && q.to == "dst").unwrap();
    let prio_drops = core.drops.get("drop_priority").copied().unwrap_or(0);
    assert!(prio_drops > 500, "{core:?}");
    assert_eq!(core.drops.get("overflow"), None, "hard thresholds act before the buffer fills");
    // The user's 1.5 Mb/s: 1 Mb/s conforms (HIGH) and 0.5 Mb/s is demoted to LOW; the link
    // (1.2 Mb/s) carries all HIGH packets and some LOW ones, so the user gets more than the
    // committed 1 Mb/s and the LOW-only flow loses most.
    let user = r.flows.iter().find(|f| f.name == "user").unwrap();
    let other = r.flows.iter().find(|f| f.name == "other").unwrap();
    assert!(user.throughput_bps > 1.0e6, "{}", user.throughput_bps);
    let other_loss = other.dropped_pkts as f64 / other.sent_pkts as f64;
    let user_loss = user.dropped_pkts as f64 / user.sent_pkts as f64;
    assert!(other_loss > user_loss, "{other_loss} vs {user_loss}");
}
