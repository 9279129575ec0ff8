//! Flow expansion (`repeat`, `{i}`, `stagger`), checks, and agent construction.

use super::build::Names;
use super::flow_spec::{
    AppSpec, HttpVersion, PageSpec, PeriodDist, PeriodSpec, ServeAfter, SizeDistSpec, ThinkDist,
    TransferDist, TransportSpec,
};
use super::video_build::{video, VideoFields};
use super::Scenario;
use crate::agent::{Agent, TIMER_START};
use crate::app::cbr::Cbr;
use crate::app::http::{Http, Version};
use crate::app::onoff::{OnOff, Period};
use crate::app::poisson::Poisson;
use crate::app::repeat::{Gap, Repeat, TransferSize};
use crate::app::size::SizeDist;
use crate::app::stream::StreamApp;
use crate::app::telnet::Telnet;
use crate::app::web_client::WebClient;
use crate::app::web_page::{PageDist, Surge};
use crate::app::Generator;
use crate::error::{CResult, ConfigError};
use crate::ids::{AgentId, NodeId};
use crate::net::Net;
use crate::packet::PType;
use crate::record::pcap::OneWay;
use crate::rng::stream;
use crate::rng::SimRng;
use crate::sim::detach::DetachedAt;
use crate::sim::WindowLimit;
use crate::sim::{AgentSlot, FlowInfo};
use crate::tcp::full::conn::stream_end::Role;
use crate::time::{Dur, SimTime};
use crate::transport::udp::{UdpSink, UdpSource};
use crate::units::{RateSpec, SizeSpec, TimeSpec};
use rand::RngExt;

/// A flow after expansion, with names resolved.
#[derive(Clone)]
pub(crate) struct ResolvedFlow {
    pub name: String,
    pub path: String,
    pub src: NodeId,
    pub dst: NodeId,
    pub start: SimTime,
    pub stop: Option<SimTime>,
    /// Both ends are detached at `stop` (the flow's `detach_at_stop`).
    pub detach_at_stop: bool,
    pub app: AppSpec,
    pub transport: TransportSpec,
    pub prio: u8,
    pub tag: u16,
    pub deadline: Option<Dur>,
    /// 0, or k for the k-th extra parallel connection of the HTTP/1.0 flow k places before.
    pub conn: u32,
}

/// Replaces `{i}` by `k` and `{i+N}` by `k + N` (pairs of a dumbbell of trees: host `h{i}` to
/// host `h{i+400}`). Any other `{i...}` is an error naming the bad placeholder.
fn substitute_index(s: &str, k: u64) -> Result<String, String> {
    let mut out = String::with_capacity(s.len() + 4);
    let mut rest = s;
    while let Some(at) = rest.find("{i") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail.find('}').ok_or_else(|| format!("unclosed placeholder in '{s}'"))?;
        let inner = &tail[2..end];
        let offset = match inner.strip_prefix('+') {
            None if inner.is_empty() => 0,
            Some(n) => n.trim().parse::<u64>().map_err(|_| {
                format!("bad placeholder '{}' in '{s}': use {{i}} or {{i+N}}", &tail[..=end])
            })?,
            None => {
                return Err(format!(
                    "bad placeholder '{}' in '{s}': use {{i}} or {{i+N}}",
                    &tail[..=end]
                ))
            }
        };
        out.push_str(&(k + offset).to_string());
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A flow's random start offset: uniform whole picoseconds in [0, jitter) from the flow's own
/// stream, so adding a flow never moves another flow's start.
fn start_jitter(seed: u64, flow: &str, jitter: Dur) -> Dur {
    if jitter.0 == 0 {
        return Dur::ZERO;
    }
    Dur(crate::rng::stream(seed, &format!("start/{flow}")).random_range(0..jitter.0))
}

pub(crate) fn expand_flows(scn: &Scenario, names: &Names, seed: u64) -> CResult<Vec<ResolvedFlow>> {
    let mut out: Vec<ResolvedFlow> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (i, f) in scn.flows.iter().enumerate() {
        let path = format!("flows[{i}]");
        let n = f.repeat.unwrap_or(1);
        if f.repeat == Some(0) {
            return Err(ConfigError::new(format!("{path}.repeat"), "must be at least 1"));
        }
        let uses_i = [Some(&f.from), Some(&f.to), f.name.as_ref()]
            .iter()
            .flatten()
            .any(|s| s.contains("{i"));
        if uses_i && f.repeat.is_none() {
            return Err(ConfigError::new(path, "uses `{i}` but has no `repeat`"));
        }
        for (field, s) in [("from", Some(&f.from)), ("to", Some(&f.to)), ("name", f.name.as_ref())]
        {
            if let Some(s) = s {
                substitute_index(s, 0)
                    .map_err(|reason| ConfigError::new(format!("{path}.{field}"), reason))?;
            }
        }
        if let Some(s) = &f.stagger {
            if s.group == Some(0) {
                return Err(ConfigError::new(
                    format!("{path}.stagger.group"),
                    "must be at least 1",
                ));
            }
            if s.cycle == Some(0) {
                return Err(ConfigError::new(
                    format!("{path}.stagger.cycle"),
                    "must be at least 1",
                ));
            }
        }
        validate_app(&f.app, &f.transport, &path)?;
        if f.deadline.is_some() && !matches!(f.transport, TransportSpec::Udp {}) {
            return Err(ConfigError::new(
                format!("{path}.deadline"),
                "is measured by the UDP sink: only UDP flows have one",
            ));
        }
        for k in 0..n {
            let sub = |s: &str| substitute_index(s, k as u64).expect("checked above");
            let name = match &f.name {
                Some(nm) if f.repeat.is_some() && !nm.contains("{i") => format!("{nm}{k}"),
                Some(nm) => sub(nm),
                None => format!("flow{}", out.len()),
            };
            let src = names.node(&sub(&f.from), &format!("{path}.from"))?;
            let dst = names.node(&sub(&f.to), &format!("{path}.to"))?;
            if src == dst {
                return Err(ConfigError::new(
                    format!("{path}.to"),
                    format!("flow '{name}' goes from '{}' to itself", sub(&f.from)),
                ));
            }
            let shift = f.stagger.as_ref().map_or(Dur::ZERO, |s| {
                let step = k / s.group.unwrap_or(1);
                Dur(s.every.0 .0 * s.cycle.map_or(step, |c| step % c) as u64)
            });
            let shift =
                shift + f.start_jitter.map_or(Dur::ZERO, |j| start_jitter(seed, &name, j.0));
            let start = SimTime::ZERO + f.start.map_or(Dur::ZERO, |t| t.0) + shift;
            let stop = f.stop.map(|t| SimTime::ZERO + t.0 + shift);
            if let Some(stop) = stop {
                if stop <= start {
                    return Err(ConfigError::new(
                        format!("{path}.stop"),
                        format!("flow '{name}' stops at {stop}, not after its start {start}"),
                    ));
                }
            }
            if f.detach_at_stop && stop.is_none() {
                return Err(ConfigError::new(
                    format!("{path}.detach_at_stop"),
                    format!("flow '{name}' has no `stop` to detach its ends at"),
                ));
            }
            if let Some(first) = seen.insert(name.clone(), path.clone()) {
                return Err(ConfigError::new(
                    format!("{path}.name"),
                    format!("duplicate flow name '{name}' (first at {first})"),
                ));
            }
            let main = ResolvedFlow {
                name,
                path: path.clone(),
                src,
                dst,
                start,
                stop,
                detach_at_stop: f.detach_at_stop,
                app: f.app.clone(),
                transport: f.transport.clone(),
                prio: f.prio,
                tag: f.tag,
                deadline: f.deadline.map(|d| d.0),
                conn: 0,
            };
            // HTTP/1.0's extra parallel connections follow their flow.
            let extra: Vec<ResolvedFlow> = (1..http_connections(&f.app))
                .map(|k| ResolvedFlow {
                    name: format!("{}/c{k}", main.name),
                    conn: k,
                    ..main.clone()
                })
                .collect();
            out.push(main);
            for x in extra {
                if let Some(first) = seen.insert(x.name.clone(), path.clone()) {
                    return Err(ConfigError::new(
                        format!("{path}.name"),
                        format!("duplicate flow name '{}' (first at {first})", x.name),
                    ));
                }
                out.push(x);
            }
        }
    }
    Ok(out)
}

/// Every flow must have a path to its destination (and back, for transports with feedback).
pub(crate) fn check_routes(flows: &[ResolvedFlow], net: &Net) -> CResult<()> {
    let link_to = |l: crate::ids::LinkId| net.links[l.idx()].to;
    for f in flows {
        let mut legs = vec![(f.src, f.dst, "")];
        if !matches!(f.transport, TransportSpec::Udp {}) {
            legs.push((f.dst, f.src, " for its ACKs"));
        }
        for (from, to, why) in legs {
            if let Err(at) = net.routes.trace_path(from, to, link_to) {
                let (s, d, a) = (
                    &net.nodes[from.idx()].name,
                    &net.nodes[to.idx()].name,
                    &net.nodes[at.idx()].name,
                );
                return Err(ConfigError::new(
                    format!("{}.to", f.path),
                    format!("flow '{}': no route from '{s}' to '{d}'{why} (the path ends or loops at '{a}')", f.name),
                ));
            }
        }
    }
    Ok(())
}

fn positive(v: f64, path: &str) -> CResult<f64> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(ConfigError::new(path, format!("{v} must be a positive number")))
    }
}

fn size_dist(size: Option<SizeSpec>, dist: &Option<SizeDistSpec>, path: &str) -> CResult<SizeDist> {
    let s = size.map_or(210, |s| s.0 .0);
    if s == 0 || s > u32::MAX as u64 {
        return Err(ConfigError::new(
            format!("{path}.size"),
            "packet size must be between 1 B and 4 GB",
        ));
    }
    Ok(match dist {
        None => SizeDist::Fixed(s as u32),
        Some(SizeDistSpec::Uniform { min, max }) => {
            let (a, b) = (min.0 .0 as u32, max.0 .0 as u32);
            if a == 0 || a > b {
                return Err(ConfigError::new(
                    format!("{path}.size_dist"),
                    "needs 1 B <= min <= max",
                ));
            }
            SizeDist::Uniform { min: a, max: b }
        }
        Some(SizeDistSpec::Exponential { min, max }) => {
            let a = min.map_or(1, |m| m.0 .0 as u32).max(1);
            let b = max.map_or(65_535, |m| m.0 .0 as u32);
            if a > b {
                return Err(ConfigError::new(format!("{path}.size_dist"), "needs min <= max"));
            }
            SizeDist::Exponential { mean: s as f64, min: a, max: b }
        }
    })
}

/// Mean gap from exactly one of `rate` (with the mean size) or `interval`.
fn mean_gap(
    rate: Option<RateSpec>,
    interval: Option<TimeSpec>,
    size: &SizeDist,
    path: &str,
) -> CResult<Dur> {
    let gap = match (rate, interval) {
        (Some(r), None) => Dur::from_secs_f64(size.mean() * 8.0 / r.0 .0 as f64),
        (None, Some(t)) => t.0,
        _ => return Err(ConfigError::new(path, "give exactly one of `rate` or `interval`")),
    };
    if gap == Dur::ZERO {
        return Err(ConfigError::new(path, "the packet interval must be greater than zero"));
    }
    Ok(gap)
}

fn period(p: &Option<PeriodSpec>, path: &str) -> CResult<Period> {
    period_or(p, Period::exponential(0.5), path)
}

/// A period distribution, or `default` when none is given.
fn period_or(p: &Option<PeriodSpec>, default: Period, path: &str) -> CResult<Period> {
    let Some(p) = p else { return Ok(default) };
    let mean = positive(p.mean.0.as_secs_f64(), &format!("{path}.mean"))?;
    Ok(match p.dist {
        PeriodDist::Exponential => Period::exponential(mean),
        PeriodDist::Pareto => {
            let shape = p.shape.unwrap_or(1.5);
            if !(shape > 1.0 && shape.is_finite()) {
                return Err(ConfigError::new(
                    format!("{path}.shape"),
                    "Pareto shape must be > 1 (finite mean)",
                ));
            }
            Period::pareto(mean, shape)
        }
        PeriodDist::Uniform => Period::uniform(mean),
    })
}

/// Checks the app and transport and that they fit together.
fn validate_app(app: &AppSpec, transport: &TransportSpec, path: &str) -> CResult<()> {
    let app_path = format!("{path}.app");
    match transport {
        TransportSpec::Udp {} => generator(app, &app_path).map(|_| ()),
        TransportSpec::Tcp(cfg) => {
            let p = cfg.resolve(&format!("{path}.transport"))?;
            stream_app(app, p.payload.0, &app_path, &[], crate::rng::stream(0, "check"))?;
            tcp_app_bytes(app, &app_path).map(|_| ())
        }
        TransportSpec::TcpFull(cfg) => {
            let p = cfg.resolve(&format!("{path}.transport"))?;
            if let AppSpec::Http { serve_after: Some(_), .. } = app {
                return Err(ConfigError::new(
                    format!("{app_path}.serve_after"),
                    "is for the one-way agents (`transport = { kind = \"tcp\" }`): over `tcp_full` the request is data and the server answers when all of it has arrived",
                ));
            }
            match stream_app(app, p.mss, &app_path, &[], crate::rng::stream(0, "check"))? {
                Some(_) => Ok(()),
                None => full_app(app, &app_path).map(|_| ()),
            }
        }
        TransportSpec::Tfrc(cfg) => {
            cfg.resolve(&format!("{path}.transport"))?;
            bulk_only(app, &app_path, "tfrc")
        }
        TransportSpec::Stp(cfg) => {
            cfg.resolve(&format!("{path}.transport"))?;
            bulk_only(app, &app_path, "stp")
        }
    }
}

/// Rate-controlled transports that always have data: only `bulk` traffic fits.
fn bulk_only(app: &AppSpec, path: &str, transport: &str) -> CResult<()> {
    match app {
        AppSpec::Bulk {} => Ok(()),
        _ => Err(ConfigError::new(
            format!("{path}.kind"),
            format!("'{}' traffic cannot run over {transport}: use kind = \"bulk\"", app_name(app)),
        )),
    }
}

/// The bytes a TCP application sends (None: unbounded).
fn tcp_app_bytes(app: &AppSpec, path: &str) -> CResult<Option<u64>> {
    match app {
        AppSpec::Bulk {} => Ok(None),
        AppSpec::File { close: Some(_), .. } => Err(ConfigError::new(
            format!("{path}.close"),
            "only a tcp_full connection closes: a one-way TCP has no FIN",
        )),
        AppSpec::File { size, .. } if size.0 .0 > 0 => Ok(Some(size.0 .0)),
        AppSpec::File { .. } => {
            Err(ConfigError::new(format!("{path}.size"), "a file transfer needs at least 1 byte"))
        }
        AppSpec::Video { .. } => Err(ConfigError::new(
            format!("{path}.kind"),
            "'video' runs over UDP (its layers need datagrams): leave out `transport`",
        )),
        AppSpec::Repeat { .. } | AppSpec::Telnet { .. } | AppSpec::Http { .. } => Ok(None),
        // Application-limited TCP: the generator feeds the sender (None: no byte limit).
        _ => generator(app, path).map(|_| None),
    }
}

/// The byte-stream application of a TCP flow (`repeat`, `telnet`, `http`; None for the
/// others), drawing from `rng`.
/// Most objects of a fixed or WebTraf page (a page's sizes are held in memory).
const MAX_PAGE_OBJECTS: u32 = 10_000;

fn page_objects(n: u32, path: &str) -> CResult<u32> {
    if n > MAX_PAGE_OBJECTS {
        return Err(ConfigError::new(
            format!("{path}.page.objects"),
            format!("{n} is more than {MAX_PAGE_OBJECTS} objects per page"),
        ));
    }
    Ok(n)
}

/// Most parallel connections of an HTTP/1.0 page.
const MAX_PARALLEL: u32 = 16;

/// `conns`: the senders of an HTTP/1.0 flow's extra parallel connections.
/// `segment`: the payload bytes of one segment (`packet_size`, or full TCP's `mss`).
fn stream_app(
    app: &AppSpec,
    segment: u64,
    path: &str,
    conns: &[AgentId],
    rng: SimRng,
) -> CResult<Option<Box<dyn StreamApp>>> {
    Ok(Some(match app {
        AppSpec::Repeat { .. } => {
            let (size, gap, count, fresh) = repeat_dists(app, path)?;
            Box::new(Repeat::new(size, gap, count, fresh, rng))
        }
        AppSpec::Telnet { size, gap, count } => {
            let bytes = size.map_or(100, |s| s.0 .0);
            if bytes == 0 || bytes > segment {
                return Err(ConfigError::new(
                    format!("{path}.size"),
                    format!("a keystroke of {bytes} B must be between 1 B and the transport's segment payload ({segment} B, `packet_size` or `mss`): one keystroke is one segment"),
                ));
            }
            let gap = period_or(gap, Period::exponential(0.2), &format!("{path}.gap"))?;
            Box::new(Telnet::new(bytes, gap, at_least_one(*count, path)?, rng))
        }
        AppSpec::Http { version, page, think, count, request, parallel, serve_after } => {
            if request.is_some_and(|r| r.0 .0 == 0) {
                return Err(ConfigError::new(
                    format!("{path}.request"),
                    "a request needs at least 1 byte",
                ));
            }
            match (version, parallel) {
                (HttpVersion::Http11, Some(_)) => return Err(ConfigError::new(
                    format!("{path}.parallel"),
                    "HTTP/1.1 uses one persistent connection: `parallel` is for version \"1.0\"",
                )),
                (_, Some(n)) if !(1..=MAX_PARALLEL).contains(n) => {
                    return Err(ConfigError::new(
                        format!("{path}.parallel"),
                        format!("{n} is not in 1..={MAX_PARALLEL}"),
                    ))
                }
                _ => {}
            }
            let page = match page {
                None => PageDist::Fixed { index: 1000, objects: 8, object: 10_000 },
                Some(PageSpec::Fixed { index, objects, object }) => {
                    let index = index.map_or(1000, |s| s.0 .0);
                    let object = object.map_or(10_000, |s| s.0 .0);
                    if index == 0 || object == 0 {
                        return Err(ConfigError::new(
                            format!("{path}.page"),
                            "index and object sizes need at least 1 byte",
                        ));
                    }
                    PageDist::Fixed {
                        index,
                        objects: page_objects(objects.unwrap_or(8), path)?,
                        object,
                    }
                }
                Some(PageSpec::Surge) => PageDist::Surge(Surge::default()),
                Some(PageSpec::Webtraf { objects, mean, shape }) => {
                    let mean = positive(mean.unwrap_or(12.0), &format!("{path}.page.mean"))?;
                    let shape = shape.unwrap_or(1.2);
                    if !(shape > 1.0 && shape.is_finite()) {
                        return Err(ConfigError::new(
                            format!("{path}.page.shape"),
                            "ParetoII shape must be > 1 (finite mean)",
                        ));
                    }
                    let objects = page_objects(objects.unwrap_or(1), path)?;
                    if objects == 0 {
                        return Err(ConfigError::new(
                            format!("{path}.page.objects"),
                            "a page needs at least 1 object",
                        ));
                    }
                    PageDist::Webtraf { objects, mean, shape, packet: segment }
                }
            };
            let think = period_or(think, Period::uniform(2.5), &format!("{path}.think"))?;
            let version = match version {
                HttpVersion::Http10 => Version::Http10,
                HttpVersion::Http11 => Version::Http11,
            };
            let after_ack = *serve_after == Some(ServeAfter::RequestAck);
            Box::new(
                Http::new(version, page, think, at_least_one(*count, path)?, conns.to_vec(), rng)
                    .serving_after_request_ack(after_ack),
            )
        }
        _ => return Ok(None),
    }))
}

/// The byte-stream application of flow `i` (None: not a stream app): an HTTP/1.0 extra
/// parallel connection's, or the flow's own, drawing from `rng`.
fn flow_stream_app(
    f: &ResolvedFlow,
    i: usize,
    segment: u64,
    path: &str,
    rng: SimRng,
) -> CResult<Option<Box<dyn StreamApp>>> {
    if f.conn > 0 {
        let main = AgentId(2 * (i as u32 - f.conn));
        return Ok(Some(Box::new(crate::app::http::HttpConnection::new(main, f.conn))));
    }
    let conns: Vec<AgentId> =
        (1..http_connections(&f.app)).map(|k| AgentId(2 * (i as u32 + k))).collect();
    stream_app(&f.app, segment, path, &conns, rng)
}

/// Over full TCP, the source runs the application; the destination is a web client (whose
/// page requests are data to the server), a telnet server echoing every keystroke, or a
/// receiver.
fn full_stream_roles(f: &ResolvedFlow, app: Box<dyn StreamApp>) -> (Role, Role) {
    let (request, reader) = match &f.app {
        AppSpec::Http { request, .. } => {
            let r = request.map_or(536, |s| s.0 .0);
            ((f.conn == 0).then_some(r), Role::Client { request: r })
        }
        AppSpec::Telnet { .. } => (None, Role::Echo),
        _ => (None, Role::Sink),
    };
    let close_when_idle = matches!(f.app, AppSpec::Http { .. });
    (Role::App { app, request, got: 0, requests: 0, close_when_idle, stop: f.stop }, reader)
}

/// Connections an `http` app uses at a time (1 for everything else).
fn http_connections(app: &AppSpec) -> u32 {
    match app {
        AppSpec::Http { version: HttpVersion::Http10, parallel, .. } => parallel.unwrap_or(4),
        _ => 1,
    }
}

/// A `count` of transactions: at least 1 when given.
fn at_least_one(count: Option<u32>, path: &str) -> CResult<Option<u32>> {
    if count == Some(0) {
        return Err(ConfigError::new(
            format!("{path}.count"),
            "must be at least 1 (leave it out for no limit)",
        ));
    }
    Ok(count)
}

/// The size and think-time distributions of a `repeat` app.
fn repeat_dists(app: &AppSpec, path: &str) -> CResult<(TransferSize, Gap, Option<u32>, bool)> {
    let AppSpec::Repeat { size, size_dist, shape, think, think_dist, count, new_connection } = app
    else {
        unreachable!("repeat_dists is called for repeat apps only")
    };
    let bytes = size.0 .0;
    if bytes == 0 {
        return Err(ConfigError::new(format!("{path}.size"), "a transfer needs at least 1 byte"));
    }
    if *count == Some(0) {
        return Err(ConfigError::new(
            format!("{path}.count"),
            "must be at least 1 (leave it out for no limit)",
        ));
    }
    let dist = size_dist.unwrap_or(TransferDist::Fixed);
    if shape.is_some() && dist != TransferDist::Pareto {
        return Err(ConfigError::new(
            format!("{path}.shape"),
            "only a Pareto size_dist has a shape",
        ));
    }
    let size = match dist {
        TransferDist::Fixed => TransferSize::Fixed(bytes),
        TransferDist::Exponential => TransferSize::exponential(bytes as f64),
        TransferDist::Pareto => {
            let a = shape.unwrap_or(1.5);
            if !(a > 1.0 && a.is_finite()) {
                return Err(ConfigError::new(
                    format!("{path}.shape"),
                    "Pareto shape must be > 1 (finite mean)",
                ));
            }
            TransferSize::pareto(bytes as f64, a)
        }
    };
    let t = think.map_or(Dur::ZERO, |t| t.0);
    let gap = match think_dist.unwrap_or(ThinkDist::Fixed) {
        ThinkDist::Fixed => Gap::Fixed(t),
        ThinkDist::Exponential => {
            Gap::exponential(positive(t.as_secs_f64(), &format!("{path}.think"))?)
        }
    };
    Ok((size, gap, *count, *new_connection))
}

/// The application of a full TCP connection.
fn full_app(app: &AppSpec, path: &str) -> CResult<crate::tcp::full::app::AppKind> {
    use crate::tcp::full::app::AppKind;
    match app {
        AppSpec::Bulk {} => Ok(AppKind::Bulk),
        AppSpec::File { size, close } if size.0 .0 > 0 => Ok(AppKind::File { bytes: size.0 .0, close: close.unwrap_or(true) }),
        AppSpec::File { .. } => Err(ConfigError::new(format!("{path}.size"), "a file transfer needs at least 1 byte")),
        AppSpec::Transactions { request, response, count, think, split } => {
            if request.0 .0 == 0 || response.0 .0 == 0 {
                return Err(ConfigError::new(path, "request and response need at least 1 byte each"));
            }
            if split.is_some_and(|s| s.0 .0 == 0 || s.0 .0 >= request.0 .0) {
                return Err(ConfigError::new(format!("{path}.split"), "must be between 1 byte and the request size (exclusive)"));
            }
            Ok(AppKind::Transactions {
                request: request.0 .0,
                response: response.0 .0,
                count: *count,
                think: think.map_or(Dur::ZERO, |t| t.0),
                split: split.map(|s| s.0 .0),
            })
        }
        _ => Err(ConfigError::new(
            format!("{path}.kind"),
            format!("'{}' traffic cannot run over tcp_full: use bulk, file, transactions, repeat, telnet or http", app_name(app)),
        )),
    }
}

fn app_name(app: &AppSpec) -> &'static str {
    match app {
        AppSpec::Cbr { .. } => "cbr",
        AppSpec::Poisson { .. } => "poisson",
        AppSpec::Onoff { .. } => "onoff",
        AppSpec::Bulk {} => "bulk",
        AppSpec::File { .. } => "file",
        AppSpec::Transactions { .. } => "transactions",
        AppSpec::Repeat { .. } => "repeat",
        AppSpec::Video { .. } => "video",
        AppSpec::Telnet { .. } => "telnet",
        AppSpec::Http { .. } => "http",
    }
}

/// The generator and ns-2 packet type for an app.
fn generator(app: &AppSpec, path: &str) -> CResult<(Box<dyn Generator>, PType)> {
    Ok(match app {
        AppSpec::Cbr { rate, interval, size, size_dist: sd, jitter } => {
            let size = size_dist(*size, sd, path)?;
            let j = jitter.unwrap_or(0.0);
            if !(0.0..=1.0).contains(&j) {
                return Err(ConfigError::new(
                    format!("{path}.jitter"),
                    format!("{j} is not in [0, 1]"),
                ));
            }
            let exact = match (rate, sd) {
                // Fixed size and a rate: the exact interval, rounded up like serialization.
                (Some(r), None) if interval.is_none() => Some(r.0.tx_time(size.mean() as u64)),
                _ => None,
            };
            let interval = match exact {
                Some(i) => i,
                None => mean_gap(*rate, *interval, &size, path)?,
            };
            (Box::new(Cbr { interval, size, jitter: j }), PType::Cbr)
        }
        AppSpec::Poisson { rate, interval, size, size_dist: sd } => {
            let size = size_dist(*size, sd, path)?;
            let gap = mean_gap(*rate, *interval, &size, path)?;
            (Box::new(Poisson::new(gap, size)), PType::Udp)
        }
        AppSpec::Onoff { rate, size, size_dist: sd, on, off } => {
            let size = size_dist(*size, sd, path)?;
            let peak = rate.map_or(64_000.0, |r| r.0 .0 as f64);
            let interval = Dur::from_secs_f64(size.mean() * 8.0 / peak);
            let ptype = match on.as_ref().map(|p| p.dist) {
                Some(PeriodDist::Pareto) => PType::Pareto,
                _ => PType::Exp,
            };
            let g = OnOff::new(
                interval,
                size,
                period(on, &format!("{path}.on"))?,
                period(off, &format!("{path}.off"))?,
            );
            (Box::new(g), ptype)
        }
        AppSpec::Video { sequences, frame_rate, packet_size, pacing, gap, layer_prios } => {
            let fields = VideoFields {
                sequences,
                frame_rate: *frame_rate,
                packet_size: *packet_size,
                pacing: *pacing,
                gap: *gap,
                layer_prios: *layer_prios,
            };
            (Box::new(video(fields, path)?), PType::Udp)
        }
        AppSpec::Bulk {}
        | AppSpec::File { .. }
        | AppSpec::Repeat { .. }
        | AppSpec::Telnet { .. }
        | AppSpec::Http { .. } => {
            return Err(ConfigError::new(
                format!("{path}.kind"),
                format!(
                    "'{}' needs a transport with feedback: set transport = {{ kind = \"tcp\" }}",
                    app_name(app)
                ),
            ))
        }
        AppSpec::Transactions { .. } => return Err(ConfigError::new(
            format!("{path}.kind"),
            "'transactions' needs a two-way connection: set transport = { kind = \"tcp_full\" }",
        )),
    })
}

fn endpoints(
    f: &ResolvedFlow,
    src_agent: AgentId,
    dst_agent: AgentId,
) -> crate::tcp::build::Endpoints {
    crate::tcp::build::Endpoints {
        src: (f.src, src_agent),
        dst: (f.dst, dst_agent),
        prio: f.prio,
        tag: f.tag,
    }
}

/// Builds the source and sink agents of every flow and arms the sources' start timers.
pub(crate) fn build_agents(
    flows: Vec<ResolvedFlow>,
    seed: u64,
    net: &mut Net,
) -> CResult<(Vec<AgentSlot>, Vec<FlowInfo>)> {
    let mut agents = Vec::with_capacity(flows.len() * 2);
    let mut infos = Vec::with_capacity(flows.len());
    for (i, f) in flows.into_iter().enumerate() {
        let flow = crate::ids::FlowId(i as u32);
        let (src_agent, dst_agent) = (AgentId(2 * i as u32), AgentId(2 * i as u32 + 1));
        let app_path = format!("{}.app", f.path);
        let (mut one_way, mut window, mut tcp_profile) = (None, None, None);
        let mut pausable = true;
        let (source, sink, transport): (Box<dyn Agent>, Box<dyn Agent>, &'static str) = match &f
            .transport
        {
            TransportSpec::Udp {} => {
                let (gen, ptype) = generator(&f.app, &app_path)?;
                let stop = f.stop.unwrap_or(SimTime::MAX);
                let mut s = UdpSource::new(
                    gen,
                    stream(seed, &format!("flow/{}/app", f.name)),
                    ptype,
                    f.dst,
                    dst_agent,
                    stop,
                );
                s.prio = f.prio;
                s.tag = f.tag;
                (Box::new(s), Box::new(UdpSink { deadline: f.deadline }), "udp")
            }
            TransportSpec::Tcp(cfg) => {
                let p = cfg.resolve(&format!("{}.transport", f.path))?;
                let bytes = tcp_app_bytes(&f.app, &app_path)?;
                let mut phase = stream(seed, &format!("flow/{}/tcp_clock", f.name));
                let app_rng = || stream(seed, &format!("flow/{}/app", f.name));
                let app = flow_stream_app(&f, i, p.payload.0, &app_path, app_rng())?;
                pausable = app.is_none();
                let feed = match f.app {
                    AppSpec::Bulk {} | AppSpec::File { .. } => None,
                    _ if app.is_some() => None,
                    _ => Some((generator(&f.app, &app_path)?.0, app_rng())),
                };
                let (header, initial_rto, max_rto) = (p.header.0, p.initial_rto, p.max_rto);
                one_way = Some(OneWay { mss: p.payload.0, syn: p.syn });
                tcp_profile = p.profile_settings();
                if matches!(f.app, AppSpec::Bulk {} | AppSpec::File { .. }) {
                    window = Some(WindowLimit {
                        packets: p.window,
                        payload: p.payload.0,
                        header: p.header.0,
                    });
                }
                let (src, mut sink) = crate::tcp::build::agents(
                    p,
                    bytes,
                    feed,
                    app,
                    f.stop,
                    endpoints(&f, src_agent, dst_agent),
                    &mut phase,
                );
                if let (AppSpec::Http { request, serve_after, .. }, 0) = (&f.app, f.conn) {
                    // The client end sends the page requests beside its sink.
                    let size =
                        (request.map_or(536, |s| s.0 .0) + header).min(u32::MAX as u64) as u32;
                    let after_ack = *serve_after == Some(ServeAfter::RequestAck);
                    sink = Box::new(WebClient::new(
                        sink,
                        (f.src, src_agent),
                        size,
                        initial_rto,
                        max_rto,
                        f.prio,
                        f.tag,
                        after_ack,
                    ));
                }
                (src, sink, "tcp")
            }
            TransportSpec::TcpFull(cfg) => {
                let p = cfg.resolve(&format!("{}.transport", f.path))?;
                tcp_profile = p.profile_settings();
                // Simultaneous open: the destination sends its SYN at the start too.
                if p.simultaneous_open {
                    net.timer(f.start, dst_agent, TIMER_START, 0);
                }
                let mut phase = stream(seed, &format!("flow/{}/tcp_clock", f.name));
                let ends = endpoints(&f, src_agent, dst_agent);
                let (src, sink) = match flow_stream_app(
                    &f,
                    i,
                    p.mss,
                    &app_path,
                    stream(seed, &format!("flow/{}/app", f.name)),
                )? {
                    Some(app) => {
                        let (writer, reader) = full_stream_roles(&f, app);
                        crate::tcp::full::stream_agents(p, writer, reader, ends, &mut phase)
                    }
                    None => {
                        crate::tcp::full::agents(p, full_app(&f.app, &app_path)?, ends, &mut phase)
                    }
                };
                pausable = matches!(f.app, AppSpec::Bulk {});
                (src, sink, "tcp_full")
            }
            TransportSpec::Tfrc(cfg) => {
                let p = cfg.resolve(&format!("{}.transport", f.path))?;
                let (src, sink) =
                    crate::transport::tfrc::agents(p, f.stop, endpoints(&f, src_agent, dst_agent));
                (src, sink, "tfrc")
            }
            TransportSpec::Stp(cfg) => {
                let p = cfg.resolve(&format!("{}.transport", f.path))?;
                let (src, sink) =
                    crate::transport::stp::agents(p, f.stop, endpoints(&f, src_agent, dst_agent));
                (src, sink, "stp")
            }
        };
        let (source, sink) = match f.stop.filter(|_| f.detach_at_stop) {
            Some(at) => (DetachedAt::boxed(source, at), DetachedAt::boxed(sink, at)),
            None => (source, sink),
        };
        agents.push(AgentSlot { agent: source, node: f.src, flow });
        agents.push(AgentSlot { agent: sink, node: f.dst, flow });
        net.timer(f.start, src_agent, TIMER_START, 0);
        let app = app_name(&f.app);
        infos.push(FlowInfo {
            name: f.name,
            src: f.src,
            dst: f.dst,
            start: f.start,
            stop: f.stop,
            transport,
            app,
            deadline: f.deadline,
            one_way,
            window,
            tcp_profile,
            pausable,
        });
    }
    Ok((agents, infos))
}

#[cfg(test)]
mod index_tests {
    use super::substitute_index;

    #[test]
    fn index_placeholders_with_and_without_offset() {
        assert_eq!(substitute_index("h{i}", 7).unwrap(), "h7");
        assert_eq!(substitute_index("h{i+400}", 7).unwrap(), "h407");
        assert_eq!(substitute_index("w{i}_{i+2}", 1).unwrap(), "w1_3");
        assert_eq!(substitute_index("plain", 3).unwrap(), "plain");
        assert!(substitute_index("h{i-1}", 3).unwrap_err().contains("{i-1}"));
        assert!(substitute_index("h{i+x}", 3).is_err());
        assert!(substitute_index("h{i", 3).unwrap_err().contains("unclosed"));
    }
}
