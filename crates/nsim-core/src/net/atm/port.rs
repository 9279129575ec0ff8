//! An ATM output port: a shared FIFO buffer of K cells, its drop policy, and the wire.
//!
//! Every cell is decided on its own arrival, in time order with all other cells, exactly as a
//! cell switch does Goyal-Jain 1997 (§5.2; Romanow & Floyd 1995 §3): X, Y_i and N_a are the
//! occupancies at that instant. A FIFO drained at one cell per slot has a known future, so an
//! accepted cell is given its transmission start at once (the end of the cells before it) and
//! its arrival at the far end (start + slot + delay). Cells leave the buffer count X and Y_i
//! lazily, when the next arrival at the port looks: the buffer costs no event, and each cell
//! costs one event per hop (its arrival at the next node). The wire ring holds the cells being
//! sent and propagating as well as those still waiting; the last `x` entries are the buffer.
//!
//! Per VC the port follows frame boundaries from the cells it sees arrive: a cell is the first
//! of a frame if the VC's previous cell had the end-of-frame bit. On a first cell the policy
//! may discard the whole frame (EPD, SD, FBA). A cell that finds the buffer full is lost
//! (`overflow`); with partial discard on (PPD, Romanow & Floyd 1995 §3) the rest of that frame
//! is then discarded too (`ppd`), except its end-of-frame cell when `keep_eom` (the default:
//! the receiver needs it to find the frame boundary, see `reassembly.rs`). A cell counts in X
//! from its arrival until its transmission starts (the cell on the wire has left the buffer,
//! as in ns-2's queues); K bounds X.

use std::collections::VecDeque;

use super::cell::Cell;
use super::cell::CELL_BYTES;
use super::frames::FrameTable;
use super::policy::Policy;
use super::reassembly::Reassembler;
use crate::queue::ClassStats;
use crate::record::{DropCounts, DropReason, LinkStats};
use crate::time::{Dur, SimTime};

/// What happens to the rest of a frame on a VC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Accept,
    /// The policy discarded the frame at its first cell: every cell goes, EOM included.
    DiscardAll(DropReason),
    /// A cell was lost to overflow: partial discard of the rest of the frame.
    DiscardRest,
}

/// Per-VC state and counters of one port (cells).
#[derive(Clone, Debug)]
struct Vc {
    /// Y_i: cells of this VC in the buffer.
    y: u64,
    /// The VC's last arriving cell was not an end-of-frame cell.
    in_frame: bool,
    mode: Mode,
    arrivals: u64,
    departures: u64,
    drops: DropCounts,
    /// Integral of Y_i over time (cell-picoseconds) up to `last`.
    area: u128,
    last: SimTime,
}

impl Default for Vc {
    fn default() -> Self {
        Vc {
            y: 0,
            in_frame: false,
            mode: Mode::Accept,
            arrivals: 0,
            departures: 0,
            drops: [0; DropReason::COUNT],
            area: 0,
            last: SimTime::ZERO,
        }
    }
}

impl Vc {
    #[inline]
    fn set_y(&mut self, at: SimTime, y: u64) {
        self.area += self.y as u128 * at.0.saturating_sub(self.last.0) as u128;
        self.last = self.last.max(at);
        self.y = y;
    }
}

/// The buffer settings of a port.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PortConfig {
    /// K, cells.
    pub buffer: u64,
    pub policy: Policy,
    /// Discard the rest of a frame after one of its cells overflowed (PPD).
    pub partial_discard: bool,
    /// Partial discard keeps the end-of-frame cell.
    pub keep_eom: bool,
}

pub struct CellPort {
    cfg: PortConfig,
    slot: Dur,
    delay: Dur,
    /// Accepted cells in order, with their transmission start times.
    ring: VecDeque<(SimTime, Cell)>,
    /// X: the last `x` ring entries have not started transmission.
    x: u64,
    /// N_a: VCs with at least one cell in the buffer.
    n_active: u64,
    /// When the transmitter finishes the last accepted cell.
    free_at: SimTime,
    vcs: Vec<Vc>,
    /// AAL5 reassembly at the far end of this link, per VC (used where the path leaves ATM).
    pub reasm: Vec<Reassembler>,
}

impl CellPort {
    pub fn new(cfg: PortConfig, slot: Dur, delay: Dur, n_vcs: usize) -> Self {
        CellPort {
            cfg,
            slot,
            delay,
            ring: VecDeque::new(),
            x: 0,
            n_active: 0,
            free_at: SimTime::ZERO,
            vcs: vec![Vc::default(); n_vcs],
            reasm: vec![Reassembler::default(); n_vcs],
        }
    }

    /// Cells in the buffer (X) as of the last update.
    pub fn occupancy(&self) -> u64 {
        self.x
    }

    /// Moves the cells whose transmission started by `now` out of the buffer, recording the
    /// link's occupancy (in cells) at each departure.
    fn advance(&mut self, now: SimTime, stats: &mut LinkStats) {
        while self.x > 0 {
            let (start, cell) = self.ring[self.ring.len() - self.x as usize];
            if start > now {
                break;
            }
            self.x -= 1;
            stats.occupancy(start, self.x, self.x * CELL_BYTES as u64);
            let v = &mut self.vcs[cell.vc as usize];
            v.set_y(start, v.y - 1);
            v.departures += 1;
            if v.y == 0 {
                self.n_active -= 1;
            }
        }
    }

    /// A cell arrives at `now`: accept it (`Ok(true)` if the wire was empty, so the caller
    /// must schedule its arrival event) or lose it with the reason. `stats` gets the
    /// occupancy changes (cells) and the transmitter time.
    pub fn offer(
        &mut self,
        cell: Cell,
        now: SimTime,
        stats: &mut LinkStats,
    ) -> Result<bool, DropReason> {
        self.advance(now, stats);
        let (x, k, n_active) = (self.x, self.cfg.buffer, self.n_active);
        let v = &mut self.vcs[cell.vc as usize];
        v.arrivals += 1;
        if !v.in_frame {
            v.mode = match self.cfg.policy.discard_frame(x, v.y, n_active, k) {
                Some(why) => Mode::DiscardAll(why),
                None => Mode::Accept,
            };
        }
        v.in_frame = !cell.eom;
        let verdict = match v.mode {
            Mode::DiscardAll(why) => Err(why),
            Mode::DiscardRest if !(cell.eom && self.cfg.keep_eom) => Err(DropReason::Ppd),
            _ if x >= k => {
                if self.cfg.partial_discard && !cell.eom {
                    v.mode = Mode::DiscardRest;
                }
                Err(DropReason::Overflow)
            }
            _ => Ok(()),
        };
        if let Err(why) = verdict {
            v.drops[why.idx()] += 1;
            return Err(why);
        }
        if v.y == 0 {
            self.n_active += 1;
        }
        v.set_y(now, v.y + 1);
        let start = self.free_at.max(now);
        self.free_at = start + self.slot;
        let was_empty = self.ring.is_empty();
        self.ring.push_back((start, cell));
        self.x += 1;
        stats.occupancy(now, self.x, self.x * CELL_BYTES as u64);
        stats.busy_ps += self.slot.0;
        self.advance(now, stats);
        Ok(was_empty)
    }

    /// When the head of the wire reaches the far end, if any cell is on it.
    pub fn next_arrival(&self) -> Option<SimTime> {
        self.ring.front().map(|&(start, _)| start + self.slot + self.delay)
    }

    /// Takes the cell at the head of the wire (it has reached the far end at `now`).
    pub fn pop_arrival(&mut self, now: SimTime, stats: &mut LinkStats) -> Option<Cell> {
        // The buffer's lazy bookkeeping must first let go of every cell already sent.
        self.advance(now, stats);
        debug_assert!(self.ring.len() as u64 > self.x, "a buffered cell cannot arrive");
        self.ring.pop_front().map(|(_, c)| c)
    }

    /// Packets in flight on this link: the intact frames whose end-of-frame cell was accepted
    /// here and has not reached the far end (in the buffer, being sent or propagating). A
    /// frame counts as departed when its end-of-frame cell is accepted, so a frame is never
    /// `queued` on an ATM link; each intact frame's end-of-frame cell is in exactly one port,
    /// so these counts add up to the run's ATM packets in flight.
    pub fn frames_in_flight(&self, frames: &FrameTable) -> u64 {
        self.ring.iter().filter(|(_, c)| c.eom && frames.get(c.frame).pkt.is_some()).count() as u64
    }

    /// Per-VC cell counters over [0, end], for VCs that saw any cell: (vc, stats).
    pub fn vc_stats(&self, end: SimTime) -> Vec<(usize, ClassStats)> {
        // Cells whose transmission started by `end` but were not yet moved out of the buffer.
        let mut left = vec![(0u64, 0u128); self.vcs.len()];
        for &(start, cell) in self.ring.iter().skip(self.ring.len() - self.x as usize) {
            if start <= end {
                let l = &mut left[cell.vc as usize];
                l.0 += 1;
                l.1 += end.0.saturating_sub(start.0) as u128;
            }
        }
        let secs = end.0.max(1) as f64;
        self.vcs
            .iter()
            .enumerate()
            .filter(|(_, v)| v.arrivals > 0)
            .map(|(i, v)| {
                let (gone, early) = left[i];
                let area = v.area + v.y as u128 * end.0.saturating_sub(v.last.0) as u128 - early;
                let cs = ClassStats {
                    name: String::new(),
                    arrivals: v.arrivals,
                    arrival_bytes: v.arrivals * CELL_BYTES as u64,
                    departures: v.departures + gone,
                    departure_bytes: (v.departures + gone) * CELL_BYTES as u64,
                    drops: v.drops,
                    queued_pkts: v.y - gone,
                    avg_len: Some(area as f64 / secs),
                };
                (i, cs)
            })
            .collect()
    }
}
