//! Thin PyO3 layer over nsim-core: parse/validate a scenario, run it, return the results as
//! JSON text (the Python package turns it into DataFrames). No simulation logic lives here.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use nsim_core::config::Select;
use nsim_core::sim::{Progress, Simulator};
use nsim_core::time::Dur;
use nsim_core::{build, ConfigError, RunOptions, Scenario};

create_exception!(
    _core,
    ConfigErrorPy,
    PyValueError,
    "An invalid scenario: args are (message, file, path, line, reason)."
);
create_exception!(
    _core,
    ResultsErrorPy,
    PyValueError,
    "Results could not be written (message names the path)."
);

fn config_err(e: ConfigError) -> PyErr {
    let msg = e.to_string();
    ConfigErrorPy::new_err((msg, e.file, e.path, e.line, e.reason))
}

fn parse(text: &str, source: &str, format: &str) -> PyResult<Scenario> {
    match format {
        "toml" => Scenario::from_toml(text, source),
        "json" => Scenario::from_json(text, source),
        other => return Err(PyValueError::new_err(format!("unknown scenario format '{other}'"))),
    }
    .map_err(config_err)
}

fn options(
    seed: Option<u64>,
    duration_s: Option<f64>,
    trace: Option<String>,
    source: &str,
    limits: bool,
) -> PyResult<RunOptions> {
    let duration = match duration_s {
        Some(d) if !(d.is_finite() && d > 0.0) => {
            return Err(config_err(
                ConfigError::new("duration", format!("{d} s must be a positive time"))
                    .in_file(source),
            ))
        }
        Some(d) => Some(Dur::from_secs_f64(d)),
        None => None,
    };
    Ok(RunOptions { seed, duration, trace_path: trace, no_limits: !limits, ..Default::default() })
}

/// Parses and fully validates a scenario (builds it without running). Raises ConfigError.
/// `limits=False` skips the size and memory budget.
#[pyfunction]
#[pyo3(signature = (text, source, format = "toml", limits = true))]
fn validate(text: &str, source: &str, format: &str, limits: bool) -> PyResult<()> {
    let scn = parse(text, source, format)?;
    build(&scn, &RunOptions { no_limits: !limits, ..Default::default() })
        .map_err(|e| config_err(e.in_file(source)))?;
    Ok(())
}

/// The notices the core gives about a valid scenario (a TCP flow held by its `window`), one
/// line each; `python/nsim/notices.py` adds those read off the document. Raises ConfigError.
#[pyfunction]
#[pyo3(signature = (text, source, format = "toml", limits = true))]
fn notices(text: &str, source: &str, format: &str, limits: bool) -> PyResult<Vec<String>> {
    let scn = parse(text, source, format)?;
    let sim = build(&scn, &RunOptions { no_limits: !limits, ..Default::default() })
        .map_err(|e| config_err(e.in_file(source)))?;
    Ok(nsim_core::config::window_notice::window_limited(&sim))
}

/// Runs a scenario and returns the results as JSON text.
///
/// `progress(sim_time_s, end_s, events) -> bool` is called every few hundred thousand events;
/// returning False (or raising) stops the run. `limits=False` skips the size budget.
#[pyfunction]
#[pyo3(signature = (text, source, format = "json", seed = None, duration_s = None, trace = None, progress = None, limits = true))]
#[allow(clippy::too_many_arguments)]
fn run(
    py: Python<'_>,
    text: &str,
    source: &str,
    format: &str,
    seed: Option<u64>,
    duration_s: Option<f64>,
    trace: Option<String>,
    progress: Option<Py<PyAny>>,
    limits: bool,
) -> PyResult<String> {
    let scn = parse(text, source, format)?;
    let opts = options(seed, duration_s, trace, source, limits)?;
    let sim = build(&scn, &opts).map_err(|e| config_err(e.in_file(source)))?;
    let results = run_sim(py, sim, progress.as_ref())?;
    serde_json::to_string(&results).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Runs a scenario and writes its results into `out` (summary.json, flows.csv, queues.csv,
/// classes.csv, series_<kind>.csv, packet_delays.csv, trace.tr, pcap/): no DataFrames are
/// built. The series and transfers are written while the run goes (`results/stream.rs`), so
/// their memory stays bounded however long the run.
///
/// `trace`: the ns-2 trace path (default `out/trace.tr` when the scenario sets
/// `record.trace`). `pcap`: True (all link directions) or a list of "a->b" / "a-b",
/// overriding `record.pcap`; files go to `out/pcap/`. `limits=False` skips the size budget.
/// Returns summary.json's content as a dict (so `nsim run` needs no `json` module), plus
/// `notices`: the core's notices about the scenario (see [`notices`]), which the file leaves out.
#[pyfunction]
#[pyo3(signature = (text, source, out, format = "toml", seed = None, duration_s = None, trace = None, pcap = None, progress = None, limits = true))]
#[allow(clippy::too_many_arguments)]
fn run_to_dir(
    py: Python<'_>,
    text: &str,
    source: &str,
    out: &str,
    format: &str,
    seed: Option<u64>,
    duration_s: Option<f64>,
    trace: Option<String>,
    pcap: Option<Bound<'_, PyAny>>,
    progress: Option<Py<PyAny>>,
    limits: bool,
) -> PyResult<Py<PyAny>> {
    let scn = parse(text, source, format)?;
    let out_dir = std::path::Path::new(out);
    let trace = trace.or_else(|| {
        scn.record.trace.then(|| out_dir.join("trace.tr").to_string_lossy().into_owned())
    });
    let mut opts = options(seed, duration_s, trace, source, limits)?;
    opts.pcap_dir = Some(out_dir.join("pcap").to_string_lossy().into_owned());
    opts.pcap = match pcap {
        None => None,
        Some(p) => Some(if let Ok(all) = p.extract::<bool>() {
            Select::All(all)
        } else {
            Select::Named(p.extract::<Vec<String>>()?)
        }),
    };
    let cannot_write =
        |e: std::io::Error| ResultsErrorPy::new_err(format!("{out}: cannot write results: {e}"));
    std::fs::create_dir_all(out_dir).map_err(cannot_write)?;
    let mut sim = build(&scn, &opts).map_err(|e| config_err(e.in_file(source)))?;
    sim.stream_to(out_dir);
    let notices = nsim_core::config::window_notice::window_limited(&sim);
    let results = run_sim(py, sim, progress.as_ref())?;
    nsim_core::results::files::write_dir(&results, out_dir).map_err(cannot_write)?;
    let mut summary = serde_json::to_value(results.summary())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    summary["notices"] = notices.into();
    to_python(py, &summary)
}

/// A JSON value as the Python object `json.loads` would give (objects' keys sorted).
fn to_python(py: Python<'_>, v: &serde_json::Value) -> PyResult<Py<PyAny>> {
    use pyo3::types::{PyDict, PyList};
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any().unbind(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any().unbind(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any().unbind(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, to_python(py, item)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// Runs `sim`, calling `progress(sim_time_s, end_s, events) -> bool` every few hundred
/// thousand events (False or an exception stops the run; the exception is re-raised).
fn run_sim(
    py: Python<'_>,
    sim: Simulator,
    progress: Option<&Py<PyAny>>,
) -> PyResult<nsim_core::Results> {
    let mut raised: Option<PyErr> = None;
    let results = sim.run(&mut |p| report(py, progress, p, &mut raised)).map_err(|e| {
        ResultsErrorPy::new_err(format!("cannot write results, trace or pcap: {e}"))
    })?;
    if let Some(e) = raised {
        return Err(e);
    }
    Ok(results)
}

/// A run that can be paused, looked at and changed (Python's `nsim.Simulation`): the core's
/// `Simulator` advanced step by step. Not shared between threads.
#[pyclass(unsendable)]
struct Simulation {
    /// `None` once `finish` has taken it.
    sim: Option<Simulator>,
    source: String,
}

impl Simulation {
    fn sim(&mut self) -> PyResult<&mut Simulator> {
        self.sim.as_mut().ok_or_else(|| {
            PyValueError::new_err("the simulation has finished: results() was called")
        })
    }
}

#[pymethods]
impl Simulation {
    /// Builds the run (validating the scenario as `run` does). Raises ConfigError.
    #[new]
    #[pyo3(signature = (text, source, format = "json", seed = None, duration_s = None, limits = true))]
    fn new(
        text: &str,
        source: &str,
        format: &str,
        seed: Option<u64>,
        duration_s: Option<f64>,
        limits: bool,
    ) -> PyResult<Self> {
        let scn = parse(text, source, format)?;
        let opts = options(seed, duration_s, None, source, limits)?;
        let sim = build(&scn, &opts).map_err(|e| config_err(e.in_file(source)))?;
        Ok(Simulation { sim: Some(sim), source: source.to_string() })
    }

    /// Runs every event due at or before `until_s` (seconds; None: to the end). Returns False
    /// if `progress(sim_time_s, end_s, events)` stopped it.
    #[pyo3(signature = (until_s = None, progress = None))]
    fn advance(
        &mut self,
        py: Python<'_>,
        until_s: Option<f64>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<bool> {
        let sim = self.sim()?;
        let until = match until_s {
            None => nsim_core::time::SimTime::MAX,
            Some(t) if t.is_finite() && t >= 0.0 => {
                nsim_core::time::SimTime::ZERO + Dur::from_secs_f64(t)
            }
            Some(t) => {
                return Err(PyValueError::new_err(format!("until: {t} s is not a time >= 0")))
            }
        };
        let mut raised: Option<PyErr> = None;
        let done =
            sim.advance(until, &mut |p: Progress| report(py, progress.as_ref(), p, &mut raised));
        raised.map_or(Ok(done), Err)
    }

    /// The simulated time the run stands at, in seconds.
    fn now_s(&mut self) -> PyResult<f64> {
        Ok(self.sim()?.now().as_secs_f64())
    }

    /// The stop time in seconds (None: runs until no events remain).
    fn end_s(&mut self) -> PyResult<Option<f64>> {
        Ok(self.sim()?.end.map(|e| e.as_secs_f64()))
    }

    /// The live state (flows, links) as JSON text.
    fn state_json(&mut self) -> PyResult<String> {
        serde_json::to_string(&self.sim()?.state())
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Makes a change: `event_json` is one `[[event]]` table as JSON. Raises ConfigError.
    fn change(&mut self, event_json: &str) -> PyResult<()> {
        let source = self.source.clone();
        let event = serde_json::from_str(event_json).map_err(|e| {
            config_err(ConfigError {
                file: source.clone(),
                path: "event".into(),
                line: None,
                reason: e.to_string(),
            })
        })?;
        self.sim()?.change(&event).map_err(|e| config_err(e.in_file(&source)))
    }

    /// Ends the run where it stands and returns its results as JSON text (as `run` does).
    fn finish(&mut self) -> PyResult<String> {
        let sim =
            self.sim.take().ok_or_else(|| PyValueError::new_err("results() was already called"))?;
        let results = sim
            .finish(false)
            .map_err(|e| ResultsErrorPy::new_err(format!("cannot write trace or pcap: {e}")))?;
        serde_json::to_string(&results).map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

/// Calls `progress(sim_time_s, end_s, events) -> bool`; an exception is kept in `raised`
/// and stops the run.
fn report(
    py: Python<'_>,
    progress: Option<&Py<PyAny>>,
    p: Progress,
    raised: &mut Option<PyErr>,
) -> bool {
    let Some(cb) = progress else { return true };
    let end = p.end.map(|e| e.as_secs_f64());
    match cb
        .call1(py, (p.sim_time.as_secs_f64(), end, p.events))
        .and_then(|r| r.extract::<bool>(py))
    {
        Ok(keep_going) => keep_going,
        Err(e) => {
            *raised = Some(e);
            false
        }
    }
}

/// Names of the drop reasons, in the order results columns list them.
#[pyfunction]
fn drop_reasons() -> Vec<&'static str> {
    nsim_core::record::DropReason::ALL.iter().map(|r| r.name()).collect()
}

/// A TOML scenario file as `json.dumps(tomllib.loads(text), indent=2)` writes it, or None
/// where `tomllib` is needed: dates and times, NaN, infinities (`nsim run`'s scenario.json).
#[pyfunction]
fn toml_document_json(text: &str) -> Option<String> {
    nsim_core::config::document_json::document_json(text)
}

/// The JSON Schema of scenario files.
#[pyfunction]
fn json_schema() -> String {
    serde_json::to_string_pretty(&Scenario::json_schema()).expect("schema serializes")
}

/// A TOML scenario file as the Python objects `tomllib.loads` gives (keys sorted), or None
/// where `tomllib` is needed (dates and times, NaN, infinities); and the JSON Schema as
/// Python objects: what `nsim.notices` reads on `nsim run`'s path, which imports neither
/// `tomllib` nor `json`.
#[pyfunction]
fn toml_document(py: Python<'_>, text: &str) -> PyResult<Option<Py<PyAny>>> {
    let Some(json) = nsim_core::config::document_json::document_json(text) else { return Ok(None) };
    let doc: serde_json::Value =
        serde_json::from_str(&json).map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_python(py, &doc).map(Some)
}

/// See [`toml_document`].
#[pyfunction]
fn json_schema_object(py: Python<'_>) -> PyResult<Py<PyAny>> {
    to_python(py, &serde_json::to_value(Scenario::json_schema()).expect("schema serializes"))
}

// -- units: the one parser of readable quantities, for the Python side -------------------

/// Parses a quantity string with the scenario rules (a unit is required, no space inside)
/// and returns it in SI units: `kind` is "time" (seconds), "rate" (bit/s), "size" (bytes) or
/// "limit" (packets, or bytes for a byte limit: returns (value, "packets"|"bytes")).
#[pyfunction]
fn parse_quantity(py: Python<'_>, kind: &str, text: &str) -> PyResult<Py<PyAny>> {
    use nsim_core::units::{check_written, parse_limit, parse_rate, parse_size, parse_time, Limit};
    let example = match kind {
        "time" => "20ms",
        "rate" => "10Mb",
        "size" => "1000B",
        "limit" => "100p",
        other => return Err(PyValueError::new_err(format!("unknown quantity kind '{other}'"))),
    };
    check_written(text, example).map_err(PyValueError::new_err)?;
    let err = |e: String| PyValueError::new_err(e);
    Ok(match kind {
        "time" => {
            parse_time(text).map_err(err)?.as_secs_f64().into_pyobject(py)?.into_any().unbind()
        }
        "rate" => parse_rate(text).map_err(err)?.0.into_pyobject(py)?.into_any().unbind(),
        "size" => parse_size(text).map_err(err)?.0.into_pyobject(py)?.into_any().unbind(),
        _ => match parse_limit(text).map_err(err)? {
            Limit::Packets(n) => (n, "packets").into_pyobject(py)?.into_any().unbind(),
            Limit::Bytes(n) => (n, "bytes").into_pyobject(py)?.into_any().unbind(),
        },
    })
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ConfigError", m.py().get_type::<ConfigErrorPy>())?;
    m.add("ResultsError", m.py().get_type::<ResultsErrorPy>())?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(notices, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(run_to_dir, m)?)?;
    m.add_function(wrap_pyfunction!(json_schema, m)?)?;
    m.add_function(wrap_pyfunction!(toml_document_json, m)?)?;
    m.add_function(wrap_pyfunction!(toml_document, m)?)?;
    m.add_function(wrap_pyfunction!(json_schema_object, m)?)?;
    m.add_function(wrap_pyfunction!(drop_reasons, m)?)?;
    m.add_function(wrap_pyfunction!(parse_quantity, m)?)?;
    m.add_class::<Simulation>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
