//! Runs one scenario file without Python and prints its rate: for profiling the core
//! (`cargo run --release --example run_scenario -- FILE.toml [RESULTS.json]`). With a second
//! argument, also writes the full results as JSON there (to diff two builds' results).

use nsim_core::{build, RunOptions, Scenario};

fn main() {
    let path = std::env::args().nth(1).expect("usage: run_scenario FILE.toml [RESULTS.json]");
    let text = std::fs::read_to_string(&path).expect("readable scenario");
    let scn = Scenario::from_toml(&text, &path).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    let sim = build(&scn, &RunOptions::default()).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    let r = sim.run(&mut |_| true).expect("run");
    let departures: u64 = r.queues.iter().map(|q| q.departures).sum();
    println!(
        "{}: {} events in {:.3} s = {:.0} events/s, {:.0} link departures/s; set-up {:.3} s",
        path,
        r.events,
        r.run_wall_s,
        r.events as f64 / r.run_wall_s,
        departures as f64 / r.run_wall_s,
        r.setup_wall_s
    );
    if let Some(out) = std::env::args().nth(2) {
        std::fs::write(&out, serde_json::to_string(&r).expect("results serialize"))
            .expect("writable results file");
    }
}
