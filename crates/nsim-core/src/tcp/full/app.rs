//! Applications on a full TCP connection, as callbacks from the connection: the client at the
//! active opener writes, the server at the passive opener answers.
//!
//! - bulk: an endless write (ns-2 `Application/FTP` `start`); never closes.
//! - file: writes N bytes then closes (FIN after the data), or stays open (`close = false`,
//!   ns-2 FullTcp's `$tcp send N`).
//! - transactions: request/response (Noureddine 2002 ch. 2, Telnet/HTTP-like): the client writes a
//!   request of `request` bytes; the server, once it has the whole request, writes a response
//!   of `response` bytes; the client, once it has the whole response, records the
//!   transaction's time and after `think` writes the next request; after `count`
//!   transactions it closes.
//! - The server side (and the receiver of bulk and file data) closes when the peer has closed
//!   (it has nothing more to say), so a finished transfer ends with a full RFC 793 close.

use crate::time::{Dur, SimTime};

/// What the client application does.
#[derive(Clone, Debug, PartialEq)]
pub enum AppKind {
    Bulk,
    File {
        bytes: u64,
        close: bool,
    },
    Transactions {
        request: u64,
        response: u64,
        count: u32,
        think: Dur,
        split: Option<u64>,
    },
    /// A byte-stream application drives the connection instead ([`super::conn::stream_end`]).
    Stream,
}

/// What the application asks of its connection after an event.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AppOut {
    /// Bytes to write (u64::MAX: endless).
    pub write: u64,
    /// A second write of this many bytes, right after the first (a request split in two
    /// writes, Noureddine 2002 ch. 2's "request split into two segments").
    pub write2: u64,
    pub close: bool,
    /// Call [`App::on_timer`] after this long (think time).
    pub timer: Option<Dur>,
    /// A transaction finished, taking this long.
    pub transaction: Option<Dur>,
}

#[derive(Clone, Debug)]
pub struct App {
    kind: AppKind,
    client: bool,
    /// Bytes received towards the current request or response.
    got: u64,
    done: u32,
    started: SimTime,
}

impl App {
    pub fn new(kind: AppKind, client: bool) -> Self {
        App { kind, client, got: 0, done: 0, started: SimTime::ZERO }
    }

    fn request(&mut self, now: SimTime) -> AppOut {
        let AppKind::Transactions { request, split, .. } = self.kind else {
            return AppOut::default();
        };
        self.started = now;
        match split {
            Some(first) if first < request => {
                AppOut { write: first, write2: request - first, ..AppOut::default() }
            }
            _ => AppOut { write: request, ..AppOut::default() },
        }
    }

    /// The connection is established.
    pub fn on_established(&mut self, now: SimTime) -> AppOut {
        if !self.client {
            return AppOut::default();
        }
        match self.kind {
            AppKind::Bulk => AppOut { write: u64::MAX, ..AppOut::default() },
            AppKind::File { bytes, close } => AppOut { write: bytes, close, ..AppOut::default() },
            AppKind::Transactions { count: 0, .. } => AppOut { close: true, ..AppOut::default() },
            AppKind::Transactions { .. } => self.request(now),
            AppKind::Stream => AppOut::default(),
        }
    }

    /// `n` bytes arrived in order.
    pub fn on_data(&mut self, n: u64, now: SimTime) -> AppOut {
        let AppKind::Transactions { request, response, count, think, .. } = self.kind else {
            return AppOut::default();
        };
        self.got += n;
        let mut out = AppOut::default();
        if !self.client {
            while self.got >= request {
                self.got -= request;
                out.write += response;
            }
            return out;
        }
        if self.got < response {
            return out;
        }
        self.got -= response;
        self.done += 1;
        out.transaction = Some(now.since(self.started));
        if self.done == count {
            out.close = true;
        } else if think == Dur::ZERO {
            let next = self.request(now);
            out.write = next.write;
            out.write2 = next.write2;
        } else {
            out.timer = Some(think);
        }
        out
    }

    /// The think time is over: the next request.
    pub fn on_timer(&mut self, now: SimTime) -> AppOut {
        self.request(now)
    }

    /// The peer closed its direction: the server (or data receiver) closes too.
    pub fn on_peer_closed(&mut self) -> AppOut {
        AppOut { close: !self.client, ..AppOut::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_response_cycle() {
        let kind = AppKind::Transactions {
            request: 100,
            response: 2000,
            count: 2,
            think: Dur::ZERO,
            split: None,
        };
        let mut client = App::new(kind.clone(), true);
        let mut server = App::new(kind, false);
        let t0 = SimTime::ZERO;
        assert_eq!(client.on_established(t0).write, 100);
        assert_eq!(server.on_data(60, t0).write, 0);
        assert_eq!(server.on_data(40, t0).write, 2000);
        let t1 = t0 + Dur::from_millis(300);
        assert_eq!(client.on_data(1500, t1), AppOut::default());
        let out = client.on_data(500, t1);
        assert_eq!((out.write, out.transaction), (100, Some(Dur::from_millis(300))));
        let out = client.on_data(2000, t1 + Dur::from_millis(50));
        assert!(out.close);
        assert_eq!(out.transaction, Some(Dur::from_millis(50)));
        assert!(server.on_peer_closed().close);
    }
}
