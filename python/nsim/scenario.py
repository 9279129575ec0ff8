"""Build, load and run scenarios.

A :class:`Scenario` holds a plain dict with exactly the structure of a scenario TOML file
(see ``docs/scenario-reference.md``). The Rust core owns the schema: it validates the dict
when the scenario is validated or run, and its errors name the field path. The builder
methods only assemble the dict, so every key documented for TOML works here too.
"""

from __future__ import annotations

import copy
import json
import os
import tempfile
import tomllib
from typing import TYPE_CHECKING, Any, Union

from . import _core
from .errors import ScenarioError, from_core
from .progress import RunProgress
from .textfile import read_text

if TYPE_CHECKING:
    from .progress import ProgressFn
    from .results import Results

#: A quantity with units: a readable string ("10Mb", "20ms", "1000B", "50p") or a number in
#: SI units (bit/s, seconds, bytes, packets).
Quantity = Union[str, int, float]


def _clean(d: dict[str, Any]) -> dict[str, Any]:
    """Drops keys whose value is None, so defaults apply."""
    return {k: v for k, v in d.items() if v is not None}


def queue(kind: str = "droptail", **params: Any) -> dict[str, Any]:
    """A queue discipline, e.g. ``queue("droptail", limit="100p")``.

    Args:
        kind: Discipline name ("droptail", ...; see docs/models/).
        **params: The discipline's parameters, as in the scenario file.
    """
    return {"kind": kind, **_clean(params)}


def app(kind: str, **params: Any) -> dict[str, Any]:
    """A traffic application, e.g. ``app("cbr", rate="1Mb", size="1000B")``.

    Args:
        kind: "cbr", "poisson", "onoff", or over TCP "bulk", "file", "repeat", "telnet"
            (``app("telnet", size="60B")``) and "http" (``app("http", version="1.0",
            page={"kind": "surge"})``); see docs/scenario-reference.md.
        **params: The application's parameters, as in the scenario file.
    """
    return {"kind": kind, **_clean(params)}


def error_model(kind: str, **params: Any) -> dict[str, Any]:
    """A link error model: ``error_model("uniform", rate=0.01)``, ``("ber", ber=1e-6)`` or
    ``("drop_list", packets=[14, 26], flow="tcp0")``."""
    return {"kind": kind, **_clean(params)}


class Scenario:
    """A network scenario: topology, traffic and recording options.

    Example::

        sc = nsim.Scenario("two hosts", duration="10s")
        sc.hosts("a", "b")
        sc.link("a", "b", rate="10Mb", delay="5ms", queue=nsim.queue("droptail", limit="20p"))
        sc.flow("a", "b", app=nsim.app("cbr", rate="2Mb", size="1000B"))
        res = sc.run(seed=1)
    """

    def __init__(self, name: str = "", duration: Quantity | None = None, seed: int | None = None, *, source: str = "<python>") -> None:
        """Creates an empty scenario.

        Args:
            name: Shown in summaries and reports.
            duration: Simulated time to run (required unless every flow has a stop time).
            seed: Run seed (default 1).
            source: Name used in error messages.
        """
        self.config: dict[str, Any] = _clean({"name": name or None, "duration": duration, "seed": seed})
        self.source = source
        #: False skips the size and memory budget when validating and running.
        self.limits = True

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_dict(cls, config: dict[str, Any], source: str = "<dict>") -> "Scenario":
        """Wraps an existing scenario dict (copied)."""
        sc = cls(source=source)
        sc.config = copy.deepcopy(config)
        return sc

    @classmethod
    def load(cls, path: str | os.PathLike[str], limits: bool = True) -> "Scenario":
        """Loads and validates a TOML scenario file. Raises :class:`ScenarioError`.

        ``limits=False`` skips the size and memory budget (``[limits]`` in the reference).
        """
        _check_path(path)
        path = os.fspath(path)
        text = read_text(path)
        try:
            _core.validate(text, path, "toml", limits)
        except _core.ConfigError as e:
            raise from_core(e) from None
        try:
            config = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:  # the core accepted it: a TOML dialect difference
            raise ScenarioError(f"{path}: malformed TOML: {e}", file=path, reason=str(e)) from None
        sc = cls.from_dict(config, source=path)
        sc.limits = limits
        return sc

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of the scenario as plain data (the TOML structure)."""
        return copy.deepcopy(self.config)

    def to_json(self) -> str:
        """The scenario as JSON text. Raises :class:`ScenarioError` for values JSON cannot
        hold (NaN, infinities, objects that are not numbers, strings, lists or dicts)."""
        try:
            return json.dumps(self.config, allow_nan=False)
        except (TypeError, ValueError):
            path, value = _first_non_json(self.config, "")
            reason = f"{value!r} is not a number, string, boolean, list or table"
            raise ScenarioError(f"{self.source}: field `{path}`: {reason}", file=self.source, path=path,
                                reason=reason) from None

    # -- builder methods ----------------------------------------------------------------
    def hosts(self, *names: str) -> "Scenario":
        """Adds end hosts."""
        self.config.setdefault("hosts", []).extend(names)
        return self

    def routers(self, *names: str) -> "Scenario":
        """Adds routers."""
        self.config.setdefault("routers", []).extend(names)
        return self

    def link(
        self,
        a: str,
        b: str,
        rate: Quantity,
        delay: Quantity,
        queue: dict[str, Any] | None = None,
        *,
        reverse_queue: dict[str, Any] | None = None,
        error: dict[str, Any] | None = None,
        reverse_error: dict[str, Any] | None = None,
        simplex: bool | None = None,
        atm: dict[str, Any] | None = None,
        ethernet: dict[str, Any] | None = None,
        reverse_ethernet: dict[str, Any] | None = None,
    ) -> "Scenario":
        """Adds a duplex link a<->b (a->b only with ``simplex=True``).

        Args:
            rate: Bit rate of each direction ("10Mb", or bit/s).
            delay: One-way propagation delay ("20ms", or seconds).
            queue: Queue of each direction (default droptail, 50 packets).
            reverse_queue: Queue of b->a if different.
            error: Error model of a->b; ``reverse_error`` of b->a.
            atm: Make it an ATM cell link: ``dict(buffer=1000, policy="epd", r=0.9)``
                (buffer in cells; see docs/models/atm.md). Replaces ``queue``.
            ethernet: Make each direction a switched Ethernet port with 802.3x PAUSE:
                ``dict(buffer="70KB", pause="simple", high=0.8, low=0.7, framing=True)``
                (see docs/models/ethernet.md). Replaces ``queue``.
            reverse_ethernet: The b->a port if different (a host NIC's large buffer, say).
        """
        self.config.setdefault("links", []).append(
            _clean(
                {
                    "between": [a, b],
                    "rate": rate,
                    "delay": delay,
                    "queue": queue,
                    "reverse_queue": reverse_queue,
                    "error": error,
                    "reverse_error": reverse_error,
                    "simplex": simplex,
                    "atm": atm,
                    "ethernet": ethernet,
                    "reverse_ethernet": reverse_ethernet,
                }
            )
        )
        return self

    def dumbbell(self, pairs: int, bottleneck: dict[str, Any], access: dict[str, Any], **options: Any) -> "Scenario":
        """Adds a dumbbell: hosts s0..s{N-1} - r0 - r1 - d0..d{N-1}.

        Args:
            pairs: Number of sender/receiver pairs.
            bottleneck: The r0-r1 link: ``dict(rate=..., delay=..., queue=...)``.
            access: Access links: ``dict(rate=..., delay=...)`` or ``delay_range=[a, b]`` or
                ``delays=[...]``.
            **options: ``left``, ``right``, ``routers``, ``right_access``.
        """
        self.config["dumbbell"] = _clean({"pairs": pairs, "bottleneck": bottleneck, "access": access, **options})
        return self

    def chain(self, nodes: int, link: dict[str, Any], prefix: str | None = None) -> "Scenario":
        """Adds a chain n0 - n1 - ... - n{K-1} with identical links."""
        self.config["chain"] = _clean({"nodes": nodes, "link": link, "prefix": prefix})
        return self

    def flow(
        self,
        src: str,
        dst: str,
        app: dict[str, Any],
        *,
        name: str | None = None,
        start: Quantity | None = None,
        stop: Quantity | None = None,
        transport: dict[str, Any] | None = None,
        repeat: int | None = None,
        stagger: dict[str, Any] | None = None,
        prio: int | None = None,
        tag: int | None = None,
        deadline: Quantity | None = None,
    ) -> "Scenario":
        """Adds a flow from ``src`` to ``dst``.

        Args:
            app: What generates the traffic, e.g. ``nsim.app("cbr", rate="1Mb")``.
            name: Flow name (default "flow<index>"); may contain ``{i}`` with ``repeat``.
            start, stop: When the source starts and stops.
            transport: ``{"kind": "udp"}`` (default) or another transport.
            repeat: Expand into this many flows, substituting ``{i}`` (and ``{i+N}``: i plus N) in names.
            stagger: ``{"every": "0.5s", "group": 8}`` shifts start/stop of flow i.
            prio, tag: Values carried by the packets for classifiers.
            deadline: UDP flows: packets delivered later than this after they were sent are
                late (``late_pkts``, ``deadline_miss_fraction`` in the flows table).
        """
        self.config.setdefault("flows", []).append(
            _clean(
                {
                    "name": name,
                    "from": src,
                    "to": dst,
                    "app": app,
                    "start": start,
                    "stop": stop,
                    "transport": transport,
                    "repeat": repeat,
                    "stagger": stagger,
                    "prio": prio,
                    "tag": tag,
                    "deadline": deadline,
                }
            )
        )
        return self

    def route(self, at: str, to: str, next: str) -> "Scenario":
        """Overrides one next hop: at node ``at``, packets for ``to`` go to ``next``."""
        self.config.setdefault("routing", {}).setdefault("routes", []).append({"at": at, "to": to, "next": next})
        return self

    def event(self, at: Quantity, action: str, **fields: Any) -> "Scenario":
        """Adds a change during the run (an ``[[event]]`` table, docs/guide/dynamics.md).

        Args:
            at: When ("12s" or seconds).
            action: "down" / "up" (a link fails / is repaired), "set" (link rate, delay,
                error model, queue or middlebox parameters), "start" / "stop" (a flow),
                "pause" / "resume" (a flow's application stops supplying data / goes on).
            **fields: ``link`` ("a-b" or "a->b"), ``middlebox`` (a name) or ``flow``, and
                what "set" changes: on a link ``rate``, ``delay``, ``error``, ``limit``,
                ``min_th``, ``max_th``, ``w_q``, ``max_p``, ``k``, ``weights``, ``allots``,
                ``bucket_rate``, ``depth``, ``cir``, ``cbs``, ``ebs``, ``pir``, ``pbs``; on a
                middlebox ``delay``, ``n``, ``rwnd``, ``segments``, ``share``, ``gain``,
                ``min_rwnd`` (docs/scenario-reference.md "Events"); ``hold_queue`` for "down".
        """
        self.config.setdefault("event", []).append(_clean({"at": at, "action": action, **fields}))
        return self

    def middlebox(self, node: str, hook: dict[str, Any], flows: list[str] | None = None,
                  name: str | None = None) -> "Scenario":
        """Installs a packet hook at ``node`` (docs/models/middlebox.md): ``hook`` is a table
        such as ``{"kind": "rwnd_clamp", "rwnd": "8000B"}`` or ``{"kind": "ip_abr", "share":
        "24kb"}``; ``flows`` limits it to those flow names (``*`` and ``?`` are wildcards: ``"be*"``);
        ``name`` is what ``set`` events and ``Simulation.set_middlebox`` call it (default: the
        node's name)."""
        self.config.setdefault("middlebox", []).append(_clean({"name": name, "node": node, "flows": flows, "hook": hook}))
        return self

    def record(self, series: list[str] | None = None, interval: Quantity | None = None, trace: bool | None = None) -> "Scenario":
        """Chooses time series ("queue", "flow_throughput", ...) and the ns-2 trace."""
        self.config["record"] = _clean({"series": series, "interval": interval, "trace": trace})
        return self

    # -- checking and running -----------------------------------------------------------
    def validate(self) -> None:
        """Checks the whole scenario; raises :class:`ScenarioError` naming field and reason."""
        try:
            _core.validate(self.to_json(), self.source, "json", self.limits)
        except _core.ConfigError as e:
            raise from_core(e) from None

    def run(
        self,
        seed: int | None = None,
        until: Quantity | None = None,
        trace: str | os.PathLike[str] | None = None,
        progress: bool | ProgressFn = False,
        limits: bool | None = None,
    ) -> "Results":
        """Runs the scenario.

        Args:
            seed: Overrides the scenario's seed.
            until: Overrides the duration ("60s" or seconds).
            trace: Write an ns-2 format packet trace to this path. A scenario with
                ``record.trace = true`` and no ``trace`` writes it to a new temporary
                directory; ``res.summary["trace_path"]`` says where.
            progress: True shows a progress bar for runs longer than ~2 s; a callable
                ``f(sim_time_s, end_s, events) -> bool`` is called instead (False stops).
            limits: False skips the size and memory budget (default: ``self.limits``).

        Returns:
            The run's :class:`Results`.
        """
        from .results import Results
        from .units import seconds

        _check_run_options(seed, trace, progress, limits)
        duration_s = seconds(until, "until") if until is not None else None
        trace_path = os.fspath(trace) if trace is not None else None
        record = self.config.get("record")
        if trace_path is None and isinstance(record, dict) and record.get("trace") is True:
            trace_path = os.path.join(tempfile.mkdtemp(prefix="nsim-trace-"), "trace.tr")
        enforce = self.limits if limits is None else limits
        label = str(self.config.get("name") or os.path.basename(self.source))
        with RunProgress(label) as bar:
            cb = progress if callable(progress) else (bar if progress else None)
            try:
                out = _core.run(self.to_json(), self.source, "json", seed, duration_s, trace_path, cb, enforce)
            except _core.ConfigError as e:
                raise from_core(e) from None
        res = Results.from_json(out, self.to_dict())
        if trace_path is not None:
            res.summary["trace_path"] = trace_path
        return res


class _Cycle:
    """Stands for a table or list that contains itself (reported, never recursed into)."""

    def __repr__(self) -> str:
        return "a table or list that contains itself"


def _first_non_json(node: Any, path: str, above: frozenset[int] = frozenset()) -> tuple[str, Any]:
    """The path and value of the first value JSON cannot hold (NaN, infinity, an object, a
    table that contains itself)."""
    if isinstance(node, (dict, list, tuple)):
        if id(node) in above:
            return path or "<root>", _Cycle()
        above = above | {id(node)}
    if isinstance(node, dict):
        for k, v in node.items():
            found = _first_non_json(v, f"{path}.{k}" if path else str(k), above)
            if found[0]:
                return found
        return "", None
    if isinstance(node, (list, tuple)):
        for i, v in enumerate(node):
            found = _first_non_json(v, f"{path}[{i}]", above)
            if found[0]:
                return found
        return "", None
    ok = node is None or isinstance(node, (str, bool, int)) or (isinstance(node, float) and node == node and abs(node) != float("inf"))
    return ("", None) if ok else (path or "<root>", node)


#: Largest run seed: the core's seed is an unsigned 64-bit integer.
MAX_SEED = 2**64 - 1


def _option_error(field: str, reason: str) -> ScenarioError:
    return ScenarioError(f"<python>: field `{field}`: {reason}", file="<python>", path=field, reason=reason)


def _check_run_options(seed: Any, trace: Any, progress: Any, limits: Any) -> None:
    """The types and ranges of :meth:`Scenario.run`'s options (ScenarioError naming each)."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED):
        raise _option_error("seed", f"{seed!r}: expected a whole number from 0 to 2**64 - 1")
    if trace is not None and not isinstance(trace, (str, os.PathLike)):
        raise _option_error("trace", f"expected a file path, got {type(trace).__name__}")
    if not (isinstance(progress, bool) or callable(progress)):
        raise _option_error("progress", f"expected True, False or a callable, got {type(progress).__name__}")
    if limits is not None and not isinstance(limits, bool):
        raise _option_error("limits", f"expected True or False, got {type(limits).__name__}")


def _check_path(path: Any) -> None:
    if not isinstance(path, (str, os.PathLike)):
        raise _option_error("path", f"expected a scenario file path or a Scenario, got {type(path).__name__}")


def load(path: str | os.PathLike[str], limits: bool = True) -> Scenario:
    """Loads and validates a TOML scenario file (same as :meth:`Scenario.load`)."""
    return Scenario.load(path, limits=limits)
