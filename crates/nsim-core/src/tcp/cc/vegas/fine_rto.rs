//! Vegas' fine-grained retransmission timeout (Brakmo, O'Malley & Peterson 1994 §3.1; ns-2.35
//! `VegasTcpAgent` `v_sa_`, `v_sd_`, `v_timeout_`): Jacobson's mean and deviation estimator
//! run on the exact (not tick-rounded) RTT of every segment sent once, so a lost segment can
//! be retransmitted on the first duplicate ACK instead of the third or the coarse timeout.

/// All values in seconds.
#[derive(Clone, Copy, Debug)]
pub struct FineRto {
    /// 8 x smoothed RTT (ns-2 `v_sa_`).
    sa: f64,
    /// About 4 x mean deviation (ns-2 `v_sd_`).
    sd: f64,
    /// The timeout: srtt + 2 mdev, plus 1/16 (ns-2 `v_timeout_`).
    pub timeout: f64,
}

impl Default for FineRto {
    /// Before the first ACK nothing expires (ns-2 starts `v_timeout_` at 1000 s).
    fn default() -> Self {
        FineRto { sa: 0.0, sd: 0.0, timeout: 1000.0 }
    }
}

impl FineRto {
    /// At the first ACK, from the time since the first segment was sent: srtt = that time,
    /// deviation its quarter, timeout 1.5 times it (ns-2 `firstrecv_`).
    pub fn first(rtt: f64) -> Self {
        let (sa, sd) = (8.0 * rtt, rtt);
        FineRto { sa, sd, timeout: (sa / 4.0 + sd) / 2.0 }
    }

    /// One RTT sample from a segment sent once.
    pub fn sample(&mut self, rtt: f64) {
        if rtt <= 0.0 {
            return;
        }
        let n = rtt - self.sa / 8.0;
        self.sa += n;
        self.sd += n.abs() - self.sd / 4.0;
        let t = (self.sa / 4.0 + self.sd) / 2.0;
        self.timeout = t + t / 16.0;
    }

    /// After a retransmission on duplicate ACKs: double if the segment had been retransmitted
    /// before, else grow by 1/8.
    pub fn back_off(&mut self, retransmitted: bool) {
        if retransmitted {
            self.timeout *= 2.0;
        } else {
            self.timeout += self.timeout / 8.0;
        }
    }

    /// Whether a segment sent `elapsed` seconds ago has timed out.
    pub fn expired(&self, elapsed: f64) -> bool {
        elapsed >= self.timeout
    }
}
