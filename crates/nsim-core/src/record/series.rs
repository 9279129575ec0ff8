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

/// All recorded series of a run.
#[derive(Default, Serialize)]
pub struct Series {
    pub queue: QueueSeries,
    pub flow_throughput: FlowSeries,
}
