"""``$ns run``: the script's scheduled events (``$ns at``) in time order, and the nsim run
behind them.

Events run in simulated-time order. While none has read live state, the run is still a
plan: ``start``/``stop`` calls become the flows' start and stop times, and nothing is
simulated. The first read of live state (``$sink set bytes_``, ``$tcp set cwnd_``) builds
the scenario and steps it with :class:`nsim.Simulation` up to each later event; from then on
flows can no longer be started or stopped. ``$ns flush-trace``, closing an output channel,
``$ns halt`` or ``exit`` end the run at the current time (one ordinary run, with the ns-2
trace, when nothing was read live) and write the script's output files.
"""

from __future__ import annotations

import heapq
import os
import shutil
import tkinter
from typing import TYPE_CHECKING, Any, Callable

from .interp import Interp, Ns2Error, Ns2ScriptError, ScriptExit

if TYPE_CHECKING:
    from ..results import Results
    from ..simulation import Simulation

#: Duration given to a run stepped live (the script ends it with halt, exit or flush-trace).
LIVE_HORIZON_S = 1e6


class Runner:
    """The event list and the phase of the run: ``setup`` (before ``$ns run``), ``plan``,
    ``live`` (an :class:`nsim.Simulation` stands at ``now``), ``done``."""

    def __init__(self, interp: Interp, build: Callable[[float | None, bool], tuple[Any, Any]],
                 written: Callable[["Results", Any], None], is_plan: Callable[[tuple[str, ...]], bool]) -> None:
        self.interp = interp
        self.is_plan = is_plan
        self._build = build
        self._written = written
        self.events: list[tuple[float, int, str, tuple[int, str] | None]] = []
        self._seq = 0
        self.now = 0.0
        self.phase = "setup"
        self.sim: "Simulation | None" = None
        self.flows: Any = None
        self.results: "Results | None" = None
        self.ended_by = ""
        self._halted = False
        self._final_state: dict[str, Any] | None = None

    def at(self, t: float, script: str, origin: tuple[int, str] | None) -> None:
        """Schedules Tcl text at simulated time ``t`` (``origin``: the script line and
        command that scheduled it, named by errors)."""
        if t < self.now:
            raise Ns2Error(f"at {t}: the time is in the past (now {self.now})")
        heapq.heappush(self.events, (t, self._seq, script, origin))
        self._seq += 1

    def can_plan(self, what: str) -> None:
        """Raises unless flows can still be started/stopped/configured (``what`` says what)."""
        if self.phase in ("setup", "plan"):
            return
        if self.phase == "live":
            raise Ns2Error(f"{what} at {self.now:g} s: the run has been stepped live since the script read live state"
                           " (flows start and stop before that; schedule it with `$ns at` directly)")
        raise Ns2Error(f"{what} at {self.now:g} s: the run already ended ({self.ended_by})")

    def live(self) -> "Simulation":
        """The simulation standing at ``now``, built on the first live read."""
        if self.phase == "done":
            raise Ns2Error(f"the run already ended at {self.now:g} s ({self.ended_by})")
        if self.phase == "setup":
            raise Ns2Error("live state is only there during `$ns run` (read it in a `$ns at` procedure)")
        if self.sim is None:
            from ..simulation import Simulation

            scenario, self.flows = self._build(LIVE_HORIZON_S, False)
            self.sim = Simulation(scenario, limits=False)
            self.phase = "live"
        if self.now > self.sim.now:
            self.sim.run(until=self.now)
        return self.sim

    def state(self) -> dict[str, Any]:
        """The live state now (:meth:`nsim.Simulation.state`); after the run ended, its last
        state while still at that instant (a finish procedure that reads a monitor after
        closing the trace)."""
        if self.phase == "done" and self._final_state is not None:
            return self._final_state
        return self.live().state()

    def run(self) -> None:
        """``$ns run``: runs the events in time order until none is left, ``halt`` or ``exit``."""
        if self.phase != "setup":
            raise Ns2Error("`$ns run` called twice")
        self.phase = "plan"
        self._halted = False
        self._plan_direct()
        while self.events and not self._halted:
            t, _, script, origin = heapq.heappop(self.events)
            self.now = t
            if self.phase == "live":
                assert self.sim is not None
                if t > self.sim.now:
                    self.sim.run(until=t)
            try:
                self.interp.eval_event(script, origin)
            except ScriptExit:
                self.finish("exit")
                raise
        if not self._halted:
            self.finish("the end of the script's events")

    def _plan_direct(self) -> None:
        """Applies the scheduled events that only plan a flow (``$app start`` / ``stop``,
        ``$ftp produce N``, ``$tcp advance N``: ``is_plan``) at once, in time order, so a
        procedure that reads live state early does not end the plan before them."""
        keep = []
        for t, seq, script, origin in sorted(self.events):
            whole = str(self.interp.tcl.call("info", "complete", script)) == "1" and "\n" not in script
            words = self._words(script) if whole else ()
            if words and self.is_plan(tuple(str(w) for w in words)):
                self.now = t
                self.interp.eval_event(script, origin)
            else:
                keep.append((t, seq, script, origin))
        self.now = 0.0
        self.events = keep
        heapq.heapify(self.events)

    def _words(self, script: str) -> tuple[str, ...]:
        """The words of a one-command event script; none if it is not a plain Tcl list (e.g.
        two commands, ``puts "x"; exit 0``, which Tcl runs but cannot split as a list)."""
        try:
            return tuple(self.interp.tcl.splitlist(script))
        except tkinter.TclError:
            return ()

    def halt(self) -> None:
        """``$ns halt``: ends the run now; ``$ns run`` returns."""
        self.finish("halt")
        self._halted = True

    def finish(self, why: str) -> None:
        """Ends the run at ``now`` (once) and writes the script's output files."""
        if self.phase == "done":
            return
        if self.phase == "setup":
            self.phase = "done"
            self.ended_by = why
            return
        import tempfile

        live = None
        if self.phase == "live":
            assert self.sim is not None
            if self.now > self.sim.now:
                self.sim.run(until=self.now)
            self._final_state = self.sim.state()
            live = self.sim.results()
        end = self.now if live is not None or why != "the end of the script's events" else None
        scenario, self.flows = self._build(end, True)
        wanted = bool(scenario.config.get("record", {}).get("trace"))
        trace = os.path.join(tempfile.mkdtemp(prefix="nsim-ns2-"), "trace.tr") if wanted else None
        if live is not None and trace is None:
            results = live
        else:
            # A stepped run is bit-identical to the same run in one go (tests/test_simulation.py),
            # so the packet trace of a run stepped for live reads comes from rerunning it whole.
            try:
                results = scenario.run(trace=trace)
            except Ns2ScriptError:  # already names the script line
                raise
            except ValueError as e:  # ScenarioError: the core refused the translation
                raise Ns2Error(f"the scenario built from the script is refused: {e}") from None
        self.phase = "done"
        self.ended_by = why
        self.results = results
        try:
            self._written(results, trace)
        finally:
            if trace is not None:
                shutil.rmtree(os.path.dirname(trace), ignore_errors=True)
