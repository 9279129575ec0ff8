//! The `atm` table of a link: makes both directions ATM cell links and sets their output
//! ports (docs/models/atm.md).

use schemars::JsonSchema;
use serde::Deserialize;

use super::policy::Policy;
use super::port::PortConfig;

/// Drop policy of an ATM output port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PolicyKind {
    /// Plain UBR: a cell that finds the buffer full is lost; the rest of its frame is still
    /// forwarded (Goyal-Jain 1997's "UBR" column).
    #[default]
    TailDrop,
    /// Tail drop plus Partial Packet Discard (Romanow & Floyd 1995).
    Ppd,
    /// Early Packet Discard at threshold R (Romanow & Floyd 1995; Goyal-Jain 1997 §5.2).
    Epd,
    /// Selective Drop with R and Z (Goyal et al. ICC'97; Goyal-Jain 1997 §5.2).
    SelectiveDrop,
    /// Fair Buffer Allocation with R and Z (Heinanen & Kilkki; Goyal-Jain 1997 §5.2).
    Fba,
}

impl PolicyKind {
    fn name(self) -> &'static str {
        match self {
            PolicyKind::TailDrop => "tail_drop",
            PolicyKind::Ppd => "ppd",
            PolicyKind::Epd => "epd",
            PolicyKind::SelectiveDrop => "selective_drop",
            PolicyKind::Fba => "fba",
        }
    }
}

/// An ATM link: 53-byte cells at the link rate, AAL5 with LLC/SNAP at the ends of ATM paths,
/// a shared output buffer of K cells per direction with a UBR drop policy.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AtmSpec {
    /// K: buffer of each direction's output port, in cells (>= 1). Required.
    pub buffer: u64,
    /// Drop policy: "tail_drop" (default), "ppd", "epd", "selective_drop" or "fba".
    #[serde(default)]
    pub policy: PolicyKind,
    /// R as a fraction of K, in (0, 1]: EPD, Selective Drop and FBA act only while X > R·K.
    /// Default 0.9 (an nsim choice: Goyal-Jain 1997 does not give its values).
    pub r: Option<f64>,
    /// Z in (0, 1]: Selective Drop and FBA drop a VC holding more than Z fair shares
    /// (FBA: scaled by (K−R)/(X−R)). Default 0.8 (an nsim choice, as for `r`).
    pub z: Option<f64>,
    /// After a cell of a frame overflowed, discard the rest of that frame (PPD). Default true
    /// for ppd, epd, selective_drop and fba; false for tail_drop (plain UBR).
    pub partial_discard: Option<bool>,
    /// Partial discard keeps the frame's end-of-frame cell (Romanow & Floyd 1995 §3: the
    /// receiver needs it to delimit frames). Default true.
    #[serde(default = "yes")]
    pub keep_eom: bool,
}

fn yes() -> bool {
    true
}

const DEFAULT_R: f64 = 0.9;
const DEFAULT_Z: f64 = 0.8;

impl AtmSpec {
    /// Checks the fields and returns the port configuration; an error is (sub-field, reason).
    pub fn port_config(&self) -> Result<PortConfig, (&'static str, String)> {
        if self.buffer == 0 {
            return Err(("buffer", "must be at least 1 cell".into()));
        }
        let frac =
            |v: Option<f64>, d: f64, field: &'static str| -> Result<f64, (&'static str, String)> {
                let v = v.unwrap_or(d);
                if !(v > 0.0 && v <= 1.0) {
                    return Err((field, format!("{v} is not in (0, 1]")));
                }
                Ok(v)
            };
        let r = frac(self.r, DEFAULT_R, "r")? * self.buffer as f64;
        let z = frac(self.z, DEFAULT_Z, "z")?;
        let used = |field: &'static str, given: bool| -> Result<(), (&'static str, String)> {
            if given {
                return Err((field, format!("the {} policy has no {field}", self.policy.name())));
            }
            Ok(())
        };
        let policy = match self.policy {
            PolicyKind::TailDrop | PolicyKind::Ppd => {
                used("r", self.r.is_some())?;
                used("z", self.z.is_some())?;
                Policy::TailDrop
            }
            PolicyKind::Epd => {
                used("z", self.z.is_some())?;
                Policy::Epd { r }
            }
            PolicyKind::SelectiveDrop => Policy::SelectiveDrop { r, z },
            PolicyKind::Fba => Policy::Fba { r, z },
        };
        let partial_discard = match (self.policy, self.partial_discard) {
            (PolicyKind::Ppd, Some(false)) => {
                return Err((
                    "partial_discard",
                    "the ppd policy is tail drop with partial discard; for none use tail_drop"
                        .into(),
                ))
            }
            (PolicyKind::TailDrop, p) => p.unwrap_or(false),
            (_, p) => p.unwrap_or(true),
        };
        Ok(PortConfig { buffer: self.buffer, policy, partial_discard, keep_eom: self.keep_eom })
    }
}
