//! HTTP/1.0 and HTTP/1.1 web sessions (Noureddine 2002 §4.2 Figure 4.2, notes/seed-002b.md
//! §2.5), run by the server end of a flow (`from` = server, `to` = client): the client's
//! request travels to the server as a real packet ([`super::web_client`]); when it arrives
//! the server sends the page; when the page's last byte is acknowledged the user thinks, then
//! clicks again.
//!
//! - HTTP/1.1: one persistent connection per page; the index and all objects are written back
//!   to back at once (every object request counts as received together, pipelined: "the
//!   optimal use of HTTP/1.1"). [GAP] The thesis' figure suggests index and objects share
//!   the connection; they do here.
//! - HTTP/1.0: the index on a new connection; when it is acknowledged, up to `parallel`
//!   (default 4) connections each fetch one object, and a connection that finishes takes the
//!   next object on a new connection while objects remain (fresh congestion window and RTO
//!   each time; the one-way agents have no handshake, as in the thesis' ns-2). Per-object
//!   requests are not modelled (the thesis' footnote 2). Connection 0 is the flow's own; the
//!   others are extra flows `<name>/c1`, `<name>/c2`, ... between the same hosts, run by
//!   [`HttpConnection`] and told which object to send (and telling back when it is done)
//!   at once, as ns-2 Tcl `done` callbacks between agents would.
//!
//! Recorded in the `transfers` table: one `page` row per page (from the client's request to
//! the last byte acknowledged: the download time) and one `object` row per item (index
//! included; from its hand-over to TCP to its last byte acknowledged), in the table of the
//! flow whose connection carried it.
//!
//! Parameters: `version`, the page composition ([`super::web_page`]; default the probe page
//! 1 KB + 8 × 10 KB), `think` (default uniform on [0, 5 s], mean 2.5 s: the thesis' "short,
//! uniformly distributed user think time (2.5 s average)"), `request` (default 536 B, one
//! default-size segment: part A, "modern browsers do not generate requests which do not fit
//! in one default-size segment"), `count` pages (default: until the flow stops).

use super::onoff::Period;
use super::stream::{StreamApp, StreamIo};
use super::web_page::PageDist;
use crate::ids::AgentId;
use crate::record::flow_stats::{Transfer, TransferKind};
use crate::rng::SimRng;
use crate::time::{Dur, SimTime};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// One connection per item, one after another.
    Http10,
    /// One persistent connection per page, items pipelined back to back.
    Http11,
}

/// An item written to TCP: when, its bytes, and the stream position where it ends.
#[derive(Clone, Copy, Debug)]
struct Item {
    start: SimTime,
    bytes: u64,
    end: u64,
}

pub struct Http {
    pub version: Version,
    pub page: PageDist,
    /// User think time after a page, in seconds.
    pub think: Period,
    /// Pages to fetch (None: until the flow stops).
    pub count: Option<u32>,
    rng: SimRng,
    /// The page being requested or served (its request id).
    page_no: u32,
    /// When the user asked for the current page.
    clicked: SimTime,
    /// The current page's sizes (index first) and how many are written.
    sizes: Vec<u64>,
    written: usize,
    /// Items written and not yet acknowledged, oldest first (reused, no per-page growth).
    items: Vec<Item>,
    acked_items: usize,
    serving: bool,
    /// HTTP/1.0: the senders of the extra parallel connections (1, 2, ...).
    conns: Vec<AgentId>,
    /// HTTP/1.0: objects whose last byte is acknowledged, on any connection.
    objects_done: usize,
    /// The server starts a page when the client has the request's acknowledgment, not when
    /// the request arrives (`serve_after = "request_ack"`).
    after_request_ack: bool,
}

impl Http {
    /// `conns`: the senders of HTTP/1.0's extra parallel connections (none: one at a time).
    pub fn new(
        version: Version,
        page: PageDist,
        think: Period,
        count: Option<u32>,
        conns: Vec<AgentId>,
        rng: SimRng,
    ) -> Self {
        Http {
            version,
            page,
            think,
            count,
            rng,
            page_no: 0,
            clicked: SimTime::ZERO,
            sizes: Vec::new(),
            written: 0,
            items: Vec::new(),
            acked_items: 0,
            serving: false,
            conns,
            objects_done: 0,
            after_request_ack: false,
        }
    }

    /// Serve a page once the client has the request's acknowledgment (ns-2
    /// `PagePool/WebTraf`: the request travels on a one-way agent whose `done` callback,
    /// called when its last byte is acknowledged, launches the response; a lost acknowledgment
    /// costs the request agent's retransmission timeout).
    pub fn serving_after_request_ack(mut self, yes: bool) -> Self {
        self.after_request_ack = yes;
        self
    }

    /// HTTP/1.0: connection `conn` (0: this flow's) takes the next object, if any is left.
    fn assign(&mut self, conn: usize, io: &mut StreamIo) {
        if self.written >= self.sizes.len() {
            return;
        }
        if conn == 0 {
            io.new_connection();
            self.write_item(io);
        } else {
            let bytes = self.sizes[self.written].min(u32::MAX as u64) as u32;
            self.written += 1;
            io.tell(self.conns[conn - 1], bytes);
        }
    }

    /// HTTP/1.0: one object is acknowledged on connection `conn`: it takes the next, and the
    /// page is done when every object is.
    fn object_done(&mut self, conn: usize, io: &mut StreamIo) {
        self.objects_done += 1;
        self.assign(conn, io);
        if self.objects_done == self.sizes.len() - 1 {
            self.page_done(io);
        }
    }

    fn write_item(&mut self, io: &mut StreamIo) {
        let bytes = self.sizes[self.written];
        self.written += 1;
        let end = io.write(bytes);
        self.items.push(Item { start: io.now(), bytes, end });
    }

    /// The last item is acknowledged: record the page, think, click again.
    fn page_done(&mut self, io: &mut StreamIo) {
        let bytes = self.sizes.iter().sum();
        io.record(Transfer { start: self.clicked, end: io.now(), bytes, kind: TransferKind::Page });
        self.serving = false;
        self.page_no += 1;
        if self.count.is_some_and(|c| self.page_no >= c) {
            return;
        }
        self.clicked = io.now() + Dur::from_secs_f64(self.think.draw(&mut self.rng));
        io.request_at(self.clicked, self.page_no);
    }
}

impl StreamApp for Http {
    fn serves_after_request_ack(&self) -> bool {
        self.after_request_ack
    }

    fn on_open(&mut self, io: &mut StreamIo) {
        self.clicked = io.now();
        io.request_at(self.clicked, self.page_no);
    }

    /// A request for the current page (repeats of a request already served are ignored).
    fn on_request(&mut self, id: u64, io: &mut StreamIo) {
        if self.serving || id != self.page_no as u64 {
            return;
        }
        self.serving = true;
        self.page.draw(&mut self.rng, &mut self.sizes);
        (self.written, self.acked_items, self.objects_done) = (0, 0, 0);
        self.items.clear();
        io.new_connection();
        match self.version {
            Version::Http11 => (0..self.sizes.len()).for_each(|_| self.write_item(io)),
            Version::Http10 => self.write_item(io),
        }
    }

    fn on_delivered(&mut self, acked: u64, io: &mut StreamIo) {
        while let Some(it) = self.items.get(self.acked_items).filter(|it| acked >= it.end) {
            io.record(Transfer {
                start: it.start,
                end: io.now(),
                bytes: it.bytes,
                kind: TransferKind::Object,
            });
            self.acked_items += 1;
        }
    }

    fn on_completed(&mut self, io: &mut StreamIo) {
        if !self.serving {
            return;
        }
        match self.version {
            Version::Http11 => self.page_done(io),
            // The index: the objects start on every connection (or the page is done).
            Version::Http10
                if self.acked_items == 1 && self.objects_done == 0 && self.written == 1 =>
            {
                if self.sizes.len() == 1 {
                    return self.page_done(io);
                }
                (0..=self.conns.len()).for_each(|c| self.assign(c, io));
            }
            Version::Http10 => self.object_done(0, io),
        }
    }

    /// HTTP/1.0: parallel connection `msg` has its object acknowledged.
    fn on_message(&mut self, msg: u32, io: &mut StreamIo) {
        if self.serving {
            self.object_done(msg as usize, io);
        }
    }
}

/// One of HTTP/1.0's extra parallel connections: sends the object the page's own connection
/// tells it to (on a new connection), records it, and tells back its number when done.
pub struct HttpConnection {
    /// The sender of the page's own connection.
    pub main: AgentId,
    /// This connection's number (1, 2, ...).
    pub number: u32,
    current: Option<(SimTime, u64)>,
}

impl HttpConnection {
    pub fn new(main: AgentId, number: u32) -> Self {
        HttpConnection { main, number, current: None }
    }
}

impl StreamApp for HttpConnection {
    fn on_open(&mut self, _io: &mut StreamIo) {}

    fn on_message(&mut self, bytes: u32, io: &mut StreamIo) {
        io.new_connection();
        self.current = Some((io.now(), bytes as u64));
        io.write(bytes as u64);
    }

    fn on_completed(&mut self, io: &mut StreamIo) {
        let Some((start, bytes)) = self.current.take() else { return };
        io.record(Transfer { start, end: io.now(), bytes, kind: TransferKind::Object });
        io.tell(self.main, self.number);
    }
}
