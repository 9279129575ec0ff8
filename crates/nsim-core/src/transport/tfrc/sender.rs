//! The TFRC sender (RFC 5348 §4; RFC 3448 §4 as an option; ns-2 `Agent/TFRC`, tfrc.cc).
//!
//! - RTT (§4.3 step 2): R_sample = (now - t_recvdata) - t_delay; R = q·R + (1-q)·R_sample,
//!   q = 0.9 (ns-2 `df_` 0.95); t_RTO = 4·R in the equation (§4.3 step 3).
//! - Rate (§4.3 step 4), s the payload per packet:
//!   - loss reported (p > 0): X = max(min(X_eq(s, R, p, 4R), recv_limit), s/t_mbi);
//!   - slow start (p = 0), at most once per R: X = max(min(ssmult·X, recv_limit), floor),
//!     floor W_init/R (RFC 5348, W_init = min(4s, max(2s, 4380 B)), RFC 3390) or s/R (RFC
//!     3448);
//!   - recv_limit = 2·max(X_recv of the reports of the last two RTTs) (RFC 5348), or
//!     2·X_recv of the latest report (RFC 3448).
//!   - The first feedback (RFC 5348 §4.2) sets X = W_init/R.
//! - No-feedback timer (§4.4), armed at max(4R, 2s/X) (2 s before the first feedback): with
//!   no feedback yet, X = max(X/2, s/t_mbi); otherwise the receive limit is cut to X_recv (if
//!   X_eq > 2·X_recv) or to X_eq/2 (RFC 3448: X_recv = X_eq/4), floored at s/t_mbi, which
//!   halves the rate per expiry.
//! - Pacing: one send timer; packets leave every s/X seconds (times R_sqmean/sqrt(R_sample)
//!   with oscillation prevention, §4.5). A rate increase re-arms the timer earlier.
//!
//! Before the first feedback the sender sends at `initial_rate` (ns-2 `InitRate_` 300 B/s).

use crate::agent::{Agent, AgentCtx, FlowControl, TIMER_START};
use crate::packet::PacketId;
use crate::tcp::TcpProbe;
use crate::time::{Dur, SimTime};
use crate::transport::tfrc::config::{TfrcParams, TfrcSpec};
use crate::transport::tfrc::equation;
use crate::transport::tfrc::send_gate::{SendGate, TIMER_SEND};
use crate::transport::tfrc::wire::FeedbackHdr;
use crate::transport::tfrc::{rate_probe, DataPath};

const TIMER_NOFEEDBACK: u16 = 2;
/// Reports older than this many RTTs leave the X_recv set (RFC 5348 §4.3).
const RECV_SET_RTTS: f64 = 2.0;
/// RFC 5348 §4.4: the no-feedback timer before the first feedback.
const INITIAL_NOFEEDBACK: Dur = Dur::from_secs(2);
/// Weight of the old value in R_sqmean (RFC 5348 §4.5).
const SQ_WEIGHT: f64 = 0.9;

pub struct TfrcSender {
    p: TfrcParams,
    path: DataPath,
    gate: SendGate,
    seq: u64,
    /// Allowed sending rate X, bytes per second.
    x: f64,
    /// Latest loss event rate reported.
    loss: f64,
    /// Smoothed RTT R, seconds (None before the first feedback).
    r: Option<f64>,
    /// The latest RTT sample and the EWMA of its square root (oscillation prevention).
    r_sample: f64,
    r_sqmean: f64,
    /// X_recv reports of the last two RTTs: (arrival time, bytes/s).
    recv_set: [(SimTime, f64); 4],
    recv_n: usize,
    /// When the rate last grew in slow start (RFC 5348 `tld`).
    tld: SimTime,
    last_send: SimTime,
    next_send: SimTime,
    nofb_gen: u32,
}

impl TfrcSender {
    pub fn new(p: TfrcParams, path: DataPath, stop: Option<SimTime>) -> Self {
        TfrcSender {
            x: p.initial_rate,
            p,
            path,
            gate: SendGate::new(stop),
            seq: 0,
            loss: 0.0,
            r: None,
            r_sample: 0.0,
            r_sqmean: 0.0,
            recv_set: [(SimTime::ZERO, 0.0); 4],
            recv_n: 0,
            tld: SimTime::ZERO,
            last_send: SimTime::ZERO,
            next_send: SimTime::ZERO,
            nofb_gen: 0,
        }
    }

    fn s(&self) -> f64 {
        self.p.s as f64
    }

    /// The lowest rate TFRC ever sends at: one packet per t_mbi.
    fn min_rate(&self) -> f64 {
        self.s() / self.p.t_mbi.as_secs_f64()
    }

    /// RFC 3390 initial window in bytes (RFC 5348 §4.2).
    fn w_init(&self) -> f64 {
        (4.0 * self.s()).min((2.0 * self.s()).max(4380.0))
    }

    fn equation_rate(&self, r: f64) -> f64 {
        equation::rate_bps(self.s(), r, self.loss, 4.0 * r, 1.0)
    }

    /// Allowed sending rate, bytes per second.
    pub fn rate(&self) -> f64 {
        self.x
    }

    fn max_recv(&self) -> f64 {
        self.recv_set[..self.recv_n].iter().map(|e| e.1).fold(0.0, f64::max)
    }

    /// Adds a report to the X_recv set, dropping those older than two RTTs (RFC 3448: keep
    /// only the latest).
    fn add_recv(&mut self, now: SimTime, x_recv: f64, r: f64) {
        let horizon = Dur::from_secs_f64(RECV_SET_RTTS * r);
        let keep_old = self.p.spec == TfrcSpec::Rfc5348;
        let mut n = 0;
        for i in 0..self.recv_n {
            let e = self.recv_set[i];
            if keep_old && now.since(e.0) <= horizon && n < self.recv_set.len() - 1 {
                self.recv_set[n] = e;
                n += 1;
            }
        }
        self.recv_set[n] = (now, x_recv);
        self.recv_n = n + 1;
    }

    /// Inter-packet interval at the current rate.
    fn ipi(&self) -> Dur {
        let mut x = self.x;
        if self.p.oscillation_prevention && self.r_sample > 0.0 {
            x *= self.r_sqmean / self.r_sample.sqrt();
        }
        Dur::from_secs_f64(self.s() / x)
    }

    fn send_packet(&mut self, ctx: &mut AgentCtx) {
        self.path.send(&self.p, self.seq, self.r.map(Dur::from_secs_f64), ctx);
        self.seq += 1;
    }

    fn arm_send(&mut self, at: SimTime, ctx: &mut AgentCtx) {
        self.next_send = at;
        self.gate.arm(at, ctx);
    }

    fn on_send_timer(&mut self, ctx: &mut AgentCtx) {
        let now = ctx.now();
        if !self.gate.open(now) {
            return;
        }
        self.send_packet(ctx);
        self.last_send = now;
        let next = now + self.ipi();
        self.arm_send(next, ctx);
    }

    fn arm_nofeedback(&mut self, ctx: &mut AgentCtx) {
        let d = match self.r {
            Some(r) => Dur::from_secs_f64((4.0 * r).max(2.0 * self.s() / self.x)),
            None => INITIAL_NOFEEDBACK,
        };
        self.nofb_gen = self.nofb_gen.wrapping_add(1);
        ctx.timer_at(ctx.now() + d, TIMER_NOFEEDBACK, self.nofb_gen);
    }

    /// RFC 5348 §4.4 (RFC 3448 §4.4 with `spec = "rfc3448"`).
    fn on_nofeedback(&mut self, ctx: &mut AgentCtx) {
        if self.gate.stopped(ctx.now()) {
            return;
        }
        match self.r {
            None => self.x = (self.x / 2.0).max(self.min_rate()),
            Some(r) => {
                let base = if self.loss > 0.0 { self.equation_rate(r) } else { self.x };
                let x_recv = self.max_recv();
                let limit = match self.p.spec {
                    TfrcSpec::Rfc5348 if base > 2.0 * x_recv => x_recv,
                    TfrcSpec::Rfc5348 => base / 2.0,
                    TfrcSpec::Rfc3448 if base > 2.0 * x_recv => {
                        2.0 * (x_recv / 2.0).max(self.min_rate() / 2.0)
                    }
                    // RFC 3448 (the ns-2 rules have their own sender, ns2_sender.rs)
                    _ => base / 2.0,
                };
                // The limit replaces the X_recv set: recv_limit = 2·(limit/2) until reports
                // arrive again.
                let limit = limit.max(self.min_rate());
                self.recv_set[0] = (ctx.now(), limit / 2.0);
                self.recv_n = 1;
                self.x = base.min(limit).max(self.min_rate());
            }
        }
        self.arm_nofeedback(ctx);
    }

    /// RFC 5348 §4.3: a feedback packet arrived.
    fn on_feedback(&mut self, fb: FeedbackHdr, ctx: &mut AgentCtx) {
        let now = ctx.now();
        let sample = (now.since(fb.t_recvdata).as_secs_f64() - fb.t_delay.as_secs_f64()).max(1e-9);
        let first = self.r.is_none();
        let r = match self.r {
            None => {
                self.r_sqmean = sample.sqrt();
                sample
            }
            Some(r) => {
                self.r_sqmean = SQ_WEIGHT * self.r_sqmean + (1.0 - SQ_WEIGHT) * sample.sqrt();
                self.p.q * r + (1.0 - self.p.q) * sample
            }
        };
        self.r = Some(r);
        self.r_sample = sample;
        self.loss = fb.p;
        self.add_recv(now, fb.x_recv, r);
        let recv_limit = 2.0 * self.max_recv();
        let rfc5348 = self.p.spec == TfrcSpec::Rfc5348;
        let old = self.x;
        if first && self.loss == 0.0 && rfc5348 {
            self.x = self.w_init() / r;
            self.tld = now;
        } else if self.loss > 0.0 {
            self.x = self.equation_rate(r).min(recv_limit).max(self.min_rate());
        } else if now.since(self.tld).as_secs_f64() >= r || first {
            let floor = if rfc5348 { self.w_init() / r } else { self.s() / r };
            self.x = (self.p.ssmult * self.x).min(recv_limit).max(floor);
            self.tld = now;
        }
        self.arm_nofeedback(ctx);
        // A faster rate takes effect now rather than after the gap the old rate set.
        if self.x > old && self.gate.open(now) {
            let at = (self.last_send + self.ipi()).max(now);
            if at < self.next_send {
                self.arm_send(at, ctx);
            }
        }
    }
}

impl Agent for TfrcSender {
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx) {
        match kind {
            TIMER_START => {
                self.arm_nofeedback(ctx);
                self.tld = ctx.now();
                self.on_send_timer(ctx);
            }
            TIMER_SEND if self.gate.is_current(gen) => self.on_send_timer(ctx),
            TIMER_NOFEEDBACK if gen == self.nofb_gen => self.on_nofeedback(ctx),
            _ => {}
        }
    }

    /// A pause cancels the next packet; the no-feedback timer goes on, so the allowed rate
    /// decays as an idle sender's (RFC 5348 §4.4). On resume a packet leaves at once, at the
    /// rate reached. A stop is a pause that also ends the no-feedback timer (as `stop`).
    fn control(&mut self, c: FlowControl, ctx: &mut AgentCtx) {
        if self.gate.control(c, ctx.now()) {
            self.on_send_timer(ctx);
        }
    }

    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        let fb = FeedbackHdr::decode(&ctx.net.pool.get(id).tcp);
        self.on_feedback(fb, ctx);
    }

    /// See [`rate_probe`]: t_RTO = 4R.
    fn tcp_probe(&self) -> Option<TcpProbe> {
        let r = self.r.unwrap_or(0.0);
        Some(rate_probe(self.x, r, self.s(), 4.0 * r))
    }
}
