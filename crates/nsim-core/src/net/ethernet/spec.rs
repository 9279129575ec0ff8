//! The `ethernet` table of a link: makes a link direction a switched Ethernet port
//! (docs/models/ethernet.md).

use schemars::JsonSchema;
use serde::Deserialize;

use super::framing::MAX_QUANTA;
use super::watermark::{Selectivity, Style};
use crate::units::SizeSpec;

/// How a port stops its upstream neighbours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StyleKind {
    /// Explicit stop until explicit resume (Noureddine 2002's simulations).
    #[default]
    XonXoff,
    /// IEEE 802.3x timed PAUSE of `quanta` pause quanta, re-sent once it has run out.
    Timed,
}

/// An Ethernet port: per-class byte buffers served by strict priority, optional framing
/// overhead, and IEEE 802.3x PAUSE flow control (sent on congestion, obeyed on reception).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EthSpec {
    /// Byte limit of each class queue ("70KB"). Required.
    pub buffer: SizeSpec,
    /// Class-of-service queues, 1..=8 (default 1): priority p goes to queue min(p, classes−1);
    /// the highest queue is served first.
    #[serde(default = "one")]
    pub classes: usize,
    /// Add Ethernet framing to each packet's transmission: 18 bytes of header and FCS,
    /// padding to the 64-byte minimum frame, 8 bytes of preamble and a 12-byte gap.
    /// Default false (ns-2's plain links, as in Noureddine 2002).
    #[serde(default)]
    pub framing: bool,
    /// What this port's PAUSE frames stop upstream: "off" (default), "simple" (802.3x,
    /// everything), "class" (the congested queue's classes), "destination" (the congested
    /// queue's destinations).
    #[serde(default = "off")]
    pub pause: Selectivity,
    /// "xon_xoff" (default) or "timed".
    #[serde(default)]
    pub style: StyleKind,
    /// pause_time of a timed PAUSE, in quanta of 512 bit times (1..=65535; default 65535).
    pub quanta: Option<u32>,
    /// High watermark as a fraction of `buffer`, in (0, 1] (default 0.8, Noureddine 2002 §3.5).
    #[serde(default = "high")]
    pub high: f64,
    /// Low watermark as a fraction of `buffer`, in [0, high) (default 0.7, Noureddine 2002 §3.5).
    #[serde(default = "low")]
    pub low: f64,
    /// The transmitter ignores the PAUSE frames it receives (a non-responsive sender).
    #[serde(default)]
    pub ignore_pause: bool,
    /// Most bytes a queue may hold of frames that PAUSE currently stops; a stopped frame that
    /// would exceed it is dropped (reason `blocked_cap`). Default: no cap (only `buffer`).
    pub blocked_cap: Option<SizeSpec>,
}

fn one() -> usize {
    1
}
fn off() -> Selectivity {
    Selectivity::Off
}
fn high() -> f64 {
    0.8
}
fn low() -> f64 {
    0.7
}

/// A checked port configuration.
#[derive(Clone, Debug)]
pub struct PortConfig {
    pub buffer: u64,
    pub classes: usize,
    pub framing: bool,
    pub pause: Selectivity,
    pub style: Style,
    pub high: u64,
    pub low: u64,
    pub ignore_pause: bool,
    pub blocked_cap: Option<u64>,
}

impl EthSpec {
    /// Checks the fields; an error is (sub-field, reason).
    pub fn port_config(&self) -> Result<PortConfig, (&'static str, String)> {
        let buffer = self.buffer.0 .0;
        if buffer == 0 {
            return Err(("buffer", "must be at least 1 byte".into()));
        }
        if !(1..=8).contains(&self.classes) {
            return Err((
                "classes",
                format!("{} is not in 1..=8 (802.1p has 8 priorities)", self.classes),
            ));
        }
        if !(self.high > 0.0 && self.high <= 1.0) {
            return Err(("high", format!("{} is not in (0, 1]", self.high)));
        }
        if !(self.low >= 0.0 && self.low < self.high) {
            return Err(("low", format!("{} is not in [0, high = {})", self.low, self.high)));
        }
        let style = match (self.style, self.quanta) {
            (StyleKind::XonXoff, Some(_)) => {
                return Err((
                    "quanta",
                    "only a timed PAUSE has quanta (set style = \"timed\")".into(),
                ))
            }
            (StyleKind::XonXoff, None) => Style::XonXoff,
            (StyleKind::Timed, q) => {
                let q = q.unwrap_or(MAX_QUANTA as u32);
                if !(1..=MAX_QUANTA as u32).contains(&q) {
                    return Err((
                        "quanta",
                        format!("{q} is not in 1..=65535 (a 16-bit pause_time; 0 is a resume)"),
                    ));
                }
                Style::Timed(q as u16)
            }
        };
        Ok(PortConfig {
            buffer,
            classes: self.classes,
            framing: self.framing,
            pause: self.pause,
            style,
            high: (self.high * buffer as f64).round() as u64,
            low: (self.low * buffer as f64).round() as u64,
            ignore_pause: self.ignore_pause,
            blocked_cap: self.blocked_cap.map(|c| c.0 .0),
        })
    }
}
