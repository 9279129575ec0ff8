//! What a sender reports about itself to recording: [`TcpProbe`] samples and the
//! congestion state they carry. Below `record` (which keeps the series) and the agents (which
//! fill the samples), so that neither imports the other; `tcp` re-exports both.

use crate::time::Dur;

/// Congestion state (Linux / ns-3 names), changed only by the TCP sender's `Core::set_state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CongState {
    /// No loss suspected.
    #[default]
    Open,
    /// Duplicate ACKs (or SACKs) seen, below the fast-retransmit threshold.
    Disorder,
    /// Fast retransmit / fast recovery under way.
    Recovery,
    /// Retransmission timeout: slow start from cwnd = 1 until the data outstanding at the
    /// timeout is acknowledged.
    Loss,
}

impl CongState {
    pub fn name(self) -> &'static str {
        match self {
            CongState::Open => "open",
            CongState::Disorder => "disorder",
            CongState::Recovery => "recovery",
            CongState::Loss => "loss",
        }
    }
}

/// A sample of a sender's state, for time series ([`crate::agent::Agent::tcp_probe`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TcpProbe {
    /// Congestion window, packets.
    pub cwnd: f64,
    /// Slow-start threshold, packets.
    pub ssthresh: f64,
    /// Smoothed RTT (zero before the first sample).
    pub srtt: Dur,
    /// Retransmission timeout that would be armed now.
    pub rto: Dur,
    /// Packets sent and not cumulatively acknowledged.
    pub in_flight_pkts: u64,
    /// Wire bytes of those packets (headers included).
    pub in_flight_bytes: u64,
    pub state: CongState,
}
