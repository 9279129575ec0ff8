//! Flows that pause, resume, start and stop while the run goes on (issue 27): a scenario's
//! `pause` / `resume` events, and the same changes made by steering (Python's
//! `Simulation.pause_flow`, `resume_flow`, `start_flow`, `stop_flow`).
//!
//! Source: ns-2.35's applications started and stopped from the script, `$ns at t "$ftp stop"`
//! then `"$ftp start"` (tcl/lib/ns-source.tcl: FTP `stop` is `advance 0`, no segment beyond
//! those sent, and `start` is `send -1`, an unbounded transfer again) and `$cbr stop` /
//! `start` (tools/trafgen.cc: the generator's timer is cancelled, and on start a packet
//! leaves at once). A paused TCP keeps recovering what it has sent. What pauses for each
//! transport: [`crate::agent::Agent::control`] of each source and docs/models/dynamics.md
//! "Flows". Checked against ns-2.35: reference/ns2/dynamics/pause.tcl.
//!
//! Cost: one event per command; nothing for a run without.

use crate::agent::{Agent, AgentCtx, FlowControl, TIMER_START};
use crate::error::{CResult, ConfigError};
use crate::ids::FlowId;
use crate::net::dynamics::EventRecord;
use crate::packet::PacketId;
use crate::sched::Event;
use crate::sim::{FlowInfo, Simulator};
use crate::tcp::TcpProbe;
use crate::time::SimTime;

/// A command to a flow's source at a time.
#[derive(Clone, Copy, Debug)]
pub struct FlowCommand {
    pub at: SimTime,
    pub flow: FlowId,
    pub what: FlowControl,
}

impl FlowControl {
    fn name(self) -> &'static str {
        match self {
            FlowControl::Pause => "pause",
            FlowControl::Resume => "resume",
            FlowControl::Stop => "stop",
        }
    }
}

/// The source agent of `flow` (build_agents puts flow i's source at 2i, its sink at 2i + 1).
fn source(flow: FlowId) -> usize {
    2 * flow.idx()
}

impl Simulator {
    /// The flow named `name`.
    pub(crate) fn flow_id(&self, name: &str) -> Option<FlowId> {
        flow_id(&self.flows, name)
    }

    /// Checks `flow` can take `what` at `at`, after the commands given so far.
    pub(crate) fn check_flow_command(
        &self,
        flow: FlowId,
        at: SimTime,
        what: FlowControl,
        path: &str,
    ) -> CResult<()> {
        check_command(&self.flows, &self.flow_commands, FlowCommand { at, flow, what }, path)
    }

    /// Gives `flow` command `what` at `at`: now, or scheduled. Checked before.
    pub(crate) fn flow_command(&mut self, flow: FlowId, at: SimTime, what: FlowControl) {
        let c = FlowCommand { at, flow, what };
        self.flow_commands.push(c);
        if at == self.net.now {
            self.apply_flow_command(c);
        } else {
            self.net.sched.schedule(at, Event::Flow(self.flow_commands.len() as u32 - 1));
        }
    }

    /// An `Event::Flow`: runs command `k`.
    pub(crate) fn on_flow_command(&mut self, k: u32) {
        self.apply_flow_command(self.flow_commands[k as usize]);
    }

    fn apply_flow_command(&mut self, c: FlowCommand) {
        let slot = &mut self.agents[source(c.flow)];
        let mut ctx = AgentCtx {
            net: &mut self.net,
            me: crate::ids::AgentId(source(c.flow) as u32),
            node: slot.node,
            flow: slot.flow,
        };
        slot.agent.control(c.what, &mut ctx);
        // A stop is the flow's `stop` (which the log does not list either).
        if let Some(d) = self.net.dynamics.as_mut().filter(|_| c.what != FlowControl::Stop) {
            let target = self.flows[c.flow.idx()].name.clone();
            d.log.push(EventRecord {
                time_s: self.net.now.as_secs_f64(),
                action: c.what.name().into(),
                target,
                dropped_pkts: 0,
            });
        }
    }

    /// Steering: `flow`, not started yet, starts at `at` instead (as if its `start` said so).
    pub(crate) fn start_flow(&mut self, flow: FlowId, at: SimTime, path: &str) -> CResult<()> {
        let info = &self.flows[flow.idx()];
        let name = &info.name;
        if info.transport == "tcp_full" {
            return Err(ConfigError::new(
                format!("{path}.flow"),
                format!("flow '{name}' is a tcp_full connection: give its start in the scenario"),
            ));
        }
        if info.start <= self.net.now {
            return Err(ConfigError::new(
                format!("{path}.action"),
                format!(
                    "flow '{name}' already started at {} s (pause and resume it instead)",
                    info.start.as_secs_f64()
                ),
            ));
        }
        if self.moved_starts.contains(&flow) {
            return Err(ConfigError::new(
                format!("{path}.action"),
                format!(
                    "flow '{name}' was given a new start already ({} s)",
                    info.start.as_secs_f64()
                ),
            ));
        }
        if let Some(stop) = info.stop.filter(|&s| s <= at) {
            return Err(ConfigError::new(
                format!("{path}.at"),
                format!("flow '{name}' stops at {} s, not after this start", stop.as_secs_f64()),
            ));
        }
        let cmds: Vec<_> =
            self.flow_commands.iter().filter(|c| c.flow == flow).map(|c| (c.at, c.what)).collect();
        check_order(info, at, info.stop, &cmds, path)?;
        self.moved_starts.push(flow);
        self.flows[flow.idx()].start = at;
        // The start timer armed at build time is still queued: the gate lets only this one through.
        let i = source(flow);
        let slot = self.agents.remove(i);
        self.agents.insert(
            i,
            crate::sim::AgentSlot { agent: Box::new(MovedStart { inner: slot.agent }), ..slot },
        );
        self.net.timer(at, crate::ids::AgentId(i as u32), TIMER_START, MovedStart::GEN);
        Ok(())
    }

    /// Steering: `flow` stops at `at` (as if its `stop` said so); it must start before.
    pub(crate) fn stop_flow(&mut self, flow: FlowId, at: SimTime, path: &str) -> CResult<()> {
        let info = &self.flows[flow.idx()];
        pausable(info, &format!("{path}.flow"))?;
        let name = &info.name;
        if at <= info.start {
            return Err(ConfigError::new(
                format!("{path}.at"),
                format!(
                    "flow '{name}' starts at {} s: it cannot stop before",
                    info.start.as_secs_f64()
                ),
            ));
        }
        if let Some(stop) = info.stop.filter(|&s| s <= at) {
            return Err(ConfigError::new(
                format!("{path}.at"),
                format!("flow '{name}' already stops at {} s", stop.as_secs_f64()),
            ));
        }
        let cmds: Vec<_> =
            self.flow_commands.iter().filter(|c| c.flow == flow).map(|c| (c.at, c.what)).collect();
        check_order(info, info.start, Some(at), &cmds, path)?;
        self.flows[flow.idx()].stop = Some(at);
        self.flow_command(flow, at, FlowControl::Stop);
        Ok(())
    }
}

/// The flow named `name` among `flows`.
pub(crate) fn flow_id(flows: &[FlowInfo], name: &str) -> Option<FlowId> {
    flows.iter().position(|f| f.name == name).map(|i| FlowId(i as u32))
}

/// Checks that command `c` can follow `given` (`path`: the event's field prefix for the
/// error): the flow's source can be paused, and its pauses and resumes alternate, all after
/// its start and before its stop.
pub(crate) fn check_command(
    flows: &[FlowInfo],
    given: &[FlowCommand],
    c: FlowCommand,
    path: &str,
) -> CResult<()> {
    let info = &flows[c.flow.idx()];
    pausable(info, &format!("{path}.flow"))?;
    let mut cmds: Vec<(SimTime, FlowControl)> =
        given.iter().filter(|g| g.flow == c.flow).map(|g| (g.at, g.what)).collect();
    cmds.push((c.at, c.what));
    cmds.sort_by_key(|g| g.0);
    check_order(info, info.start, info.stop, &cmds, path)
}

/// Refuses the flows whose source cannot pause (`FlowInfo::pausable`).
fn pausable(info: &FlowInfo, field: &str) -> CResult<()> {
    if info.pausable {
        return Ok(());
    }
    let why = if info.transport == "tcp_full" {
        format!("a tcp_full connection with application '{}' (its application drives it; only bulk can pause)", info.app)
    } else {
        format!("application '{}' over TCP (it writes into the connection itself)", info.app)
    };
    Err(ConfigError::new(field, format!("flow '{}' cannot pause, resume or stop while running: it is {why}; start and stop it in the scenario", info.name)))
}

/// Checks a flow's commands in time order: each after `start` and (a stop aside) before
/// `stop`; pauses and resumes alternate, from a pause.
fn check_order(
    info: &FlowInfo,
    start: SimTime,
    stop: Option<SimTime>,
    cmds: &[(SimTime, FlowControl)],
    path: &str,
) -> CResult<()> {
    let name = &info.name;
    let mut paused: Option<SimTime> = None;
    for &(t, what) in cmds {
        if t <= start {
            return Err(ConfigError::new(
                format!("{path}.at"),
                format!(
                    "flow '{name}' starts at {} s: it can pause or resume only after",
                    start.as_secs_f64()
                ),
            ));
        }
        if what == FlowControl::Stop {
            continue;
        }
        if let Some(s) = stop.filter(|&s| t >= s) {
            return Err(ConfigError::new(
                format!("{path}.at"),
                format!(
                    "flow '{name}' stops at {} s: a {} at {} s comes after",
                    s.as_secs_f64(),
                    what.name(),
                    t.as_secs_f64()
                ),
            ));
        }
        match (what, paused) {
            (FlowControl::Pause, Some(p)) => {
                return Err(ConfigError::new(
                    format!("{path}.action"),
                    format!(
                        "flow '{name}' is already paused at {} s (since {} s)",
                        t.as_secs_f64(),
                        p.as_secs_f64()
                    ),
                ));
            }
            (FlowControl::Resume, None) => {
                return Err(ConfigError::new(
                    format!("{path}.action"),
                    format!(
                        "flow '{name}' is not paused at {} s: a resume follows a pause",
                        t.as_secs_f64()
                    ),
                ));
            }
            (FlowControl::Pause, None) => paused = Some(t),
            _ => paused = None,
        }
    }
    Ok(())
}

/// The source of a flow whose start steering moved: the start timer armed at build time
/// (generation 0) is ignored, the new one ([`MovedStart::GEN`]) starts it.
struct MovedStart {
    inner: Box<dyn Agent>,
}

impl MovedStart {
    const GEN: u32 = 1;
}

impl Agent for MovedStart {
    fn on_timer(&mut self, kind: u16, gen: u32, ctx: &mut AgentCtx) {
        match (kind, gen) {
            (TIMER_START, MovedStart::GEN) => self.inner.on_timer(TIMER_START, 0, ctx),
            (TIMER_START, _) => {}
            _ => self.inner.on_timer(kind, gen, ctx),
        }
    }
    fn on_packet(&mut self, id: PacketId, ctx: &mut AgentCtx) {
        self.inner.on_packet(id, ctx);
    }
    fn tcp_probe(&self) -> Option<TcpProbe> {
        self.inner.tcp_probe()
    }
    fn control(&mut self, c: FlowControl, ctx: &mut AgentCtx) {
        self.inner.control(c, ctx);
    }
}
