//! Congestion detection at an output queue and the PAUSE frames it sends upstream.
//!
//! Noureddine 2002 §3.4 (i): the instantaneous queue is compared with two thresholds; above the high
//! watermark the queue is congested and the switch stops its upstream neighbours, below the
//! low watermark it lets them go (defaults 80 % and 70 % of the buffer, §3.5). What a PAUSE
//! names depends on the selectivity (§3.4 (ii)): everything (802.3x), the classes of the
//! congested queue, or each destination present in the congested queue (with its classes).
//! Destinations that arrive while the queue stays congested are stopped as they arrive.

use super::pause::{PauseTime, Scope, ALL_COS};
use crate::ids::NodeId;
use crate::time::{Dur, SimTime};

/// What the PAUSE frames of a congested queue name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Selectivity {
    /// Never sends PAUSE.
    Off,
    /// IEEE 802.3x: all traffic to this node stops (Noureddine 2002 "simple back-pressure").
    Simple,
    /// Only the classes of service of the congested queue stop.
    Class,
    /// Only frames to the destinations in the congested queue (in its classes) stop.
    Destination,
}

/// How a stop is expressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Explicit XOFF until an explicit XON (Noureddine 2002's simulations).
    XonXoff,
    /// 802.3x timed PAUSE of this many quanta, sent again on an arrival once it has run out.
    Timed(u16),
}

/// One class queue as the detector sees it: its index, the classes it holds, its bytes.
#[derive(Clone, Copy, Debug)]
pub struct QueueLevel {
    pub q: usize,
    pub cos: u8,
    pub bytes: u64,
}

/// Watermark state of one port's queues.
pub struct Detector {
    pub selectivity: Selectivity,
    pub style: Style,
    /// Bytes above which a queue is congested and below which it is relieved.
    pub high: u64,
    pub low: u64,
    /// Shortest duration of the timed PAUSE among the upstream links (when to re-send).
    pub refresh: Dur,
    congested: Vec<bool>,
    n_congested: usize,
    /// Destinations stopped for each congested queue (destination selectivity).
    stopped: Vec<Vec<NodeId>>,
    /// When the last timed PAUSE of each queue runs out at the fastest upstream link.
    runs_out: Vec<SimTime>,
}

impl Detector {
    pub fn new(selectivity: Selectivity, style: Style, high: u64, low: u64, queues: usize) -> Self {
        Detector {
            selectivity,
            style,
            high,
            low,
            refresh: Dur::ZERO,
            congested: vec![false; queues],
            n_congested: 0,
            stopped: vec![Vec::new(); queues],
            runs_out: vec![SimTime::ZERO; queues],
        }
    }

    fn stop(&self) -> PauseTime {
        match self.style {
            Style::XonXoff => PauseTime::Xoff,
            Style::Timed(q) => PauseTime::Quanta(q),
        }
    }

    /// A frame to `dst` joined a queue, now at `level`; `dsts` lists the destinations in the
    /// queue in the order of their first frame (called only when destination selectivity
    /// finds the queue newly congested). Pushes the PAUSE frames to send.
    pub fn on_enqueue<I: Iterator<Item = NodeId>>(
        &mut self,
        level: QueueLevel,
        dst: NodeId,
        dsts: impl FnOnce() -> I,
        now: SimTime,
        out: &mut Vec<(Scope, PauseTime)>,
    ) {
        let QueueLevel { q, cos, bytes } = level;
        if self.selectivity == Selectivity::Off {
            return;
        }
        let stop = self.stop();
        if !self.congested[q] {
            if bytes <= self.high {
                return;
            }
            self.congested[q] = true;
            self.n_congested += 1;
            match self.selectivity {
                Selectivity::Simple if self.n_congested == 1 => {
                    out.push((Scope { dst: None, cos: ALL_COS }, stop))
                }
                Selectivity::Class => out.push((Scope { dst: None, cos }, stop)),
                Selectivity::Destination => {
                    for d in dsts() {
                        if !self.stopped[q].contains(&d) {
                            self.stopped[q].push(d);
                            out.push((Scope { dst: Some(d), cos }, stop));
                        }
                    }
                }
                _ => {}
            }
            self.runs_out[q] = now + self.refresh;
            return;
        }
        if self.selectivity == Selectivity::Destination && !self.stopped[q].contains(&dst) {
            self.stopped[q].push(dst);
            out.push((Scope { dst: Some(dst), cos }, stop));
        }
        if matches!(self.style, Style::Timed(_)) && now >= self.runs_out[q] {
            self.runs_out[q] = now + self.refresh;
            match self.selectivity {
                Selectivity::Simple => out.push((Scope { dst: None, cos: ALL_COS }, stop)),
                Selectivity::Class => out.push((Scope { dst: None, cos }, stop)),
                _ => {
                    out.extend(self.stopped[q].iter().map(|&d| (Scope { dst: Some(d), cos }, stop)))
                }
            }
        }
    }

    /// A queue sent a frame and is now at `level`. Pushes the resumes.
    pub fn on_dequeue(&mut self, level: QueueLevel, out: &mut Vec<(Scope, PauseTime)>) {
        let QueueLevel { q, cos, bytes } = level;
        if !self.congested[q] || bytes >= self.low {
            return;
        }
        self.congested[q] = false;
        self.n_congested -= 1;
        let go = PauseTime::Quanta(0);
        match self.selectivity {
            Selectivity::Simple if self.n_congested == 0 => {
                out.push((Scope { dst: None, cos: ALL_COS }, go))
            }
            Selectivity::Class => out.push((Scope { dst: None, cos }, go)),
            Selectivity::Destination => {
                out.extend(self.stopped[q].drain(..).map(|d| (Scope { dst: Some(d), cos }, go)))
            }
            _ => {}
        }
    }
}
