//! ns-2.35's TFRC sender rules (`spec = "ns2"`; ns-2 `Agent/TFRC`, tcp/tfrc.cc), which the
//! ns-2 studies ran (Bakthavachalu 2004) and which differ from RFC 5348 (`sender.rs`):
//!
//! - Additive increase (`increase_rate`): when the equation allows more than the current rate
//!   X, X grows by s/R·min(2, (now - last change)/R), capped at min(equation, max(2·X_recv,
//!   s/R)); RFC 5348 jumps to the equation's rate at once.
//! - Decrease (`decrease_rate`): X = the equation's rate, at once; above 2·X_recv for more than
//!   `maxHeavyRounds_` (0) reports it is capped there.
//! - The equation (`p_to_b`, tcp/formula.h) takes t_RTO from a TCP-style estimator on a
//!   `tcp_tick_` (100 ms) clock: srtt + 4·rttvar in ticks, at least `minrto_` (0), not 4R;
//!   its timeout term's factor 3·sqrt(3p/8) is capped at 1, and the rate at 25 MB/s.
//! - Slow start (`slowstart`): on the first report X = max(X, 4 packets / R) (ns-2
//!   `rate_init_option_ 2`, RFC 3390 for 1000 B packets), then X = min(ssmult·X, 2·X_recv)
//!   at most once per R, and every report in slow start sends a packet at once (`nextpkt`);
//!   within an RTT the pacing rate climbs from the old rate to the new one in equal steps per
//!   packet (`slow_increase_ 1`). The first report with a loss ends slow start at the
//!   equation's rate.
//! - No-feedback timer: max(2R, 2s/X) (RFC 5348: max(4R, 2s/X)), and at start 2s/X;
//!   it halves X and sends a packet at once.
//! - R is the EWMA of (now - echoed send time - the receiver's hold time) with weight
//!   `rtt_weight` (ns-2 `df_` 0.95) on the old value; oscillation prevention (ns-2 `ca_ 1`)
//!   scales the rate by sqrt(R)/sqrt(latest sample) (ns-2 keeps an EWMA of sqrt samples).
//!
//! Not modelled: ns-2's data-limited and idle rules (`SndrType_ 1`, `idleFix_`,
//! `datalimited_`), `conservative_`, `voip_`, `overhead_` dithering, `UrgentFlag` (the
//! receiver reports as RFC 5348 says).

use crate::agent::{Agent, AgentCtx, FlowControl, TIMER_START};
use crate::packet::PacketId;
use crate::tcp::TcpProbe;
use crate::time::{Dur, SimTime};
use crate::transport::tfrc::config::TfrcParams;
use crate::transport::tfrc::send_gate::{SendGate, TIMER_SEND};
use crate::transport::tfrc::wire::FeedbackHdr;
use crate::transport::tfrc::{rate_probe, DataPath};

const TIMER_NOFEEDBACK: u16 = 2;
/// ns-2 `MAXRATE` (tcp/formula.h): the equation's rate with no loss, bytes per second.
const MAXRATE: f64 = 25_000_000.0;
/// ns-2 `SMALLFLOAT`.
const SMALLFLOAT: f64 = 1e-7;
/// ns-2 `rate_init_option_ 2`: RFC 3390's initial window in packets for `s` bytes.
fn rfc3390_packets(s: f64) -> f64 {
    if s <= 1095.0 {
        4.0
    } else if s < 2190.0 {
        3.0
    } else {
        2.0
    }
}

/// ns-2 `p_to_b` (tcp/formula.h): bytes per second for loss event rate `p`.
pub fn ns2_equation(s: f64, r: f64, p: f64, t_rto: f64) -> f64 {
    let a = r * (2.0 * p / 3.0).sqrt();
    let b = (3.0 * (3.0 * p / 8.0).sqrt()).min(1.0) * t_rto * p * (1.0 + 32.0 * p * p);
    let d = a + b;
    if d < SMALLFLOAT {
        MAXRATE
    } else {
        (s / d).min(MAXRATE)
    }
}

/// ns-2's TCP-style RTO estimator (tfrc.cc `update_rtt`, as `TcpAgent`'s with its defaults
/// `srtt_init_ 0` (so the first sample sets both), `T_SRTT_BITS 3`, `T_RTTVAR_BITS 2`, `rttvar_exp_ 2`):
/// integers in ticks, srtt scaled by 8 and rttvar by 4.
#[derive(Clone, Copy, Debug)]
struct TickRto {
    tick: f64,
    srtt: i64,
    rttvar: i64,
}

impl TickRto {
    fn new(tick: f64) -> Self {
        TickRto { tick, srtt: 0, rttvar: 0 }
    }

    /// Takes a sample in seconds; returns t_RTO in seconds.
    fn sample(&mut self, rtt: f64) -> f64 {
        let t = ((rtt / self.tick + 0.5) as i64).max(1);
        if self.srtt != 0 {
            let mut delta = t - (self.srtt >> 3);
            self.srtt += delta;
            if self.srtt <= 0 {
                self.srtt = 1;
            }
            delta = delta.abs() - (self.rttvar >> 2);
            self.rttvar += delta;
            if self.rttvar <= 0 {
                self.rttvar = 1;
            }
        } else {
            self.srtt = t << 3;
            self.rttvar = t << 1;
        }
        (((self.rttvar << 3) + self.srtt) >> 3) as f64 * self.tick
    }
}

pub struct Ns2TfrcSender {
    p: TfrcParams,
    path: DataPath,
    gate: SendGate,
    seq: u64,
    /// ns-2 `rate_`: the allowed rate, bytes per second.
    rate: f64,
    /// ns-2 `oldrate_` and `delta_`: the pacing rate's per-packet climb in slow start.
    oldrate: f64,
    delta: f64,
    /// ns-2 `rate_change_ == SLOW_START`: no report with a loss yet (only slow start is ever
    /// tested; ns-2's other phases change nothing here).
    slow_start: bool,
    last_change: SimTime,
    /// 2·X_recv of the latest report (0 until the second report).
    maxrate: f64,
    /// Reports received (ns-2 `round_id`), plus no-feedback expiries.
    round_id: u32,
    /// The equation's rate at the latest report (ns-2 `rcvrate`).
    rcvrate: f64,
    /// Smoothed RTT R (0 before the first report), the EWMA of sqrt samples, the latest sample.
    rtt: f64,
    sqrtrtt: f64,
    rttcur: f64,
    rto: TickRto,
    t_rto: f64,
    nofb_gen: u32,
}

impl Ns2TfrcSender {
    pub fn new(p: TfrcParams, path: DataPath, stop: Option<SimTime>) -> Self {
        Ns2TfrcSender {
            rate: p.initial_rate,
            oldrate: p.initial_rate,
            rto: TickRto::new(p.rto_tick.as_secs_f64()),
            p,
            path,
            gate: SendGate::new(stop),
            seq: 0,
            delta: 0.0,
            slow_start: true,
            last_change: SimTime::ZERO,
            maxrate: 0.0,
            round_id: 0,
            rcvrate: 0.0,
            rtt: 0.0,
            sqrtrtt: 1.0,
            rttcur: 1.0,
            t_rto: 0.0,
            nofb_gen: 0,
        }
    }

    fn s(&self) -> f64 {
        self.p.s as f64
    }

    /// Allowed sending rate, bytes per second.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    fn send_packet(&mut self, ctx: &mut AgentCtx) {
        self.path.send(
            &self.p,
            self.seq,
            (self.rtt > 0.0).then(|| Dur::from_secs_f64(self.rtt)),
            ctx,
        );
        self.seq += 1;
    }

    /// ns-2 `nextpkt`: a packet now, the next one after s over the pacing rate.
    fn next_packet(&mut self, ctx: &mut AgentCtx) {
        let now = ctx.now();
        if !self.gate.open(now) {
            return;
        }
        self.send_packet(ctx);
        let xrate = if self.round_id > 2 && self.slow_start && self.oldrate + SMALLFLOAT < self.rate
        {
            self.oldrate += self.delta;
            self.oldrate
        } else if self.p.oscillation_prevention && self.rttcur > 0.0 {
            self.rate * self.sqrtrtt / self.rttcur.sqrt()
        } else {
            self.rate
        };
        if xrate > SMALLFLOAT {
            self.gate.arm(now + Dur::from_secs_f64(self.s() / xrate).max(Dur::from_nanos(1)), ctx);
        }
    }

    fn arm_nofeedback(&mut self, d: f64, ctx: &mut AgentCtx) {
        self.nofb_gen = self.nofb_gen.wrapping_add(1);
        ctx.timer_at(ctx.now() + Dur::from_secs_f64(d), TIMER_NOFEEDBACK, self.nofb_gen);
    }

    /// The no-feedback interval: max(2R, 2s/X).
    fn nofeedback_interval(&self) -> f64 {
        (2.0 * self.rtt).max(2.0 * self.s() / self.rate)
    }

    /// ns-2 `slowstart`: the initial rate until the second report (ns-2: "or the third with
    /// an initial rate above one packet", which `rate_init_option_ 2` always gives), then a
    /// step of `ssmult` at most once per R up to 2·X_recv; above it, half of it.
    fn slow_start(&mut self, now: SimTime) {
        let (s, r) = (self.s(), self.rtt);
        if self.round_id <= 2 {
            self.oldrate = self.rate;
            self.rate = self.rate.max(rfc3390_packets(s) * s / r);
            self.delta = (self.rate - self.oldrate) / (self.rate * r / s);
            self.last_change = now;
        } else if self.maxrate > 0.0 {
            if self.rate < self.maxrate && now.since(self.last_change).as_secs_f64() > r {
                self.oldrate = self.rate;
                self.rate = (self.p.ssmult * self.rate).min(self.maxrate).max(s / r);
                self.delta = (self.rate - self.oldrate) / (self.rate * r / s);
                self.last_change = now;
            } else if self.rate > self.maxrate {
                self.rate = self.maxrate / 2.0;
                self.oldrate = self.rate;
                self.delta = 0.0;
                self.last_change = now;
            }
        } else {
            self.oldrate = self.rate;
            self.rate = s / r;
            self.delta = 0.0;
            self.last_change = now;
        }
    }

    /// ns-2 `increase_rate`.
    fn increase(&mut self, now: SimTime) {
        let mult = (now.since(self.last_change).as_secs_f64() / self.rtt).min(2.0);
        self.rate += self.s() / self.rtt * mult;
        let cap = self.maxrate.max(self.s() / self.rtt).min(self.rcvrate);
        self.rate = self.rate.min(cap);
        self.last_change = now;
    }

    /// ns-2 `decrease_rate` with `maxHeavyRounds_ 0`.
    fn decrease(&mut self, now: SimTime) {
        self.rate = self.rcvrate.min(self.maxrate.max(self.s() / self.rtt));
        self.last_change = now;
    }

    /// ns-2 `recv`: a report arrived.
    fn on_feedback(&mut self, fb: FeedbackHdr, ctx: &mut AgentCtx) {
        let now = ctx.now();
        self.round_id += 1;
        self.maxrate = if self.round_id > 1 && fb.x_recv > 0.0 { 2.0 * fb.x_recv } else { 0.0 };
        let sample = (now.since(fb.t_recvdata).as_secs_f64() - fb.t_delay.as_secs_f64()).max(1e-9);
        self.t_rto = self.rto.sample(sample).max(self.p.min_rto.as_secs_f64());
        if self.rtt > 0.0 {
            let q = self.p.q;
            self.rtt = q * self.rtt + (1.0 - q) * sample;
            self.sqrtrtt = q * self.sqrtrtt + (1.0 - q) * sample.sqrt();
        } else {
            self.rtt = sample;
            self.sqrtrtt = sample.sqrt();
        }
        self.rttcur = sample;
        self.rcvrate =
            if fb.p > 0.0 { ns2_equation(self.s(), self.rtt, fb.p, self.t_rto) } else { MAXRATE };
        let nofb = self.nofeedback_interval();
        self.arm_nofeedback(nofb, ctx);
        if self.round_id == 1 {
            self.slow_start(now);
            self.next_packet(ctx);
        } else if self.slow_start {
            if fb.p > 0.0 {
                self.slow_start = false;
                self.rate = self.rcvrate;
                self.oldrate = self.rate;
            } else {
                self.slow_start(now);
                self.next_packet(ctx);
            }
        } else if self.rcvrate > self.rate {
            self.increase(now);
        } else {
            self.decrease(now);
        }
    }

    /// ns-2 `reduce_rate_on_no_feedback` for a sender that always has data.
    fn on_nofeedback(&mut self, ctx: &mut AgentCtx) {
        if self.gate.stopped(ctx.now()) {
            return;
        }
        self.rate *= 0.5;
        self.round_id += 1;
        let nofb = self.nofeedback_interval();
        self.arm_nofeedback(nofb, ctx);
        self.next_packet(ctx);
    }
}

impl Agent for Ns2TfrcSender {
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx) {
        match kind {
            TIMER_START => {
                self.last_change = ctx.now();
                let nofb = 2.0 * self.s() / self.rate;
                self.arm_nofeedback(nofb, ctx);
                self.next_packet(ctx);
            }
            TIMER_SEND if self.gate.is_current(gen) => self.next_packet(ctx),
            TIMER_NOFEEDBACK if gen == self.nofb_gen => self.on_nofeedback(ctx),
            _ => {}
        }
    }

    /// As the RFC sender: a pause cancels the next packet and the no-feedback timer goes on;
    /// on resume a packet leaves at once.
    fn control(&mut self, c: FlowControl, ctx: &mut AgentCtx) {
        if self.gate.control(c, ctx.now()) {
            self.next_packet(ctx);
        }
    }

    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        let fb = FeedbackHdr::decode(&ctx.net.pool.get(id).tcp);
        self.on_feedback(fb, ctx);
    }

    /// See [`rate_probe`], with t_RTO from the tick estimator.
    fn tcp_probe(&self) -> Option<TcpProbe> {
        Some(rate_probe(self.rate, self.rtt, self.s(), self.t_rto))
    }
}

#[cfg(test)]
mod tests;
