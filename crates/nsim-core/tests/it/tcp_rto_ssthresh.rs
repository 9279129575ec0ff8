//! ssthresh at a retransmission timeout against ns-2.35 (`reference/ns2/rto_ssthresh`): on the
//! Fall & Floyd path with packets 15-24 dropped, Reno, GAIMD(1, 0.125) and SQRT all make one
//! fast retransmit (ssthresh 7) and then time out, where ns-2 sets ssthresh to half the window
//! (3) whatever the window rule (its `timeout` marks the timeout before `slowdown`).

use crate::common;

/// ns-2's ssthresh changes (time, value) from the reference CSV.
fn ns2(agent: &str) -> Vec<(f64, f64)> {
    let path = format!(
        "{}/../../reference/ns2/rto_ssthresh/{agent}_ssthresh.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .expect("reference CSV")
        .lines()
        .skip(1)
        .map(|l| {
            let (t, v) = l.split_once(',').expect("two columns");
            (t.parse().unwrap(), v.parse().unwrap())
        })
        .collect()
}

/// nsim's ssthresh changes on the twin scenario with drops 15-24 for 3 s.
fn nsim(transport: &str) -> (Vec<(f64, f64)>, u64) {
    nsim_with(transport, "15, 16, 17, 18, 19, 20, 21, 22, 23, 24", 3)
}

fn nsim_with(transport: &str, drops: &str, seconds: u32) -> (Vec<(f64, f64)>, u64) {
    let path = format!("{}/../../scenarios/fall_floyd_1drop.toml", env!("CARGO_MANIFEST_DIR"));
    let toml = std::fs::read_to_string(path)
        .expect("scenario")
        .replace("packets = [15]", &format!("packets = [{drops}]"))
        .replace("duration = \"6s\"", &format!("duration = \"{seconds}s\""))
        .replace("variant = \"reno\"", transport)
        .replace("trace = true\n", "");
    let r = common::run(&toml);
    let c = &r.series.cwnd;
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (t, s) in c.time_s.iter().zip(&c.ssthresh_pkts) {
        if out.last().is_none_or(|&(_, last)| last != *s) {
            out.push((*t, *s));
        }
    }
    (out, r.flows[0].timeouts)
}

#[test]
fn timeout_halves_ssthresh_for_every_window_rule_as_ns2() {
    for (agent, transport) in [
        ("reno", r#"variant = "reno""#),
        ("gaimd", r#"variant = "gaimd", gaimd = { alpha = 1.0, beta = 0.875 }"#),
        ("sqrt", r#"variant = "binomial""#),
    ] {
        let want = &ns2(agent)[..3];
        let (got, timeouts) = nsim(transport);
        assert!(timeouts >= 1, "{agent}: no timeout");
        assert_eq!(got.len(), 3, "{agent}: {got:?}");
        for ((tn, sn), (tw, sw)) in got.iter().zip(want) {
            assert_eq!(sn, sw, "{agent}: nsim {got:?} vs ns-2 {want:?}");
            assert!((tn - tw).abs() < 1e-3, "{agent}: nsim {got:?} vs ns-2 {want:?}");
        }
    }
}

/// A window rule paired with each recovery (`recovery`), against ns-2's GAIMD(1, 0.125)
/// variables on `Agent/TCP/Sack1`, `/Reno` and `/Newreno` with Fall & Floyd's three drops:
/// the same ssthresh trajectory (Reno and NewReno time out, Sack1 does not) for 10 s.
#[test]
fn window_rule_paired_with_each_recovery_as_ns2() {
    for (agent, recovery, timeouts) in
        [("gaimd", "sack1", 0), ("gaimdreno", "reno", 2), ("gaimdnewreno", "newreno", 2)]
    {
        let want = ns2(&format!("pair_{agent}"));
        let transport = format!(
            r#"variant = "gaimd", recovery = "{recovery}", gaimd = {{ alpha = 1.0, beta = 0.875 }}"#
        );
        let (got, n) = nsim_with(&transport, "15, 27, 29", 10);
        assert_eq!(n, timeouts, "{agent}: timeouts");
        assert_eq!(got.len(), want.len(), "{agent}: nsim {got:?} vs ns-2 {want:?}");
        for ((tn, sn), (tw, sw)) in got.iter().zip(&want) {
            assert!(sn == sw && (tn - tw).abs() < 2e-3, "{agent}: nsim {got:?} vs ns-2 {want:?}");
        }
    }
}
