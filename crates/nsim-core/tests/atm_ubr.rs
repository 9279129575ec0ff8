//! TCP over ATM UBR (seed 001, LAN): the classic result that plain tail drop wastes the
//! bottleneck on partial frames and that EPD / Selective Drop / FBA restore efficiency and
//! fairness; accounting balances frame by frame.

use nsim_core::{build, Results, RunOptions, Scenario};

/// 512 B of payload in 12 cells of 53 B at 155.52 Mb/s (seed 001 §4: "125.2 Mbps").
const MAX_GOODPUT_BPS: f64 = 155.52e6 * 512.0 / 636.0;

fn run_lan(policy: &str, buffer: u64, secs: u64) -> Results {
    let path = format!("{}/../../scenarios/atm_ubr_lan.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace(r#"atm = { buffer = 1000, policy = "tail_drop" }"#, &format!(r#"atm = {{ buffer = {buffer}, policy = "{policy}" }}"#));
    let scn = Scenario::from_toml(&text, &path).unwrap();
    let opts = RunOptions { duration: Some(nsim_core::time::Dur::from_secs(secs)), ..Default::default() };
    build(&scn, &opts).unwrap().run(&mut |_| true).unwrap()
}

/// (efficiency, Jain fairness) over the TCP flows.
fn metrics(r: &Results) -> (f64, f64) {
    let x: Vec<f64> = r.flows.iter().map(|f| f.goodput_bps).collect();
    let sum: f64 = x.iter().sum();
    let sq: f64 = x.iter().map(|v| v * v).sum();
    (sum / MAX_GOODPUT_BPS, sum * sum / (x.len() as f64 * sq))
}

#[test]
fn drop_policies_on_the_seed_001_lan() {
    let mut rows = Vec::new();
    for policy in ["tail_drop", "ppd", "epd", "selective_drop", "fba"] {
        let r = run_lan(policy, 1000, 3);
        assert!(r.accounting.balanced(), "{policy}: {:?}", r.accounting);
        let (eff, fair) = metrics(&r);
        let bn = r.queues.iter().find(|q| q.from == "sw1" && q.to == "sw2").unwrap();
        eprintln!("{policy:>15}: efficiency {eff:.3} fairness {fair:.3} drops {:?} events {}", bn.drops, r.events);
        assert!(eff <= 1.0 + 1e-9, "{policy}: goodput above the cell-tax maximum");
        rows.push((policy, eff, fair, bn.drops.clone()));
    }
    let eff = |p: &str| rows.iter().find(|r| r.0 == p).unwrap().1;
    // Plain UBR forwards the remains of damaged frames: the frame-aware policies do better.
    for p in ["epd", "selective_drop", "fba"] {
        assert!(eff(p) > eff("tail_drop"), "{p} {} vs tail drop {}", eff(p), eff("tail_drop"));
    }
}
