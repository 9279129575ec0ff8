//! Time series sampled every `record.interval` (only when the scenario asks for them).
//!
//! Stored column-wise (one `Vec` per column) so results move to pandas without reshaping.

use serde::Serialize;

/// Queue occupancy per link direction at each sampling instant.
#[derive(Default, Serialize)]
pub struct QueueSeries {
    pub time_s: Vec<f64>,
    pub link: Vec<u32>,
    pub len_pkts: Vec<u64>,
    pub len_bytes: Vec<u64>,
    /// The discipline's averaged queue (RED `ave_`), if it keeps one.
    pub avg_len: Vec<Option<f64>>,
}

/// Per-flow delivery over each sampling interval, reported at the interval's end.
#[derive(Default, Serialize)]
pub struct FlowSeries {
    pub time_s: Vec<f64>,
    pub flow: Vec<u32>,
    pub delivered_bytes: Vec<u64>,
    pub throughput_bps: Vec<f64>,
}

/// Per-flow application goodput (in-order payload bytes, see `record::goodput`) at each
/// sampling instant: the running total, so the goodput over any span between two samples is
/// a difference, and the rate over the interval just ended.
#[derive(Default, Serialize)]
pub struct GoodputSeries {
    pub time_s: Vec<f64>,
    pub flow: Vec<u32>,
    pub goodput_bytes: Vec<u64>,
    pub goodput_bps: Vec<f64>,
}

/// TCP sender state per flow at each sampling instant (ns-3 trace sources
/// "CongestionWindow", "SlowStartThreshold", "RTT", "RTO", "BytesInFlight", "CongState").
#[derive(Default, Serialize)]
pub struct TcpSeries {
    pub time_s: Vec<f64>,
    pub flow: Vec<u32>,
    pub cwnd_pkts: Vec<f64>,
    pub ssthresh_pkts: Vec<f64>,
    pub srtt_s: Vec<f64>,
    pub rto_s: Vec<f64>,
    pub in_flight_pkts: Vec<u64>,
    pub in_flight_bytes: Vec<u64>,
    pub state: Vec<&'static str>,
}

impl TcpSeries {
    pub fn push(&mut self, t: f64, flow: u32, p: &crate::probe::TcpProbe) {
        self.time_s.push(t);
        self.flow.push(flow);
        self.cwnd_pkts.push(p.cwnd);
        self.ssthresh_pkts.push(p.ssthresh);
        self.srtt_s.push(p.srtt.as_secs_f64());
        self.rto_s.push(p.rto.as_secs_f64());
        self.in_flight_pkts.push(p.in_flight_pkts);
        self.in_flight_bytes.push(p.in_flight_bytes);
        self.state.push(p.state.name());
    }
}

/// Every change of a TCP sender's cwnd, ssthresh or congestion state, when it happened
/// (ns-2's traced `cwnd_`/`ssthresh_`; ns-3 "CongestionWindow", "SlowStartThreshold",
/// "CongState").
#[derive(Default, Serialize)]
pub struct CwndSeries {
    pub time_s: Vec<f64>,
    pub flow: Vec<u32>,
    pub cwnd_pkts: Vec<f64>,
    pub ssthresh_pkts: Vec<f64>,
    pub state: Vec<&'static str>,
}

impl CwndSeries {
    pub fn push(&mut self, t: f64, flow: u32, p: &crate::probe::TcpProbe) {
        self.time_s.push(t);
        self.flow.push(flow);
        self.cwnd_pkts.push(p.cwnd);
        self.ssthresh_pkts.push(p.ssthresh);
        self.state.push(p.state.name());
    }
}

/// Congestion-control state per flow at each sampling instant, one row per named value, in
/// pandas `melt` style (`variable`, `value`): BBR's `state`, `pacing_gain`, `cwnd_gain`,
/// `btl_bw_bps`, `min_rtt_s`; CUBIC's `w_max_pkts`; DCTCP's `alpha`; every paced sender's
/// `pacing_rate_bps`. The names come from
/// [`crate::tcp::cc::CongestionControl::state_values`], so a new algorithm adds its values
/// without a new column.
#[derive(Default, Serialize)]
pub struct CcSeries {
    pub time_s: Vec<f64>,
    pub flow: Vec<u32>,
    pub variable: Vec<&'static str>,
    pub value: Vec<f64>,
}

/// All recorded series of a run.
#[derive(Default, Serialize)]
pub struct Series {
    pub queue: QueueSeries,
    pub flow_throughput: FlowSeries,
    pub goodput: GoodputSeries,
    pub tcp: TcpSeries,
    pub cwnd: CwndSeries,
    pub cc: CcSeries,
}

impl Series {
    /// Samples held, all kinds together.
    pub fn samples(&self) -> usize {
        self.queue.time_s.len()
            + self.flow_throughput.time_s.len()
            + self.goodput.time_s.len()
            + self.tcp.time_s.len()
            + self.cwnd.time_s.len()
            + self.cc.time_s.len()
    }
}
