//! RED's average against ns-2.35 (reference/ns2/red_two_source, see its README section 2).
//!
//! ns-2's RED trace prints `ave_` with 6 significant digits. We replay the ns-2 packet
//! trace of the RED link (r1->r2: arrivals `+`, transmission starts `-`, drops `d`) through
//! nsim's estimator (`RedAverage`, the code RED, AF and CBQ leaves use), with the queue
//! length and idle periods reconstructed from that trace, and require every `ave_` ns-2
//! printed to equal nsim's value rounded to those 6 digits (|error| <= half a unit of the
//! 6th digit). A 1e-6 relative comparison is not possible: the reference itself carries
//! up to 5e-6 relative rounding. The same replay checks ns-2's drop conditions: early drops
//! only with ave >= thresh_ and more than one packet queued, forced drops only at the limit.

use nsim_core::queue::red::RedAverage;
use nsim_core::time::SimTime;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../reference/ns2/red_two_source/");
const RATE: f64 = 1.5e6;
const LIMIT: u64 = 25;
const MIN_TH: f64 = 5.0;

fn t(s: f64) -> SimTime {
    SimTime((s * 1e12).round() as u64)
}

fn read(name: &str) -> Vec<Vec<String>> {
    let text =
        std::fs::read_to_string(format!("{DIR}{name}")).unwrap_or_else(|e| panic!("{name}: {e}"));
    text.lines().skip(1).map(|l| l.split(',').map(str::to_string).collect()).collect()
}

/// Half a unit of the 6th significant digit of `x` (the rounding of ns-2's `%g`).
fn half_ulp6(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    0.5 * 10f64.powi(x.abs().log10().floor() as i32 - 5)
}

struct Arrival {
    time: f64,
    qlen: u64,
    ave: f64,
}

struct Replay {
    arrivals: Vec<Arrival>,
    early: u64,
    forced: u64,
}

/// Replays the link's events through the estimator (w 0.002, ptc = 1.5e6/(8·500) = 375).
fn replay(events: &str) -> Replay {
    let mut avg = RedAverage::new(0.002, RATE / (8.0 * 500.0));
    let (mut q, mut tx_end) = (0u64, 0.0f64);
    let mut out = Replay { arrivals: vec![], early: 0, forced: 0 };
    for e in read(events) {
        if e[2] != "2" || e[3] != "3" {
            continue;
        }
        let time: f64 = e[1].parse().unwrap();
        match e[0].as_str() {
            "+" => {
                // ns-2 REDQueue::deque set idle_ when the link finished its last packet and
                // found the queue empty; the next arrival ages the average over that time.
                if q == 0 && tx_end <= time {
                    avg.on_idle(t(tx_end));
                }
                let ave = avg.update(t(time), q as f64);
                out.arrivals.push(Arrival { time, qlen: q, ave });
                q += 1;
            }
            "-" => {
                q -= 1;
                tx_end = time + e[5].parse::<f64>().unwrap() * 8.0 / RATE;
            }
            "d" => {
                q -= 1;
                let a = out.arrivals.last().unwrap();
                assert_eq!(a.time, time, "drops follow their arrival");
                if a.qlen >= LIMIT {
                    out.forced += 1;
                } else {
                    assert!(
                        a.ave >= MIN_TH && a.qlen > 1,
                        "early drop at {time} with ave {} q {}",
                        a.ave,
                        a.qlen
                    );
                    out.early += 1;
                }
            }
            _ => {}
        }
    }
    out
}

/// Matches each row of ns-2's RED trace to the arrivals at its printed time (the last one
/// if several) and compares. Returns (rows, max relative error).
#[track_caller]
fn compare(queue_csv: &str, r: &Replay) -> (usize, f64) {
    let rows = read(queue_csv);
    let (mut j, mut worst) = (0usize, 0.0f64);
    for row in &rows {
        let (rt, rq, ra): (f64, u64, f64) =
            (row[0].parse().unwrap(), row[1].parse().unwrap(), row[2].parse().unwrap());
        let near = |a: &Arrival| (a.time - rt).abs() <= half_ulp6(rt) + 1.5e-6;
        while j < r.arrivals.len() && !near(&r.arrivals[j]) {
            j += 1;
        }
        assert!(j < r.arrivals.len(), "{queue_csv}: no arrival at {rt}");
        while j + 1 < r.arrivals.len() && near(&r.arrivals[j + 1]) {
            j += 1;
        }
        let a = &r.arrivals[j];
        assert_eq!(a.qlen, rq, "{queue_csv}: curq at {rt}");
        let err = (a.ave - ra).abs();
        assert!(
            err <= half_ulp6(ra) * (1.0 + 1e-9) + 1e-15,
            "{queue_csv}: ave at {rt}: nsim {} ns-2 {ra}",
            a.ave
        );
        if ra != 0.0 {
            worst = worst.max(err / ra.abs());
        }
        j += 1;
    }
    (rows.len(), worst)
}

fn summary_drops(name: &str) -> (u64, u64) {
    read(name).iter().fold((0, 0), |(e, f), r| {
        (e + r[5].parse::<u64>().unwrap(), f + r[6].parse::<u64>().unwrap())
    })
}

#[test]
fn red_average_matches_ns2_ave_to_its_printed_precision() {
    let r = replay("events.csv");
    let (rows, worst) = compare("queue.csv", &r);
    assert_eq!(rows, 4479);
    assert!(worst <= 5e-6, "{worst}");
    // gentle_ true gives the same trace (ave never reaches maxthresh_).
    compare("gentle_queue.csv", &r);
    assert_eq!((r.early, r.forced), summary_drops("summary.csv"));
}

#[test]
fn red_average_matches_ns2_under_forced_drops() {
    // window_ 100: the queue hits its limit of 25 (forced drops) and empties after timeouts.
    let r = replay("stress_events.csv");
    let (rows, worst) = compare("stress_queue.csv", &r);
    assert!(rows > 4000);
    assert!(worst <= 5e-6, "{worst}");
    assert_eq!((r.early, r.forced), summary_drops("stress_summary.csv"));
}

/// One row of experiments/red_two_source/expected.toml (the `nsim reproduce` format; the
/// envelope is `value` ± `tol_abs` or ± `tol_rel`·|value|).
#[derive(serde::Deserialize)]
struct Row {
    id: String,
    value: f64,
    tol_abs: Option<f64>,
    tol_rel: Option<f64>,
    source: String,
    params: Check,
}

/// What a row measures (its `params` table).
#[derive(serde::Deserialize)]
struct Check {
    metric: String,
    t_from: Option<f64>,
    t_to: Option<f64>,
    /// For `ave_quantile`: which quantile.
    q: Option<f64>,
}

#[derive(serde::Deserialize)]
struct Expected {
    row: Vec<Row>,
}

/// The metric's value in nsim's run of the twin scenario.
fn metric(r: &nsim_core::Results, c: &Check) -> f64 {
    let q = r.queues.iter().find(|q| q.from == "r1" && q.to == "r2").expect("RED link");
    let drops = |k: &str| q.drops.get(k).copied().unwrap_or(0) as f64;
    let s = &r.series.queue;
    let (from, to) = (c.t_from.unwrap_or(0.0), c.t_to.unwrap_or(f64::MAX));
    let aves = || {
        (0..s.time_s.len())
            .filter(|&i| s.link[i] == q.link && s.time_s[i] >= from && s.time_s[i] < to)
            .map(|i| s.avg_len[i].unwrap())
    };
    match c.metric.as_str() {
        "arrivals" => q.arrivals as f64,
        "red_early_drops" => drops("red_early"),
        "forced_drops" => drops("red_forced") + drops("overflow"),
        "max_len_pkts" => q.max_len_pkts as f64,
        "mean_ave" => aves().sum::<f64>() / aves().count() as f64,
        "max_ave" => aves().fold(0.0, f64::max),
        "ave_quantile" => {
            let mut v: Vec<f64> = aves().collect();
            v.sort_by(f64::total_cmp);
            v[(c.q.expect("q") * (v.len() - 1) as f64) as usize]
        }
        "mean_len" => {
            let lens = || {
                (0..s.time_s.len())
                    .filter(|&i| s.link[i] == q.link && s.time_s[i] >= from && s.time_s[i] < to)
                    .map(|i| s.len_pkts[i] as f64)
            };
            lens().sum::<f64>() / lens().count() as f64
        }
        other => panic!("unknown metric {other}"),
    }
}

/// Runs the twin scenario (with `window_` replaced when given) for seeds 1-3 and checks every
/// envelope of the rows of `part` in expected.toml; reports all violations with their sources.
fn check_envelopes(part: &str, window: Option<u32>) {
    use nsim_core::{build, RunOptions, Scenario};
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let expected: Expected = toml::from_str(
        &std::fs::read_to_string(format!("{root}/experiments/red_two_source/expected.toml"))
            .unwrap(),
    )
    .unwrap();
    let rows: Vec<&Row> =
        expected.row.iter().filter(|r| r.id.starts_with(&format!("{part}."))).collect();
    assert!(rows.len() >= 6, "{part}: {} rows", rows.len());
    let mut text =
        std::fs::read_to_string(format!("{root}/scenarios/red_two_source.toml")).unwrap();
    if let Some(w) = window {
        text = text.replace("window = 15", &format!("window = {w}"));
    }
    let scn = Scenario::from_toml(&text, "red_two_source.toml").unwrap();
    let mut violations = vec![];
    for seed in 1..=3 {
        let r = build(&scn, &RunOptions { seed: Some(seed), ..Default::default() })
            .unwrap()
            .run(&mut |_| true)
            .unwrap();
        assert!(r.accounting.balanced());
        for row in &rows {
            let v = metric(&r, &row.params);
            let tol = row
                .tol_abs
                .or(row.tol_rel.map(|f| f * row.value.abs()))
                .expect("tol_abs or tol_rel");
            if (v - row.value).abs() > tol + 1e-9 * row.value.abs().max(1.0) {
                violations.push(format!(
                    "seed {seed}: {} = {v} not in {} ± {tol} ({})",
                    row.id, row.value, row.source
                ));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn tcp_reno_through_red_stays_in_ns2_envelopes() {
    check_envelopes("base", None);
}

#[test]
fn tcp_reno_through_red_with_forced_drops_stays_in_ns2_envelopes() {
    check_envelopes("stress", Some(100));
}
