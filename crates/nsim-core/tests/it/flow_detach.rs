//! A flow detached at its stop (`detach_at_stop`, sim/detach.rs), as ns-2's `$ns detach-agent`
//! on both ends: from the stop neither end sends anything, while a plain stop lets the sink
//! ACK what is still in flight. Against ns-2.35 itself: the distribution's `simple.tcl`
//! (tests/test_ns2_scripts.py, its trace's fingerprint in reference/ns2/tcl/distribution.jsonl).

use crate::common::{config_error, one_link, run_traced};

/// A bulk Reno flow over a 1 Mb/s, 50 ms link, stopped at 1 s, detached or not.
fn stopped(detach: bool) -> String {
    let toml = one_link(
        "1Mb",
        "50ms",
        "3s",
        r#"{ kind = "bulk" }"#,
        r#"{ kind = "tcp", variant = "reno" }"#,
    );
    toml.replace("to = \"d\"\n", &format!("to = \"d\"\nstop = \"1s\"\ndetach_at_stop = {detach}\n"))
}

#[test]
fn detached_ends_send_nothing_after_the_stop() {
    let (res, evs) = run_traced(&stopped(true), "detached");
    assert!(res.accounting.balanced(), "accounting: {:?}", res.accounting);
    // Nothing enters a link after the detach: no data from s (node 0), no ACK from d (node 1).
    assert!(!evs.iter().any(|e| e.op == '+' && e.t >= 1.0), "a packet left a detached end");
    // What was in flight still reaches d (its `r` lines), as it reaches ns-2's null agent.
    assert!(evs.iter().any(|e| e.op == 'r' && e.kind == "tcp" && e.t > 1.0));
    // The plain stop: the sink ACKs what arrives after the stop (the run this option changes).
    let (plain, evs) = run_traced(&stopped(false), "stopped");
    assert!(plain.accounting.balanced());
    assert!(evs.iter().any(|e| e.op == '+' && e.kind == "ack" && e.t >= 1.0));
}

#[test]
fn detach_needs_a_stop() {
    let toml = stopped(true).replace("stop = \"1s\"\n", "");
    let err = config_error(&toml);
    assert!(err.contains("flows[0].detach_at_stop") && err.contains("no `stop`"), "{err}");
}
