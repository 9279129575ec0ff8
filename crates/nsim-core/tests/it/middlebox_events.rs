//! Middlebox parameters changed by `set` events while the run goes on, against the analytic
//! value before and after the change: a delay hook's hold shows in every packet's one-way
//! delay from the change on; a drop period N drops exactly every N-th packet counted from the
//! change; a window written into ACKs gives the window-limited rate W / RTT (RFC 5681 §2)
//! with the old W before and the new W after; IP-ABR's window follows Holl 2003's eq. 7.2,
//! W = share · RTT · l_data / l_pkt, with the new share.

use crate::common::{config_error, run_balanced};
// The path s -(20 ms)- r -(30 ms)- d at 10 Mb/s; CBR: 25 packets of 500 B a second until 50 s.
use crate::middlebox::{rtt_s, CBR};
use nsim_core::{build, Results, RunOptions, Scenario};

/// The path of tests/it/middlebox.rs with a hook named "proxy" at r; `rest` appended.
fn path(hook: &str, rest: &str) -> String {
    crate::middlebox::path(&format!(
        "[[middlebox]]\nname = \"proxy\"\nnode = \"r\"\nhook = {hook}\n{rest}"
    ))
}

/// A window-limited bulk TCP flow, its goodput measured before and after a change at 30 s.
fn bulk(rest: &str) -> String {
    format!(
        "{}[record]\nwindows = [[\"10s\", \"30s\"], [\"40s\", \"60s\"]]\n{rest}",
        crate::middlebox::BULK
    )
}

fn set(field_value: &str) -> String {
    format!("[[event]]\nat = \"30s\"\naction = \"set\"\nmiddlebox = \"proxy\"\n{field_value}\n")
}

/// Goodput (payload bits per second) in the windows before and after the change.
fn before_after(r: &Results) -> (f64, f64) {
    (r.windows[0].goodput_bps[0].unwrap(), r.windows[1].goodput_bps[0].unwrap())
}

/// Asserts the goodput of W segments of 1000 B per round trip before and W' after.
#[track_caller]
fn assert_windows(r: &Results, w: f64, w_after: f64) {
    let (a, b) = before_after(r);
    let rate = |w: f64| w * 1000.0 * 8.0 / rtt_s();
    assert!((a / rate(w) - 1.0).abs() < 0.01, "before: {a} vs {w} segments per RTT = {}", rate(w));
    assert!(
        (b / rate(w_after) - 1.0).abs() < 0.01,
        "after: {b} vs {w_after} segments per RTT = {}",
        rate(w_after)
    );
}

#[test]
fn a_window_cap_change_gives_the_new_window_limited_rate() {
    let r = run_balanced(&path(
        r#"{ kind = "window_cap", segments = 5 }"#,
        &bulk(&set("segments = 9")),
    ));
    assert_windows(&r, 5.0, 9.0);
    let down = run_balanced(&path(
        r#"{ kind = "window_cap", segments = 8 }"#,
        &bulk(&set("segments = 3")),
    ));
    assert_windows(&down, 8.0, 3.0);
    let log: Vec<_> =
        r.event_log.iter().map(|e| (e.time_s, e.action.as_str(), e.target.as_str())).collect();
    assert_eq!(log, vec![(30.0, "set segments", "proxy")]);
}

#[test]
fn an_rwnd_clamp_change_gives_the_new_window_limited_rate() {
    let r = run_balanced(&path(
        r#"{ kind = "rwnd_clamp", rwnd = "5000B" }"#,
        &bulk(&set("rwnd = \"10000B\"")),
    ));
    assert_windows(&r, 5.0, 10.0);
}

/// Eq. 7.2 in bytes, then whole segments as the one-way sender counts them: 500 kb/s gives
/// 6 segments, 250 kb/s gives 3. A share set by an event acts as the same share in the hook's
/// own `schedule`.
#[test]
fn an_ip_abr_share_change_gives_the_window_of_the_new_share() {
    let segments = |share: f64| (share / 8.0 * rtt_s() * 1000.0 / 1040.0 / 1000.0).floor();
    assert_eq!((segments(500e3), segments(250e3)), (6.0, 3.0));
    let r = run_balanced(&path(
        r#"{ kind = "ip_abr", share = "500kb" }"#,
        &bulk(&set("share = \"250kb\"")),
    ));
    assert_windows(&r, 6.0, 3.0);
    let scheduled = run_balanced(&path(
        r#"{ kind = "ip_abr", share = "500kb", schedule = [{ at = "30s", share = "250kb" }] }"#,
        &bulk(""),
    ));
    assert_eq!(before_after(&r), before_after(&scheduled));
}

/// Runs `toml` recording every packet's one-way delay: (send time, delay) per packet.
fn delays(toml: &str) -> Vec<(f64, f64)> {
    let scn = Scenario::from_toml(toml, "t.toml").unwrap();
    let mut sim = build(&scn, &RunOptions::default()).unwrap();
    sim.record_packet_delays(vec![true]);
    let r = sim.run(&mut |_| true).unwrap();
    assert!(r.accounting.balanced());
    let d = r.packet_delays.unwrap();
    d.time_s.iter().zip(&d.delay_s).map(|(&t, &x)| (t - x, x)).collect()
}

/// The wire's share of the delay: 50 ms propagation plus two 500 B serializations at 10 Mb/s.
const WIRE_S: f64 = 0.050 + 2.0 * 500.0 * 8.0 / 10e6;
/// When a packet sent at `t` reaches r.
fn at_r(t: f64) -> f64 {
    t + 0.020 + 500.0 * 8.0 / 10e6
}

#[test]
fn a_delay_change_shows_in_the_packets_reaching_the_hook_from_then_on() {
    for (old, new) in [(0.007, 0.015), (0.015, 0.002)] {
        let hook = format!("{{ kind = \"delay\", delay = \"{}ms\" }}", old * 1e3);
        let d =
            delays(&path(&hook, &format!("{CBR}{}", set(&format!("delay = \"{}ms\"", new * 1e3)))));
        assert!(d.len() >= 50 * 25, "{}", d.len());
        for &(t, x) in &d {
            let want = WIRE_S + if at_r(t) < 30.0 { old } else { new };
            assert!((x - want).abs() < 1e-9, "sent at {t}: {x} vs {want}");
        }
    }
}

#[test]
fn a_drop_period_change_counts_again_from_the_change() {
    let scn = Scenario::from_toml(
        &path(r#"{ kind = "drop_every", n = 4 }"#, &format!("{CBR}{}", set("n = 10"))),
        "t.toml",
    )
    .unwrap();
    let mut sim = build(&scn, &RunOptions::default()).unwrap();
    sim.record_packet_delays(vec![true]);
    let r = sim.run(&mut |_| true).unwrap();
    assert!(r.accounting.balanced());
    let d = r.packet_delays.unwrap();
    let sent: Vec<f64> = d.time_s.iter().zip(&d.delay_s).map(|(t, x)| t - x).collect();
    // Packets are 40 ms apart: the k-th reaches r at at_r(sent[0] + 0.04 k) (the first arrives).
    let first = sent[0];
    let n_sent = r.flows[0].sent_pkts;
    let before = (0..n_sent).filter(|&k| at_r(first + 0.04 * k as f64) < 30.0).count() as u64;
    let want_dropped: Vec<u64> = (0..n_sent)
        .filter(|&k| {
            if k < before {
                (k + 1).is_multiple_of(4)
            } else {
                (k - before + 1).is_multiple_of(10)
            }
        })
        .collect();
    let delivered: Vec<u64> = sent.iter().map(|&t| ((t - first) / 0.04).round() as u64).collect();
    let dropped: Vec<u64> = (0..n_sent).filter(|k| !delivered.contains(k)).collect();
    assert_eq!(dropped, want_dropped);
    assert_eq!(r.flows[0].drops["middlebox"], before / 4 + (n_sent - before) / 10);
}

#[test]
fn a_steered_change_acts_as_the_same_event() {
    let hook = r#"{ kind = "window_cap", segments = 5 }"#;
    let file = run_balanced(&path(hook, &bulk(&set("segments = 9"))));
    let scn = Scenario::from_toml(&path(hook, &bulk("")), "t.toml").unwrap();
    let mut sim = build(&scn, &RunOptions::default()).unwrap();
    let e: nsim_core::config::event_spec::EventSpec =
        serde_json::from_str(r#"{"at": 30, "action": "set", "middlebox": "proxy", "segments": 9}"#)
            .unwrap();
    sim.change(&e).unwrap();
    let steered = sim.run(&mut |_| true).unwrap();
    assert_eq!(before_after(&file), before_after(&steered));
    assert_eq!(file.flows[0].delivered_bytes, steered.flows[0].delivered_bytes);
}

#[test]
fn bad_middlebox_events_name_the_field() {
    let hook = r#"{ kind = "drop_every", n = 4 }"#;
    let err = |ev: &str| {
        config_error(&path(
            hook,
            &format!("{CBR}[[event]]\nat = \"30s\"\naction = \"set\"\n{ev}\n"),
        ))
    };
    let e = err("middlebox = \"nat\"\nn = 3");
    assert!(
        e.contains("event[0].middlebox") && e.contains("no middlebox 'nat'") && e.contains("proxy"),
        "{e}"
    );
    let e = err("middlebox = \"proxy\"\nsegments = 3");
    assert!(
        e.contains("event[0].segments")
            && e.contains("'drop_every' middlebox has no `segments`")
            && e.contains("it can change: n"),
        "{e}"
    );
    let e = err("middlebox = \"proxy\"\nn = 0");
    assert!(e.contains("event[0].n") && e.contains("at least 1"), "{e}");
    let e = err("middlebox = \"proxy\"\nlink = \"s-r\"\nn = 3");
    assert!(e.contains("event[0].link") && e.contains("on a middlebox"), "{e}");
    let e = err("middlebox = \"proxy\"");
    assert!(e.contains("needs at least one of delay, n, rwnd"), "{e}");
    let e = config_error(&path(
        hook,
        &format!("{CBR}{}", set("n = 3")).replace("at = \"30s\"", "at = \"61s\""),
    ));
    assert!(e.contains("event[0].at") && e.contains("after the run ends"), "{e}");
    let e = config_error(
        &path(hook, &format!("{CBR}{}", set("n = 3"))).replace("name = \"proxy\"\n", ""),
    );
    assert!(e.contains("no middlebox 'proxy'") && e.contains(": r"), "{e}");
}
