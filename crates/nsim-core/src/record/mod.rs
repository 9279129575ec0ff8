//! What a run records. Per-flow and per-queue counters are always kept (they are a few adds
//! per packet); time series and packet traces only when the scenario asks for them.

pub mod delay;
pub mod flow_stats;
pub mod goodput;
pub mod link_stats;
pub mod packet_delays;
pub mod pcap;
pub mod series;
pub mod trace;
pub mod video_packets;

pub use flow_stats::FlowStats;
pub use link_stats::LinkStats;

/// Why a packet was dropped. Every drop carries one, and results report each separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DropReason {
    /// The queue was full (DropTail, or a full buffer under any discipline).
    Overflow,
    /// A link error model lost it (uniform, bit errors, drop list).
    ErrorModel,
    /// RED dropped it early (average queue between the thresholds).
    RedEarly,
    /// RED dropped it because the average queue exceeded the maximum threshold.
    RedForced,
    /// A token-bucket policer dropped it.
    Policer,
    /// CoDel dropped it at dequeue (sojourn time above target for an interval).
    Codel,
    /// PIE dropped it at enqueue.
    Pie,
    /// A drop-priority (assured forwarding) discipline dropped it for its precedence.
    DropPriority,
    /// No route to the destination from the node holding it.
    NoRoute,
    /// ATM Early Packet Discard: the frame's first cell met an occupancy above R.
    Epd,
    /// ATM Partial Packet Discard: an earlier cell of the frame was lost, so this one goes too.
    Ppd,
    /// ATM Selective Drop: the frame's VC held more than Z times its fair share above R.
    SelectiveDrop,
    /// ATM Fair Buffer Allocation: the VC's share exceeded FBA's allowance above R.
    Fba,
    /// AAL5 reassembly discarded the frame: its cells were merged with those of an earlier
    /// frame whose end-of-frame cell was lost (the CRC-32 and length check fail).
    Aal5,
    /// An Ethernet port's cap on the bytes of paused traffic it holds Noureddine 2002 (§3.5.2).
    BlockedCap,
    /// A node hook (middlebox) dropped it in transit.
    Middlebox,
    /// A MAC learning switch's copy or frame that was not for where it went: a flooded copy
    /// at a host it is not addressed to, or a frame whose destination lies behind the port it
    /// came in on (IEEE 802.1D §7.7). Counted in the totals only: not a loss of its flow, not a
    /// drop of a link (see `net/ethernet/bridge.rs`).
    Filtered,
    /// The link it was queued on, crossing, or sent into was down (net/dynamics.rs).
    LinkDown,
}

impl DropReason {
    pub const COUNT: usize = 18;
    pub const ALL: [DropReason; Self::COUNT] = [
        DropReason::Overflow,
        DropReason::ErrorModel,
        DropReason::RedEarly,
        DropReason::RedForced,
        DropReason::Policer,
        DropReason::Codel,
        DropReason::Pie,
        DropReason::DropPriority,
        DropReason::NoRoute,
        DropReason::Epd,
        DropReason::Ppd,
        DropReason::SelectiveDrop,
        DropReason::Fba,
        DropReason::Aal5,
        DropReason::BlockedCap,
        DropReason::Middlebox,
        DropReason::Filtered,
        DropReason::LinkDown,
    ];

    /// Column-friendly name (`drops_<name>` in results).
    pub fn name(self) -> &'static str {
        match self {
            DropReason::Overflow => "overflow",
            DropReason::ErrorModel => "error_model",
            DropReason::RedEarly => "red_early",
            DropReason::RedForced => "red_forced",
            DropReason::Policer => "policer",
            DropReason::Codel => "codel",
            DropReason::Pie => "pie",
            DropReason::DropPriority => "drop_priority",
            DropReason::NoRoute => "no_route",
            DropReason::Epd => "epd",
            DropReason::Ppd => "ppd",
            DropReason::SelectiveDrop => "selective_drop",
            DropReason::Fba => "fba",
            DropReason::Aal5 => "aal5",
            DropReason::BlockedCap => "blocked_cap",
            DropReason::Middlebox => "middlebox",
            DropReason::Filtered => "filtered",
            DropReason::LinkDown => "link_down",
        }
    }

    #[inline]
    pub fn idx(self) -> usize {
        self as usize
    }
}

/// Counts per drop reason.
pub type DropCounts = [u64; DropReason::COUNT];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_reasons_listed_in_index_order() {
        for (i, r) in DropReason::ALL.iter().enumerate() {
            assert_eq!(r.idx(), i);
        }
    }
}
