"""A progress bar for long runs, shown only when a run lasts more than a couple of seconds."""

from __future__ import annotations

import time
from typing import Any, Callable


class RunProgress:
    """Callable handed to the simulator; opens a rich progress bar after ``delay_s`` of wall time.

    Use as a context manager so the bar is always closed.
    """

    def __init__(self, label: str, delay_s: float = 2.0) -> None:
        self.label = label
        self.delay_s = delay_s
        self.started = time.monotonic()
        self._bar: Any = None
        self._task: Any = None

    def __call__(self, sim_time_s: float, end_s: float | None, events: int) -> bool:
        if self._bar is None and time.monotonic() - self.started >= self.delay_s:
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self._bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                TextColumn("{task.fields[simt]}"),
                TimeRemainingColumn(),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=end_s or None, simt="")
        if self._bar is not None:
            self._bar.update(self._task, completed=sim_time_s, simt=f"t={sim_time_s:.3f}s  {events:,} events")
        return True

    def __enter__(self) -> "RunProgress":
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


ProgressFn = Callable[[float, "float | None", int], bool]
