//! TCP-state based differentiation (TCP-DS): each data segment's drop precedence from the
//! sender's state, for a drop-priority (`af`) queue.
//!
//! Read first: seed 002b §3.6 (Noureddine 2002, §4.6.1, Algorithm 1, deterministic version):
//! a segment is HIGH (precedence 0) if the send window is at most `high` segments, or if it is
//! the SYN, a fast retransmission or sent during fast recovery; else MED (1) if the window is
//! at most `med`; else LOW (2). A retransmission after a timeout is HIGH because cwnd is then
//! 1. The thesis uses `high = 4`, `med = 8` for HTTP and FTP (§4.6.3) and marks each ACK with
//! the priority of the data it acknowledges. The send window is min(cwnd, receiver window)
//! (the thesis leaves cwnd vs min(cwnd, rwnd) open; with its 64 KB rwnd they coincide).

use schemars::JsonSchema;
use serde::Deserialize;

/// TCP-DS thresholds (`transport = { kind = "tcp", tcp_ds = { high = 4, med = 8 } }`).
#[derive(Clone, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpDsConfig {
    /// HIGH_thresh: segments sent with a window of at most this many are HIGH. Default 4; at
    /// least 1 (so the SYN and post-timeout segments, at cwnd = 1, are HIGH).
    #[serde(default = "four")]
    pub high: u32,
    /// MED_thresh: segments sent with a window above `high` and at most this are MED. Default
    /// 8; at least `high`.
    #[serde(default = "eight")]
    pub med: u32,
    /// The receiver marks each ACK with the precedence of the data segment it answers (thesis
    /// §4.6.1). Default true; false keeps ACKs at precedence 0.
    #[serde(default = "yes")]
    pub ack_inherit: bool,
}

fn four() -> u32 {
    4
}
fn eight() -> u32 {
    8
}
fn yes() -> bool {
    true
}

impl TcpDsConfig {
    /// Checks the thresholds; errors name the field.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if self.high == 0 {
            return Err(("high", "must be at least 1 (seed 002b §4.6.1: SYN and post-timeout segments must be HIGH)".into()));
        }
        if self.med < self.high {
            return Err(("med", format!("must be at least high ({})", self.high)));
        }
        Ok(())
    }

    /// The precedence of a data segment sent with send window `sendwnd` (segments); `urgent`
    /// for the SYN, a fast retransmission and segments sent during fast recovery.
    pub fn precedence(&self, sendwnd: f64, urgent: bool) -> u8 {
        if sendwnd <= self.high as f64 || urgent {
            0
        } else if sendwnd <= self.med as f64 {
            1
        } else {
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thesis_algorithm_1_state_to_mark_table() {
        // Seed 002b §3.6, thresholds 4 and 8: (window, SYN/fast retransmit/recovery) → mark.
        let m = TcpDsConfig { high: 4, med: 8, ack_inherit: true };
        let table = [
            (1.0, false, 0), // post-timeout: cwnd = 1
            (4.0, false, 0),
            (4.5, false, 1),
            (8.0, false, 1),
            (8.01, false, 2),
            (20.0, false, 2),
            (20.0, true, 0), // fast retransmit / fast recovery at a large window
            (6.0, true, 0),
        ];
        for (w, urgent, want) in table {
            assert_eq!(m.precedence(w, urgent), want, "window {w}, urgent {urgent}");
        }
    }

    #[test]
    fn thresholds_are_checked() {
        assert_eq!(TcpDsConfig { high: 0, med: 8, ack_inherit: true }.validate().unwrap_err().0, "high");
        assert_eq!(TcpDsConfig { high: 4, med: 3, ack_inherit: true }.validate().unwrap_err().0, "med");
    }
}
