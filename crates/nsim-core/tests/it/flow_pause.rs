//! Flows that pause and resume while the run goes on (`action = "pause"` / `"resume"`,
//! sim/flow_control.rs): a bulk TCP and a CBR paused and resumed as ns-2.35 `$ftp stop` / `start`
//! and `$cbr stop` / `start` do (reference/ns2/dynamics: pause.tcl, its twin pause.toml,
//! pause_reduce.py); a paused CBR against the arithmetic of its rate; every pausable
//! transport silent while paused; the checks before the run.

use crate::common;

use crate::common::{config_error, run_balanced as run, run_traced};

/// pause_reduce.py's rows: (what, flow, time, seq, pkts, bytes).
type Row = (String, u32, f64, Option<u64>, Option<u64>, Option<u64>);

fn reduced(text: &str) -> Vec<Row> {
    let opt = |s: &str| (!s.is_empty()).then(|| s.parse().unwrap());
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                opt(f[3]),
                opt(f[4]),
                opt(f[5]),
            )
        })
        .collect()
}

/// The same reduction of an nsim trace (pause_reduce.py, in Rust).
fn reduce(evs: &[common::Ev]) -> Vec<Row> {
    let (d, pause, resume) = (2, 2.0, 3.0);
    let data = |e: &&common::Ev| e.kind == "tcp" || e.kind == "cbr";
    let mut rows: Vec<Row> = Vec::new();
    let sends = |fid: u32| {
        evs.iter()
            .filter(data)
            .filter(move |e| e.op == '+' && e.from == fid && ((e.kind == "tcp") == (fid == 0)))
    };
    for fid in [0, 1] {
        rows.extend(
            sends(fid)
                .filter(|e| e.t >= pause && e.t < resume)
                .map(|e| ("paused_send".to_string(), fid, e.t, Some(e.seq), None, None)),
        );
    }
    for fid in [0, 1] {
        rows.extend(
            sends(fid)
                .find(|e| e.t >= resume)
                .map(|e| ("resumed".to_string(), fid, e.t, Some(e.seq), None, None)),
        );
    }
    for (fid, kind) in [(0, "tcp"), (1, "cbr")] {
        for sec in 1..=5 {
            let got = evs
                .iter()
                .filter(|e| e.op == 'r' && e.to == d && e.kind == kind && e.t <= sec as f64);
            let (p, b) = got.fold((0, 0), |(p, b), e| (p + 1, b + e.size as u64));
            rows.push(("delivered".to_string(), fid, sec as f64, None, Some(p), Some(b)));
        }
    }
    rows
}

/// Every row agrees with ns-2.35 but the time of the one retransmission while paused: the
/// TCP times out on its outstanding segments (no new data, so no duplicate ACKs) and resends
/// segment 204 as ns-2 does, 20 ms later, because its RTO clock ticks at another phase
/// (`clock_offset`, drawn as ns-2 draws `boot_time_`). Then both restart alike: at 3 s the
/// CBR sends at once, the TCP one segment (its idle timeout has closed the window, ns-2
/// `slow_start_restart_`), and both deliver the same packets and bytes by every second.
#[test]
fn pause_and_resume_match_ns2() {
    let dir = format!("{}/../../reference/ns2/dynamics", env!("CARGO_MANIFEST_DIR"));
    let (res, evs) =
        run_traced(&std::fs::read_to_string(format!("{dir}/pause.toml")).unwrap(), "pause");
    assert!(res.accounting.balanced());
    let ours = reduce(&evs);
    let theirs = reduced(&std::fs::read_to_string(format!("{dir}/pause_reduced.csv")).unwrap());
    assert_eq!(theirs.len(), 13, "1 send while paused, 2 restarts, 10 delivered counts");
    assert_eq!(ours.len(), theirs.len(), "nsim {ours:?}\nns-2 {theirs:?}");
    for (a, b) in ours.iter().zip(&theirs) {
        let tol = if a.0 == "paused_send" { 0.0201 } else { 1e-6 };
        assert!(
            a.0 == b.0
                && a.1 == b.1
                && (a.2 - b.2).abs() <= tol
                && (a.3, a.4, a.5) == (b.3, b.4, b.5),
            "nsim {a:?}\nns-2 {b:?}"
        );
    }
    let log: Vec<_> =
        res.event_log.iter().map(|e| (e.time_s, e.action.as_str(), e.target.as_str())).collect();
    assert_eq!(
        log,
        [
            (2.0, "pause", "tcp"),
            (2.0, "pause", "cbr"),
            (3.0, "resume", "tcp"),
            (3.0, "resume", "cbr")
        ]
    );
}

/// a -- b, 10 Mb/s, 1 ms; a CBR of 100 packets/s (1000 B every 10 ms) stopping at 4.5 s.
fn cbr(events: &str) -> String {
    format!(
        r#"
duration = "5s"
hosts = ["a", "b"]
links = [{{ between = ["a", "b"], rate = "10Mb", delay = "1ms", queue = {{ kind = "droptail", limit = "1000p" }} }}]
[[flows]]
name = "cbr"
from = "a"
to = "b"
stop = "4.5s"
app = {{ kind = "cbr", interval = "10ms", size = "1000B" }}
{events}"#
    )
}

/// Paused for D = 1.5 s between two of its packets, the CBR delivers exactly rate x D =
/// 150 packets (150 kB) fewer: none while paused, one at the resume, then one per interval.
#[test]
fn a_paused_cbr_delivers_rate_times_the_pause_fewer_bytes() {
    let whole = run(&cbr(""));
    let paused = run(&cbr("[[event]]\nat = \"2.005s\"\naction = \"pause\"\nflow = \"cbr\"\n[[event]]\nat = \"3.505s\"\naction = \"resume\"\nflow = \"cbr\"\n"));
    let (w, p) = (&whole.flows[0], &paused.flows[0]);
    assert_eq!(w.delivered_pkts, 451, "0 s to 4.5 s every 10 ms");
    assert_eq!(w.delivered_pkts - p.delivered_pkts, 150);
    assert_eq!(w.delivered_bytes - p.delivered_bytes, 150_000);
    assert_eq!(p.dropped_pkts, 0);
}

/// s - r - d, 2 Mb/s bottleneck; the flow pauses from 1 s to 2 s.
fn paused(transport: &str, app: &str) -> String {
    format!(
        r#"
duration = "3s"
hosts = ["s", "d"]
routers = ["r"]
links = [
  {{ between = ["s", "r"], rate = "10Mb", delay = "1ms" }},
  {{ between = ["r", "d"], rate = "2Mb", delay = "10ms", queue = {{ kind = "droptail", limit = "50p" }} }},
]
[[flows]]
name = "f"
from = "s"
to = "d"
app = {app}
transport = {transport}
[record]
series = ["flow_throughput"]
interval = "100ms"
[[event]]
at = "1s"
action = "pause"
flow = "f"
[[event]]
at = "2s"
action = "resume"
flow = "f"
"#
    )
}

/// Every transport that can pause delivers nothing once what was in flight has drained
/// (0.5 s after the pause), and delivers again after the resume.
#[test]
fn every_pausable_transport_is_silent_while_paused() {
    for (transport, app) in [
        (r#"{ kind = "udp" }"#, r#"{ kind = "cbr", rate = "1Mb", size = "1000B" }"#),
        (
            r#"{ kind = "udp" }"#,
            r#"{ kind = "onoff", rate = "1Mb", size = "500B", on = { dist = "exponential", mean = "100ms" }, off = { dist = "exponential", mean = "50ms" } }"#,
        ),
        (r#"{ kind = "tcp" }"#, r#"{ kind = "bulk" }"#),
        (r#"{ kind = "tcp" }"#, r#"{ kind = "file", size = "2MB" }"#),
        (r#"{ kind = "tcp" }"#, r#"{ kind = "cbr", rate = "1Mb", size = "1000B" }"#),
        (r#"{ kind = "tfrc" }"#, r#"{ kind = "bulk" }"#),
        (r#"{ kind = "stp" }"#, r#"{ kind = "bulk" }"#),
        (r#"{ kind = "tcp_full" }"#, r#"{ kind = "bulk" }"#),
    ] {
        let r = run(&paused(transport, app));
        let s = &r.series.flow_throughput;
        let bytes = |t0: f64, t1: f64| {
            (0..s.time_s.len())
                .filter(|&i| s.time_s[i] > t0 + 1e-9 && s.time_s[i] <= t1 + 1e-9)
                .map(|i| s.delivered_bytes[i])
                .sum::<u64>()
        };
        let what = format!("{transport} {app}");
        assert!(bytes(0.5, 1.0) > 0, "{what}: delivers before the pause");
        assert_eq!(bytes(1.5, 2.0), 0, "{what}: silent while paused");
        assert!(bytes(2.0, 2.5) > 0, "{what}: delivers again after the resume");
    }
}

/// A file transfer paused halfway completes after the resume (its completion is not taken
/// while paused, when all it sent is acknowledged), with all its bytes, later than unpaused
/// by the pause less at most what the bottleneck queue drained meanwhile (50 packets of
/// 1040 B at 2 Mb/s: 0.21 s).
#[test]
fn a_paused_file_transfer_completes_after_the_resume() {
    let app = r#"{ kind = "file", size = "300KB" }"#;
    let whole = run(&paused(r#"{ kind = "tcp" }"#, app).replace("[[event]]\nat = \"1s\"\naction = \"pause\"\nflow = \"f\"\n[[event]]\nat = \"2s\"\naction = \"resume\"\nflow = \"f\"\n", ""));
    let late = run(&paused(r#"{ kind = "tcp" }"#, app));
    let (w, p) = (
        whole.flows[0].completion_s.expect("completes"),
        late.flows[0].completion_s.expect("completes after the resume"),
    );
    assert!(w > 1.0 && p > 2.0 && p - w > 1.0 - 0.21, "unpaused {w} s, paused {p} s");
    assert_eq!(whole.transfers.len(), 1);
    assert_eq!(late.transfers.len(), 1);
    assert_eq!(late.transfers[0].bytes, 300_000);
}

/// A one-segment file, sent (after the SYN) before the pause at 40 ms and acknowledged while
/// paused, is not complete until the resume, and completes then (nothing is left to send, so
/// no ACK would tell it).
#[test]
fn a_file_acknowledged_while_paused_completes_at_the_resume() {
    let r = run(&paused(r#"{ kind = "tcp" }"#, r#"{ kind = "file", size = "1000B" }"#)
        .replace("at = \"1s\"", "at = \"0.04s\""));
    let f = &r.flows[0];
    assert_eq!(f.completion_s, Some(2.0), "completes at the resume");
    assert_eq!(f.delivered_pkts, 2, "the SYN and the segment");
}

#[test]
fn bad_pauses_are_refused_before_the_run_naming_the_field() {
    let base = paused(r#"{ kind = "udp" }"#, r#"{ kind = "cbr", rate = "1Mb", size = "1000B" }"#);
    let events = base.find("[[event]]").unwrap();
    let with = |ev: &str| format!("{}{ev}\n", &base[..events]);
    for (ev, field, why) in [
        ("[[event]]\nat = \"1s\"\naction = \"pause\"\nflow = \"nope\"", "event[0].flow", "unknown flow 'nope'"),
        ("[[event]]\nat = \"1s\"\naction = \"resume\"\nflow = \"f\"", "event[0].action", "not paused at 1 s"),
        (
            "[[event]]\nat = \"1s\"\naction = \"pause\"\nflow = \"f\"\n[[event]]\nat = \"1.5s\"\naction = \"pause\"\nflow = \"f\"",
            "event[1].action",
            "already paused at 1.5 s (since 1 s)",
        ),
        // Given out of order: checked in time order, so the pause is found first.
        (
            "[[event]]\nat = \"2s\"\naction = \"resume\"\nflow = \"f\"\n[[event]]\nat = \"1s\"\naction = \"pause\"\nflow = \"f\"\n[[event]]\nat = \"2.5s\"\naction = \"resume\"\nflow = \"f\"",
            "event[2].action",
            "not paused at 2.5 s",
        ),
        ("[[event]]\nat = \"0s\"\naction = \"pause\"\nflow = \"f\"", "event[0].at", "starts at 0 s"),
        ("[[event]]\nat = \"1s\"\naction = \"pause\"\nlink = \"s-r\"", "event[0].link", "not used by action \"pause\""),
        ("[[event]]\nat = \"4s\"\naction = \"pause\"\nflow = \"f\"", "event[0].at", "after the run ends"),
    ] {
        let e = config_error(&with(ev));
        assert!(e.contains(field) && e.contains(why), "{ev}\n-> {e}");
    }
    let stopped = with("[[event]]\nat = \"1s\"\naction = \"pause\"\nflow = \"f\"")
        .replace("to = \"d\"\n", "to = \"d\"\nstop = \"0.5s\"\n");
    let e = config_error(&stopped);
    assert!(e.contains("event[0].at") && e.contains("stops at 0.5 s"), "{e}");
    for (transport, app, why) in [
        (
            r#"{ kind = "tcp_full" }"#,
            r#"{ kind = "file", size = "1MB" }"#,
            "tcp_full connection with application 'file'",
        ),
        (
            r#"{ kind = "tcp" }"#,
            r#"{ kind = "http", version = "1.1" }"#,
            "application 'http' over TCP",
        ),
    ] {
        let e = config_error(&paused(transport, app));
        assert!(e.contains("event[0].flow") && e.contains(why), "{e}");
    }
}

/// A paused tcp_full bulk source (ns-2 FullTcp under `$ftp stop` without its close) sends no
/// byte beyond those it had sent at the pause: every data segment while paused is a
/// retransmission, the bytes delivered after the pause are at most those outstanding then
/// (what was sent and not yet acknowledged), the connection stays open (no FIN), and the
/// resume sends new bytes at once.
#[test]
fn a_paused_full_tcp_sends_nothing_new_and_stays_open() {
    let (r, evs) =
        run_traced(&paused(r#"{ kind = "tcp_full" }"#, r#"{ kind = "bulk" }"#), "full_pause");
    assert!(r.accounting.balanced());
    let (s, d) = (0, 1); // hosts first, then the router
    let sent = |t0: f64, t1: f64| {
        evs.iter().filter(move |e| {
            e.op == '+' && e.from == s && e.kind == "tcp" && e.size > 40 && e.t >= t0 && e.t < t1
        })
    };
    let top_before = sent(0.0, 1.0).map(|e| e.seq + e.size as u64 - 40).max().unwrap();
    assert!(sent(1.0, 2.0).all(|e| e.seq < top_before), "only retransmissions while paused");
    let first_after = sent(2.0, 3.0).next().expect("sends after the resume");
    assert!(
        (first_after.t - 2.0).abs() < 1e-9 && first_after.seq + 1 >= top_before,
        "new data at the resume: {first_after:?}"
    );
    let delivered = |t0: f64, t1: f64| {
        evs.iter()
            .filter(|e| e.op == 'r' && e.to == d && e.kind == "tcp" && e.t >= t0 && e.t < t1)
            .map(|e| e.size as u64 - 40)
            .sum::<u64>()
    };
    let acked_by_pause = evs
        .iter()
        .filter(|e| e.op == 'r' && e.to == s && e.kind == "ack" && e.t < 1.0)
        .map(|e| e.seq)
        .max()
        .unwrap();
    let outstanding = top_before - acked_by_pause;
    assert!(
        delivered(1.0, 2.0) <= outstanding,
        "delivered {} while paused, outstanding {outstanding}",
        delivered(1.0, 2.0)
    );
    assert_eq!(r.flows[0].close_s, None, "the connection stays open");
}
