//! `start_jitter`: a flow's start moves by a uniform draw in [0, jitter) from its own stream,
//! as an ns-2 script's `$ns at [$rng uniform 0 J] "$ftp start"` does, so scenarios without
//! other randomness (fixed starts, CBR, deterministic links) differ from seed to seed.

use crate::common::run;
use nsim_core::{build, RunOptions, Scenario};

fn scenario(seed: u64, flows: u32, jitter: &str) -> String {
    format!(
        r#"
duration = "3s"
seed = {seed}
[dumbbell]
pairs = {flows}
bottleneck = {{ rate = "10Mb", delay = "10ms", queue = {{ kind = "droptail", limit = "50p" }} }}
access = {{ rate = "100Mb", delay = "1ms" }}
[[flows]]
name = "f{{i}}"
repeat = {flows}
from = "s{{i}}"
to = "d{{i}}"
start = "0.5s"
start_jitter = "{jitter}"
app = {{ kind = "cbr", rate = "1Mb" }}
"#
    )
}

fn starts(seed: u64, flows: u32, jitter: &str) -> Vec<f64> {
    run(&scenario(seed, flows, jitter)).flows.iter().map(|f| f.start_s).collect()
}

#[test]
fn starts_lie_in_the_jitter_window_and_differ_by_seed() {
    let a = starts(1, 8, "1s");
    assert!(a.iter().all(|&s| (0.5..1.5).contains(&s)), "starts {a:?} outside [0.5, 1.5)");
    assert_ne!(a, starts(2, 8, "1s"), "another seed moved no start");
    assert_eq!(a, starts(1, 8, "1s"), "same seed, same starts");
    // Eight draws of U[0, 1 s): all distinct, and their mean within 3 standard errors of 0.5 s
    // (sd of U[0,1) is 1/sqrt(12); 8 draws: 0.102 s).
    let mean = a.iter().map(|s| s - 0.5).sum::<f64>() / a.len() as f64;
    assert!((mean - 0.5).abs() < 3.0 * 0.102, "mean offset {mean}");
}

#[test]
fn a_run_seed_given_from_outside_moves_the_starts() {
    // Sweeps and `nsim run --seed` override the file's seed through RunOptions.
    let scn = Scenario::from_toml(&scenario(1, 8, "1s"), "test.toml").expect("valid scenario");
    let with = |seed| {
        let opts = RunOptions { seed: Some(seed), ..Default::default() };
        build(&scn, &opts)
            .expect("builds")
            .run(&mut |_| true)
            .expect("runs")
            .flows
            .iter()
            .map(|f| f.start_s)
            .collect::<Vec<_>>()
    };
    assert_eq!(with(1), starts(1, 8, "1s"));
    assert_eq!(with(2), starts(2, 8, "1s"));
    assert_ne!(with(1), with(2));
}

#[test]
fn adding_a_flow_keeps_the_other_starts() {
    let four = starts(3, 4, "2s");
    let five = starts(3, 5, "2s");
    assert_eq!(four[..], five[..4]);
}

#[test]
fn zero_jitter_is_the_fixed_start() {
    assert!(starts(1, 3, "0s").iter().all(|&s| s == 0.5));
}
