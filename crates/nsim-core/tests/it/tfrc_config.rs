//! TFRC and STP in scenario files: bad input gets an error naming the field and the reason,
//! and a rerun is bit-identical.

use crate::common;

use nsim_core::Scenario;

fn scenario(transport: &str, app: &str) -> String {
    format!(
        r#"
duration = "5s"
hosts = ["s", "d"]
[[links]]
between = ["s", "d"]
rate = "1Mb"
delay = "10ms"
[[flows]]
from = "s"
to = "d"
app = {app}
transport = {transport}
"#
    )
}

fn error(transport: &str, app: &str) -> String {
    let scn = Scenario::from_toml(&scenario(transport, app), "t.toml");
    match scn.and_then(|s| nsim_core::build(&s, &Default::default()).map(|_| ())) {
        Ok(()) => panic!("accepted {transport} / {app}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_tfrc_and_stp_options_are_errors_that_name_the_field() {
    let bulk = r#"{ kind = "bulk" }"#;
    let e = error(r#"{ kind = "tfrc", ssmult = 1 }"#, bulk);
    assert!(e.contains("flows[0].transport.ssmult") && e.contains("> 1"), "{e}");
    let e = error(r#"{ kind = "tfrc", rtt_weight = 1.5 }"#, bulk);
    assert!(e.contains("transport.rtt_weight"), "{e}");
    let e = error(r#"{ kind = "tfrc", ndupack = 0 }"#, bulk);
    assert!(e.contains("transport.ndupack"), "{e}");
    let e = error(r#"{ kind = "tfrc", spec = "rfc9999" }"#, bulk);
    assert!(e.contains("rfc9999"), "{e}");
    let e = error(r#"{ kind = "tfrc", windw = 3 }"#, bulk);
    assert!(e.contains("windw"), "{e}");
    let e = error(r#"{ kind = "tfrc" }"#, r#"{ kind = "cbr", rate = "64kb" }"#);
    assert!(e.contains("flows[0].app.kind") && e.contains("tfrc"), "{e}");
    let e = error(r#"{ kind = "stp", window = 0 }"#, bulk);
    assert!(e.contains("flows[0].transport.window"), "{e}");
    let e = error(r#"{ kind = "stp", poll_interval = "0s" }"#, bulk);
    assert!(e.contains("transport.poll_interval"), "{e}");
    let e = error(r#"{ kind = "stp" }"#, r#"{ kind = "file", size = "1MB" }"#);
    assert!(e.contains("app.kind") && e.contains("stp"), "{e}");
}

#[test]
fn reruns_are_bit_identical() {
    for t in [r#"{ kind = "tfrc", ecn = true }"#, r#"{ kind = "stp", window = 30 }"#] {
        let toml = scenario(t, r#"{ kind = "bulk" }"#).replace(
            "delay = \"10ms\"",
            "delay = \"10ms\"\nerror = { kind = \"uniform\", rate = 0.02 }",
        );
        let (a, b) = (common::run(&toml), common::run(&toml));
        assert!(a.accounting.balanced());
        assert_eq!(
            serde_json::to_string(&a.flows).unwrap(),
            serde_json::to_string(&b.flows).unwrap()
        );
        assert!(a.flows[0].delivered_pkts > 100, "{t}: {}", a.flows[0].delivered_pkts);
    }
}
