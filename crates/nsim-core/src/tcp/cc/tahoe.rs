//! Tahoe congestion control (Jacobson 1988; ns-2 `Agent/TCP`): Reno's growth, but every loss
//! signal, fast retransmit included, closes cwnd to 1 and slow-starts
//! (ns-2 `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_ONE)` in `TcpAgent::dupack_action`).
//! An ECN-Echo still halves cwnd (ns-2 `TcpAgent::ecn`, RFC 3168 §6.1.2).

use super::reno::Reno;
use super::{AckSample, CongestionControl, CongestionEvent, RtoKind, SenderView};

#[derive(Clone, Debug)]
pub struct Tahoe(pub Reno);

impl CongestionControl for Tahoe {
    fn on_ack(&mut self, s: &AckSample) {
        self.0.on_ack(s);
    }

    fn on_congestion(&mut self, ev: CongestionEvent, v: &SenderView) {
        match ev {
            CongestionEvent::FastRetransmit => {
                self.0.halve_ssthresh(v);
                self.0.cwnd = 1.0;
                self.0.reduced();
            }
            CongestionEvent::EcnEcho => self.0.on_congestion(ev, v),
        }
    }

    fn on_rto(&mut self, kind: RtoKind, v: &SenderView) {
        self.0.on_rto(kind, v);
    }

    super::reno_window!(0);
}
