//! ns-2.35 tfrc.cc's rate rules and tcp/formula.h's equation, step by step, on hand-made
//! reports (the values are ns-2's arithmetic worked by hand).

use super::*;
use crate::ids::{AgentId, NodeId};
use crate::transport::tfrc::config::{TfrcConfig, TfrcSpec};

fn sender() -> Ns2TfrcSender {
    let p = TfrcConfig { spec: TfrcSpec::Ns2, ..Default::default() }.resolve("t").unwrap();
    Ns2TfrcSender::new(p, DataPath { dst: NodeId(1), dst_agent: AgentId(0), prio: 0, tag: 0 }, None)
}

fn at(ms: u64) -> SimTime {
    SimTime::ZERO + Dur::from_millis(ms)
}

/// ns-2 defaults that `spec = "ns2"` takes: `df_` 0.95, `numPkts_` 1, `ca_` 1, `tcp_tick_`
/// 0.1, `minrto_` 0, `InitRate_` 300 B/s.
#[test]
fn ns2_spec_takes_ns2_defaults() {
    let s = sender();
    assert_eq!((s.p.q, s.p.ndupack, s.p.oscillation_prevention), (0.95, 1, true));
    assert_eq!((s.p.rto_tick, s.p.min_rto), (Dur::from_millis(100), Dur::ZERO));
    assert_eq!(s.rate(), 300.0);
    let rfc = TfrcConfig::default().resolve("t").unwrap();
    assert_eq!((rfc.q, rfc.ndupack, rfc.oscillation_prevention), (0.9, 3, false));
}

/// tcp/formula.h `p_to_b`: the PFTK form with 3·sqrt(3p/8) capped at 1, 25 MB/s at p = 0.
#[test]
fn equation_caps_the_timeout_factor() {
    let (s, r, t) = (1000.0, 0.1, 0.4);
    // p = 0.01: 3·sqrt(0.00375) = 0.1837 < 1, the RFC 5348 form.
    let p: f64 = 0.01;
    let rfc = s
        / (r * (2.0 * p / 3.0).sqrt()
            + t * 3.0 * (3.0 * p / 8.0).sqrt() * p * (1.0 + 32.0 * p * p));
    assert!((ns2_equation(s, r, p, t) / rfc - 1.0).abs() < 1e-12);
    // p = 0.2: 3·sqrt(0.075) = 0.8216 < 1 still; p = 0.3: 3·sqrt(0.1125) = 1.006 -> 1.
    let p: f64 = 0.3;
    let capped = s / (r * (0.2f64).sqrt() + t * p * (1.0 + 32.0 * p * p));
    assert!((ns2_equation(s, r, p, t) / capped - 1.0).abs() < 1e-12);
    assert_eq!(ns2_equation(s, r, 0.0, t), 25e6);
}

/// tfrc.cc `update_rtt`: ticks of 100 ms, srtt scaled by 8, rttvar by 4, RTO = srtt + 4·rttvar.
#[test]
fn tick_estimator_follows_tcp_agent_arithmetic() {
    let mut e = TickRto::new(0.1);
    // First sample 0.1 s = 1 tick: srtt = 8, rttvar = 2 -> ((2 << 3) + 8) >> 3 = 3 ticks.
    assert!((e.sample(0.1) - 0.3).abs() < 1e-12);
    // 0.34 s rounds to 3 ticks: delta = 3 - 1 = 2, srtt = 10; |2| - (2 >> 2) = 2, rttvar = 4;
    // ((4 << 3) + 10) >> 3 = 5 ticks.
    assert!((e.sample(0.34) - 0.5).abs() < 1e-12);
    // A sample under half a tick still counts as one tick.
    let mut e = TickRto::new(0.1);
    assert!((e.sample(0.01) - 0.3).abs() < 1e-12);
}

/// tfrc.cc `slowstart`: the first reports set 4 packets per R (RFC 3390 for 1000 B), then
/// ssmult per R up to 2·X_recv, and half of 2·X_recv when above it; the pacing rate climbs by
/// delta per packet.
#[test]
fn slow_start_steps_as_ns2() {
    let mut s = sender();
    s.rtt = 0.1;
    s.round_id = 1;
    s.slow_start(at(100));
    assert!((s.rate - 40_000.0).abs() < 1e-9);
    assert!((s.delta - (40_000.0 - 300.0) / 4.0).abs() < 1e-9);
    s.round_id = 3;
    s.maxrate = 100_000.0;
    s.slow_start(at(150));
    assert_eq!(s.rate, 40_000.0, "not before one R since the last step");
    s.slow_start(at(201));
    assert!((s.rate - 80_000.0).abs() < 1e-9);
    assert!((s.oldrate - 40_000.0).abs() < 1e-9);
    s.slow_start(at(302));
    assert!((s.rate - 100_000.0).abs() < 1e-9, "capped at 2·X_recv");
    s.maxrate = 60_000.0;
    s.slow_start(at(303));
    assert!((s.rate - 30_000.0).abs() < 1e-9, "above 2·X_recv: half of it");
}

/// tfrc.cc `increase_rate` / `decrease_rate` (maxHeavyRounds_ 0).
#[test]
fn additive_increase_and_immediate_decrease() {
    let mut s = sender();
    (s.rtt, s.rate, s.maxrate, s.rcvrate, s.last_change) =
        (0.1, 50_000.0, 200_000.0, 120_000.0, at(1000));
    s.increase(at(1150));
    // s/R·min(2, 0.15/0.1) = 10000·1.5
    assert!((s.rate - 65_000.0).abs() < 1e-9);
    s.increase(at(1650));
    assert!((s.rate - 85_000.0).abs() < 1e-9, "at most 2 packets per R per report");
    s.rcvrate = 90_000.0;
    s.increase(at(1850));
    assert!((s.rate - 90_000.0).abs() < 1e-9, "never above the equation");
    s.rcvrate = 70_000.0;
    s.decrease(at(1900));
    assert_eq!(s.rate, 70_000.0);
    s.maxrate = 20_000.0;
    s.rcvrate = 70_000.0;
    s.decrease(at(2000));
    assert_eq!(s.rate, 20_000.0, "above 2·X_recv: capped there");
}
