//! TCP-state based differentiation (TCP-DS): each data segment's drop precedence from the
//! sender's state, for a drop-priority (`af`) queue.
//!
//! Read first: §3.6 Noureddine 2002 (§4.6.1, Algorithm 1, deterministic version):
//! a segment is HIGH (precedence 0) if the send window is at most `high` segments, or if it is
//! the SYN, a fast retransmission or sent during fast recovery; else MED (1) if the window is
//! at most `med`; else LOW (2). A retransmission after a timeout is HIGH because cwnd is
//! then one segment. The thesis uses `high = 4`, `med = 8` for HTTP and FTP (§4.6.3) and marks each ACK with
//! the priority of the data it acknowledges. The send window is min(cwnd, receiver window)
//! (the thesis leaves cwnd vs min(cwnd, rwnd) open; with its 64 KB rwnd they coincide).
//!
//! Randomised variant (`randomized = true`; the italic lines of Algorithm 1, garbled in the
//! thesis text, reconstructed in Noureddine 2002 §3.6): above `high`, a segment is HIGH with
//! probability high/sendwnd; otherwise, above `med`, MED with probability med/sendwnd (a
//! second, independent draw), else LOW; between `high` and `med` it is MED.

use rand::RngExt;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::rng::SimRng;

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
    /// The thesis's randomised variant (see the module doc). Default false (the thesis found
    /// no quantifiable benefit and used the deterministic one).
    #[serde(default)]
    pub randomized: bool,
    /// Segments flagged "MUST keep mark" for a host scheduler (`host_sched` never remarks
    /// them; thesis §4.6.1 "tentative marking", its example the SYN of an interactive
    /// application): "syn", "recovery" (fast retransmissions and segments sent in fast
    /// recovery). Default none.
    #[serde(default)]
    pub must_keep: Vec<MustKeep>,
}

/// Which segments carry the "MUST keep mark" flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MustKeep {
    Syn,
    Recovery,
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
            return Err(("high", "must be at least 1 Noureddine 2002 (§4.6.1: SYN and post-timeout segments must be HIGH)".into()));
        }
        if self.med < self.high {
            return Err(("med", format!("must be at least high ({})", self.high)));
        }
        Ok(())
    }

    /// Whether a segment (the SYN, or sent in fast retransmit / recovery) must keep its mark.
    pub fn keeps_mark(&self, syn: bool, recovery: bool) -> bool {
        self.must_keep.iter().any(|k| match k {
            MustKeep::Syn => syn,
            MustKeep::Recovery => recovery,
        })
    }

    /// The precedence of a data segment sent with send window `sendwnd` (segments); `urgent`
    /// for the SYN, a fast retransmission and segments sent during fast recovery.
    /// `rng` is the sender's marking stream, given for the randomised variant only.
    pub fn precedence(&self, sendwnd: f64, urgent: bool, rng: Option<&mut SimRng>) -> u8 {
        let (high, med) = (self.high as f64, self.med as f64);
        if sendwnd <= high || urgent {
            return 0;
        }
        let Some(rng) = rng else {
            return if sendwnd <= med { 1 } else { 2 };
        };
        if rng.random::<f64>() < high / sendwnd {
            0
        } else if sendwnd <= med || rng.random::<f64>() < med / sendwnd {
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
        // Noureddine 2002 §3.6, thresholds 4 and 8: (window, SYN/fast retransmit/recovery) → mark.
        let m = TcpDsConfig {
            high: 4,
            med: 8,
            ack_inherit: true,
            randomized: false,
            must_keep: vec![],
        };
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
            assert_eq!(m.precedence(w, urgent, None), want, "window {w}, urgent {urgent}");
        }
    }

    #[test]
    fn randomized_marks_in_the_reconstructed_proportions() {
        // Window 16, thresholds 4 and 8: HIGH with probability 4/16; else MED with 8/16:
        // P(HIGH) = 0.25, P(MED) = 0.75 · 0.5 = 0.375, P(LOW) = 0.375. Below `high`: HIGH.
        let m =
            TcpDsConfig { high: 4, med: 8, ack_inherit: true, randomized: true, must_keep: vec![] };
        let mut rng = crate::rng::stream(7, "tcp_ds");
        let n = 100_000;
        let mut count = [0u32; 3];
        for _ in 0..n {
            count[m.precedence(16.0, false, Some(&mut rng)) as usize] += 1;
        }
        for (c, p) in count.iter().zip([0.25, 0.375, 0.375]) {
            let f = *c as f64 / n as f64;
            assert!((f - p).abs() < 0.01, "{count:?}");
        }
        assert_eq!(m.precedence(3.0, false, Some(&mut rng)), 0);
        // Between the thresholds (window 6): HIGH with 4/6, else MED; never LOW.
        let lows = (0..1000).filter(|_| m.precedence(6.0, false, Some(&mut rng)) == 2).count();
        assert_eq!(lows, 0);
    }

    #[test]
    fn must_keep_flags_the_chosen_segments() {
        let m = TcpDsConfig {
            high: 4,
            med: 8,
            ack_inherit: true,
            randomized: false,
            must_keep: vec![MustKeep::Syn],
        };
        assert!(
            m.keeps_mark(true, false) && !m.keeps_mark(false, true) && !m.keeps_mark(false, false)
        );
        let m: TcpDsConfig = toml::from_str("must_keep = [\"syn\", \"recovery\"]").unwrap();
        assert!(m.keeps_mark(false, true));
    }

    #[test]
    fn thresholds_are_checked() {
        assert_eq!(
            TcpDsConfig {
                high: 0,
                med: 8,
                ack_inherit: true,
                randomized: false,
                must_keep: vec![]
            }
            .validate()
            .unwrap_err()
            .0,
            "high"
        );
        assert_eq!(
            TcpDsConfig {
                high: 4,
                med: 3,
                ack_inherit: true,
                randomized: false,
                must_keep: vec![]
            }
            .validate()
            .unwrap_err()
            .0,
            "med"
        );
    }
}
