//! Runs one scenario file without Python and prints its rate: for profiling the core
//! (`cargo run --release --example run_scenario -- FILE.toml`).

use nsim_core::{build, RunOptions, Scenario};

fn main() {
    let path = std::env::args().nth(1).expect("usage: run_scenario FILE.toml");
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
        "{}: set-up {:.4} s, {} events in {:.3} s = {:.0} events/s, {:.0} link departures/s",
        path,
        r.setup_wall_s,
        r.events,
        r.wall_s,
        r.events as f64 / r.wall_s,
        departures as f64 / r.wall_s
    );
}
