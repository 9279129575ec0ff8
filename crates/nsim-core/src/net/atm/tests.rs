//! Ports fed with synthetic cell sequences: each policy against its published definition.

use super::cell::Cell;
use super::policy::Policy;
use super::port::{CellPort, PortConfig};
use crate::record::DropReason::{self, *};
use crate::record::LinkStats;
use crate::time::{Dur, SimTime};

const SLOT: Dur = Dur(1000);

fn port(buffer: u64, policy: Policy, partial_discard: bool) -> CellPort {
    CellPort::new(PortConfig { buffer, policy, partial_discard, keep_eom: true }, SLOT, Dur(0), 4)
}

/// Offers `n` cells on `vc` at time `t`, the last one ending a frame if `ends`; returns each
/// cell's fate.
fn cells(p: &mut CellPort, vc: u32, n: u32, ends: bool, t: u64) -> Vec<Result<(), DropReason>> {
    (0..n)
        .map(|k| {
            p.offer(
                Cell { frame: 0, vc, eom: ends && k + 1 == n },
                SimTime(t),
                &mut LinkStats::default(),
            )
            .map(|_| ())
        })
        .collect()
}

/// A whole frame of `n` cells on `vc` at time `t`.
fn frame(p: &mut CellPort, vc: u32, n: u32, t: u64) -> Vec<Result<(), DropReason>> {
    cells(p, vc, n, true, t)
}

fn fates(v: &[Result<(), DropReason>]) -> String {
    v.iter()
        .map(|r| match r {
            Ok(()) => '+',
            Err(Overflow) => 'o',
            Err(Ppd) => 'p',
            Err(Epd) => 'e',
            Err(SelectiveDrop) => 's',
            Err(Fba) => 'f',
            Err(_) => '?',
        })
        .collect()
}

#[test]
fn tail_drop_forwards_the_rest_of_a_damaged_frame() {
    // K = 5. At t = 0 the first cell starts at once, four wait; the sixth and seventh overflow.
    // A slot later one cell has left, so the last cell of the frame fits again.
    let mut p = port(5, Policy::TailDrop, false);
    assert_eq!(fates(&frame(&mut p, 0, 7, 0)), "++++++o");
    assert_eq!(p.occupancy(), 5);
    assert_eq!(fates(&frame(&mut p, 1, 2, 1000)), "+o", "one cell left in the slot: one space");
}

#[test]
fn partial_discard_drops_the_rest_but_keeps_the_end_of_frame_cell() {
    let mut p = port(3, Policy::TailDrop, true);
    // 1 on the wire + 3 buffered, then overflow, then PPD until the EOM, which finds no space
    // either (nothing left yet) and is lost to overflow.
    assert_eq!(fates(&frame(&mut p, 0, 7, 0)), "++++opo");
    // Next frame on a drained buffer is accepted: the VC is back in sync after the EOM.
    assert_eq!(fates(&frame(&mut p, 0, 2, 10_000)), "++");
}

#[test]
fn ppd_keeps_the_eom_when_it_fits() {
    let mut p = port(3, Policy::TailDrop, true);
    // The fifth cell (not the EOM) overflows.
    assert_eq!(fates(&cells(&mut p, 0, 5, false, 0)), "++++o");
    // Three slots later the buffer has room; the frame's next cells are discarded (PPD) but
    // its EOM is kept.
    assert_eq!(fates(&frame(&mut p, 0, 3, 3000)), "pp+");
    // Without keep_eom the EOM goes too.
    let mut q = CellPort::new(
        PortConfig { buffer: 3, policy: Policy::TailDrop, partial_discard: true, keep_eom: false },
        SLOT,
        Dur(0),
        1,
    );
    assert_eq!(fates(&cells(&mut q, 0, 5, false, 0)), "++++o");
    assert_eq!(fates(&frame(&mut q, 0, 3, 3000)), "ppp");
}

#[test]
fn epd_decides_on_the_first_cell_and_finishes_accepted_frames() {
    // K = 10, R = 4. Frame A (6 cells) starts on an empty buffer: accepted whole although X
    // passes R on the way ("partially received packets are accepted if possible").
    let mut p = port(10, Policy::Epd { r: 4.0 }, true);
    assert_eq!(fates(&frame(&mut p, 0, 6, 0)), "++++++");
    assert_eq!(p.occupancy(), 5);
    // Frame B's first cell sees X = 5 > R: the whole frame goes, EOM included.
    assert_eq!(fates(&frame(&mut p, 1, 3, 0)), "eee");
    // After 2 slots X = 3 <= R: frame C is accepted.
    assert_eq!(fates(&frame(&mut p, 1, 2, 2000)), "++");
}

#[test]
fn selective_drop_discards_only_the_vc_above_its_share() {
    // K = 20, R = 0.5 K = 10, Z = 0.8. VC 0 holds 9 cells, VC 1 holds 2 (X = 11, N_a = 2,
    // fair share 5.5 cells). VC 0: 9·2/11 = 1.64 > 0.8 -> drop; VC 1: 2·2/11 = 0.36 -> keep.
    let mut p = port(20, Policy::SelectiveDrop { r: 10.0, z: 0.8 }, true);
    frame(&mut p, 0, 10, 0); // 1 on the wire, 9 buffered
    frame(&mut p, 1, 2, 0);
    assert_eq!(p.occupancy(), 11);
    assert_eq!(fates(&frame(&mut p, 0, 2, 0)), "ss");
    assert_eq!(fates(&frame(&mut p, 1, 2, 0)), "++");
}

#[test]
fn fba_allowance_shrinks_towards_z_as_the_buffer_fills() {
    // K = 20, R = 10, Z = 0.8; VC 0 holds 9, VC 1 holds 3: X = 12, N_a = 2.
    // VC 0: 9·2/12 = 1.5 <= 0.8·(20-10)/(12-10) = 4 -> accepted.
    let mut p = port(20, Policy::Fba { r: 10.0, z: 0.8 }, true);
    frame(&mut p, 0, 10, 0);
    frame(&mut p, 1, 3, 0);
    assert_eq!(fates(&frame(&mut p, 0, 3, 0)), "+++");
    // Now X = 15, Y_0 = 12: 12·2/15 = 1.6 > 0.8·10/5 = 1.6? no (equal) -> accepted; one more
    // cell queued on VC 1 makes X = 16: 12·2/16 = 1.5 > 0.8·10/6 = 1.33 -> VC 0 dropped.
    assert_eq!(fates(&frame(&mut p, 0, 1, 0)), "+");
    assert_eq!(fates(&frame(&mut p, 1, 1, 0)), "+");
    assert_eq!(fates(&frame(&mut p, 0, 2, 0)), "ff");
}

#[test]
fn cells_leave_at_one_per_slot_and_arrive_after_slot_plus_delay() {
    let mut p = CellPort::new(
        PortConfig { buffer: 10, policy: Policy::TailDrop, partial_discard: false, keep_eom: true },
        SLOT,
        Dur(500),
        2,
    );
    let mut st = LinkStats::default();
    assert_eq!(p.offer(Cell { frame: 0, vc: 0, eom: false }, SimTime(0), &mut st), Ok(true));
    assert_eq!(p.offer(Cell { frame: 0, vc: 0, eom: true }, SimTime(0), &mut st), Ok(false));
    assert_eq!(p.next_arrival(), Some(SimTime(1500)));
    assert_eq!(p.pop_arrival(SimTime(1500), &mut st), Some(Cell { frame: 0, vc: 0, eom: false }));
    assert_eq!(p.next_arrival(), Some(SimTime(2500)));
    // Per-VC statistics at t = 3000: both cells departed, mean Y = 1 cell for 1000 ps / 3000.
    let s = p.vc_stats(SimTime(3000));
    assert_eq!(s.len(), 1);
    assert_eq!((s[0].1.arrivals, s[0].1.departures, s[0].1.queued_pkts), (2, 2, 0));
    assert!((s[0].1.avg_len.unwrap() - 1.0 / 3.0).abs() < 1e-12);
    // The link's occupancy in cells: X = 1 during the first slot (the second cell waits).
    let (cells, _) = st.mean_occupancy(SimTime(3000));
    assert!((cells - 1.0 / 3.0).abs() < 1e-12, "{cells}");
    assert_eq!((st.max_pkts, st.busy_ps), (1, 2000));
}
