"""Progress of long runs, and stopping them cleanly on Ctrl-C.

On a terminal a rich progress bar opens once a run has lasted ``delay_s`` of wall time; when
stderr is not a terminal (piped, logged, CI) a plain line is printed every ``every_s``
instead: ``progress: t=41.9s/100s (42%), 3,407,872 events, 11.2M events/s``. Nothing is
imported (rich included) until a run is long enough to show something.
"""

from __future__ import annotations

# `_signal` is the C module behind `signal`, which imports `enum` (a fifth of `nsim run`'s
# Python start-up, issue 14) only to wrap handler constants; the handlers are the same objects.
import _signal
import sys
import time

#: `typing` only for type checkers (`nsim run` does not import it).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO, Any

    ProgressFn = Callable[[float, "float | None", int], bool]


class RunProgress:
    """Callable handed to the simulator: ``f(sim_time_s, end_s, events) -> bool``.

    Returns False (stop) once :meth:`stop_on_sigint` has seen Ctrl-C, so the run ends with the
    results of the simulated time reached, marked ``interrupted``. Use as a context manager so
    the bar is always closed.

    Args:
        label: Shown before the bar or line.
        delay_s: Wall time before anything is shown.
        enabled: False shows nothing (``nsim run -q``); Ctrl-C still stops the run cleanly.
        every_s: Interval of the plain lines when the stream is not a terminal.
        stream: Where to write (default stderr).
    """

    def __init__(self, label: str, delay_s: float = 2.0, *, enabled: bool = True, every_s: float = 5.0,
                 stream: IO[str] | None = None) -> None:
        self.label = label
        self.delay_s = delay_s
        self.enabled = enabled
        self.every_s = every_s
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()
        self.interrupted = False
        self._next_line = self.started + delay_s
        self._bar: Any = None
        self._task: Any = None

    def __call__(self, sim_time_s: float, end_s: float | None, events: int) -> bool:
        if self.interrupted:
            return False
        if not self.enabled:
            return True
        now = time.monotonic()
        if now - self.started < self.delay_s:
            return True
        if self._isatty():
            self._show_bar(sim_time_s, end_s, events)
        elif now >= self._next_line:
            self._next_line = now + self.every_s
            print(self.line(sim_time_s, end_s, events, now - self.started), file=self.stream, flush=True)
        return True

    def line(self, sim_time_s: float, end_s: float | None, events: int, wall_s: float) -> str:
        """The plain progress line."""
        where = f"t={sim_time_s:.1f}s"
        if end_s:
            where += f"/{end_s:g}s ({100 * sim_time_s / end_s:.0f}%)"
        rate = f", {events / wall_s / 1e6:.1f}M events/s" if wall_s > 0 else ""
        return f"{self.label}: {where}, {events:,} events{rate}"

    def _isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def _show_bar(self, sim_time_s: float, end_s: float | None, events: int) -> None:
        if self._bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self._bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                TextColumn("{task.fields[simt]}"),
                TimeRemainingColumn(),
                transient=True,
                console=Console(file=self.stream),
            )
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=end_s or None, simt="")
        self._bar.update(self._task, completed=sim_time_s, simt=f"t={sim_time_s:.3f}s  {events:,} events")

    def stop_on_sigint(self) -> _StopOnSigint:
        """Context manager: while inside, the first Ctrl-C (SIGINT) asks the run to stop at its
        next progress call (every few hundred thousand events) instead of killing the process;
        a second Ctrl-C raises KeyboardInterrupt as usual."""
        return _StopOnSigint(self)

    def __enter__(self) -> "RunProgress":
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()



class _StopOnSigint:
    """:meth:`RunProgress.stop_on_sigint`'s context manager: installs its SIGINT handler on
    entry and puts the previous handler back on exit."""

    def __init__(self, progress: RunProgress) -> None:
        self.progress = progress
        self.previous: Any = None

    def _handler(self, signum: int, frame: Any) -> None:
        if self.progress.interrupted:
            raise KeyboardInterrupt
        self.progress.interrupted = True

    def __enter__(self) -> RunProgress:
        self.previous = _signal.getsignal(_signal.SIGINT)
        _signal.signal(_signal.SIGINT, self._handler)
        return self.progress

    def __exit__(self, *exc: object) -> None:
        _signal.signal(_signal.SIGINT, self.previous)
