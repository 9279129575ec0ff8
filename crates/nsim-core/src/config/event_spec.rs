//! Scheduled changes (`[[event]]` tables): their schema and their checks before the run.
//!
//! Each event has a time `at`, an `action` and the fields that action takes; every field is
//! checked up front against the network, the flows and the run's duration, so a bad event
//! stops the scenario before it runs (docs/scenario-reference.md "Events"). What the actions
//! do to packets and routes: net/dynamics.rs and docs/models/dynamics.md.

use schemars::JsonSchema;
use serde::Deserialize;

use super::flow_spec_build::ResolvedFlow;
use super::link_spec::ErrorSpec;
use crate::error::{CResult, ConfigError};
use crate::ids::LinkId;
use crate::net::dynamics::{Change, LinkChange};
use crate::net::error_model::ErrorModel;
use crate::net::{Link, Net};
use crate::queue::QueueChange;
use crate::time::SimTime;
use crate::units::{LimitSpec, RateSpec, SizeSpec, TimeSpec};

/// Most failures a "flap" event may schedule (on average, for exponential times): each is an
/// event and a route recomputation, and they are all made before the run.
const MAX_FLAPS: u64 = 100_000;

/// A change at a point of the run.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventSpec {
    /// When it happens, from the start of the run (at most `duration`).
    pub at: TimeSpec,
    /// What happens: "down" / "up" (a link fails / is repaired, ns-2 `rtmodel-at`), "flap"
    /// (fails and is repaired again and again: periodic, or ns-2 `rtmodel Exponential`),
    /// "set" (new link rate, delay, error model or queue parameters), "start" / "stop" (a
    /// flow), "pause" / "resume" (a flow's application stops supplying data, then goes on:
    /// ns-2 `$ftp stop` / `$ftp start`).
    pub action: EventAction,
    /// The link: "a-b" (both directions) or "a->b" (one direction), by node names.
    pub link: Option<String>,
    /// The flow of "start", "stop", "pause" or "resume", by name.
    pub flow: Option<String>,
    /// "down" only: keep the queued packets and send them when the link comes up, instead of
    /// dropping them (`link_down`). Default false (ns-2 resets the queue).
    #[serde(default)]
    pub hold_queue: bool,
    /// "flap": how long each failure lasts (the mean, with `random = "exponential"`).
    pub down_for: Option<TimeSpec>,
    /// "flap": how long the link stays up between failures (the mean, exponential).
    pub up_for: Option<TimeSpec>,
    /// "flap": no failure starts after this time. Default: the run's `duration`.
    pub until: Option<TimeSpec>,
    /// "flap": "fixed" (default: the first failure at `at`, then periodic) or "exponential"
    /// (ns-2 `rtmodel Exponential`: up and down times drawn from exponential distributions
    /// with means `up_for` and `down_for`, the first failure one up time after `at`; drawn
    /// from the run's seed and the event's index).
    #[serde(default)]
    pub random: FlapTimes,
    /// "set": the new bit rate (from the next packet serialized).
    pub rate: Option<RateSpec>,
    /// "set": the new propagation delay (for packets sent from now on); with `middlebox`, a
    /// delay hook's new hold time.
    pub delay: Option<TimeSpec>,
    /// "set": the new error model (`{ kind = "uniform", rate = 0.0 }` removes it).
    pub error: Option<ErrorSpec>,
    /// "set": the queue's capacity (DropTail, RED).
    pub limit: Option<LimitSpec>,
    /// "set": RED's min_th, in packets.
    pub min_th: Option<f64>,
    /// "set": RED's max_th, in packets.
    pub max_th: Option<f64>,
    /// "set": RED's EWMA weight, in (0, 1].
    pub w_q: Option<f64>,
    /// "set": RED's max_p, in (0, 1].
    pub max_p: Option<f64>,
    /// "set": a `step_mark` queue's marking threshold K ("20p" or bytes), below its limit.
    pub k: Option<LimitSpec>,
    /// "set": a `wrr` scheduler's weights or a `drr` scheduler's quanta, one per class in
    /// class order, each at least 1, in the unit the scheduler gives them.
    pub weights: Option<Vec<u64>>,
    /// "set": a `cbq` scheduler's `allot`s, one per class in class order, each in (0, 1].
    pub allots: Option<Vec<f64>>,
    /// "set": a `policer`'s or `shaper`'s token rate.
    pub bucket_rate: Option<RateSpec>,
    /// "set": a `policer`'s or `shaper`'s bucket depth.
    pub depth: Option<SizeSpec>,
    /// "set": an `srtcm` or `trtcm` marker's committed information rate.
    pub cir: Option<RateSpec>,
    /// "set": an `srtcm` or `trtcm` marker's committed burst size.
    pub cbs: Option<SizeSpec>,
    /// "set": an `srtcm` marker's excess burst size.
    pub ebs: Option<SizeSpec>,
    /// "set": a `trtcm` marker's peak information rate (at least its CIR).
    pub pir: Option<RateSpec>,
    /// "set": a `trtcm` marker's peak burst size.
    pub pbs: Option<SizeSpec>,
    /// "set" on a middlebox instead of a link: its `name` (default: its node's name); every
    /// hook of that name changes (docs/models/middlebox.md "Changes during a run").
    pub middlebox: Option<String>,
    /// "set", `drop_every` middlebox: the new period n (counted again from the change).
    pub n: Option<u64>,
    /// "set", `rwnd_clamp` middlebox: the new largest window written.
    pub rwnd: Option<SizeSpec>,
    /// "set", `window_cap` middlebox: the new cap in segments.
    pub segments: Option<u64>,
    /// "set", `ip_abr` middlebox: the new per-flow share.
    pub share: Option<RateSpec>,
    /// "set", `ip_abr` middlebox: the new EWMA gain, in (0, 1].
    pub gain: Option<f64>,
    /// "set", `ip_abr` middlebox: the new smallest window written.
    pub min_rwnd: Option<SizeSpec>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventAction {
    Down,
    Up,
    Flap,
    Set,
    Start,
    Stop,
    Pause,
    Resume,
}

/// How a "flap" event spaces its failures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FlapTimes {
    #[default]
    Fixed,
    Exponential,
}

impl EventAction {
    /// Whether the action is on a flow (else on a link).
    pub(crate) fn on_flow(self) -> bool {
        matches!(
            self,
            EventAction::Start | EventAction::Stop | EventAction::Pause | EventAction::Resume
        )
    }

    fn name(self) -> &'static str {
        match self {
            EventAction::Down => "down",
            EventAction::Up => "up",
            EventAction::Flap => "flap",
            EventAction::Set => "set",
            EventAction::Start => "start",
            EventAction::Stop => "stop",
            EventAction::Pause => "pause",
            EventAction::Resume => "resume",
        }
    }
}

/// The fields an event sets besides `at` and `action`, by name.
fn given(e: &EventSpec) -> [(&'static str, bool); 32] {
    [
        ("down_for", e.down_for.is_some()),
        ("up_for", e.up_for.is_some()),
        ("until", e.until.is_some()),
        ("random", e.random != FlapTimes::Fixed),
        ("link", e.link.is_some()),
        ("flow", e.flow.is_some()),
        ("hold_queue", e.hold_queue),
        ("rate", e.rate.is_some()),
        ("delay", e.delay.is_some()),
        ("error", e.error.is_some()),
        ("limit", e.limit.is_some()),
        ("min_th", e.min_th.is_some()),
        ("max_th", e.max_th.is_some()),
        ("w_q", e.w_q.is_some()),
        ("max_p", e.max_p.is_some()),
        ("k", e.k.is_some()),
        ("weights", e.weights.is_some()),
        ("allots", e.allots.is_some()),
        ("bucket_rate", e.bucket_rate.is_some()),
        ("depth", e.depth.is_some()),
        ("cir", e.cir.is_some()),
        ("cbs", e.cbs.is_some()),
        ("ebs", e.ebs.is_some()),
        ("pir", e.pir.is_some()),
        ("pbs", e.pbs.is_some()),
        ("middlebox", e.middlebox.is_some()),
        ("n", e.n.is_some()),
        ("rwnd", e.rwnd.is_some()),
        ("segments", e.segments.is_some()),
        ("share", e.share.is_some()),
        ("gain", e.gain.is_some()),
        ("min_rwnd", e.min_rwnd.is_some()),
    ]
}

/// The fields the event's action takes; "set" needs at least one besides `link` (or
/// `middlebox`, on a middlebox).
fn takes(e: &EventSpec) -> &'static [&'static str] {
    match e.action {
        EventAction::Set if e.middlebox.is_some() => MIDDLEBOX_FIELDS,
        EventAction::Down => &["link", "hold_queue"],
        EventAction::Up => &["link"],
        EventAction::Flap => &["link", "hold_queue", "down_for", "up_for", "until", "random"],
        EventAction::Set => &[
            "link",
            "rate",
            "delay",
            "error",
            "limit",
            "min_th",
            "max_th",
            "w_q",
            "max_p",
            "k",
            "weights",
            "allots",
            "bucket_rate",
            "depth",
            "cir",
            "cbs",
            "ebs",
            "pir",
            "pbs",
        ],
        EventAction::Start | EventAction::Stop | EventAction::Pause | EventAction::Resume => {
            &["flow"]
        }
    }
}

/// The fields of a "set" on a middlebox.
const MIDDLEBOX_FIELDS: &[&str] =
    &["middlebox", "delay", "n", "rwnd", "segments", "share", "gain", "min_rwnd"];

/// Checks every event's fields and time; `end` is the run's stop time, if it has one.
pub(crate) fn check_shape(events: &[EventSpec], end: Option<SimTime>) -> CResult<()> {
    for (i, e) in events.iter().enumerate() {
        let path = format!("event[{i}]");
        let action = e.action.name();
        if let Some(end) = end.filter(|&end| SimTime::ZERO + e.at.0 > end) {
            return Err(ConfigError::new(
                format!("{path}.at"),
                format!(
                    "{} s is after the run ends ({} s)",
                    e.at.0.as_secs_f64(),
                    end.as_secs_f64()
                ),
            ));
        }
        let fields = given(e);
        if let Some((f, _)) = fields.iter().find(|(f, set)| *set && !takes(e).contains(f)) {
            let on = if e.middlebox.is_some() && e.action == EventAction::Set {
                " on a middlebox"
            } else {
                ""
            };
            return Err(ConfigError::new(
                format!("{path}.{f}"),
                format!(
                    "is not used by action \"{action}\"{on} (it takes {})",
                    takes(e).join(", ")
                ),
            ));
        }
        let needs = match e.action {
            _ if e.action.on_flow() => "flow",
            EventAction::Set if e.middlebox.is_some() => "middlebox",
            _ => "link",
        };
        if !fields.iter().any(|(f, set)| *set && *f == needs) {
            return Err(ConfigError::new(
                format!("{path}.{needs}"),
                format!("is required by action \"{action}\""),
            ));
        }
        for f in ["down_for", "up_for"].into_iter().filter(|_| e.action == EventAction::Flap) {
            if !fields.iter().any(|(g, set)| *set && *g == f) {
                return Err(ConfigError::new(
                    format!("{path}.{f}"),
                    "is required by action \"flap\"",
                ));
            }
        }
        if let Some(f) = [("down_for", e.down_for), ("up_for", e.up_for)]
            .iter()
            .find(|(_, t)| t.is_some_and(|t| t.0 == crate::time::Dur::ZERO))
        {
            return Err(ConfigError::new(format!("{path}.{}", f.0), "must be greater than zero"));
        }
        if e.action == EventAction::Flap && e.until.is_none() && end.is_none() {
            return Err(ConfigError::new(
                format!("{path}.until"),
                "is required when the run has no `duration`",
            ));
        }
        if let (EventAction::Flap, Some(d), Some(u)) = (e.action, e.down_for, e.up_for) {
            let last = e.until.map(|t| SimTime::ZERO + t.0).or(end).expect("checked above");
            let cycles = last.since(SimTime::ZERO + e.at.0).0 as f64 / (d.0 .0 + u.0 .0) as f64;
            if cycles > MAX_FLAPS as f64 {
                return Err(ConfigError::new(
                    format!("{path}.down_for"),
                    format!("with up_for the link would fail about {cycles:.0} times; at most {MAX_FLAPS} (lengthen down_for or up_for, or set until)"),
                ));
            }
        }
        if e.action == EventAction::Set && fields.iter().filter(|(_, set)| *set).count() == 1 {
            return Err(ConfigError::new(
                path,
                format!("action \"set\" needs at least one of {}", takes(e)[1..].join(", ")),
            ));
        }
    }
    Ok(())
}

/// Applies the "start" / "stop" events to the flows: the flow starts (stops) at the event's
/// time, as if its `start` (`stop`) said so. Checked: the flow exists, does not give that
/// time itself, and stops after it starts.
pub(crate) fn apply_flow_events(
    events: &[EventSpec],
    flows: &mut [ResolvedFlow],
    specs: &[super::FlowSpec],
    end: Option<SimTime>,
) -> CResult<()> {
    check_shape(events, end)?;
    for (i, e) in events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.action, EventAction::Start | EventAction::Stop))
    {
        let Some(name) = &e.flow else { continue };
        let path = format!("event[{i}]");
        let f = flows.iter_mut().find(|f| &f.name == name).ok_or_else(|| {
            ConfigError::new(format!("{path}.flow"), format!("unknown flow '{name}'"))
        })?;
        let spec = (0..specs.len())
            .find(|k| format!("flows[{k}]") == f.path)
            .map(|k| &specs[k])
            .expect("a resolved flow comes from a spec");
        let at = SimTime::ZERO + e.at.0;
        let (field, own) = if e.action == EventAction::Start {
            ("start", spec.start.is_some())
        } else {
            ("stop", spec.stop.is_some())
        };
        if own {
            return Err(ConfigError::new(
                format!("{path}.action"),
                format!(
                    "flow '{name}' already has a `{field}` ({}.{field}): give one or the other",
                    f.path
                ),
            ));
        }
        if e.action == EventAction::Start {
            f.start = at;
        } else {
            f.stop = Some(at);
        }
        if let Some(stop) = f.stop.filter(|&s| s <= f.start) {
            return Err(ConfigError::new(
                format!("{path}.at"),
                format!("flow '{name}' would stop at {stop}, not after its start {}", f.start),
            ));
        }
    }
    Ok(())
}

/// The "pause" / "resume" events as flow commands, checked in time order against the flows
/// (sim/flow_control.rs).
pub(crate) fn flow_commands(
    events: &[EventSpec],
    flows: &[crate::sim::FlowInfo],
) -> CResult<Vec<crate::sim::flow_control::FlowCommand>> {
    use crate::agent::FlowControl;
    use crate::sim::flow_control::{check_command, flow_id, FlowCommand};
    let mut order: Vec<usize> = (0..events.len())
        .filter(|&i| matches!(events[i].action, EventAction::Pause | EventAction::Resume))
        .collect();
    order.sort_by_key(|&i| events[i].at.0);
    let mut out = Vec::new();
    for i in order {
        let (e, path) = (&events[i], format!("event[{i}]"));
        let name = e.flow.as_deref().expect("checked: pause and resume name a flow");
        let flow = flow_id(flows, name).ok_or_else(|| {
            ConfigError::new(format!("{path}.flow"), format!("unknown flow '{name}'"))
        })?;
        let what =
            if e.action == EventAction::Pause { FlowControl::Pause } else { FlowControl::Resume };
        let c = FlowCommand { at: SimTime::ZERO + e.at.0, flow, what };
        check_command(flows, &out, c, &path)?;
        out.push(c);
    }
    Ok(out)
}

/// The link changes of the events, checked against the network: the link exists and can
/// change (not ATM or Ethernet), the error model builds, and each queue change is taken, in
/// time order, by a spare copy of the link's discipline (`spare`: the links built again;
/// `None` when steering a run, whose live queue then answers).
pub(crate) fn link_changes(
    events: &[EventSpec],
    net: &Net,
    mut spare: Option<&mut [Link]>,
    error_model: &dyn Fn(&ErrorSpec, &str) -> CResult<ErrorModel>,
    seed: u64,
    end: Option<SimTime>,
) -> CResult<Vec<(SimTime, Change)>> {
    let mut order: Vec<usize> = (0..events.len()).collect();
    order.sort_by_key(|&i| events[i].at.0);
    let mut out = Vec::new();
    for i in order {
        let e = &events[i];
        let Some(spec) = &e.link else { continue };
        let path = format!("event[{i}]");
        let links = super::record_build::match_links(spec, net);
        if links.is_empty() {
            return Err(ConfigError::new(
                format!("{path}.link"),
                format!("no link '{spec}' (write \"a->b\" for one direction or \"a-b\" for both, with node names)"),
            ));
        }
        if let Some(&l) = links.iter().find(|&&l| net.links[l].is_atm() || net.links[l].is_eth()) {
            let kind = if net.links[l].is_atm() { "ATM" } else { "Ethernet" };
            return Err(ConfigError::new(
                format!("{path}.link"),
                format!(
                    "'{spec}' is an {kind} link: events apply to point-to-point packet links only"
                ),
            ));
        }
        let ids: Vec<LinkId> = links.iter().map(|&l| LinkId(l as u32)).collect();
        let mut whats = Vec::new();
        match e.action {
            EventAction::Flap => {
                for (at, what) in flap_times(e, seed, i, end) {
                    let action = if matches!(what, LinkChange::Up) { "up" } else { "down" };
                    out.push((
                        at,
                        Change {
                            links: ids.clone(),
                            what,
                            action: action.into(),
                            target: spec.clone(),
                        },
                    ));
                }
            }
            EventAction::Down => {
                whats.push(("down", LinkChange::Down { hold_queue: e.hold_queue }))
            }
            EventAction::Up => whats.push(("up", LinkChange::Up)),
            _ => {
                if let Some(r) = e.rate {
                    whats.push(("rate", LinkChange::Rate(r.0)));
                }
                if let Some(d) = e.delay {
                    whats.push(("delay", LinkChange::Delay(d.0)));
                }
                if let Some(spec) = &e.error {
                    let m = error_model(spec, &format!("{path}.error"))?;
                    let off = matches!(m, ErrorModel::Uniform { rate } if rate == 0.0);
                    whats.push(("error", LinkChange::Error((!off).then_some(m))));
                }
                for q in queue_changes(e) {
                    let field = format!("{path}.{}", q.field());
                    q.check().map_err(|r| ConfigError::new(&field, r))?;
                    if let Some(spare) = spare.as_deref_mut() {
                        for &l in &links {
                            spare[l]
                                .queue
                                .change_at(SimTime::ZERO + e.at.0, q.clone())
                                .map_err(|r| ConfigError::new(&field, r))?;
                        }
                    }
                    whats.push((q.field(), LinkChange::Queue(q)));
                }
            }
        }
        let at = SimTime::ZERO + e.at.0;
        for (field, what) in whats {
            let action = if e.action == EventAction::Set {
                format!("set {field}")
            } else {
                field.to_string()
            };
            out.push((at, Change { links: ids.clone(), what, action, target: spec.clone() }));
        }
    }
    Ok(out)
}

/// The failures and repairs of "flap" event `k`, from `at` to `until` (or the run's end).
fn flap_times(
    e: &EventSpec,
    seed: u64,
    k: usize,
    end: Option<SimTime>,
) -> Vec<(SimTime, LinkChange)> {
    use rand_distr::{Distribution, Exp};
    let last = e.until.map(|u| SimTime::ZERO + u.0).or(end).expect("checked: until or duration");
    let (down, up) = (e.down_for.expect("checked").0, e.up_for.expect("checked").0);
    let mut rng = crate::rng::stream(seed, &format!("event/{k}/flap"));
    let mut draw = |mean: crate::time::Dur| match e.random {
        FlapTimes::Fixed => mean,
        FlapTimes::Exponential => {
            let exp = Exp::new(1.0 / mean.as_secs_f64()).expect("mean > 0");
            crate::time::Dur::from_secs_f64(exp.sample(&mut rng)).max(crate::time::Dur(1))
        }
    };
    let mut t = SimTime::ZERO + e.at.0;
    if e.random == FlapTimes::Exponential {
        t += draw(up);
    }
    let mut out = Vec::new();
    while t <= last {
        out.push((t, LinkChange::Down { hold_queue: e.hold_queue }));
        t += draw(down);
        out.push((t, LinkChange::Up));
        t += draw(up);
    }
    out
}

/// The queue parameter changes of a "set" event, in field order.
fn queue_changes(e: &EventSpec) -> Vec<QueueChange> {
    let mut out = Vec::new();
    out.extend(e.limit.map(|l| QueueChange::Limit(l.0)));
    out.extend(e.min_th.map(QueueChange::MinTh));
    out.extend(e.max_th.map(QueueChange::MaxTh));
    out.extend(e.w_q.map(QueueChange::WQ));
    out.extend(e.max_p.map(QueueChange::MaxP));
    out.extend(e.k.map(|k| QueueChange::K(k.0)));
    out.extend(e.weights.clone().map(QueueChange::Weights));
    out.extend(e.allots.clone().map(QueueChange::Allots));
    out.extend(e.bucket_rate.map(|r| QueueChange::BucketRate(r.0)));
    out.extend(e.depth.map(|d| QueueChange::Depth(d.0 .0)));
    let meter = crate::queue::MeterChange {
        cir: e.cir.map(|r| r.0),
        cbs: e.cbs.map(|b| b.0 .0),
        ebs: e.ebs.map(|b| b.0 .0),
        pir: e.pir.map(|r| r.0),
        pbs: e.pbs.map(|b| b.0 .0),
    };
    if meter != crate::queue::MeterChange::default() {
        out.push(QueueChange::Meter(meter));
    }
    out
}

/// Whether the events need the spare links (any queue change).
pub(crate) fn changes_queues(events: &[EventSpec]) -> bool {
    events.iter().any(|e| !queue_changes(e).is_empty())
}

/// The middlebox changes of the "set" events naming a `middlebox`, checked against the
/// network's hooks: the name exists, every hook of that name has the parameter, and the value
/// is possible.
pub(crate) fn middlebox_changes(
    events: &[EventSpec],
    net: &Net,
) -> CResult<Vec<(SimTime, Change)>> {
    use crate::middlebox::HookChange;
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let Some(name) = &e.middlebox else { continue };
        let path = format!("event[{i}]");
        let Some(mb) = net.middlebox.as_deref() else {
            return Err(ConfigError::new(
                format!("{path}.middlebox"),
                format!("no middlebox '{name}': the scenario has no [[middlebox]]"),
            ));
        };
        let hooks = mb.named(name);
        if hooks.is_empty() {
            return Err(ConfigError::new(
                format!("{path}.middlebox"),
                format!("no middlebox '{name}' (middleboxes are named by their `name`, else their node: {})", mb.names().join(", ")),
            ));
        }
        let mut changes = Vec::new();
        changes.extend(e.delay.map(|d| HookChange::Delay(d.0)));
        changes.extend(e.n.map(HookChange::N));
        changes.extend(e.rwnd.map(|b| HookChange::Rwnd(b.0 .0)));
        changes.extend(e.segments.map(HookChange::Segments));
        changes.extend(e.share.map(|r| HookChange::Share(r.0 .0)));
        changes.extend(e.gain.map(HookChange::Gain));
        changes.extend(e.min_rwnd.map(|b| HookChange::MinRwnd(b.0 .0)));
        for c in changes {
            let field = format!("{path}.{}", c.field());
            c.check().map_err(|r| ConfigError::new(&field, r))?;
            if let Some(&k) = hooks.iter().find(|&&k| !mb.hook(k).parameters().contains(&c.field()))
            {
                return Err(ConfigError::new(
                    &field,
                    format!(
                        "middlebox '{name}': {}",
                        crate::middlebox::change::no_such_parameter(mb.hook(k), &c)
                    ),
                ));
            }
            let action = format!("set {}", c.field());
            out.push((
                SimTime::ZERO + e.at.0,
                Change {
                    links: Vec::new(),
                    what: LinkChange::Middlebox(hooks.clone(), c),
                    action,
                    target: name.clone(),
                },
            ));
        }
    }
    Ok(out)
}
