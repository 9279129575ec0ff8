"""A run you can pause, look at, change and resume (docs/guide/dynamics.md).

Example::

    sim = nsim.Simulation("scenarios/failover_longer_path.toml")
    sim.run(until="1s")
    sim.flows()[["name", "cwnd", "delivered_bytes"]]
    sim.set_link("r1-r2", up=False)
    sim.pause_flow("tcp", at="1.5s")
    sim.set_middlebox("proxy", segments=9)   # a [[middlebox]] named "proxy"
    sim.run(until="2s")
    res = sim.results()

A run advanced in steps runs the same events in the same order as one run at once: results
are bit-identical whatever the pause points (tests/test_simulation.py). Callbacks registered
with :meth:`Simulation.at` run when the simulated clock reaches their time; each costs one
crossing into Python (a few microseconds, plus what the callback does) and none between.
"""

from __future__ import annotations

import heapq
import json
import os
from typing import TYPE_CHECKING, Any, Callable

from . import _core
from .errors import from_core
from .scenario import Quantity, Scenario
from .units import seconds

if TYPE_CHECKING:
    import pandas as pd

    from .results import Results

#: A callback of :meth:`Simulation.at`: called with the simulation, at its time.
Callback = Callable[["Simulation"], None]


class Simulation:
    """A scenario's run, advanced step by step and steerable between steps.

    Args:
        scenario: A :class:`nsim.Scenario` or the path of a TOML scenario file.
        seed: Overrides the scenario's seed.
        until: Overrides the duration ("60s" or seconds).
        limits: False skips the size and memory budget.

    Raises:
        ScenarioError: the scenario is invalid (as :func:`nsim.run`).
    """

    def __init__(self, scenario: Scenario | str | os.PathLike[str], seed: int | None = None,
                 until: Quantity | None = None, limits: bool = True) -> None:
        sc = scenario if isinstance(scenario, Scenario) else Scenario.load(scenario, limits=limits)
        self.scenario = sc
        duration = None if until is None else seconds(until, "until")
        try:
            self._sim = _core.Simulation(sc.to_json(), sc.source, "json", seed, duration, limits)
        except _core.ConfigError as e:
            raise from_core(e) from None
        self._callbacks: list[tuple[float, int, Callback]] = []
        self._added = 0

    @property
    def now(self) -> float:
        """The simulated time the run stands at, in seconds."""
        return self._sim.now_s()

    def at(self, t: Quantity, callback: Callback) -> None:
        """Calls ``callback(sim)`` when the run reaches ``t`` ("12s" or seconds), after every
        event due at ``t``. Callbacks at the same time run in the order they were added; a
        callback may add others, change links, or read the state."""
        when = seconds(t, "at")
        if when < self.now:
            raise ValueError(f"at: {when} s is in the past (the run stands at {self.now} s)")
        heapq.heappush(self._callbacks, (when, self._added, callback))
        self._added += 1

    def run(self, until: Quantity | None = None) -> "Simulation":
        """Advances to ``until`` ("10s" or seconds; default: the end), running the callbacks
        due on the way, and stands there. Returns the simulation (for chaining)."""
        end = self._sim.end_s()
        target = seconds(until, "until") if until is not None else end
        while self._callbacks and (target is None or self._callbacks[0][0] <= target):
            when, _, cb = heapq.heappop(self._callbacks)
            self._sim.advance(when)
            cb(self)
        self._sim.advance(target)
        return self

    def state(self) -> dict[str, Any]:
        """The live state as plain data: ``time_s``, ``flows`` and ``links`` (see
        :meth:`flows` and :meth:`links`)."""
        return json.loads(self._sim.state_json())

    def flows(self) -> "pd.DataFrame":
        """One row per flow now: ``name``, ``sent_pkts`` (data packets), ``delivered_pkts``, ``delivered_bytes``,
        ``dropped_pkts``, and for TCP senders ``cwnd``, ``ssthresh`` (packets) and ``srtt_s``
        (NaN for other flows)."""
        import pandas as pd

        return pd.DataFrame(self.state()["flows"])

    def links(self) -> "pd.DataFrame":
        """One row per link direction now: ``from``, ``to``, ``up``, ``rate_bps``, ``delay_s``,
        ``len_pkts``, ``len_bytes`` (the queue); since the start, ``arrivals`` /
        ``arrival_bytes`` (at the queue, dropped ones too), ``departures`` /
        ``departure_bytes`` (onto the wire), ``drops`` / ``dropped_bytes``; and the queue's
        length integrated over time, ``area_pkts_s`` / ``area_bytes_s``, up to its last
        change at ``changed_s`` (ns-2's queue monitor integrators)."""
        import pandas as pd

        return pd.DataFrame(self.state()["links"])

    def set_link(self, link: str, *, up: bool | None = None, hold_queue: bool | None = None,
                 at: Quantity | None = None, **changes: Any) -> None:
        """Changes a link now (or at ``at``), as an ``[[event]]`` table would.

        Args:
            link: "a-b" (both directions) or "a->b" (one direction).
            up: False fails the link, True repairs it.
            hold_queue: With ``up=False``: keep the queued packets for the repair.
            at: When ("12s" or seconds); default now.
            **changes: ``rate``, ``delay``, ``error``, ``limit``, ``min_th``, ``max_th``,
                ``w_q``, ``max_p``, ``k`` (step marking), ``weights`` (WRR weights or DRR
                quanta, one per class), ``allots`` (CBQ, one per class), ``bucket_rate``,
                ``depth`` (policer, shaper), ``cir``, ``cbs``, ``ebs``, ``pir``, ``pbs``
                (srtcm, trtcm) (docs/scenario-reference.md "Events").

        Raises:
            ScenarioError: an unknown link or field, an impossible value, a time in the past.
        """
        when = self.now if at is None else seconds(at, "at")
        if up is not None:
            self._change({"at": when, "action": "up" if up else "down", "link": link, "hold_queue": hold_queue})
        if changes:
            self._change({"at": when, "action": "set", "link": link, **changes})

    def set_middlebox(self, middlebox: str, *, at: Quantity | None = None, **params: Any) -> None:
        """Changes a middlebox's parameters now (or at ``at``), as an ``action = "set"`` event
        with ``middlebox`` would (docs/models/middlebox.md "Changes during a run").

        Args:
            middlebox: Its ``name`` (default: its node's name); every hook of that name changes.
            at: When ("12s" or seconds); default now.
            **params: ``delay`` (a delay hook), ``n`` (drop_every), ``rwnd`` (rwnd_clamp),
                ``segments`` (window_cap), ``share``, ``gain``, ``min_rwnd`` (ip_abr).

        Raises:
            ScenarioError: an unknown middlebox, a parameter its kind does not have, an
                impossible value, no parameter, a time in the past.
        """
        when = self.now if at is None else seconds(at, "at")
        self._change({"at": when, "action": "set", "middlebox": middlebox, **params})

    def pause_flow(self, flow: str, at: Quantity | None = None) -> None:
        """Pauses a flow's application now (or at ``at``), as an ``action = "pause"`` event:
        no new data (ns-2 ``$ftp stop`` / ``$cbr stop``); a TCP goes on recovering what it
        sent (docs/guide/dynamics.md "Pausing flows").

        Raises:
            ScenarioError: an unknown flow, one already paused, one that cannot pause
                (tcp_full other than bulk, a stream application over TCP), a time in the
                past, before its start or after its stop.
        """
        self._flow("pause", flow, at)

    def resume_flow(self, flow: str, at: Quantity | None = None) -> None:
        """Resumes a paused flow now (or at ``at``), as an ``action = "resume"`` event.

        Raises:
            ScenarioError: an unknown flow, one not paused then, a time in the past.
        """
        self._flow("resume", flow, at)

    def start_flow(self, flow: str, at: Quantity | None = None) -> None:
        """Starts a flow that has not started yet now (or at ``at``) instead of at its
        ``start``, as if its ``start`` said so.

        Raises:
            ScenarioError: an unknown flow, one already started or already given a new start,
                a tcp_full flow, a time in the past or not before its stop.
        """
        self._flow("start", flow, at)

    def stop_flow(self, flow: str, at: Quantity | None = None) -> None:
        """Stops a flow now (or at ``at``), as if its ``stop`` said so: no new data from then.

        Raises:
            ScenarioError: an unknown flow, one that cannot stop while running (as
                :meth:`pause_flow`), a stop not after its start, or after a stop it has.
        """
        self._flow("stop", flow, at)

    def _flow(self, action: str, flow: str, at: Quantity | None) -> None:
        when = self.now if at is None else seconds(at, "at")
        self._change({"at": when, "action": action, "flow": flow})

    def _change(self, event: dict[str, Any]) -> None:
        try:
            self._sim.change(json.dumps({k: v for k, v in event.items() if v is not None}))
        except _core.ConfigError as e:
            raise from_core(e) from None

    def results(self) -> "Results":
        """Ends the run where it stands (run it to the end first for a whole run's results)
        and returns its :class:`nsim.Results`, as :func:`nsim.run` would."""
        from .results import Results

        return Results.from_json(self._sim.finish(), self.scenario.to_dict())
