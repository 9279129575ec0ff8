use super::*;
use crate::queue::testbench::Bench;

fn state(drop_prob: f64, cur_ms: f64, old_ms: f64) -> PieState {
    let mut s = PieState::new(toml::from_str("").unwrap());
    s.drop_prob = drop_prob;
    s.qdelay = Dur::from_secs_f64(cur_ms / 1e3);
    s.qdelay_old = Dur::from_secs_f64(old_ms / 1e3);
    s
}

#[test]
fn drop_probability_update_follows_rfc_8033() {
    // (drop_prob before, current qdelay ms, old qdelay ms, drop_prob after), by hand from
    // RFC 8033 §5: p = 0.125 (cur - 15 ms) + 1.25 (cur - old), scaled by the auto-tuning
    // bracket of drop_prob, capped at 0.02 when drop_prob >= 0.1, decayed by 0.98 when both
    // delays are under 7.5 ms, bounded to [0, 1]. With cur 30, old 15: p = 0.020625.
    let rows = [
        (0.0, 30.0, 15.0, 0.020625 / 2048.0),
        (5e-6, 30.0, 15.0, 5e-6 + 0.020625 / 512.0),
        (5e-5, 30.0, 15.0, 5e-5 + 0.020625 / 128.0),
        (5e-4, 30.0, 15.0, 5e-4 + 0.020625 / 32.0),
        (5e-3, 30.0, 15.0, 5e-3 + 0.020625 / 8.0),
        (0.05, 30.0, 15.0, 0.05 + 0.020625 / 2.0),
        (0.2, 30.0, 15.0, 0.22),
        (0.2, 16.0, 15.0, 0.201375),
        (0.05, 5.0, 5.0, (0.05 - 0.00125 / 2.0) * 0.98),
        (0.99, 100.0, 0.0, 1.0),
        (0.0, 0.0, 0.0, 0.0),
    ];
    for (before, cur, old, want) in rows {
        let mut s = state(before, cur, old);
        s.update();
        assert!(
            (s.drop_prob - want).abs() < 1e-12,
            "{before} {cur} {old}: {} != {want}",
            s.drop_prob
        );
        assert_eq!(s.qdelay_old, s.qdelay);
    }
}

#[test]
fn burst_allowance_drains_by_tupdate_per_update() {
    let mut s = state(0.0, 30.0, 30.0);
    for k in 1..=10u64 {
        s.update();
        assert_eq!(s.burst_allowance, Dur::from_millis(150u64.saturating_sub(15 * k)));
    }
}

#[test]
fn safeguards_keep_pie_work_conserving() {
    let s = state(0.5, 30.0, 5.0);
    // qdelay_old under target/2 with drop_prob under 0.2 would pass; here 0.5: drops at u < p.
    assert!(s.drop_early(10_000, 0.4));
    assert!(!s.drop_early(10_000, 0.6));
    // A queue of at most two mean packets is never dropped from.
    assert!(!s.drop_early(3000, 0.0));
    let low = state(0.1, 30.0, 5.0);
    assert!(!low.drop_early(10_000, 0.0));
}

#[test]
fn a_standing_queue_raises_the_drop_probability_and_pie_drops() {
    // Twice the service rate arrives (2 packets in, 1 out per ms): PIE must end up dropping
    // about half of the arrivals early, holding the delay near target before the 1000-packet
    // buffer overflows.
    let mut b = Bench::new();
    let mut q = Pie {
        fifo: Fifo::default(),
        state: PieState::new(toml::from_str("").unwrap()),
        limit: Limit::Packets(1000),
    };
    for i in 0..20_000u64 {
        b.at(Dur::from_millis(i));
        b.offer_size(&mut q, 1000);
        b.offer_size(&mut q, 1000);
        b.take(&mut q);
    }
    assert!((0.4..0.6).contains(&q.state.drop_prob), "{}", q.state.drop_prob);
    assert!(b.drops_of(DropReason::Pie) > 15_000);
    assert_eq!(b.drops_of(DropReason::Overflow), 0);
    assert!(q.state.qdelay < Dur::from_millis(60), "{:?}", q.state.qdelay);
    assert_eq!(q.state.burst_allowance, Dur::ZERO);
}

#[test]
fn with_ecn_ect_packets_are_marked_while_drop_prob_is_at_most_10_percent() {
    // RFC 8033 §5.1.
    for (drop_prob, marked) in [(0.05, true), (0.1, true), (0.3, false)] {
        let mut b = Bench::new();
        let mut cfg: PieConfig = toml::from_str("ecn = true").unwrap();
        cfg.max_burst = crate::units::TimeSpec(Dur::ZERO);
        let mut q =
            Pie { fifo: Fifo::default(), state: PieState::new(cfg), limit: Limit::Packets(1000) };
        for _ in 0..10 {
            b.offer_size(&mut q, 1000);
        }
        q.state.drop_prob = drop_prob;
        q.state.qdelay_old = Dur::from_millis(30);
        let n = 2000;
        for _ in 0..n {
            let id = b.offer(
                &mut q,
                crate::packet::Packet {
                    ecn: crate::packet::Ecn::Ect,
                    ..crate::queue::testbench::PKT
                },
            );
            if !b.dropped(id) {
                q.fifo.pop_back();
            }
        }
        let signals = b.marks as f64 + b.drops_of(DropReason::Pie) as f64;
        assert!(
            (signals / n as f64 - drop_prob).abs()
                < 4.0 * (drop_prob * (1.0 - drop_prob) / n as f64).sqrt()
        );
        assert_eq!(b.marks > 0, marked, "{drop_prob}");
        assert_eq!(b.drops_of(DropReason::Pie) > 0, !marked, "{drop_prob}");
    }
}
