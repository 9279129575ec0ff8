//! ECMP through whole scenarios (issue 27): flows spread over a leaf-spine fabric's equal-cost
//! spine paths within the binomial spread of a fair hash, the `path` column says where each
//! flow's packets went, and a failing spine link moves its flows to the other spines.

use nsim_core::{build, Results, RunOptions, Scenario};

fn run(toml: &str, seed: u64) -> Results {
    let scn = Scenario::from_toml(toml, "t.toml").expect("parses");
    let opts = RunOptions { seed: Some(seed), ..RunOptions::default() };
    let mut r = build(&scn, &opts).expect("builds").run(&mut |_| true).expect("runs");
    r.wall_s = 0.0;
    r.setup_wall_s = 0.0;
    r.run_wall_s = 0.0;
    r
}

/// Two leaves under four spines, 200 hosts per leaf, 200 low-rate CBR flows from leaf0's hosts
/// to leaf1's (each flow its own 5-tuple), sending until 0.4 s of a 0.5 s run.
fn fabric(events: &str) -> String {
    format!(
        r#"duration = "0.5s"
[leaf_spine]
spines = 4
leaves = 2
hosts_per_leaf = 200
fabric_link = {{ rate = "1Gb", delay = "10us", queue = {{ kind = "droptail", limit = "1000p" }}, reverse_queue = {{ kind = "droptail", limit = "1000p" }} }}
host_link = {{ rate = "100Mb", delay = "10us" }}
[routing]
ecmp = true
[[flows]]
name = "f{{i}}"
repeat = 200
from = "h{{i}}"
to = "h{{i+200}}"
stop = "0.4s"
app = {{ kind = "cbr", rate = "80kb", size = "100B" }}
{events}"#
    )
}

/// Flows per spine, from the `path` column (host > leaf0 > spine > leaf1 > host).
fn per_spine(r: &Results) -> [u32; 4] {
    let mut per = [0u32; 4];
    for f in &r.flows {
        let path = f.path.as_deref().expect("ECMP runs report each flow's path");
        let hops: Vec<&str> = path.split('>').collect();
        assert_eq!(hops.len(), 5, "{path}");
        per[hops[2].trim_start_matches("spine").parse::<usize>().unwrap()] += 1;
    }
    per
}

#[test]
fn flows_spread_over_the_spines_within_the_binomial_spread() {
    let mut splits = Vec::new();
    for seed in 1..=3 {
        let r = run(&fabric(""), seed);
        let per = per_spine(&r);
        // Pearson's chi-square against 50 flows per spine (Binomial(200, 1/4) each), 3 degrees
        // of freedom: below 16.27, the 0.1 % critical value.
        let chi2: f64 = per.iter().map(|&c| (c as f64 - 50.0).powi(2) / 50.0).sum();
        assert!(chi2 < 16.27, "seed {seed}: {per:?}, chi2 {chi2:.1}");
        // The packets that left leaf0 for each spine are those of the flows the path column
        // puts there (all delivered: the flows stop 0.1 s before the end).
        for (s, _) in per.iter().enumerate() {
            let via: u64 = r
                .flows
                .iter()
                .filter(|f| f.path.as_deref().unwrap().contains(&format!(">spine{s}>")))
                .map(|f| f.delivered_pkts)
                .sum();
            let left = r
                .queues
                .iter()
                .find(|q| q.from == "leaf0" && q.to == format!("spine{s}"))
                .unwrap()
                .departures;
            assert_eq!(left, via, "seed {seed}, spine{s}");
        }
        assert_eq!(r.accounting.delivered, r.accounting.created, "no loss, nothing left");
        splits.push(per);
    }
    assert!(
        splits[0] != splits[1] || splits[1] != splits[2],
        "seeds change the hash salt: {splits:?}"
    );
    assert_eq!(per_spine(&run(&fabric(""), 2)), splits[1], "same seed, same paths");
}

#[test]
fn a_failed_spine_link_moves_its_flows_to_the_other_spines() {
    let down = "[[event]]\nat = \"0.2s\"\naction = \"down\"\nlink = \"leaf1-spine0\"\n";
    let before = per_spine(&run(&fabric(""), 1));
    let r = run(&fabric(down), 1);
    let after = per_spine(&r);
    assert!(before[0] > 0, "some flows used spine0: {before:?}");
    assert_eq!(after[0], 0, "none use it after the failure: {after:?}");
    assert_eq!(after.iter().sum::<u32>(), 200);
    // With three equal-cost links left at leaf0 the modulo-N hash reassigns flows over them
    // (RFC 2992 §3: modulo-N moves most flows when N changes); every flow delivers after it.
    let silent: Vec<_> = r
        .flows
        .iter()
        .filter(|f| f.delivered_pkts == 0)
        .map(|f| (f.name.clone(), f.path.clone(), f.sent_pkts, f.drops.clone()))
        .collect();
    assert!(silent.is_empty(), "{silent:?} {:?}", r.accounting);
    let acc = &r.accounting;
    assert_eq!(acc.created, acc.delivered + acc.dropped + acc.queued + acc.in_flight);
    assert_eq!(r.event_log.iter().filter(|e| e.action == "reroute").count(), 1);
}

#[test]
fn without_ecmp_there_is_no_path_column_and_one_spine_carries_everything() {
    let r = run(&fabric("").replace("ecmp = true", "ecmp = false"), 1);
    assert!(r.flows.iter().all(|f| f.path.is_none()));
    let busy: Vec<_> = r
        .queues
        .iter()
        .filter(|q| q.from == "leaf0" && q.to.starts_with("spine") && q.departures > 0)
        .collect();
    assert_eq!(busy.len(), 1, "the lowest link id wins every tie (ns-2 static routes)");
}

#[test]
fn a_fat_tree_spreads_inter_pod_flows_over_its_four_core_paths() {
    // k = 4 (Al-Fares et al. 2008): from pod 0 to pod 3 there are (k/2)^2 = 4 equal-cost paths,
    // one per core switch (two aggregation switches up, each with two cores).
    let toml = r#"duration = "0.5s"
[fat_tree]
k = 4
fabric_link = { rate = "1Gb", delay = "10us", queue = { kind = "droptail", limit = "1000p" }, reverse_queue = { kind = "droptail", limit = "1000p" } }
host_link = { rate = "1Gb", delay = "10us", queue = { kind = "droptail", limit = "1000p" }, reverse_queue = { kind = "droptail", limit = "1000p" } }
[routing]
ecmp = true
[[flows]]
name = "f{i}"
repeat = 200
from = "h0"
to = "h15"
stop = "0.4s"
app = { kind = "cbr", rate = "80kb", size = "100B" }
"#;
    let r = run(toml, 1);
    let mut per = [0u32; 4];
    for f in &r.flows {
        let path = f.path.as_deref().unwrap();
        let hops: Vec<&str> = path.split('>').collect();
        assert_eq!(hops.len(), 7, "h0 > edge0 > agg > core > agg > edge7 > h15: {path}");
        assert_eq!((hops[1], hops[5]), ("edge0", "edge7"));
        per[hops[3].trim_start_matches("core").parse::<usize>().unwrap()] += 1;
    }
    let chi2: f64 = per.iter().map(|&c| (c as f64 - 50.0).powi(2) / 50.0).sum();
    assert!(chi2 < 16.27, "{per:?}, chi2 {chi2:.1}");
    assert_eq!(r.accounting.delivered, r.accounting.created);
}
