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
        .map(|f| {
            (0..s.time_s.len())
                .filter(|&i| s.flow[i] == f && s.time_s[i] > t0 + 1e-9 && s.time_s[i] <= t1 + 1e-9)
                .map(|i| s.delivered_bytes[i])
                .sum()
        })
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
    CLASSES
        .replace("WEIGHT", field)
        .replace(" A ", &format!(" {} ", w[0]))
        .replace(" B ", &format!(" {} ", w[1]))
        .replace(" C ", &format!(" {} ", w[2]))
}

/// WRR in packets serves every backlogged class `weight` packets a round: shares 1:2:3, then
/// 3:2:1 from the change at 2 s (1 s windows well after the start and the change).
#[test]
fn wrr_shares_follow_the_weights_before_and_after_the_change() {
    let queue = format!("{{ kind = \"wrr\", {} }}", classes("weight", [1, 2, 3]));
    let r = run(&scheduled(
        &queue,
        "[[event]]\nat = \"2s\"\naction = \"set\"\nlink = \"r->d\"\nweights = [3, 2, 1]\n",
    ));
    assert_shares(&shares(&r, 0.5, 2.0), [1.0, 2.0, 3.0]);
    assert_shares(&shares(&r, 2.5, 4.0), [3.0, 2.0, 1.0]);
    let log: Vec<_> = r.event_log.iter().map(|e| (e.time_s, e.action.as_str())).collect();
    assert_eq!(log, [(2.0, "set weights")]);
}

/// DRR quanta in bytes: equal packets, so shares follow the quanta, 1:1:2 then 4:1:1.
#[test]
fn drr_shares_follow_the_quanta_before_and_after_the_change() {
    let queue = format!("{{ kind = \"drr\", {} }}", classes("quantum", [1000, 1000, 2000]));
    let r = run(&scheduled(
        &queue,
        "[[event]]\nat = \"2s\"\naction = \"set\"\nlink = \"r->d\"\nweights = [4000, 1000, 1000]\n",
    ));
    assert_shares(&shares(&r, 0.5, 2.0), [1.0, 1.0, 2.0]);
    assert_shares(&shares(&r, 2.5, 4.0), [4.0, 1.0, 1.0]);
}

/// tcp_dctcp.rs's two DCTCP flows through a step-marking queue: the queue peaks at
/// Q_max = K + N, K = 20 until 1 s, then K = 40.
#[test]
fn a_new_marking_threshold_moves_the_dctcp_queue_peak() {
    let scenario = format!(
        "{}[[event]]\nat = \"1s\"\naction = \"set\"\nlink = \"r->d\"\nk = \"40p\"\n",
        crate::tcp_dctcp::SCENARIO
    );
    let r = run(&scenario);
    let q = &r.series.queue;
    let peak = |t0: f64, t1: f64| {
        let mut lens: Vec<f64> = (0..q.time_s.len())
            .filter(|&i| q.link[i] == 0 && q.time_s[i] > t0 && q.time_s[i] <= t1)
            .map(|i| q.len_pkts[i] as f64)
            .collect();
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
    let set =
        |what: &str| format!("[[event]]\nat = \"2s\"\naction = \"set\"\nlink = \"r->d\"\n{what}\n");
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

/// One CBR flow of 1 Mb/s (125 packets of 1000 B a second) from s through r -> d (10 Mb/s)
/// whose queue is `queue`, 6 s, with `events`.
fn metered(queue: &str, events: &str) -> String {
    format!(
        r#"
duration = "6s"
hosts = ["s", "d"]
routers = ["r"]
links = [
  {{ between = ["s", "r"], rate = "100Mb", delay = "1ms" }},
  {{ between = ["r", "d"], rate = "10Mb", delay = "1ms", queue = {queue} }},
]
[[flows]]
name = "cbr"
from = "s"
to = "d"
app = {{ kind = "cbr", rate = "1Mb", size = "1000B" }}
{events}"#
    )
}

/// Packets delivered (total, then green, yellow, red as the flow's marks) in [0, 3 s) and in
/// [3 s, 6 s): the run cut at 3 s, and the whole run minus it.
fn before_after(toml: &str) -> ([u64; 4], [u64; 4]) {
    let counts = |opts: nsim_core::RunOptions| {
        let scn = nsim_core::Scenario::from_toml(toml, "t.toml").unwrap();
        let r = nsim_core::build(&scn, &opts).unwrap().run(&mut |_| true).unwrap();
        assert!(r.accounting.balanced(), "{:?}", r.accounting);
        let f = &r.flows[0];
        [f.delivered_pkts, f.delivered_high_pkts, f.delivered_med_pkts, f.delivered_low_pkts]
    };
    let cut = counts(nsim_core::RunOptions {
        duration: Some(nsim_core::time::Dur::from_secs_f64(3.0)),
        ..Default::default()
    });
    let all = counts(Default::default());
    (cut, [0, 1, 2, 3].map(|i| all[i] - cut[i]))
}

const SET_AT_3S: &str = "[[event]]\nat = \"3s\"\naction = \"set\"\nlink = \"r->d\"\n";

/// Within 2 packets (the packets in flight at the cut, and the one a bucket may be short of).
#[track_caller]
fn near(got: u64, want: f64) {
    assert!((got as f64 - want).abs() <= 2.0, "{got} packets against {want}");
}

/// CBQ classes held to their allotments (`borrow = false`, all three backlogged) each get
/// exactly their share of the link: 0.5 : 0.3 : 0.2, then 0.2 : 0.3 : 0.5 from the change
/// (Floyd & Jacobson 1995 §3: a class over its allotment may not send unless it may borrow).
/// Borrowing classes share by allotment too (DRR quanta in proportion): 1 : 2 : 3 then 3 : 2 : 1.
#[test]
fn cbq_shares_follow_the_allotments_before_and_after_the_change() {
    let cbq = |allots: [f64; 3], borrow: bool| {
        let c: Vec<String> = (0..3)
            .map(|i| {
                format!(
                    "{{ match = {{ flows = [\"f{i}\"] }}, allot = {}, borrow = {borrow} }}",
                    allots[i]
                )
            })
            .collect();
        format!("{{ kind = \"cbq\", classes = [{}] }}", c.join(", "))
    };
    let held = run(&scheduled(
        &cbq([0.5, 0.3, 0.2], false),
        "[[event]]\nat = \"2s\"\naction = \"set\"\nlink = \"r->d\"\nallots = [0.2, 0.3, 0.5]\n",
    ));
    assert_shares(&shares(&held, 0.5, 2.0), [0.5, 0.3, 0.2]);
    assert_shares(&shares(&held, 2.5, 4.0), [0.2, 0.3, 0.5]);
    assert_eq!(held.event_log[0].action, "set allots");
    let borrowing = run(&scheduled(
        &cbq([0.1, 0.2, 0.3], true),
        "[[event]]\nat = \"2s\"\naction = \"set\"\nlink = \"r->d\"\nallots = [0.3, 0.2, 0.1]\n",
    ));
    assert_shares(&shares(&borrowing, 0.5, 2.0), [1.0, 2.0, 3.0]);
    assert_shares(&shares(&borrowing, 2.5, 4.0), [3.0, 2.0, 1.0]);
}

/// A policer passes rate × T + depth bytes (RFC 2697 §2's bucket); from a rate change at 3 s
/// on, rate' × T (the bucket is empty under the 1 Mb/s load): 400 kb/s then 200 kb/s.
#[test]
fn a_policer_passes_the_new_token_rate_from_the_change() {
    let q = "{ kind = \"policer\", rate = \"400kb\", depth = \"2000B\", queue = { kind = \"droptail\", limit = 100 } }";
    let (a, b) = before_after(&metered(q, &format!("{SET_AT_3S}bucket_rate = \"200kb\"\n")));
    near(a[0], 400e3 / 8e3 * 3.0 + 2.0);
    near(b[0], 200e3 / 8e3 * 3.0);
}

/// A shaper sends at its token rate while backlogged: 300 kb/s, then 600 kb/s with a deeper
/// bucket (which fills at the rate only as far as the backlog leaves tokens: none here).
#[test]
fn a_shaper_sends_at_the_new_token_rate_from_the_change() {
    let q = "{ kind = \"shaper\", rate = \"300kb\", depth = \"2000B\" }";
    let (a, b) = before_after(&metered(
        q,
        &format!("{SET_AT_3S}bucket_rate = \"600kb\"\ndepth = \"4000B\"\n"),
    ));
    near(a[0], 300e3 / 8e3 * 3.0 + 2.0);
    near(b[0], 600e3 / 8e3 * 3.0);
}

/// srTCM (RFC 2697 §4) under a 1 Mb/s load: green at CIR (after the CBS at the start), yellow
/// only the initial EBS (E fills only when C is full, never under overload), the rest red. CIR
/// 400 kb/s, then 200 kb/s.
#[test]
fn an_srtcm_marks_green_at_the_new_cir_from_the_change() {
    let q = "{ kind = \"srtcm\", cir = \"400kb\", cbs = \"2000B\", ebs = \"2000B\", queue = { kind = \"droptail\", limit = 100 } }";
    let (a, b) = before_after(&metered(q, &format!("{SET_AT_3S}cir = \"200kb\"\n")));
    near(a[1], 400e3 / 8e3 * 3.0 + 2.0);
    near(a[2], 2.0);
    near(b[1], 200e3 / 8e3 * 3.0);
    near(b[2], 0.0);
    near(b[0], 125.0 * 3.0);
}

/// trTCM (RFC 2698 §3): not red at PIR, green at CIR. PIR 800 kb/s and CIR 200 kb/s, then
/// 400 kb/s and 300 kb/s in one event (PIR ≥ CIR holds after it as a whole).
#[test]
fn a_trtcm_follows_the_new_pir_and_cir_from_the_change() {
    let q = "{ kind = \"trtcm\", pir = \"800kb\", pbs = \"2000B\", cir = \"200kb\", cbs = \"2000B\", queue = { kind = \"droptail\", limit = 100 } }";
    let (a, b) =
        before_after(&metered(q, &format!("{SET_AT_3S}pir = \"400kb\"\ncir = \"300kb\"\n")));
    near(a[1] + a[2], 800e3 / 8e3 * 3.0 + 2.0);
    near(a[1], 200e3 / 8e3 * 3.0 + 2.0);
    near(b[1] + b[2], 400e3 / 8e3 * 3.0);
    near(b[1], 300e3 / 8e3 * 3.0);
}

#[test]
fn bad_sharing_and_marker_changes_are_refused_naming_the_field() {
    let cbq = "{ kind = \"cbq\", classes = [{ match = { flows = [\"cbr\"] }, allot = 0.5 }, { allot = 0.5 }] }";
    let trtcm =
        "{ kind = \"trtcm\", pir = \"800kb\", pbs = \"2000B\", cir = \"200kb\", cbs = \"2000B\" }";
    let srtcm = "{ kind = \"srtcm\", cir = \"400kb\", cbs = \"2000B\", ebs = \"0B\" }";
    let policer = "{ kind = \"policer\", rate = \"400kb\", depth = \"2000B\" }";
    for (queue, what, field, why) in [
        (cbq, "allots = [0.5]", "event[0].allots", "1 allots for 2 classes"),
        (cbq, "allots = [0.5, 1.5]", "event[0].allots", "each in (0, 1]"),
        (
            cbq,
            "bucket_rate = \"1Mb\"",
            "event[0].bucket_rate",
            "a cbq scheduler has no `bucket_rate`",
        ),
        (policer, "depth = \"0B\"", "event[0].depth", "at least 1 byte"),
        (trtcm, "pir = \"100kb\"", "event[0].pir", "below CIR"),
        (trtcm, "ebs = \"1000B\"", "event[0].ebs", "no EBS"),
        (srtcm, "cbs = \"0B\"", "event[0].cbs", "cannot both be 0"),
        (srtcm, "pbs = \"1000B\"", "event[0].pbs", "no PIR or PBS"),
        (
            "{ kind = \"droptail\" }",
            "cir = \"1Mb\"",
            "event[0].cir",
            "a DropTail queue has no `cir`",
        ),
    ] {
        let e = config_error(&metered(queue, &format!("{SET_AT_3S}{what}\n")));
        assert!(e.contains(field) && e.contains(why), "{queue} {what}\n-> {e}");
    }
}
