//! Link error models: which packets a link loses after transmitting them.
//!
//! As in ns-2 (`$ns lossmodel`, `ErrorModel` in queue/errmodel.cc), the model acts on the
//! packet the transmitter sends: a lost packet still occupies the transmitter for its
//! serialization time and never propagates; nsim records the drop (trace `d`) when its
//! transmission starts. `error_at = "enqueue"` moves it before the queue (`$link errormodule`).
//!
//! - `uniform`: each packet lost with probability `rate` (ns-2 `ErrorModel` unit `pkt`).
//! - `ber`: a packet of b bits is lost with probability 1-(1-BER)^b (ns-2 unit `bit`).
//! - `drop_list`: lose exactly the k-th, m-th, ... packet (1-based) that crosses the link,
//!   optionally counting only the data packets of one flow (ns-2 `ErrorModel/List`
//!   `droplist_`, which numbers from 0; nsim numbers from 1 as "the k-th packet").

use rand::RngExt;

use crate::ids::FlowId;
use crate::packet::Packet;
use crate::rng::SimRng;

/// A built error model.
#[derive(Clone, Debug)]
pub enum ErrorModel {
    Uniform { rate: f64 },
    Ber { ber: f64 },
    DropList { sorted: Vec<u64>, next: usize, count: u64, flow: Option<FlowId> },
}

impl ErrorModel {
    /// Decides whether `p` is lost. Called once per packet that finishes transmission.
    pub fn loses(&mut self, p: &Packet, rng: &mut SimRng) -> bool {
        match self {
            ErrorModel::Uniform { rate } => rng.random::<f64>() < *rate,
            ErrorModel::Ber { ber } => {
                let bits = p.size as f64 * 8.0;
                let p_loss = -f64::exp_m1(bits * f64::ln_1p(-*ber));
                rng.random::<f64>() < p_loss
            }
            ErrorModel::DropList { sorted, next, count, flow } => {
                if let Some(f) = flow {
                    if p.flow != *f || !p.ptype.is_data() {
                        return false;
                    }
                }
                *count += 1;
                if *next < sorted.len() && sorted[*next] == *count {
                    *next += 1;
                    true
                } else {
                    false
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::PType;
    use crate::rng::stream;

    fn pkt(flow: u32, size: u32) -> Packet {
        Packet { flow: FlowId(flow), size, ptype: PType::Cbr, ..Default::default() }
    }

    /// Checks a Bernoulli count against its binomial mean within 4.5 standard deviations
    /// (false-failure probability below 1e-5).
    fn assert_binomial(losses: u64, n: u64, p: f64) {
        let mean = n as f64 * p;
        let sd = (n as f64 * p * (1.0 - p)).sqrt();
        assert!(
            ((losses as f64) - mean).abs() < 4.5 * sd,
            "{losses} losses of {n}, expected {mean} ± {sd}"
        );
    }

    #[test]
    fn uniform_loss_rate_within_binomial_bounds() {
        let mut rng = stream(3, "err");
        let mut em = ErrorModel::Uniform { rate: 0.01 };
        let n = 200_000;
        let lost = (0..n).filter(|_| em.loses(&pkt(0, 1000), &mut rng)).count() as u64;
        assert_binomial(lost, n, 0.01);
    }

    #[test]
    fn ber_loss_follows_packet_length() {
        let ber = 1e-5;
        for size in [100u32, 1500] {
            let mut rng = stream(size as u64, "ber");
            let mut em = ErrorModel::Ber { ber };
            let n = 100_000;
            let lost = (0..n).filter(|_| em.loses(&pkt(0, size), &mut rng)).count() as u64;
            let p = 1.0 - (1.0 - ber).powf(size as f64 * 8.0);
            assert_binomial(lost, n, p);
        }
    }

    #[test]
    fn drop_list_is_exact_and_can_follow_one_flow() {
        let mut rng = stream(1, "x");
        let mut em = ErrorModel::DropList { sorted: vec![2, 5], next: 0, count: 0, flow: None };
        let lost: Vec<bool> = (0..6).map(|_| em.loses(&pkt(0, 10), &mut rng)).collect();
        assert_eq!(lost, [false, true, false, false, true, false]);

        let mut em =
            ErrorModel::DropList { sorted: vec![2], next: 0, count: 0, flow: Some(FlowId(7)) };
        // Other flows' packets do not count towards k.
        let seq = [(1, false), (7, false), (1, false), (7, true), (7, false)];
        for (flow, expect) in seq {
            assert_eq!(em.loses(&pkt(flow, 10), &mut rng), expect);
        }
    }
}
