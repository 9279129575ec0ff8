//! TCP-DS marking Noureddine 2002 (§4.6.1) end to end: over a three-drop-priority AF queue it
//! protects the small-window flow, compared with the same run without marking (every packet
//! prio 0, so the AF queue acts as a drop-tail). The state → mark table of the thesis is the
//! unit test in `tcp/marking.rs`.

use crate::common::run;

const SCN: &str = include_str!("../../../../scenarios/tcp_ds_af.toml");

/// (throughput in b/s, dropped packets) of flow `name`.
fn of(r: &nsim_core::Results, name: &str) -> (f64, u64) {
    let f = r.flows.iter().find(|f| f.name == name).unwrap();
    (f.throughput_bps, f.dropped_pkts)
}

#[test]
fn tcp_ds_over_af_protects_the_small_window_flow() {
    let marked = run(SCN);
    let plain = run(&SCN.replace(", tcp_ds = { high = 4, med = 8 }", ""));
    assert!(marked.accounting.balanced() && plain.accounting.balanced());
    let (thr_m, drops_m) = of(&marked, "small");
    let (thr_p, drops_p) = of(&plain, "small");
    eprintln!("small flow: marked {thr_m:.0} b/s, {drops_m} drops; unmarked {thr_p:.0} b/s, {drops_p} drops");
    assert!(drops_p > 0, "unmarked, the small flow loses packets in the shared drop-tail");
    assert!(drops_m * 10 <= drops_p, "marked HIGH, it loses far fewer: {drops_m} vs {drops_p}");
    assert!(thr_m > 1.2 * thr_p, "and gets more throughput: {thr_m} vs {thr_p}");
    let core = &marked.queues.iter().find(|q| q.from == "r0" && q.to == "r1").unwrap();
    assert!(core.drops.get("drop_priority").copied().unwrap_or(0) > 0, "{core:?}");
}

#[test]
fn randomized_tcp_ds_runs_deterministically_and_still_protects_the_small_window() {
    let scn = SCN.replace(
        "tcp_ds = { high = 4, med = 8 }",
        "tcp_ds = { high = 4, med = 8, randomized = true }",
    );
    let (a, b) = (run(&scn), run(&scn));
    assert!(a.accounting.balanced());
    assert_eq!(format!("{:?}", a.flows), format!("{:?}", b.flows), "same seed, same run");
    let (thr, drops) = of(&a, "small");
    let (thr_plain, _) = of(&run(&SCN.replace(", tcp_ds = { high = 4, med = 8 }", "")), "small");
    assert!(
        drops <= 1 && thr > 1.2 * thr_plain,
        "{thr} b/s, {drops} drops vs unmarked {thr_plain}"
    );
}
