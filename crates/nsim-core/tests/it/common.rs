//! Helpers shared by the integration tests: run a scenario (optionally with an ns-2 trace,
//! read back).

use nsim_core::{build, Results, RunOptions, Scenario};

/// One line of an ns-2 trace (or of the reduced ns-2 reference CSVs).
#[derive(Clone, Debug, PartialEq)]
pub struct Ev {
    pub op: char,
    pub t: f64,
    pub from: u32,
    pub to: u32,
    pub kind: String,
    pub size: u32,
    pub flags: String,
    pub seq: u64,
}

impl Ev {
    /// An event from split fields whose first six are op, time, from, to, type, size (ns-2's
    /// trace and the reduced CSVs agree there) and whose seqno and flags sit at `seq`, `flags`.
    fn from_fields(f: &[&str], seq: usize, flags: usize) -> Ev {
        Ev {
            op: f[0].chars().next().unwrap(),
            t: f[1].parse().unwrap(),
            from: f[2].parse().unwrap(),
            to: f[3].parse().unwrap(),
            kind: f[4].to_string(),
            size: f[5].parse().unwrap(),
            flags: f[flags].to_string(),
            seq: f[seq].parse().unwrap(),
        }
    }
}

/// Runs a TOML scenario, writing an ns-2 trace, and returns the results and trace events.
pub fn run_traced(toml: &str, tag: &str) -> (Results, Vec<Ev>) {
    let scn = Scenario::from_toml(toml, "test.toml").expect("valid scenario");
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("nsim-{}-{k}-{tag}.tr", std::process::id()));
    let opts =
        RunOptions { trace_path: Some(path.to_string_lossy().into_owned()), ..Default::default() };
    let res = build(&scn, &opts).expect("builds").run(&mut |_| true).expect("runs");
    let text = std::fs::read_to_string(&path).expect("trace written");
    let _ = std::fs::remove_file(&path);
    let evs = text
        .lines()
        // ns-2 trace line: op time from to type size flags fid src dst seq pkt_id
        .map(|l| Ev::from_fields(&l.split_whitespace().collect::<Vec<_>>(), 10, 6))
        .collect();
    (res, evs)
}

/// Runs a TOML scenario without a trace.
pub fn run(toml: &str) -> Results {
    let scn = Scenario::from_toml(toml, "test.toml").expect("valid scenario");
    build(&scn, &RunOptions::default()).expect("builds").run(&mut |_| true).expect("runs")
}

/// `scenarios/<file>` with `seed = <seed>` prepended.
fn example_with_seed(file: &str, seed: u64) -> String {
    let path = format!("{}/../../scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    format!("seed = {seed}\n{}", std::fs::read_to_string(path).expect("scenario"))
}

/// Everything a run reports except its wall-clock times: equal for bit-identical runs.
pub fn fingerprint(r: &Results) -> String {
    serde_json::to_string(&(&r.flows, &r.queues, &r.series, &r.accounting, r.events))
        .expect("serializes")
}

/// Runs `scenarios/<file>` with seed 1 twice and seed 2 once: the same seed must give
/// bit-identical results, the other seed (`why`: what it draws) different ones, and every
/// packet must be accounted for (dropped ones by their flows). Returns the seed-1 run.
#[track_caller]
pub fn same_seed_same_results(file: &str, why: &str) -> Results {
    let a = run(&example_with_seed(file, 1));
    let b = run(&example_with_seed(file, 1));
    assert_eq!(fingerprint(&a), fingerprint(&b));
    let acc = &a.accounting;
    assert!(acc.balanced(), "{acc:?}");
    assert_eq!(
        acc.dropped,
        a.flows.iter().map(|f| f.dropped_pkts + f.ack_dropped_pkts).sum::<u64>()
    );
    let c = run(&example_with_seed(file, 2));
    assert!(c.accounting.balanced());
    assert_ne!(fingerprint(&a), fingerprint(&c), "{why}");
    a
}

/// Each `(transport table, field, reason)`: the table on [`lossy_path_of`]'s path is refused
/// with an error naming the field and containing the reason.
#[track_caller]
pub fn assert_transport_errors(cases: &[(&str, &str, &str)]) {
    for (table, field, why) in cases {
        let err = config_error(&lossy_path_of("", 1.0, table));
        assert!(err.contains(field) && err.contains(why), "{table}: {err}");
    }
}

/// Runs a TOML scenario and checks that its accounting balances.
#[track_caller]
pub fn run_balanced(toml: &str) -> Results {
    let r = run(toml);
    assert!(r.accounting.balanced(), "accounting: {:?}", r.accounting);
    r
}

/// The error a scenario that parses but must not build gets.
#[track_caller]
pub fn config_error(toml: &str) -> String {
    let scn = Scenario::from_toml(toml, "test.toml").expect("parses");
    match build(&scn, &RunOptions::default()) {
        Ok(_) => panic!("accepted an invalid scenario"),
        Err(e) => e.to_string(),
    }
}

/// One bulk TCP flow s -> r -> d over 1 Gb/s links (no queueing), 200 ms RTT, uniform loss `p`
/// on the data path (the Mathis-style set-up); `transport` is the rest of the TCP table.
pub fn uniform_loss(p: f64, duration_s: f64, transport: &str) -> String {
    lossy_path(&format!("{{ kind = \"uniform\", rate = {p} }}"), duration_s, transport)
}

/// The set-up of [`uniform_loss`] with any error model (`error`, a TOML inline table) on the
/// data path; the flow is named `flow0`.
pub fn lossy_path(error: &str, duration_s: f64, transport: &str) -> String {
    lossy_path_of(
        &format!("error = {error}"),
        duration_s,
        &format!("{{ kind = \"tcp\", {transport} }}"),
    )
}

/// The path of [`lossy_path`] with `first_link` (TOML lines: its error model, queue) on the
/// data path's first link and any `transport` table (one-way or two-way TCP).
pub fn lossy_path_of(first_link: &str, duration_s: f64, transport: &str) -> String {
    format!(
        r#"
duration = "{duration_s}s"
seed = 7
hosts = ["s", "d"]
routers = ["r"]
[[links]]
between = ["s", "r"]
rate = "1Gb"
delay = "50ms"
{first_link}
[[links]]
between = ["r", "d"]
rate = "1Gb"
delay = "50ms"
[[flows]]
from = "s"
to = "d"
app = {{ kind = "bulk" }}
transport = {transport}
"#
    )
}

/// Bytes each flow delivered in the `flow_throughput` intervals ending after `after_s`.
pub fn delivered_after(r: &Results, after_s: f64) -> Vec<u64> {
    let ft = &r.series.flow_throughput;
    let mut bytes = vec![0u64; r.flows.len()];
    for ((t, f), b) in ft.time_s.iter().zip(&ft.flow).zip(&ft.delivered_bytes) {
        if *t > after_s {
            bytes[*f as usize] += b;
        }
    }
    bytes
}

/// Mean normalized throughput of the flows named `prefix*`: each flow's `bytes` over the mean
/// of all flows' (1 = the fair share).
pub fn class_share(r: &Results, bytes: &[u64], prefix: &str) -> f64 {
    let fair = bytes.iter().sum::<u64>() as f64 / bytes.len() as f64;
    let v: Vec<f64> = r
        .flows
        .iter()
        .filter(|f| f.name.starts_with(prefix))
        .map(|f| bytes[f.flow as usize] as f64 / fair)
        .collect();
    v.iter().sum::<f64>() / v.len() as f64
}

/// Reference events of run `name` (e.g. `reno_2drop`) in `reference/ns2/<dir>/` (the reduced
/// CSV columns event,time,from,to,type,size,seq,flags[,pkt_id]).
pub fn reference(dir: &str, name: &str) -> Vec<Ev> {
    let path = format!("{}/../../reference/ns2/{dir}/{name}.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("reference CSV");
    text.lines().skip(1).map(|l| Ev::from_fields(&l.split(',').collect::<Vec<_>>(), 6, 7)).collect()
}

/// Events up to `until` in a canonical order: ns-2's floating-point clock orders events that
/// fall at the same instant by rounding noise, nsim's integer clock by insertion, so events
/// are sorted by (time to 0.1 us, kind, op, seq) before comparing.
pub fn canonical(evs: &[Ev], until: f64) -> Vec<&Ev> {
    let mut v: Vec<&Ev> = evs.iter().filter(|e| e.t <= until).collect();
    v.sort_by_key(|e| ((e.t * 1e7).round() as i64, e.kind.clone(), e.op, e.seq));
    v
}

/// First difference between the two event lists (same op/kind/seq/size/flags, time within tol).
pub fn first_mismatch(
    ours: &[Ev],
    theirs: &[Ev],
    tol: f64,
    until: f64,
) -> Option<(usize, Option<Ev>, Option<Ev>)> {
    let (ours, theirs) = (canonical(ours, until), canonical(theirs, until));
    for i in 0..ours.len().max(theirs.len()) {
        match (ours.get(i), theirs.get(i)) {
            (Some(a), Some(b))
                if a.op == b.op
                    && a.kind == b.kind
                    && a.seq == b.seq
                    && a.size == b.size
                    && a.flags == b.flags
                    && (a.t - b.t).abs() <= tol => {}
            (a, b) => return Some((i, a.map(|e| (*e).clone()), b.map(|e| (*e).clone()))),
        }
    }
    None
}

/// One link s -> d, `rate`, one-way `delay`; one flow with `app` over `transport`.
pub fn one_link(rate: &str, delay: &str, duration: &str, app: &str, transport: &str) -> String {
    format!(
        r#"
duration = "{duration}"
hosts = ["s", "d"]
[[links]]
between = ["s", "d"]
rate = "{rate}"
delay = "{delay}"
queue = {{ kind = "droptail", limit = "1000p" }}
[[flows]]
name = "f"
from = "s"
to = "d"
app = {app}
transport = {transport}
"#
    )
}

/// The events the Fall & Floyd path's references keep (node ids s1=0 r1=1 k1=2): data on the
/// bottleneck r1->k1 and ACKs arriving at s1.
pub fn bottleneck(evs: &[Ev]) -> Vec<Ev> {
    evs.iter()
        .filter(|e| {
            (e.from == 1 && e.to == 2 && e.kind == "tcp")
                || (e.from == 1 && e.to == 0 && e.kind == "ack" && e.op == 'r')
        })
        .cloned()
        .collect()
}

/// (time, cwnd, ssthresh) after every instant at which either changed, t > 0, both sides
/// rounded as ns-2 prints its TracedVar output (time 5 decimals, cwnd 3).
pub fn cwnd_steps(rows: impl Iterator<Item = (f64, f64, f64)>) -> Vec<(i64, i64, i64)> {
    let mut out: Vec<(i64, i64, i64)> = Vec::new();
    for (t, c, s) in rows {
        let row = ((t * 1e5).round() as i64, (c * 1e3).round() as i64, s as i64);
        match out.last_mut() {
            Some(last) if last.0 == row.0 => *last = row,
            _ => out.push(row),
        }
    }
    out.dedup_by(|b, a| (a.1, a.2) == (b.1, b.2));
    // The state at t = 0 only serves to drop later rows that change nothing (ns-2 traces a
    // cwnd set to the value it already had, e.g. the initial window reset by delay_growth_).
    out.retain(|r| r.0 > 0);
    out
}

/// ns-2's cwnd/ssthresh steps of run `name` in `reference/ns2/<dir>/` (`<name>_cwnd.csv`).
pub fn ns2_cwnd(dir: &str, name: &str) -> Vec<(i64, i64, i64)> {
    let path = format!("{}/../../reference/ns2/{dir}/{name}_cwnd.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("cwnd CSV");
    let rows = text.lines().skip(1).filter_map(|l| {
        let f: Vec<&str> = l.split(',').collect();
        Some((f[0].parse().ok()?, f[1].parse().ok()?, f[2].parse().ok()?))
    });
    cwnd_steps(rows)
}

/// The one-row `summary.csv` of an ns-3 reference case (`reference/ns3/<case>/`), by column.
pub fn ns3_summary(case: &str) -> std::collections::HashMap<String, f64> {
    let path = format!("{}/../../reference/ns3/{case}/summary.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("summary.csv");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    let vals = lines.next().expect("values").split(',').map(|v| v.parse::<f64>().expect("number"));
    head.into_iter().map(String::from).zip(vals).collect()
}
