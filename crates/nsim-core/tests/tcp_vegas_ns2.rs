//! Vegas against ns-2.35's `Agent/TCP/Vegas` (`reference/ns2/vegas`): one flow, then two flows
//! (the second starting 1 s later) on a 10 Mb/s, 20 ms bottleneck without loss, so only
//! Vegas' own rules move cwnd: slow start doubling every other round trip, the exit at
//! delta > gamma (cwnd - cwnd/8), congestion avoidance at 1/cwnd per ACK while delta < alpha,
//! and the resting windows (ns-2: 64.3; 41.5 and 24.9 packets).

mod common;

/// cwnd changes (time, cwnd) of each flow.
type Trajectories = Vec<Vec<(f64, f64)>>;

/// ns-2's cwnd changes per flow from the reference CSV.
fn ns2(name: &str) -> Trajectories {
    let path = format!("{}/../../reference/ns2/vegas/{name}_cwnd.csv", env!("CARGO_MANIFEST_DIR"));
    let mut out: Trajectories = Vec::new();
    for l in std::fs::read_to_string(path).expect("reference CSV").lines().skip(1) {
        let f: Vec<f64> = l.split(',').map(|x| x.parse().expect("number")).collect();
        let flow = f[1] as usize;
        if out.len() <= flow {
            out.resize(flow + 1, Vec::new());
        }
        out[flow].push((f[0], f[2]));
    }
    out
}

/// nsim's cwnd changes per flow on `scenarios/vegas_two_flow.toml` with `flows` flows.
fn nsim(flows: usize) -> Trajectories {
    let path = format!("{}/../../scenarios/vegas_two_flow.toml", env!("CARGO_MANIFEST_DIR"));
    let toml = std::fs::read_to_string(path)
        .expect("scenario")
        .replace("repeat = 2", &format!("repeat = {flows}"))
        .replace("pairs = 2", &format!("pairs = {flows}"));
    let r = common::run(&toml);
    let c = &r.series.cwnd;
    let mut out: Trajectories = vec![Vec::new(); flows];
    for ((t, f), w) in c.time_s.iter().zip(&c.flow).zip(&c.cwnd_pkts) {
        out[*f as usize].push((*t, *w));
    }
    out
}

/// cwnd at time `t` (the last change at or before it; 0 before the first).
fn at(s: &[(f64, f64)], t: f64) -> f64 {
    s.iter().take_while(|(ts, _)| *ts <= t).last().map_or(0.0, |&(_, w)| w)
}

/// Samples both every 10 ms over 10 s: cwnd may differ by up to 2.5 packets while a round's
/// steps land a few ACKs apart, but on average by under 0.2 and at the end by under 0.5.
fn compare(name: &str, flows: usize) {
    let (want, got) = (ns2(name), nsim(flows));
    assert_eq!(got.len(), want.len());
    for (f, (w, g)) in want.iter().zip(&got).enumerate() {
        let diffs: Vec<f64> = (1..1000).map(|k| (at(w, k as f64 / 100.0) - at(g, k as f64 / 100.0)).abs()).collect();
        let max = diffs.iter().cloned().fold(0.0, f64::max);
        let mean = diffs.iter().sum::<f64>() / diffs.len() as f64;
        let end = diffs[diffs.len() - 1];
        assert!(max <= 2.5 && mean < 0.2 && end < 0.5, "{name} flow {f}: max {max} mean {mean} end {end}");
    }
}

#[test]
fn one_vegas_flow_follows_ns2_cwnd() {
    compare("one_flow", 1);
}

#[test]
fn two_vegas_flows_follow_ns2_cwnd() {
    compare("two_flow", 2);
}
