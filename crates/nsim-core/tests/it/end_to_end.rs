//! Whole scenarios through the public API.

use nsim_core::{build, RunOptions, Scenario};

fn run(toml: &str) -> nsim_core::Results {
    let scn = Scenario::from_toml(toml, "test.toml").expect("valid scenario");
    build(&scn, &RunOptions::default()).expect("builds").run(&mut |_| true).expect("runs")
}

#[test]
fn example_dumbbell_balances_its_accounting() {
    let r = run(include_str!("../../../../scenarios/cbr_dumbbell.toml"));
    let a = &r.accounting;
    assert!(a.balanced(), "{a:?}");
    assert!(a.dropped > 0, "the bottleneck is overloaded");
    assert_eq!(r.flows.len(), 4);
    let bn = &r.queues[0];
    assert_eq!((bn.from.as_str(), bn.to.as_str()), ("r0", "r1"));
    assert!(bn.utilization > 0.95);
}

#[test]
fn store_and_forward_timing_is_exact_to_the_picosecond() {
    // a -(3 Mb/s, 20 ms)- r -(1 Mb/s, 5 ms)- b; one 1000 B packet.
    // Hop 1: 8000 bits / 3 Mb/s = 2.666666666667 ms (rounded up to the picosecond) + 20 ms.
    // Hop 2: 8000 bits / 1 Mb/s = 8 ms + 5 ms.
    let toml = r#"
        duration = "1s"
        hosts = ["a", "b"]
        routers = ["r"]
        links = [
            { between = ["a", "r"], rate = "3Mb", delay = "20ms" },
            { between = ["r", "b"], rate = "1Mb", delay = "5ms" },
        ]
        [[flows]]
        from = "a"
        to = "b"
        stop = "0.5ms"
        app = { kind = "cbr", interval = "1ms", size = "1000B" }
    "#;
    let path = std::env::temp_dir().join(format!("nsim-timing-{}.tr", std::process::id()));
    let scn = Scenario::from_toml(toml, "t.toml").unwrap();
    let opts =
        RunOptions { trace_path: Some(path.to_string_lossy().into_owned()), ..Default::default() };
    let r = build(&scn, &opts).unwrap().run(&mut |_| true).unwrap();
    let trace = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let ops: Vec<(String, String, String, String)> = trace
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f[0].into(), f[1].into(), f[2].into(), f[3].into())
        })
        .collect();
    let expect = [
        ("+", "0", "0", "2"),
        ("-", "0", "0", "2"),
        ("r", "0.022666666667", "0", "2"),
        ("+", "0.022666666667", "2", "1"),
        ("-", "0.022666666667", "2", "1"),
        ("r", "0.035666666667", "2", "1"),
    ];
    let got: Vec<(&str, &str, &str, &str)> =
        ops.iter().map(|(a, b, c, d)| (a.as_str(), b.as_str(), c.as_str(), d.as_str())).collect();
    assert_eq!(got, expect);
    assert_eq!(r.flows[0].delivered_pkts, 1);
    assert_eq!(r.flows[0].delay_max_s, Some(0.035666666667));
}

#[test]
fn every_example_scenario_balances_its_accounting() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).unwrap();
            let scn = Scenario::from_toml(&text, &path.to_string_lossy()).unwrap();
            let opts = RunOptions {
                duration: Some(nsim_core::time::Dur::from_secs(3)),
                ..Default::default()
            };
            let r = build(&scn, &opts).unwrap().run(&mut |_| true).unwrap();
            assert!(r.accounting.balanced(), "{}: {:?}", path.display(), r.accounting);
            n += 1;
        }
    }
    assert!(n >= 3);
}
