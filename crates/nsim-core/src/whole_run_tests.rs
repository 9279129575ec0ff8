//! Unit tests that run the whole stack (a scenario built and run) yet need the crate's
//! `cfg(test)` settings, such as the streamed results' small spill chunks
//! ([`crate::results::transfer_spill::CHUNK_ROWS`]). Tests that need neither live in
//! tests/it/. At the top of the stack (docs/architecture.md), so nothing below imports upward.

use crate::config::build::{build, RunOptions};
use crate::config::Scenario;
use crate::results::files::write_dir;

/// A 300 s web, Telnet and FTP run with every series: about 6,400 transfers (spilled in
/// several chunks at the progress checks) and tens of thousands of samples (appended in
/// many batches, the cwnd series from the packet path too).
fn scenario() -> Scenario {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/web_telnet_mix.toml");
    let text = std::fs::read_to_string(path).unwrap()
        + "[record]\nseries = [\"queue\", \"flow_throughput\", \"goodput\", \"tcp\", \"cwnd\"]\ninterval = \"50ms\"\n";
    Scenario::from_toml(&text, path).unwrap()
}

/// Streamed files are byte for byte those written from the results held whole (every
/// file but summary.json, whose wall times differ), and no spill file is left.
#[test]
fn streamed_files_equal_files_written_whole() {
    let base = std::env::temp_dir().join(format!("nsim-stream-{}", std::process::id()));
    let (streamed, whole) = (base.join("streamed"), base.join("whole"));
    let opts =
        RunOptions { duration: Some(crate::time::Dur::from_secs_f64(300.0)), ..Default::default() };
    for (dir, stream) in [(&streamed, true), (&whole, false)] {
        std::fs::create_dir_all(dir).unwrap();
        let mut sim = build(&scenario(), &opts).unwrap();
        if stream {
            sim.stream_to(dir);
        }
        let res = sim.run(&mut |_| true).unwrap();
        assert_eq!(res.transfers.is_empty(), stream);
        write_dir(&res, dir).unwrap();
    }
    let list = |d: &std::path::Path| {
        let mut names: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    let names = list(&whole);
    assert_eq!(list(&streamed), names);
    for kind in [
        "transfers",
        "series_queue",
        "series_flow_throughput",
        "series_goodput",
        "series_tcp",
        "series_cwnd",
    ] {
        assert!(names.contains(&format!("{kind}.csv")), "{kind}.csv written");
    }
    let rows = std::fs::read_to_string(whole.join("transfers.csv")).unwrap().lines().count();
    assert!(rows > 20 * crate::results::transfer_spill::CHUNK_ROWS, "{rows} transfers");
    for name in names.iter().filter(|n| *n != "summary.json") {
        let (a, b) =
            (std::fs::read(streamed.join(name)).unwrap(), std::fs::read(whole.join(name)).unwrap());
        assert!(a == b, "{name} differs ({} vs {} bytes)", a.len(), b.len());
    }
    std::fs::remove_dir_all(&base).unwrap();
}
