//! Byte-stream applications ([`crate::app::stream`]: `repeat`, `telnet`, `http`) over a full
//! TCP connection. The same [`StreamApp`] implementations that drive the one-way agents run
//! here at the flow's source (the writer; the web server); the other end plays the matching
//! peer: it receives (`repeat`), echoes every byte back (`telnet`: the echo is real data
//! from the server, which carries the ACK of the keystroke), or writes one request of
//! `request` bytes each time the server's application asks (`http`: the web client).
//!
//! Stream positions are bytes (a [`StreamIo`] with a one-byte segment), counted over every
//! connection of the flow. Connections are real RFC 793 connections (SYN, SYN-ACK, ACK; FIN
//! both ways), opened by the flow's source, except for `http`, whose client (the flow's
//! destination) opens one connection per page: its first request opens it, and the server
//! closes it when everything it wrote is acknowledged and its application writes nothing
//! more (HTTP/1.0 ends a response by closing; HTTP/1.1 here keeps one connection per page).
//!
//! [`StreamIo::new_connection`] closes a connection that has carried data (FIN after its
//! data) and the next bytes go on a new one: the opener sends its SYN as soon as both ends
//! are done with the old connection (a listener in TIME-WAIT accepts the new SYN, RFC 1122
//! §4.2.2.13; the opener skips its TIME-WAIT as a new port number would). When the listener
//! needs the new connection (HTTP/1.0's next object on connection 0, or an extra parallel
//! connection told to send an object), it asks the opener at once, as the client would open
//! a connection for the object it requests (per-object requests are not modelled, the
//! thesis' footnote 2; see [`crate::app::http`]). Until a connection is established the
//! application's bytes wait, so a transaction's time includes the handshake.
//!
//! Not modelled: the flow's `stop` only stops new writes (as on the one-way agents) and does
//! not close the connection; a lost final ACK of an old connection is not retransmitted
//! after the listener has moved on.

use super::{FullTcp, State};
use crate::agent::AgentCtx;
use crate::app::stream::{StreamApp, StreamIo};
use crate::time::SimTime;

/// A wake-up the application asked for ([`StreamIo::wake_at`]).
pub(super) const TIMER_STREAM_WAKE: u16 = 7;
/// A message from another connection's application ([`StreamIo::tell`]); `gen` carries it.
pub(super) const TIMER_STREAM_MESSAGE: u16 = 8;
/// The listener's application has bytes for a new connection: the opener should open one.
pub(super) const TIMER_STREAM_REOPEN: u16 = 9;
/// Both ends are done with the old connection: start the next one (`gen`: the incarnation).
pub(super) const TIMER_STREAM_RESET: u16 = 10;
/// The server's application asks the client to send request `gen`.
pub(super) use crate::app::web_client::TIMER_REQUEST;

/// What one end of a stream flow does.
pub enum Role {
    /// Runs the flow's application.
    App {
        app: Box<dyn StreamApp>,
        /// Bytes per request from the peer (`http`'s server; None: no requests).
        request: Option<u64>,
        /// Bytes received towards the next request, and requests received so far.
        got: u64,
        requests: u64,
        /// Close each connection once everything written is acknowledged (`http`).
        close_when_idle: bool,
        /// The flow's stop time: no writes after it.
        stop: Option<SimTime>,
    },
    /// Receives (the far end of `repeat`).
    Sink,
    /// Writes every byte it receives back (the telnet server).
    Echo,
    /// Writes `request` bytes when the server's application asks (the web client).
    Client { request: u64 },
}

/// The stream state of one end, kept across the connections of its flow.
pub struct StreamEnd {
    pub role: Role,
    /// Bytes written over every connection so far.
    wrote: u64,
    /// Bytes carried by the earlier connections (where this connection's data starts).
    base: u64,
    /// Bytes waiting for a connection to be established.
    held: u64,
    /// Open a new connection once this one is done.
    reopen: bool,
    /// The opener has been asked for a new connection (listener only).
    asked: bool,
    /// The acknowledged stream position last reported to the application.
    delivered: u64,
}

impl StreamEnd {
    pub fn new(role: Role) -> Self {
        StreamEnd { role, wrote: 0, base: 0, held: 0, reopen: false, asked: false, delivered: 0 }
    }
}

impl FullTcp {
    /// The flow starts: the application opens (its bytes wait for the handshake).
    pub(super) fn stream_start(&mut self, ctx: &mut AgentCtx) {
        self.with_stream(ctx, |app, io| app.on_open(io));
    }

    /// Runs one application event, then applies what it asked for.
    pub(super) fn with_stream(
        &mut self,
        ctx: &mut AgentCtx,
        event: impl FnOnce(&mut dyn StreamApp, &mut StreamIo),
    ) {
        let Some(s) = &mut self.stream else { return };
        let Role::App { app, stop, .. } = &mut s.role else { return };
        let now = ctx.now();
        let closed = stop.is_some_and(|t| now >= t);
        let transfers = &mut ctx.net.flows[ctx.flow.idx()].transfers;
        let mut io = StreamIo::new(now, 1, s.wrote, closed, transfers);
        event(app.as_mut(), &mut io);
        let (bytes, restart, wake, ask, told) =
            (io.new_segments as u64, io.restart, io.wake, io.ask, io.told);
        for (agent, msg) in told {
            ctx.net.timer(now, agent, TIMER_STREAM_MESSAGE, msg);
        }
        if let Some(at) = wake {
            ctx.timer_at(at, TIMER_STREAM_WAKE, 0);
        }
        if let Some((at, id)) = ask {
            ctx.net.timer(at, self.peer.1, TIMER_REQUEST, id);
        }
        if restart && self.buf.written() > 0 {
            self.close_for_new_connection();
        }
        if bytes > 0 {
            self.stream_write(bytes, ctx);
        }
    }

    /// The application closes a connection that carried data; its next bytes wait for a new one.
    fn close_for_new_connection(&mut self) {
        if self.state.may_send() && self.fin_seq.is_none() {
            self.buf.close();
            self.state = self.state.app_closed();
            self.fill();
        }
        if let Some(s) = &mut self.stream {
            s.reopen = true;
        }
    }

    /// `n` bytes into the connection, or waiting for the next one.
    fn stream_write(&mut self, n: u64, ctx: &mut AgentCtx) {
        let open = self.state.may_send() && self.fin_seq.is_none();
        let Some(s) = &mut self.stream else { return };
        s.wrote += n;
        if open && !s.reopen && !self.buf.close_requested() {
            self.buf.write(n);
            self.fill();
            return;
        }
        s.held += n;
        self.ensure_open(ctx);
    }

    /// Bytes are waiting: make sure a connection will carry them.
    fn ensure_open(&mut self, ctx: &mut AgentCtx) {
        let now = ctx.now();
        let Some(s) = &mut self.stream else { return };
        match self.state {
            State::SynSent | State::SynReceived => {}
            State::Listen => {
                if !s.asked {
                    s.asked = true;
                    ctx.net.timer(now, self.peer.1, TIMER_STREAM_REOPEN, 0);
                }
            }
            State::Closed | State::TimeWait => {
                ctx.timer_at(now, TIMER_STREAM_RESET, self.incarnation)
            }
            _ => s.reopen = true,
        }
    }

    /// The peer asks for a new connection (this end opens): now if this end is done with
    /// the last one, when it is if it is closing; a connection being opened or open already
    /// serves (the ask crossed this end's own SYN).
    pub(super) fn stream_reopen(&mut self, ctx: &mut AgentCtx) {
        let Some(s) = &mut self.stream else { return };
        match self.state {
            st if st.done() => ctx.timer_at(ctx.now(), TIMER_STREAM_RESET, self.incarnation),
            State::SynSent | State::SynReceived | State::Established => {}
            _ => s.reopen = true,
        }
    }

    /// This end is done with its connection (CLOSED or TIME-WAIT): a listener gets ready for
    /// the next one; an opener with bytes waiting opens it.
    pub(super) fn stream_done(&mut self, ctx: &mut AgentCtx) {
        let Some(s) = &self.stream else { return };
        if !self.active || s.reopen || s.held > 0 {
            ctx.timer_at(ctx.now(), TIMER_STREAM_RESET, self.incarnation);
        }
    }

    /// The next connection: fresh connection state (sequence space, windows, congestion
    /// control, RTT estimator), the same stream; the opener sends its SYN, a listener with
    /// bytes waiting asks the opener.
    pub(super) fn stream_reset(&mut self, gen: u32, ctx: &mut AgentCtx) {
        if gen != self.incarnation || !self.state.done() {
            return;
        }
        self.reincarnate();
        if self.active {
            self.open(ctx);
        } else if self.stream.as_ref().is_some_and(|s| s.held > 0) {
            self.ensure_open(ctx);
        }
    }

    /// Segments across connections (before RFC 793 processing). A listener that is done with
    /// its last connection, or waits in LAST-ACK for the ACK of its FIN, takes the opener's
    /// new SYN as the start of the next connection (the opener only reconnects once it has
    /// our FIN; RFC 1122 §4.2.2.13 for TIME-WAIT). A segment acknowledging an old connection
    /// that reaches a LISTEN or SYN-SENT end is answered with a reset (RFC 793 §3.9), which
    /// closes the old connection at the other end (a FIN whose ACK was lost). Returns whether
    /// the segment was consumed.
    pub(super) fn stream_old_connection(
        &mut self,
        h: &crate::packet::TcpHdr,
        ctx: &mut AgentCtx,
    ) -> bool {
        use crate::packet::flags::{ACK, RST, SYN};
        let fl = h.flags;
        if fl & SYN != 0
            && fl & ACK == 0
            && !self.active
            && (self.state.done() || self.state == State::LastAck)
        {
            self.reincarnate();
            return false;
        }
        let stale = fl & RST == 0
            && fl & ACK != 0
            && (self.state == State::Listen || (self.state == State::SynSent && fl & SYN == 0));
        if stale {
            self.reset(h, ctx);
        }
        stale
    }

    /// Starts the next connection of the flow in place (see [`Self::stream_reset`]).
    fn reincarnate(&mut self) {
        let mut stream = self.stream.take();
        if let Some(s) = &mut stream {
            s.base += self.buf.written();
            (s.reopen, s.asked) = (false, false);
        }
        let p = self.p.clone();
        let cc = super::super::congestion_control(&p, self.incarnation.wrapping_add(1));
        let app = super::App::new(super::super::app::AppKind::Stream, self.active);
        let mut fresh = FullTcp::new(p, cc, app, self.active, self.peer, None);
        fresh.prio = self.prio;
        fresh.tag = self.tag;
        // Heap entries of the old timers may still fire: keep their generations.
        for (new, old) in [
            (&mut fresh.rtx, self.rtx),
            (&mut fresh.delack_timer, self.delack_timer),
            (&mut fresh.persist, self.persist),
        ] {
            *new = old;
            new.cancel();
        }
        fresh.app_gen = self.app_gen;
        fresh.incarnation = self.incarnation.wrapping_add(1);
        fresh.stream = stream;
        *self = fresh;
    }

    /// The connection is established: the waiting bytes go in.
    pub(super) fn stream_established(&mut self) {
        let Some(s) = &mut self.stream else { return };
        let held = std::mem::take(&mut s.held);
        if held > 0 {
            self.buf.write(held);
            self.fill();
        }
    }

    /// New data was acknowledged: the application hears how far, and whether all of it is.
    pub(super) fn stream_acked(&mut self, ctx: &mut AgentCtx) {
        let pos = self.acked_data();
        let Some(s) = &mut self.stream else { return };
        if !matches!(s.role, Role::App { .. }) {
            return;
        }
        let pos = s.base + pos;
        if pos <= s.delivered {
            return;
        }
        s.delivered = pos;
        self.with_stream(ctx, |app, io| app.on_delivered(pos, io));
        if self.stream.as_ref().is_some_and(|s| s.delivered == s.wrote) {
            self.with_stream(ctx, |app, io| app.on_completed(io));
            self.close_if_idle();
        }
    }

    /// `http`: everything written is acknowledged and nothing more is: the server closes.
    fn close_if_idle(&mut self) {
        let Some(s) = &self.stream else { return };
        let Role::App { close_when_idle: true, .. } = s.role else { return };
        if s.delivered == s.wrote
            && s.held == 0
            && !s.reopen
            && self.state.may_send()
            && self.fin_seq.is_none()
        {
            self.buf.close();
            self.state = self.state.app_closed();
            self.fill();
        }
    }

    /// `n` bytes arrived in order: the echo, or requests for the application.
    pub(super) fn stream_received(&mut self, n: u64, ctx: &mut AgentCtx) {
        let Some(s) = &mut self.stream else { return };
        match &mut s.role {
            Role::Echo => return self.stream_write(n, ctx),
            Role::App { request: Some(_), got, .. } => *got += n,
            _ => return,
        }
        while let Some(id) = self.next_request() {
            self.with_stream(ctx, |app, io| app.on_request(id, io));
        }
    }

    /// The number of the next whole request received and not yet handed over.
    fn next_request(&mut self) -> Option<u64> {
        let Some(StreamEnd { role: Role::App { request: Some(r), got, requests, .. }, .. }) =
            &mut self.stream
        else {
            return None;
        };
        if *got < *r {
            return None;
        }
        *got -= *r;
        *requests += 1;
        Some(*requests - 1)
    }

    /// The client sends a request.
    pub(super) fn stream_request(&mut self, ctx: &mut AgentCtx) {
        let Some(StreamEnd { role: Role::Client { request }, .. }) = &self.stream else { return };
        self.stream_write(*request, ctx);
    }

    /// The peer closed its direction: this end closes too (nothing more to say on it).
    pub(super) fn stream_peer_closed(&mut self) {
        if self.state.may_send() && self.fin_seq.is_none() {
            self.buf.close();
            self.state = self.state.app_closed();
            self.fill();
        }
    }

    /// Whether this end writes the flow's data (the end whose sender state is sampled).
    pub(super) fn stream_writer(&self) -> Option<bool> {
        self.stream.as_ref().map(|s| matches!(s.role, Role::App { .. }))
    }
}
