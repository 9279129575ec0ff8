//! Scenarios that change while they run (`[[event]]`, net/dynamics.rs): errors before the
//! run, what a failure does to packets (counted against the CBR arithmetic), a rate step
//! against the queue's fluid growth rate, and routes that follow a failure.

use crate::common::run_balanced as run;
use nsim_core::{build, Results, RunOptions, Scenario};

#[track_caller]
fn config_error(toml: &str) -> String {
    let scn = match Scenario::from_toml(toml, "t.toml") {
        Ok(s) => s,
        Err(e) => return e.to_string(),
    };
    match build(&scn, &RunOptions::default()) {
        Ok(_) => panic!("accepted an invalid scenario"),
        Err(e) => e.to_string(),
    }
}

/// a -- r -- b, CBR a -> b: 100 packets/s from 0.5 ms on. `r-b` is 10 Mb/s with 10 ms.
const CHAIN: &str = r#"
duration = "5s"
hosts = ["a", "b"]
routers = ["r"]
[[links]]
between = ["a", "r"]
rate = "10Mb"
delay = "1ms"
[[links]]
between = ["r", "b"]
rate = "10Mb"
delay = "10ms"
queue = { kind = "droptail", limit = "10000p" }
[[flows]]
name = "cbr"
from = "a"
to = "b"
start = "0.5ms"
app = { kind = "cbr", rate = "800kb", size = "1000B" }
"#;

fn drops(r: &Results, reason: &str) -> u64 {
    r.accounting.dropped_by_reason.get(reason).copied().unwrap_or(0)
}

#[test]
fn bad_events_are_refused_before_the_run_naming_the_field() {
    let with = |ev: &str| format!("{CHAIN}\n[[event]]\n{ev}\n");
    for (ev, field, why) in [
        ("at = \"1s\"\naction = \"down\"\nlink = \"r-x\"", "event[0].link", "no link 'r-x'"),
        ("at = \"6s\"\naction = \"down\"\nlink = \"r-b\"", "event[0].at", "after the run ends"),
        ("at = \"1s\"\naction = \"stop\"\nflow = \"nope\"", "event[0].flow", "unknown flow 'nope'"),
        ("at = \"1s\"\naction = \"set\"\nlink = \"r-b\"\nrate = 0", "event[0].rate", "at least 1 bit/s"),
        ("at = \"1s\"\naction = \"set\"\nlink = \"r-b\"\nlimit = \"1p\"", "event[0].limit", "at least 2 packets"),
        ("at = \"1s\"\naction = \"set\"\nlink = \"r-b\"\nmin_th = 3.0", "event[0].min_th", "DropTail queue has no `min_th`"),
        ("at = \"1s\"\naction = \"set\"\nlink = \"r-b\"\nerror = { kind = \"uniform\", rate = 1.5 }", "event[0].error.rate", "not a probability"),
        ("at = \"1s\"\naction = \"down\"\nlink = \"r-b\"\nrate = \"1Mb\"", "event[0].rate", "not used by action \"down\""),
        ("at = \"1s\"\naction = \"up\"", "event[0].link", "required by action \"up\""),
        ("at = \"1s\"\naction = \"set\"\nlink = \"r-b\"", "event[0]", "needs at least one of"),
        ("at = \"1s\"\naction = \"start\"\nflow = \"cbr\"", "event[0].action", "already has a `start`"),
        ("at = \"1s\"\naction = \"explode\"\nlink = \"r-b\"", "event[0].action", "unknown variant `explode`"),
        ("at = \"-1s\"\naction = \"down\"\nlink = \"r-b\"", "event[0].at", "negative"),
        ("at = \"1s\"\naction = \"flap\"\nlink = \"r-b\"\ndown_for = \"1us\"\nup_for = \"1us\"", "event[0].down_for", "at most 100000"),
        ("at = \"1s\"\naction = \"flap\"\nlink = \"r-b\"\nup_for = \"1s\"", "event[0].down_for", "required by action \"flap\""),
    ] {
        let e = config_error(&with(ev));
        // Parse errors carry the file here, build errors get it from the caller (CLI, Python).
        let line = e.trim_start_matches("t.toml").split(':').nth(1).unwrap_or("");
        assert!(line.parse::<usize>().is_ok(), "the line is given: {e}");
        assert!(e.contains(&format!("field `{field}`")) && e.contains(why), "{ev}: {e}");
    }
}

#[test]
fn red_thresholds_are_checked_in_time_order() {
    let red = CHAIN.replace(
        "queue = { kind = \"droptail\", limit = \"10000p\" }",
        "queue = { kind = \"red\", min_th = 5.0, max_th = 15.0 }",
    );
    // Raising max_th first makes the later min_th = 20 valid; the other order is not.
    let ok = format!("{red}\n[[event]]\nat = \"2s\"\naction = \"set\"\nlink = \"r->b\"\nmin_th = 20.0\n[[event]]\nat = \"1s\"\naction = \"set\"\nlink = \"r->b\"\nmax_th = 40.0\n");
    run(&ok);
    let bad = ok.replace("at = \"1s\"", "at = \"3s\"");
    let e = config_error(&bad);
    assert!(e.contains("field `event[0].min_th`") && e.contains("min_th >= max_th"), "{e}");
}

/// The CBR's packet k leaves a at 0.5 ms + 10 ms·k and reaches r 1 ms + one serialization
/// later; r-b holds it for a serialization plus 10 ms. With r-b down over [2 s, 3 s) the lost
/// packets are the one on r-b's wire at 2 s and every packet reaching r in the window. With
/// static routes they are sent into the down link (`link_down`); with Session routing `b` is
/// unreachable meanwhile and they are dropped where they are (`no_route`), the same number.
#[test]
fn a_link_down_for_d_seconds_loses_exactly_the_packets_sent_into_it() {
    let ev = "[[event]]\nat = \"2s\"\naction = \"down\"\nlink = \"r-b\"\n[[event]]\nat = \"3s\"\naction = \"up\"\nlink = \"r-b\"\n";
    let r = run(&format!("{CHAIN}\n[routing]\nrecompute = \"never\"\n{ev}"));
    let f = &r.flows[0];
    let size = f.sent_bytes / f.sent_pkts;
    let tx = size as f64 * 8.0 / 10e6;
    let at_r = |k: u64| 0.0005 + 0.01 * k as f64 + tx + 0.001;
    let lost = (0..f.sent_pkts).filter(|&k| {
        let t = at_r(k);
        let on_wire = t <= 2.0 && t + tx + 0.010 > 2.0;
        on_wire || (2.0..3.0).contains(&t)
    });
    let lost = lost.count() as u64;
    assert_eq!(lost, 101, "100 sent into the window at 100/s, one on the wire");
    assert_eq!(drops(&r, "link_down"), lost);
    assert_eq!(f.drops.get("link_down").copied(), Some(lost));
    assert_eq!(r.accounting.dropped, lost);
    assert_eq!(f.delivered_pkts + lost + r.accounting.in_flight + r.accounting.queued, f.sent_pkts);
    let log: Vec<_> =
        r.event_log.iter().map(|e| (e.time_s, e.action.as_str(), e.dropped_pkts)).collect();
    assert_eq!(log, vec![(2.0, "down", 1), (3.0, "up", 0)]);
    let session = run(&format!("{CHAIN}\n{ev}"));
    assert_eq!((drops(&session, "link_down"), drops(&session, "no_route")), (1, lost - 1));
    assert_eq!(session.flows[0].delivered_pkts, f.delivered_pkts);
    let log: Vec<_> = session.event_log.iter().map(|e| (e.time_s, e.action.as_str())).collect();
    assert_eq!(log, vec![(2.0, "down"), (2.0, "reroute"), (3.0, "up"), (3.0, "reroute")]);
}

/// r->b at 500 kb/s under the 800 kb/s CBR: a queue of about 75 packets at the failure. With
/// `hold_queue` those wait for the repair; without, they are lost with the wire's packet.
#[test]
fn a_held_queue_waits_for_the_repair_instead_of_being_lost() {
    let slow = CHAIN
        .replace("rate = \"10Mb\"\ndelay = \"10ms\"", "rate = \"500kb\"\ndelay = \"10ms\"")
        .replace("\"5s\"", "\"8s\"");
    let ev = "[[event]]\nat = \"2s\"\naction = \"down\"\nlink = \"r->b\"\nHOLD\n[[event]]\nat = \"2.5s\"\naction = \"up\"\nlink = \"r->b\"\n";
    let with = |hold: &str| {
        run(&format!("{slow}\n[routing]\nrecompute = \"never\"\n{}", ev.replace("HOLD", hold)))
    };
    let (held, lost) = (with("hold_queue = true"), with(""));
    let at_failure =
        |r: &Results| r.event_log.iter().find(|e| e.action == "down").unwrap().dropped_pkts;
    assert_eq!(at_failure(&held), 1, "only the packet on the wire");
    let queued = at_failure(&lost) - 1;
    assert!((70..=80).contains(&queued), "{queued}");
    // Arrivals while down (0.5 s at 100/s) are lost either way.
    assert_eq!(drops(&held, "link_down"), 1 + 50);
    assert_eq!(drops(&lost, "link_down"), 1 + 50 + queued);
    // The link is the bottleneck, so the held packets are still delivered or waiting at the end.
    let kept = |r: &Results| r.accounting.delivered + r.accounting.queued + r.accounting.in_flight;
    assert_eq!(kept(&held), kept(&lost) + queued);
}

#[test]
fn a_rate_that_halves_grows_the_queue_at_arrival_minus_service_rate() {
    // 8 Mb/s of 1000-byte packets into 10 Mb/s, halved to 5 Mb/s at 1 s.
    let toml = CHAIN.replace("rate = \"800kb\"", "rate = \"8Mb\"").replace("duration = \"5s\"", "duration = \"3s\"")
        + "[record]\nseries = [\"queue\"]\ninterval = \"100ms\"\n[[event]]\nat = \"1s\"\naction = \"set\"\nlink = \"r->b\"\nrate = \"5Mb\"\n";
    let r = run(&toml);
    let f = &r.flows[0];
    let size = (f.sent_bytes / f.sent_pkts) as f64;
    let link = r.queues.iter().position(|q| q.from == "r" && q.to == "b").unwrap() as u32;
    let s = &r.series.queue;
    let len_at = |t: f64| {
        let i = (0..s.time_s.len())
            .find(|&i| s.link[i] == link && (s.time_s[i] - t).abs() < 1e-9)
            .unwrap();
        s.len_pkts[i] as f64
    };
    assert_eq!(len_at(0.9), 0.0, "no queue before the step");
    let slope = (len_at(2.5) - len_at(1.5)) / 1.0;
    let lambda = 8e6 / (8.0 * 1000.0);
    let mu = 5e6 / (8.0 * size);
    assert!((slope - (lambda - mu)).abs() <= 1.0, "slope {slope} pkts/s, expected {}", lambda - mu);
}

/// a -- r1 -- r2 -- b with a longer way r1 -- r3 -- r4 -- r2.
const DIAMOND: &str = r#"
duration = "3s"
hosts = ["a", "b"]
routers = ["r1", "r2", "r3", "r4"]
links = [
  { between = ["a", "r1"], rate = "10Mb", delay = "1ms" },
  { between = ["r1", "r2"], rate = "10Mb", delay = "10ms" },
  { between = ["r2", "b"], rate = "10Mb", delay = "1ms" },
  { between = ["r1", "r3"], rate = "10Mb", delay = "10ms" },
  { between = ["r3", "r4"], rate = "10Mb", delay = "10ms" },
  { between = ["r4", "r2"], rate = "10Mb", delay = "10ms" },
]
[[flows]]
name = "cbr"
from = "a"
to = "b"
app = { kind = "cbr", rate = "800kb", size = "1000B" }
[[event]]
at = "1s"
action = "down"
link = "r1-r2"
[[event]]
at = "2s"
action = "up"
link = "r1-r2"
"#;

fn departures(r: &Results, from: &str, to: &str) -> u64 {
    r.queues.iter().find(|q| q.from == from && q.to == to).unwrap().departures
}

#[test]
fn routes_fail_over_to_the_longer_path_and_back() {
    let r = run(DIAMOND);
    // Down for 1 s at 100 packets/s: the longer way carries about 100 packets, and only the
    // packet on r1-r2's wire at the failure is lost.
    let via = departures(&r, "r3", "r4");
    assert!((99..=101).contains(&via), "{via}");
    assert!(drops(&r, "link_down") <= 2, "{:?}", r.accounting.dropped_by_reason);
    assert_eq!(
        departures(&r, "r1", "r2") + via,
        departures(&r, "a", "r1") - drops(&r, "link_down")
    );
    let reroutes: Vec<f64> =
        r.event_log.iter().filter(|e| e.action == "reroute").map(|e| e.time_s).collect();
    assert_eq!(reroutes, vec![1.0, 2.0]);
}

#[test]
fn without_recomputation_or_during_convergence_packets_meet_the_down_link() {
    let never = run(&DIAMOND.replace("[[flows]]", "[routing]\nrecompute = \"never\"\n[[flows]]"));
    assert_eq!(departures(&never, "r3", "r4"), 0);
    let lost = drops(&never, "link_down");
    assert!((100..=102).contains(&lost), "{lost}");
    let slow =
        run(&DIAMOND.replace("[[flows]]", "[routing]\nconvergence_delay = \"50ms\"\n[[flows]]"));
    // 50 ms at 100 packets/s: 5 packets sent into the down link, plus the one on its wire.
    let lost = drops(&slow, "link_down");
    assert!((5..=7).contains(&lost), "{lost}");
    let reroutes: Vec<f64> =
        slow.event_log.iter().filter(|e| e.action == "reroute").map(|e| e.time_s).collect();
    assert_eq!(reroutes, vec![1.05, 2.05]);
}

/// A 1 ms outage while a packet propagates: its `Arrive` event is stale when it fires, after
/// the repair, and must not deliver a later packet early. Every packet but the cut one and
/// those reaching r in the millisecond arrives, and in order (delays all equal).
#[test]
fn a_short_outage_leaves_later_packets_on_time() {
    let ev = "[[event]]\nat = \"2s\"\naction = \"down\"\nlink = \"r->b\"\n[[event]]\nat = \"2.001s\"\naction = \"up\"\nlink = \"r->b\"\n";
    let toml = format!("{CHAIN}\n[routing]\nrecompute = \"never\"\n{ev}")
        .replace("duration = \"5s\"", "duration = \"3s\"");
    let scn = Scenario::from_toml(&toml, "t.toml").unwrap();
    let mut sim = build(&scn, &RunOptions::default()).unwrap();
    sim.record_packet_delays(vec![true]);
    let r = sim.run(&mut |_| true).unwrap();
    assert!(r.accounting.balanced());
    // The CBR sends at 1.9905 (on the wire at 2 s), 2.0005 (reaches r at 2.0023): one lost.
    assert_eq!(drops(&r, "link_down"), 1);
    let d = r.packet_delays.unwrap();
    let first = d.delay_s[0];
    assert!(
        d.delay_s.iter().all(|&x| (x - first).abs() < 1e-12),
        "every packet takes the same time"
    );
}

/// A shorter delay does not let a packet overtake one already propagating: it applies once the
/// wire has drained that far (net/dynamics.rs).
#[test]
fn a_shorter_delay_keeps_the_link_in_order() {
    let ev = "[[event]]\nat = \"2s\"\naction = \"set\"\nlink = \"r->b\"\ndelay = \"1ms\"\n";
    let fast = CHAIN.replace("rate = \"800kb\"", "rate = \"8Mb\"");
    let r = run(&format!("{fast}\n{ev}"));
    assert_eq!(r.accounting.dropped, 0);
    let log: Vec<_> = r.event_log.iter().map(|e| (e.time_s, e.action.clone())).collect();
    assert_eq!(log[0], (2.0, "set delay".to_string()));
    assert_eq!(log[1].1, "set delay (deferred)");
    assert_eq!(r.event_log[1].target, "r->b");
    assert!(log[1].0 > 2.0 && log[1].0 < 2.0 + 0.0108, "{log:?}");
}

/// `flap` times from the event log: (downs, ups) in seconds.
fn flaps(r: &Results) -> (Vec<f64>, Vec<f64>) {
    let at = |a: &str| r.event_log.iter().filter(|e| e.action == a).map(|e| e.time_s).collect();
    (at("down"), at("up"))
}

#[test]
fn a_periodic_flap_fails_and_repairs_on_schedule() {
    let ev = "[[event]]\nat = \"1s\"\naction = \"flap\"\nlink = \"r-b\"\ndown_for = \"0.5s\"\nup_for = \"1s\"\n";
    let r = run(&format!("{CHAIN}\n{ev}"));
    assert_eq!(flaps(&r), (vec![1.0, 2.5, 4.0], vec![1.5, 3.0, 4.5]));
}

/// ns-2 `rtmodel Exponential`: up and down times exponential with the given means. Over about
/// 1,000 cycles the sample means lie within four standard errors (mean/sqrt(n)) of the means.
#[test]
fn an_exponential_flap_has_exponential_up_and_down_times() {
    let ev = "[[event]]\nat = \"0s\"\naction = \"flap\"\nlink = \"r-b\"\ndown_for = \"1s\"\nup_for = \"9s\"\nrandom = \"exponential\"\n";
    let quiet = CHAIN
        .replace("duration = \"5s\"", "duration = \"10000s\"")
        .replace("start = \"0.5ms\"", "start = \"0.5ms\"\nstop = \"1s\"");
    let r = run(&format!("{quiet}\n{ev}"));
    let (downs, ups) = flaps(&r);
    let n = ups.len().min(downs.len() - 1);
    assert!(n > 900, "{n} cycles");
    let mean = |v: Vec<f64>| v.iter().sum::<f64>() / v.len() as f64;
    let down = mean((0..n).map(|k| ups[k] - downs[k]).collect());
    let up = mean((0..n).map(|k| downs[k + 1] - ups[k]).collect());
    let se = |m: f64| 4.0 * m / (n as f64).sqrt();
    assert!((down - 1.0).abs() < se(1.0), "mean down time {down} s");
    assert!((up - 9.0).abs() < se(9.0), "mean up time {up} s");
    assert!(downs[0] > 0.0, "the first failure comes one up time after `at`");
}
