//! Physical units and their textual forms.
//!
//! Scenario files write quantities as readable strings ("10Mb", "1.536Mbps", "450ms", "64KB",
//! "100p") or as bare numbers in SI units (bit/s, seconds, bytes). Rates and sizes use decimal
//! prefixes as ns-2 does (`10Mb` = 10,000,000 bit/s; `1KB` = 1000 bytes); binary prefixes are
//! spelt `KiB`, `MiB`, `GiB`.

use crate::time::{Dur, PS_PER_SEC};

/// A link or source rate in bits per second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BitsPerSec(pub u64);

/// A size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Bytes(pub u64);

/// A queue capacity: a number of packets or a number of bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Packets(u64),
    Bytes(u64),
}

impl BitsPerSec {
    /// Time to serialize `bytes` at this rate, rounded up to the next picosecond so that a
    /// link never sends faster than its rate.
    pub fn tx_time(self, bytes: u64) -> Dur {
        let num = bytes as u128 * 8 * PS_PER_SEC as u128;
        let r = self.0 as u128;
        Dur(num.div_ceil(r) as u64)
    }
}

fn split_number(s: &str) -> Result<(f64, &str), String> {
    let t = s.trim();
    let end = t
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit()
                || c == '.'
                || c == '_'
                || ((c == 'e' || c == 'E') && i > 0 && {
                    // exponent only when followed by a digit or sign ("1e6"), not the unit "E"
                    t[i + 1..].starts_with(|d: char| d.is_ascii_digit() || d == '-' || d == '+')
                })
                || ((c == '-' || c == '+')
                    && (i == 0 || matches!(t.as_bytes()[i - 1], b'e' | b'E'))))
        })
        .map(|(i, _)| i)
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(end);
    let num = num.replace('_', "");
    if num.is_empty() {
        return Err(format!("'{s}' does not start with a number"));
    }
    let v: f64 = num.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if !v.is_finite() {
        return Err(format!("'{s}' is not a finite number"));
    }
    Ok((v, unit.trim()))
}

fn non_negative(v: f64, s: &str, what: &str) -> Result<f64, String> {
    if v < 0.0 {
        Err(format!("{what} '{s}' is negative"))
    } else {
        Ok(v)
    }
}

/// The highest rate accepted: beyond it serialization times fall below a picosecond.
const MAX_RATE_BPS: f64 = 1e13;

/// Parses a rate: `bps`/`b`, `kb`/`Kb`/`kbps`, `Mb`/`Mbps`, `Gb`/`Gbps`, or bytes per second
/// with `B/s`, `KB/s`, `MB/s`, `GB/s`. A bare number is bit/s. Must be in [1 bit/s, 10 Tb/s].
pub fn parse_rate(s: &str) -> Result<BitsPerSec, String> {
    let (v, unit) = split_number(s)?;
    let mult = match unit {
        "" | "b" | "bps" | "bit/s" => 1.0,
        "k" | "K" | "kb" | "Kb" | "kbps" | "Kbps" | "kbit/s" => 1e3,
        "M" | "Mb" | "Mbps" | "Mbit/s" => 1e6,
        "G" | "Gb" | "Gbps" | "Gbit/s" => 1e9,
        "B/s" | "Bps" => 8.0,
        "KB/s" | "kB/s" => 8e3,
        "MB/s" => 8e6,
        "GB/s" => 8e9,
        _ => {
            return Err(format!(
                "unknown rate unit '{unit}' in '{s}' (use bps, Kb, Mb, Gb, Mbps or B/s, KB/s, MB/s)"
            ))
        }
    };
    let bps = non_negative(v, s, "rate")? * mult;
    if bps < 1.0 {
        return Err(format!("rate '{s}' must be at least 1 bit/s"));
    }
    if bps > MAX_RATE_BPS {
        return Err(format!("rate '{s}' is above the 10 Tb/s nsim supports"));
    }
    Ok(BitsPerSec(bps.round() as u64))
}

/// Parses a time: `ps`, `ns`, `us`, `ms`, `s`, `min`. A bare number is seconds. Must be >= 0.
pub fn parse_time(s: &str) -> Result<Dur, String> {
    let (v, unit) = split_number(s)?;
    let ps_per_unit: f64 = match unit {
        "ps" => 1.0,
        "ns" => 1e3,
        "us" | "µs" => 1e6,
        "ms" => 1e9,
        "" | "s" | "sec" => PS_PER_SEC as f64,
        "min" => 60.0 * PS_PER_SEC as f64,
        _ => {
            return Err(format!("unknown time unit '{unit}' in '{s}' (use ps, ns, us, ms, s, min)"))
        }
    };
    let v = non_negative(v, s, "time")?;
    let ps = v * ps_per_unit;
    if ps > u64::MAX as f64 / 2.0 {
        return Err(format!("time '{s}' is too large"));
    }
    Ok(Dur(ps.round() as u64))
}

fn size_multiplier(unit: &str) -> Option<f64> {
    Some(match unit {
        "" | "B" | "bytes" => 1.0,
        "KB" | "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    })
}

/// Parses a size in bytes: `B`, `KB`, `MB`, `GB` (decimal) or `KiB`, `MiB`, `GiB`. A bare
/// number is bytes. Must be a whole number of bytes >= 0.
pub fn parse_size(s: &str) -> Result<Bytes, String> {
    let (v, unit) = split_number(s)?;
    let mult = size_multiplier(unit).ok_or_else(|| {
        format!("unknown size unit '{unit}' in '{s}' (use B, KB, MB, GB, KiB, MiB, GiB)")
    })?;
    let b = non_negative(v, s, "size")? * mult;
    if (b - b.round()).abs() > 1e-6 {
        return Err(format!("size '{s}' is not a whole number of bytes"));
    }
    Ok(Bytes(b.round() as u64))
}

/// Parses a queue limit: packets with `p` ("100p"), otherwise a size in bytes ("64KB").
/// A bare number is packets (as ns-2's `queue-limit`).
pub fn parse_limit(s: &str) -> Result<Limit, String> {
    let (v, unit) = split_number(s)?;
    let v = non_negative(v, s, "queue limit")?;
    match unit {
        "" | "p" => {
            if v.fract() != 0.0 {
                return Err(format!("queue limit '{s}' is not a whole number of packets"));
            }
            Ok(Limit::Packets(v as u64))
        }
        u if size_multiplier(u).is_some() => Ok(Limit::Bytes(parse_size(s)?.0)),
        u => Err(format!(
            "unknown queue limit unit '{u}' in '{s}' (use p for packets, e.g. \"25p\", or B, KB, MB for bytes)"
        )),
    }
}

/// Checks the written form of a quantity given as a string in a scenario: it must carry a
/// unit ("20s", not "20": bare numbers are written without quotes and are SI) and have no
/// space inside ("25p", not "25 p"). Strings that pass go to the `parse_*` functions.
pub fn check_written(s: &str, example: &str) -> Result<(), String> {
    if s.chars().any(char::is_whitespace) {
        return Err(format!(
            "'{s}' contains a space; write the number and unit together, e.g. \"{example}\""
        ));
    }
    let (_, unit) = split_number(s)?;
    if unit.is_empty() {
        return Err(format!(
            "'{s}' has no unit; write e.g. \"{example}\" (a number without quotes is read in SI units)"
        ));
    }
    Ok(())
}

pub mod spec;

pub use spec::{LimitSpec, RateSpec, SizeSpec, TimeSpec};

#[cfg(test)]
mod tests;
