//! The application ↔ transport byte-stream interface (issue 11): an application writes bytes
//! into its connection and hears back when they are delivered (acknowledged), when everything
//! written so far is, when a wake-up it asked for comes, when a request from the far end
//! arrives and when the connection closes. Workloads (`repeat`, `telnet`, `http`) are written
//! against this trait only, so the transport under them can change.
//!
//! Over ns-2's one-way TCP agents (`transport = { kind = "tcp" }`) a write of n bytes appends
//! ceil(n / packet_size) full segments (ns-2 `TcpAgent::sendmsg` / `advanceby`), so stream
//! positions count whole segments: [`StreamIo::write`] returns the position where the write
//! ends, in the same units [`StreamApp::on_delivered`] reports. Over full TCP
//! (`transport = { kind = "tcp_full" }`, [`crate::tcp::full::conn::stream_end`]) positions are
//! bytes, and a new connection is a real one (FIN, then SYN).

use crate::ids::AgentId;
use crate::record::flow_stats::Transfer;
use crate::time::SimTime;

/// What an application can do while handling one event; the transport applies it afterwards.
pub struct StreamIo<'a> {
    now: SimTime,
    /// Stream bytes one segment carries (a write is rounded up to whole segments).
    segment: u64,
    /// Stream position after every write so far, this event's included.
    position: u64,
    /// Segments written during this event.
    pub(crate) new_segments: i64,
    /// Start the next bytes as a new connection would (initial window, ssthresh and RTO).
    pub(crate) restart: bool,
    /// When the application wants `on_wake` (at most one pending wake-up).
    pub(crate) wake: Option<SimTime>,
    /// The far end should send request `.1` at `.0` (see [`StreamIo::request_at`]).
    pub(crate) ask: Option<(SimTime, u32)>,
    /// Messages to the other connections of the same application (`tell`).
    pub(crate) told: Vec<(AgentId, u32)>,
    /// Writes are ignored after the flow's stop time.
    closed: bool,
    /// The flow's completed transactions (the `transfers` table).
    transfers: &'a mut Vec<Transfer>,
}

impl<'a> StreamIo<'a> {
    pub(crate) fn new(
        now: SimTime,
        segment: u64,
        position: u64,
        closed: bool,
        transfers: &'a mut Vec<Transfer>,
    ) -> Self {
        StreamIo {
            now,
            segment,
            position,
            new_segments: 0,
            restart: false,
            wake: None,
            ask: None,
            told: Vec::new(),
            closed,
            transfers,
        }
    }

    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Appends `bytes` to the stream; returns the stream position where they end (compare it
    /// with `on_delivered`'s `acked`). Ignored once the flow has stopped.
    pub fn write(&mut self, bytes: u64) -> u64 {
        if !self.closed {
            let segs = bytes.div_ceil(self.segment);
            self.new_segments += segs as i64;
            self.position += segs * self.segment;
        }
        self.position
    }

    /// The next write starts a new connection (fresh congestion state and RTT estimator;
    /// the one-way agents send no new SYN).
    pub fn new_connection(&mut self) {
        self.restart = true;
    }

    /// Calls `on_wake` at `at` (replacing a wake-up asked for earlier in this event).
    pub fn wake_at(&mut self, at: SimTime) {
        if !self.closed {
            self.wake = Some(at);
        }
    }

    /// The far end (a [`super::web_client::WebClient`]) sends request `id` at `at`: the
    /// user's click after a think time that started when the server saw the last
    /// acknowledgment. Ignored once the flow has stopped.
    pub fn request_at(&mut self, at: SimTime, id: u32) {
        if !self.closed {
            self.ask = Some((at, id));
        }
    }

    /// Sends `msg` to the application of another connection, whose sender is agent `conn`
    /// (HTTP/1.0's parallel connections); it gets `on_message(msg)` now, as an ns-2 Tcl
    /// `done` callback would tell another agent.
    pub fn tell(&mut self, conn: AgentId, msg: u32) {
        self.told.push((conn, msg));
    }

    /// Records one completed transaction in the flow's `transfers` table.
    pub fn record(&mut self, t: Transfer) {
        self.transfers.push(t);
    }
}

/// An application driving one byte stream.
pub trait StreamApp {
    /// The connection is open (the flow's start time).
    fn on_open(&mut self, io: &mut StreamIo);
    /// Every byte written so far has been acknowledged.
    fn on_completed(&mut self, io: &mut StreamIo);
    /// The stream is acknowledged up to position `acked` (called when it advances).
    fn on_delivered(&mut self, _acked: u64, _io: &mut StreamIo) {}
    /// The wake-up asked for with [`StreamIo::wake_at`].
    fn on_wake(&mut self, _io: &mut StreamIo) {}
    /// A request from the far end arrived (request/response applications), or, when
    /// [`StreamApp::serves_after_request_ack`], the far end has its acknowledgment.
    fn on_request(&mut self, _id: u64, _io: &mut StreamIo) {}
    /// True if a request arriving is only acknowledged, and `on_request` waits until the far
    /// end has that acknowledgment ([`super::web_client`], `serve_after = "request_ack"`).
    fn serves_after_request_ack(&self) -> bool {
        false
    }
    /// A message from another connection of the same application ([`StreamIo::tell`]).
    fn on_message(&mut self, _msg: u32, _io: &mut StreamIo) {}
    /// The flow stopped: nothing more is written, transactions in progress are not recorded.
    fn on_closed(&mut self) {}
}
