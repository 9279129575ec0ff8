//! The run loop: one `Simulator` value owns everything (no globals), so several can run side
//! by side in one process (STYLE.md item 11).

use std::time::Instant;

pub mod collect;
pub mod detach;
pub mod flow_control;

use crate::agent::{Agent, AgentCtx};
use crate::ids::{FlowId, LinkId, NodeId};
use crate::net::Net;
use crate::packet::PacketId;
use crate::record::goodput::GoodputWindows;
use crate::record::packet_delays::PacketDelayRecorder;
use crate::record::pcap::{OneWay, PcapFiles};
use crate::record::series::Series;
use crate::record::trace::Ns2Trace;
use crate::record::video_packets::VideoPacketRecorder;
use crate::results::stream::{ResultsStream, SERIES_BATCH};
use crate::results::Results;
use crate::sched::Event;
use crate::tcp::CongState;
use crate::time::{Dur, SimTime};

/// An agent and where it lives.
pub struct AgentSlot {
    pub agent: Box<dyn Agent>,
    pub node: NodeId,
    pub flow: FlowId,
}

/// A one-way TCP flow's window, for the window-limit notice (config/window_notice.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowLimit {
    /// `window`, packets.
    pub packets: u32,
    /// Payload and header bytes of a full segment (`packet_size`, `header_size`).
    pub payload: u64,
    pub header: u64,
}

/// Static facts about a flow, for results.
pub struct FlowInfo {
    pub name: String,
    pub src: NodeId,
    pub dst: NodeId,
    pub start: SimTime,
    pub stop: Option<SimTime>,
    pub transport: &'static str,
    pub app: &'static str,
    /// UDP playout deadline (the flow's `deadline`), if any.
    pub deadline: Option<crate::time::Dur>,
    /// One-way TCP: how pcap files turn its packet numbers into bytes.
    pub one_way: Option<OneWay>,
    /// One-way TCP paced by the network (`bulk`, `file`): its window, for the notice.
    pub window: Option<WindowLimit>,
    /// TCP that named a defaults profile: the settings it resolved to (`summary.json`).
    pub tcp_profile: Option<crate::tcp::profile::ProfileSettings>,
    /// Whether its source can pause, resume and stop while the run goes on (sim/flow_control.rs):
    /// every UDP, TFRC and STP source, and one-way TCP fed by bulk, file or a generator.
    pub pausable: bool,
}

/// Which series to sample and how often.
#[derive(Clone, Copy, Debug)]
pub struct SeriesConfig {
    pub interval: Dur,
    pub queue: bool,
    pub flow_throughput: bool,
    /// Per-flow application goodput (running total and rate).
    pub goodput: bool,
    pub tcp: bool,
    /// Log every change of a TCP sender's cwnd/ssthresh (event-driven, not sampled).
    pub cwnd: bool,
    /// Congestion-control state values ([`crate::agent::Agent::cc_state`]).
    pub cc: bool,
}

struct SeriesState {
    cfg: SeriesConfig,
    data: Series,
    last_delivered: Vec<u64>,
    last_goodput: Vec<u64>,
    /// Last logged (cwnd, ssthresh, state) per agent, for the event-driven cwnd series.
    last_cwnd: Vec<(f64, f64, CongState)>,
}

/// Progress reported to the caller during long runs.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub sim_time: SimTime,
    /// The stop time, if the run has one.
    pub end: Option<SimTime>,
    pub events: u64,
}

pub struct Simulator {
    pub name: String,
    pub seed: u64,
    pub net: Net,
    pub agents: Vec<AgentSlot>,
    pub flows: Vec<FlowInfo>,
    /// Stop time; `None` runs until no events remain.
    pub end: Option<SimTime>,
    series: Option<SeriesState>,
    windows: Option<GoodputWindows>,
    packet_delays: Option<PacketDelayRecorder>,
    /// Series and transfers written to a folder as the run goes ([`Simulator::stream_to`]).
    stream: Option<ResultsStream>,
    events: u64,
    /// Wall time spent running events so far (all [`Simulator::advance`] steps).
    run_wall_s: f64,
    /// Wall time spent building this simulator (set by `build`), reported beside the run's.
    pub setup_wall_s: f64,
    /// Flow pauses, resumes and stops given so far (`Event::Flow` indexes it).
    pub(crate) flow_commands: Vec<crate::sim::flow_control::FlowCommand>,
    /// Flows whose start steering moved (once each).
    pub(crate) moved_starts: Vec<FlowId>,
}

/// How often (in events) the loop reports progress and checks for interruption.
const PROGRESS_EVERY: u64 = 1 << 18;

impl Simulator {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: String,
        seed: u64,
        mut net: Net,
        agents: Vec<AgentSlot>,
        flows: Vec<FlowInfo>,
        end: Option<SimTime>,
        series: Option<SeriesConfig>,
        trace_path: Option<&str>,
    ) -> std::io::Result<Self> {
        if let Some(path) = trace_path {
            net.trace = Some(Ns2Trace::create(path, agent_ports(&agents, net.nodes.len()))?);
        }
        let series = series.map(|cfg| {
            net.sched.schedule(SimTime::ZERO + cfg.interval, Event::Sample);
            SeriesState {
                cfg,
                data: Series::default(),
                last_delivered: vec![0; flows.len()],
                last_goodput: vec![0; flows.len()],
                last_cwnd: vec![(f64::NAN, f64::NAN, CongState::Open); agents.len()],
            }
        });
        Ok(Simulator {
            name,
            seed,
            net,
            agents,
            flows,
            end,
            series,
            windows: None,
            packet_delays: None,
            stream: None,
            events: 0,
            run_wall_s: 0.0,
            setup_wall_s: 0.0,
            flow_commands: Vec::new(),
            moved_starts: Vec::new(),
        })
    }

    /// Measures every flow's goodput over each window `(t0, t1)` (`record.windows`): one
    /// snapshot event per distinct end, none at time zero (nothing is delivered before it).
    pub fn record_windows(&mut self, windows: Vec<(SimTime, SimTime)>) {
        let w = GoodputWindows::new(windows);
        for (k, &t) in w.instants().iter().enumerate() {
            if t > SimTime::ZERO {
                self.net.sched.schedule(t, Event::Snapshot(k as u32));
            }
        }
        self.windows = Some(w);
    }

    /// Records the one-way delay of every delivered data packet of the flows marked `on`.
    pub fn record_packet_delays(&mut self, on: Vec<bool>) {
        self.packet_delays = Some(PacketDelayRecorder::new(on));
    }

    /// Logs every packet of the video flows marked `on` with its tag and fate
    /// (`record.video_packets`).
    pub fn record_video_packets(&mut self, on: Vec<bool>) {
        let deadline = self.flows.iter().map(|f| f.deadline).collect();
        self.net.video_packets = Some(Box::new(VideoPacketRecorder::new(on, deadline)));
    }

    /// Opens one pcap file per chosen link direction in `dir`.
    pub fn open_pcap(
        &mut self,
        dir: &std::path::Path,
        links: &[(LinkId, String)],
    ) -> std::io::Result<()> {
        let one_way = self.flows.iter().map(|f| f.one_way).collect();
        self.net.pcap = Some(PcapFiles::create(dir, links, self.net.links.len(), one_way)?);
        Ok(())
    }

    /// Writes the series and the transfers into `dir` while the run goes (`series_<kind>.csv`,
    /// `transfers.csv`), so their memory stays bounded; the results then hold none of them.
    pub fn stream_to(&mut self, dir: &std::path::Path) {
        let names = self.flows.iter().map(|f| f.name.clone()).collect();
        let node = |n: NodeId| self.net.nodes[n.idx()].name.clone();
        let ends = self.net.links.iter().map(|l| (node(l.from), node(l.to))).collect();
        self.stream = Some(ResultsStream::new(dir, names, ends));
    }

    /// Runs to the end. `progress` is called every few hundred thousand events; returning
    /// `false` stops the run early (results then say `interrupted`).
    pub fn run(mut self, progress: &mut dyn FnMut(Progress) -> bool) -> std::io::Result<Results> {
        let interrupted = !self.advance(self.end.unwrap_or(SimTime::MAX), progress);
        self.finish(interrupted)
    }

    /// Runs every event due at or before `until` (never past the stop time), then stands at
    /// `until`: the run can be looked at, changed, and advanced again. A run advanced in any
    /// number of steps runs the same events in the same order as one advanced at once (the
    /// queue is only popped up to the step's end). Returns false if `progress` stopped it.
    pub fn advance(&mut self, until: SimTime, progress: &mut dyn FnMut(Progress) -> bool) -> bool {
        let wall = Instant::now();
        let written = self.stream.as_ref().map_or(0.0, ResultsStream::write_s);
        let end = self.end.unwrap_or(SimTime::MAX);
        let limit = until.min(end);
        let mut completed = true;
        // In ns-2's order a first pass stops a picosecond short of `limit`, and the second
        // runs `limit`'s events without those ns-2's clock puts after it.
        let ns2 = self.net.sched.ns2_order() && limit < SimTime::MAX;
        let mut step = if ns2 { SimTime(limit.0.saturating_sub(1)) } else { limit };
        loop {
            while let Some((t, ev)) = self.net.sched.pop_until(step) {
                self.net.now = t;
                self.events += 1;
                match ev {
                    Event::TxDone(l) => self.net.on_tx_done(l),
                    Event::Arrive(l) => self.arrive(l),
                    Event::Timer { agent, kind, gen } => {
                        let slot = &mut self.agents[agent.idx()];
                        let mut ctx = AgentCtx {
                            net: &mut self.net,
                            me: agent,
                            node: slot.node,
                            flow: slot.flow,
                        };
                        slot.agent.on_timer(kind, gen, &mut ctx);
                        self.log_cwnd(agent.idx());
                    }
                    Event::QueueWake(l) => self.net.on_queue_wake(l),
                    Event::EthControl(l) => self.net.on_eth_control(l),
                    Event::Release { node, id } => self.net.on_release(node, id),
                    Event::Sample => self.sample(end),
                    Event::Change(k) => self.net.on_change(k),
                    Event::Reroute => self.net.reroute(),
                    Event::Flow(k) => self.on_flow_command(k),
                    Event::Snapshot(k) => {
                        if let Some(w) = self.windows.as_mut() {
                            w.snapshot(k as usize, &self.net.flows);
                        }
                    }
                }
                if self.events.is_multiple_of(PROGRESS_EVERY) {
                    if let Some(st) = self.stream.as_mut() {
                        st.transfers(&mut self.net.flows);
                    }
                    if !progress(Progress { sim_time: t, end: self.end, events: self.events }) {
                        completed = false;
                        break;
                    }
                }
            }
            if !ns2 || step == limit || !completed {
                break;
            }
            self.net.sched.hold_after_ns2(limit);
            step = limit;
        }
        if ns2 {
            self.net.sched.release_held();
        }
        if completed && limit < SimTime::MAX {
            self.net.now = limit;
        }
        // Writing streamed results is not the event loop's time (events/s are over it).
        let written = self.stream.as_ref().map_or(0.0, ResultsStream::write_s) - written;
        self.run_wall_s += wall.elapsed().as_secs_f64() - written;
        completed
    }

    /// The results as of now (the end, after [`Simulator::run`]); closes trace and pcap files.
    pub fn finish(mut self, interrupted: bool) -> std::io::Result<Results> {
        let wall_s = self.run_wall_s;
        let trace = self.net.trace.take();
        let pcap = self.net.pcap.take();
        let mut series = self.series.take().map(|s| s.data).unwrap_or_default();
        if let Some(st) = self.stream.take() {
            st.finish(&mut series, &mut self.net.flows)?;
        }
        let windows = self.windows.take().map(|w| w.results(self.flows.len())).unwrap_or_default();
        let mut results =
            Results::collect(&self, series, windows, wall_s, self.events, interrupted);
        results.packet_delays = self.packet_delays.take().map(|r| r.data);
        results.video_packets = self.net.video_packets.take().map(|r| r.finish());
        if let Some(tr) = trace {
            tr.finish()?;
        }
        if let Some(pc) = pcap {
            pc.finish()?;
        }
        Ok(results)
    }

    fn arrive(&mut self, l: LinkId) {
        if let Some(id) = self.net.on_arrive(l) {
            self.deliver(id);
        }
    }

    /// A packet reached its destination node: count it, hand it to its agent, free it.
    fn deliver(&mut self, id: PacketId) {
        let now = self.net.now;
        let p = *self.net.pool.get(id);
        let f = &mut self.net.flows[p.flow.idx()];
        if p.ptype.is_data() {
            f.delivered_pkts += 1;
            f.delivered_by_mark[crate::record::flow_stats::mark(p.prio)] += 1;
            f.delivered_bytes += p.size as u64;
            f.delay.record(now - p.created);
            f.last_delivered = Some(now);
            if let Some(r) = self.packet_delays.as_mut() {
                r.record(p.flow, p.seq, p.prio, p.created, now);
            }
            if let Some(log) = self.net.video_packets.as_mut() {
                log.delivered(p.flow, p.seq, now - p.created);
            }
        } else {
            f.ack_delivered_pkts += 1;
        }
        self.net.totals.delivered += 1;
        let slot = &mut self.agents[p.dst_agent.idx()];
        let mut ctx =
            AgentCtx { net: &mut self.net, me: p.dst_agent, node: slot.node, flow: slot.flow };
        slot.agent.on_packet(id, &mut ctx);
        self.net.pool.free(id);
        self.log_cwnd(p.dst_agent.idx());
    }

    /// Records the agent's cwnd, ssthresh and congestion state if the cwnd series is on and
    /// any of them changed.
    fn log_cwnd(&mut self, agent: usize) {
        let Some(s) = self.series.as_mut().filter(|s| s.cfg.cwnd) else { return };
        let slot = &self.agents[agent];
        let Some(p) = slot.agent.tcp_probe() else { return };
        let now = (p.cwnd, p.ssthresh, p.state);
        if s.last_cwnd[agent] != now {
            s.last_cwnd[agent] = now;
            s.data.cwnd.push(self.net.now.as_secs_f64(), slot.flow.0, &p);
            if let Some(st) =
                self.stream.as_mut().filter(|_| s.data.cwnd.time_s.len() >= SERIES_BATCH)
            {
                st.series(&mut s.data);
            }
        }
    }

    /// One sample of every series; the next is scheduled up to the run's stop time `end`.
    fn sample(&mut self, end: SimTime) {
        let Some(s) = self.series.as_mut() else { return };
        let now = self.net.now;
        let t = now.as_secs_f64();
        if s.cfg.queue {
            for (i, l) in self.net.links.iter().enumerate() {
                s.data.queue.time_s.push(t);
                s.data.queue.link.push(i as u32);
                s.data.queue.len_pkts.push(l.waiting());
                s.data.queue.len_bytes.push(l.waiting_bytes());
                s.data.queue.avg_len.push(l.queue.avg_queue());
            }
        }
        if s.cfg.flow_throughput {
            let dt = s.cfg.interval.as_secs_f64();
            for (i, f) in self.net.flows.iter().enumerate() {
                let d = f.delivered_bytes - s.last_delivered[i];
                s.last_delivered[i] = f.delivered_bytes;
                let ft = &mut s.data.flow_throughput;
                ft.time_s.push(t);
                ft.flow.push(i as u32);
                ft.delivered_bytes.push(d);
                ft.throughput_bps.push(d as f64 * 8.0 / dt);
            }
        }
        if s.cfg.goodput {
            let dt = s.cfg.interval.as_secs_f64();
            for (i, f) in self.net.flows.iter().enumerate() {
                let g = &mut s.data.goodput;
                g.time_s.push(t);
                g.flow.push(i as u32);
                g.goodput_bytes.push(f.goodput_bytes);
                g.goodput_bps.push((f.goodput_bytes - s.last_goodput[i]) as f64 * 8.0 / dt);
                s.last_goodput[i] = f.goodput_bytes;
            }
        }
        if s.cfg.tcp {
            for slot in &self.agents {
                if let Some(p) = slot.agent.tcp_probe() {
                    s.data.tcp.push(t, slot.flow.0, &p);
                }
            }
        }
        if s.cfg.cc {
            let cc = &mut s.data.cc;
            for slot in &self.agents {
                slot.agent.cc_state(&mut |name, value| {
                    cc.time_s.push(t);
                    cc.flow.push(slot.flow.0);
                    cc.variable.push(name);
                    cc.value.push(value);
                });
            }
        }
        if let Some(st) = self.stream.as_mut().filter(|_| s.data.samples() >= SERIES_BATCH) {
            st.series(&mut s.data);
        }
        let next = now + s.cfg.interval;
        // Without a stop time, sample only while other events remain.
        if next <= end && (self.end.is_some() || !self.net.sched.is_empty()) {
            self.net.sched.schedule(next, Event::Sample);
        }
    }

    pub fn events(&self) -> u64 {
        self.events
    }
}

/// ns-2 port numbers: each agent's index among the agents of its node.
fn agent_ports(agents: &[AgentSlot], n_nodes: usize) -> Vec<u32> {
    let mut next = vec![0u32; n_nodes];
    agents
        .iter()
        .map(|a| {
            let p = next[a.node.idx()];
            next[a.node.idx()] += 1;
            p
        })
        .collect()
}
