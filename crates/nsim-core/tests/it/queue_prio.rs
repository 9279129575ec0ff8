//! Strict priority against Holl 2003: its CBR buffer sizing and its claim that
//! the CBR class loses nothing while its load is below the link rate.

use nsim_core::queue::prio::holl_cbr_queue_len;
use nsim_core::time::Dur;
use nsim_core::units::BitsPerSec;

use crate::common::run;

#[test]
fn eq_4_2_reproduces_table_4_7() {
    // Holl 2003 Table 4.7: #CBR pairs -> CBR queue size (be 576 B, cbr 92 B / 8 ms, 1.536 Mb/s).
    let table = [
        (0, 0),
        (1, 2),
        (2, 4),
        (3, 6),
        (4, 8),
        (5, 10),
        (6, 12),
        (7, 14),
        (8, 16),
        (9, 18),
        (10, 20),
        (11, 22),
        (12, 24),
        (13, 26),
        (14, 28),
        (15, 30),
        (16, 32),
        (17, 51),
    ];
    for (n, want) in table {
        let got = holl_cbr_queue_len(n, 576, 92, BitsPerSec(1_536_000), Dur::from_millis(8));
        assert_eq!(got, want, "{n} CBR pairs");
    }
}

/// The example scenario with the best-effort source at `be_rate` and another BE app.
fn voice_scenario(be_app: &str) -> String {
    let base = include_str!("../../../../scenarios/prio_voice_over_be.toml");
    let cut = base.find("[[flows]]\nname = \"be\"").expect("be flow");
    format!(
        "{}[[flows]]\nname = \"be\"\nfrom = \"bulk\"\nto = \"dst\"\napp = {be_app}\n",
        &base[..cut]
    )
}

#[test]
fn cbr_class_loses_nothing_whatever_the_best_effort_load() {
    let be_loads = [
        "{ kind = \"poisson\", rate = \"0.5Mb\", size = \"576B\" }",
        "{ kind = \"poisson\", rate = \"3Mb\", size = \"576B\" }",
        "{ kind = \"onoff\", rate = \"8Mb\", size = \"576B\", on = { dist = \"pareto\", mean = \"200ms\" }, off = { dist = \"exponential\", mean = \"200ms\" } }",
    ];
    for app in be_loads {
        let r = run(&voice_scenario(app));
        assert!(r.accounting.balanced());
        let calls: Vec<_> = r.flows.iter().filter(|f| f.name.starts_with("call")).collect();
        assert_eq!(calls.len(), 16);
        for f in &calls {
            assert_eq!(f.dropped_pkts, 0, "{} under BE {app}", f.name);
            // Queueing behind at most one BE packet plus the other calls: well under 30 ms.
            assert!(f.delay_max_s.unwrap() < 0.460 + 0.030, "{}: {:?}", f.name, f.delay_max_s);
        }
        let bn = r.classes.iter().filter(|c| c.link == 4).collect::<Vec<_>>();
        assert_eq!(bn.len(), 2);
        assert_eq!((bn[0].class.as_str(), bn[0].dropped_pkts), ("cbr", 0));
    }
    // Under heavy BE load the BE class does lose packets (the bottleneck is overloaded).
    let r = run(&voice_scenario(be_loads[1]));
    let be = r.classes.iter().find(|c| c.class == "be").unwrap();
    assert!(be.dropped_pkts > 1000, "{be:?}");
}

#[test]
fn without_priority_the_same_cbr_load_loses_packets() {
    // Control: one shared DropTail of 64 packets (Holl 2003's Drop-Tail router) loses CBR.
    let text = voice_scenario("{ kind = \"poisson\", rate = \"3Mb\", size = \"576B\" }");
    let start = text.find("queue = { kind = \"prio\"").unwrap();
    let end = start + text[start..].find("\n] }").unwrap() + 4;
    let text =
        format!("{}queue = {{ kind = \"droptail\", limit = 64 }}{}", &text[..start], &text[end..]);
    let r = run(&text);
    let lost: u64 =
        r.flows.iter().filter(|f| f.name.starts_with("call")).map(|f| f.dropped_pkts).sum();
    assert!(lost > 100, "{lost}");
}
