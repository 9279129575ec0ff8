//! Per-flow counters, always on.

use super::delay::DelayStats;
use super::{DropCounts, DropReason};
use crate::time::SimTime;

/// Counters for one flow. Data packets (source to sink) and acknowledgements (sink to source)
/// are counted apart so that a TCP flow's goodput is not inflated by its ACKs.
#[derive(Default)]
pub struct FlowStats {
    pub sent_pkts: u64,
    pub sent_bytes: u64,
    pub delivered_pkts: u64,
    pub delivered_bytes: u64,
    pub dropped_pkts: u64,
    pub dropped_bytes: u64,
    pub drops: DropCounts,
    pub ack_sent_pkts: u64,
    pub ack_delivered_pkts: u64,
    pub ack_dropped_pkts: u64,
    /// Application bytes delivered in order (set by transports that know; UDP: payload of
    /// every delivered datagram).
    pub goodput_bytes: u64,
    /// UDP flows with a `deadline`: data packets delivered later than it.
    pub late_pkts: u64,
    /// Data packets sent and delivered per mark (HIGH, MED, LOW: `prio` 0, 1, 2 or more) as
    /// the packet carried it when sent and when delivered: a video layer's losses, TCP-DS
    /// marks. A packet remarked on the way counts under its new mark on delivery.
    pub sent_by_mark: [u64; 3],
    pub delivered_by_mark: [u64; 3],
    pub first_sent: Option<SimTime>,
    pub last_delivered: Option<SimTime>,
    pub delay: DelayStats,
    /// TCP sender counters (zero for other transports; STP counts its retransmissions and
    /// no-response timeouts here too).
    pub tcp: TcpCounters,
    /// Full TCP connection events (empty for other transports).
    pub full: FullTcpCounters,
    /// Control packets of transports that poll (STP; zero for others).
    pub ctl: CtlCounters,
    /// Completed transactions of a TCP application (`file`, `repeat`, `telnet`, `http`), in
    /// order of completion (one entry per transaction, not per packet).
    pub transfers: Vec<Transfer>,
}

/// STP control packets, always counted.
#[derive(Default, Clone, Copy, Debug)]
pub struct CtlCounters {
    /// POLLs the sender sent.
    pub polls: u64,
    /// STATs (answers to POLLs) the receiver sent.
    pub stats: u64,
    /// USTATs (unsolicited gap reports) the receiver sent.
    pub ustats: u64,
}

/// Per-flow TCP sender events, always counted.
#[derive(Default, Clone, Copy, Debug)]
pub struct TcpCounters {
    /// Segments sent again (ns-2 `nrexmitpack_`).
    pub retransmits: u64,
    /// Retransmission timeouts with data outstanding (ns-2 `nrexmit_`).
    pub timeouts: u64,
    /// Fast retransmits (entries into fast retransmit / recovery).
    pub fast_retransmits: u64,
    /// When the last byte of a finite transfer was acknowledged.
    pub completed: Option<SimTime>,
}

/// One completed transaction of a TCP application: when it started (the application handed
/// its bytes to TCP, or the client sent its request) and when it ended (its last byte was
/// acknowledged).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transfer {
    pub start: SimTime,
    pub end: SimTime,
    pub bytes: u64,
    pub kind: TransferKind,
}

/// What a [`Transfer`] row measures (the `kind` column of the `transfers` table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransferKind {
    /// A `file` or `repeat` transfer: its completion time.
    File,
    /// A web page: request sent to last object acknowledged (its download time).
    Page,
    /// One embedded object (or the index) of a web page.
    Object,
    /// A Telnet keystroke: sent to echoed (its echo delay).
    Echo,
}

impl TransferKind {
    pub fn name(self) -> &'static str {
        match self {
            TransferKind::File => "file",
            TransferKind::Page => "page",
            TransferKind::Object => "object",
            TransferKind::Echo => "echo",
        }
    }
}

/// Connection events of a full TCP flow (`transport = { kind = "tcp_full" }`).
#[derive(Default, Clone, Copy, Debug)]
pub struct FullTcpCounters {
    /// When the active opener sent its first SYN.
    pub syn_sent: Option<SimTime>,
    /// When the active opener reached ESTABLISHED (SYN-ACK received).
    pub established: Option<SimTime>,
    /// When the listener first received data in order (the first byte of the transfer).
    pub first_data: Option<SimTime>,
    /// Ends that have finished (CLOSED or TIME-WAIT); at 2 the connection is closed.
    pub ends_closed: u8,
    /// When the second end finished.
    pub closed: Option<SimTime>,
    /// Request/response transactions completed.
    pub transactions: u64,
    /// Their total duration (request written to whole response received).
    pub transaction_time: crate::time::Dur,
}

/// The mark of a `prio`: 0 HIGH, 1 MED, 2 LOW (2 and above), the `af` precedences.
#[inline]
pub fn mark(prio: u8) -> usize {
    (prio as usize).min(2)
}

impl FlowStats {
    pub fn on_drop(&mut self, is_data: bool, size: u32, reason: DropReason) {
        if is_data {
            self.dropped_pkts += 1;
            self.dropped_bytes += size as u64;
            self.drops[reason.idx()] += 1;
        } else {
            self.ack_dropped_pkts += 1;
        }
    }
}
