//! Events on ATM and Ethernet links are refused before the run, naming the field: their
//! transmitters (cell ports, PAUSE-aware ports) are not the point-to-point packet link whose
//! failure, repair and rate change net/dynamics.rs models (docs/models/dynamics.md).

use nsim_core::{build, RunOptions, Scenario};

fn scenario(kind: &str, action: &str) -> String {
    format!(
        r#"
duration = "1s"
hosts = ["s", "d"]
routers = ["r"]
links = [
  {{ between = ["s", "r"], rate = "100Mb", delay = "10us", {kind} }},
  {{ between = ["r", "d"], rate = "100Mb", delay = "10us", {kind} }},
]
[[flows]]
name = "f"
from = "s"
to = "d"
app = {{ kind = "cbr", rate = "1Mb", size = "500B" }}
[[event]]
at = "0.5s"
link = "r->d"
{action}
"#
    )
}

#[test]
fn events_on_atm_and_ethernet_links_are_refused_naming_the_field() {
    for (kind, name) in [
        ("atm = { buffer = 1000 }", "an ATM link"),
        ("ethernet = { buffer = \"64KB\" }", "an Ethernet link"),
    ] {
        for action in [
            "action = \"down\"",
            "action = \"up\"",
            "action = \"set\"\nrate = \"10Mb\"",
            "action = \"flap\"\ndown_for = \"1ms\"\nup_for = \"1ms\"",
        ] {
            let text = scenario(kind, action);
            let scn = Scenario::from_toml(&text, "t.toml").expect("parses");
            let e = match build(&scn, &RunOptions::default()) {
                Ok(_) => panic!("{kind} {action}: accepted"),
                Err(e) => e.to_string(),
            };
            assert!(
                e.contains("event[0].link")
                    && e.contains(&format!(
                        "'r->d' is {name}: events apply to point-to-point packet links only"
                    )),
                "{e}"
            );
        }
        // Without the event the same network runs.
        let text = scenario(kind, "action = \"down\"");
        let scn = Scenario::from_toml(&text[..text.find("[[event]]").unwrap()], "t.toml")
            .expect("parses");
        assert!(build(&scn, &RunOptions::default())
            .expect("builds")
            .run(&mut |_| true)
            .expect("runs")
            .accounting
            .balanced());
    }
}
