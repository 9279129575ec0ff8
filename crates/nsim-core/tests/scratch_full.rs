mod common;
#[test]
fn dump() {
    let t = std::env::var("SCN").unwrap();
    let (_, evs) = common::run_traced(&std::fs::read_to_string(t).unwrap(), "x");
    for e in evs.iter().filter(|e| e.op == 'r') { eprintln!("{} {} {}->{} {} {} {}", e.op, e.t, e.from, e.to, e.kind, e.size, e.seq); }
}
