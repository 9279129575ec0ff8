//! Queue parameters beyond DropTail and RED changed by `set` events (`k` of `step_mark`,
//! `weights` of `wrr` / `drr`): each takes effect at its time, against the analysis of the
//! discipline (the WRR/DRR shares of Shreedhar & Varghese 1995, DCTCP's Q_max = K + N of
//! Alizadeh et al. 2010 §3.3); bad changes are refused before the run naming the field.


use crate::common::{config_error, run_balanced as run};
use nsim_core::Results;

/// Three CBR flows of 1 Mb/s (1000 B packets) from s into a 1 Mb/s link r -> d scheduled by
/// `queue` (classes f0, f1, f2 in order): every class stays backlogged.
fn scheduled(queue: &str, events: &str) -> String {
    let flows: String = (0..3)
        .map(|i| format!("[[flows]]\nname = \"f{i}\"\nfrom = \"s\"\nto = \"d\"\napp = {{ kind = \"cbr\", rate = \"1Mb\", size = \"1000B\" }}\n"))
        .collect();
    format!(
        r#"
duration = "4s"
hosts = ["s", "d"]
routers = ["r"]
links = [
  {{ between = ["s", "r"], rate = "100Mb", delay = "1ms" }},
  {{ between = ["r", "d"], rate = "1Mb", delay = "1ms", queue = {queue} }},
]
{flows}
[record]
series = ["flow_throughput"]
interval = "100ms"
{events}"#
    )
}

/// Each flow's share of the bytes delivered in (t0, t1].
fn shares(r: &Results, t0: f64, t1: f64) -> Vec<f64> {
    let s = &r.series.flow_throughput;
    let bytes: Vec<u64> = (0..3)
        .map(|f| (0..s.time_s.len()).filter(|&i| s.flow[i] == f && s.time_s[i] > t0 + 1e-9 && s.time_s[i] <= t1 + 1e-9).map(|i| s.delivered_bytes[i]).sum())
        .collect();
    let total: u64 = bytes.iter().sum();
    bytes.iter().map(|&b| b as f64 / total as f64).collect()
}

#[track_caller]
fn assert_shares(got: &[f64], weights: [f64; 3]) {
    let sum: f64 = weights.iter().sum();
    for (g, w) in got.iter().zip(weights) {
        assert!((g - w / sum).abs() < 0.01, "shares {got:?} against weights {weights:?}");
    }
}

const CLASSES: &str = r#"classes = [{ match = { flows = ["f0"] }, WEIGHT = A }, { match = { flows = ["f1"] }, WEIGHT = B }, { match = { flows = ["f2"] }, WEIGHT = C }]"#;

fn classes(field: &str, w: [u64; 3]) -> String {
    CLASSES.replace("WEIGHT", field).replace(" A ", &format!(" {} ", w[0])).replace(" B ", &format!(" {} ", w[1])).replace(" C ", &format!(" {} ", w[2]))
}

/// WRR in packets serves every backlogged class `weight` packets a round: shares 1:2:3, then
/// 3:2:1 from the change at 2 s (1 s windows well after the start and the change).
#[test]
fn wrr_shares_follow_the_weights_before_and_after_the_change() {
    let queue = format!("{{ kind = \"wrr\", {} }}", classes("weight", [1, 2, 3]));
    let r = run(&scheduled(&queue, "[[event]]\nat = \"2s\"\naction = \"set\"\nlink = \"r->d\"\nweights = [3, 2, 1]\n"));
    assert_shares(&shares(&r, 0.5, 2.0), [1.0, 2.0, 3.0]);
    assert_shares(&shares(&r, 2.5, 4.0), [3.0, 2.0, 1.0]);
    let log: Vec<_> = r.event_log.iter().map(|e| (e.time_s, e.action.as_str())).collect();
    assert_eq!(log, [(2.0, "set weights")]);
}

/// DRR quanta in bytes: equal packets, so shares follow the quanta, 1:1:2 then 4:1:1.
#[test]
fn drr_shares_follow_the_quanta_before_and_after_the_change() {
    let queue = format!("{{ kind = \"drr\", {} }}", classes("quantum", [1000, 1000, 2000]));
    let r = run(&scheduled(&queue, "[[event]]\nat = \"2s\"\naction = \"set\"\nlink = \"r->d\"\nweights = [4000, 1000, 1000]\n"));
    assert_shares(&shares(&r, 0.5, 2.0), [1.0, 1.0, 2.0]);
    assert_shares(&shares(&r, 2.5, 4.0), [4.0, 1.0, 1.0]);
}

/// Two DCTCP flows through a step-marking queue (tests/tcp_dctcp.rs): the queue peaks at
/// Q_max = K + N, K = 20 until 1 s, then K = 40.
#[test]
fn a_new_marking_threshold_moves_the_dctcp_queue_peak() {
    let scenario = r#"
duration = "2s"
hosts = ["s1", "s2", "d"]
routers = ["r"]
links = [
  { between = ["r", "d"], rate = "1Gb", delay = "50us", queue = { kind = "step_mark", limit = "200p", k = "20p" } },
  { between = ["s1", "r"], rate = "10Gb", delay = "25us" },
  { between = ["s2", "r"], rate = "10Gb", delay = "25us" },
]
[[flows]]
name = "a"
from = "s1"
to = "d"
app = { kind = "bulk" }
transport = { kind = "tcp", variant = "dctcp", ecn = true, window = 10000 }
[[flows]]
name = "b"
from = "s2"
to = "d"
start = "1ms"
app = { kind = "bulk" }
transport = { kind = "tcp", variant = "dctcp", ecn = true, window = 10000 }
[record]
series = ["queue"]
interval = "20us"
[[event]]
at = "1s"
action = "set"
link = "r->d"
k = "40p"
"#;
    let r = run(scenario);
    let q = &r.series.queue;
    let peak = |t0: f64, t1: f64| {
        let mut lens: Vec<f64> = (0..q.time_s.len()).filter(|&i| q.link[i] == 0 && q.time_s[i] > t0 && q.time_s[i] <= t1).map(|i| q.len_pkts[i] as f64).collect();
        lens.sort_by(f64::total_cmp);
        lens[((lens.len() - 1) as f64 * 0.98) as usize]
    };
    let (before, after) = (peak(0.5, 1.0), peak(1.5, 2.0));
    assert!((before - 22.0).abs() <= 3.0, "peak {before} against K + N = 22");
    assert!((after - 42.0).abs() <= 3.0, "peak {after} against K + N = 42");
}

#[test]
fn bad_queue_changes_are_refused_before_the_run_naming_the_field() {
    let wrr = format!("{{ kind = \"wrr\", {} }}", classes("weight", [1, 2, 3]));
    let step = "{ kind = \"step_mark\", limit = \"50p\", k = \"20p\" }";
    let set = |what: &str| format!("[[event]]\nat = \"2s\"\naction = \"set\"\nlink = \"r->d\"\n{what}\n");
    for (queue, what, field, why) in [
        (wrr.as_str(), "weights = [1, 2]", "event[0].weights", "2 weights for 3 classes"),
        (wrr.as_str(), "weights = [1, 0, 3]", "event[0].weights", "each at least 1"),
        (wrr.as_str(), "k = \"10p\"", "event[0].k", "a wrr/drr scheduler has no `k`"),
        (step, "k = \"50p\"", "event[0].k", "k = 50p would not be below the limit 50p"),
        (step, "limit = \"20p\"", "event[0].limit", "k = 20p would not be below the limit 20p"),
        (step, "weights = [1]", "event[0].weights", "a step_mark queue has no `weights`"),
        ("{ kind = \"red\" }", "weights = [1]", "event[0].weights", "a RED queue has no `weights`"),
        ("{ kind = \"droptail\" }", "k = \"5p\"", "event[0].k", "a DropTail queue has no `k`"),
    ] {
        let e = config_error(&scheduled(queue, &set(what)));
        assert!(e.contains(field) && e.contains(why), "{queue} {what}\n-> {e}");
    }
}
