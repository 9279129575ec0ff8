"""Where commands write: one output-directory policy for ``run``, ``sweep``, ``reproduce``,
``report`` and ``plot`` (and :meth:`nsim.Results.save`).

* A folder is written only if it is absent, empty, or holds nsim output of the same kind
  (marked by a ``.nsim-output`` file, or by the files such output always has); anything else
  is refused with a clear error unless ``force``.
* A run's folder is written whole into a fresh sibling folder and swapped in when complete,
  so files an earlier run left (``classes.csv``, ``trace.tr``, a series) are never read back
  into the new results, a symlink planted at an output name is never followed, and a run that
  fails writes nothing.
* Single files (reports, plots, tables) are written to a temporary name in the same folder
  and renamed over the target: a symlink at the target is replaced, never followed.

Light on imports on purpose: ``nsim run``'s start-up counts (docs/performance.md).
"""

from __future__ import annotations

import os

from .errors import ResultsError

TYPE_CHECKING = False  # `typing` only for type checkers: its import costs nsim run's start-up
if TYPE_CHECKING:
    from typing import Callable

__all__ = ["MARKER", "OutputDirError", "kind_of", "check_dir", "mark", "write_file", "write_via", "StagedDir"]

#: The file naming the kind of output a folder holds.
MARKER = ".nsim-output"

#: Files or folders by which output written before the marker existed is known, per kind.
_LEGACY = {"run": ("summary.json",), "sweep": ("runs",), "reproduce": ("results.csv",)}


class OutputDirError(ResultsError):
    """An output folder that a command refuses to write (exit 2 in the CLI)."""


def _marked(directory: str) -> str | None:
    """The kind named by a folder's marker file, or None (no marker, or a link)."""
    marker = os.path.join(directory, MARKER)
    if os.path.isfile(marker) and not os.path.islink(marker):
        with open(marker, encoding="utf-8", errors="replace") as f:
            kind = f.read(64).strip()
        if kind in _LEGACY:
            return kind
    return None


def kind_of(directory: str) -> str | None:
    """The kind of nsim output a folder holds (``run``, ``sweep``, ``reproduce``), or None."""
    marked = _marked(directory)
    if marked:
        return marked
    for kind, names in _LEGACY.items():
        if all(os.path.exists(os.path.join(directory, n)) for n in names):
            return kind
    return None


#: Files a run may leave that a later run does not write: removed from a folder nsim wrote
#: before it marked its folders, when a new run is merged into it.
_RUN_FILES = ("summary.json", "scenario.json", "flows.csv", "flows_all.csv", "queues.csv", "classes.csv", "transfers.csv",
              "windows.csv", "packet_delays.csv", "video_packets.csv", "trace.tr")


def check_dir(out: str, kind: str, force: bool = False) -> None:
    """Refuse ``out`` unless it is absent, empty, or nsim ``kind`` output (or ``force``).

    Raises:
        OutputDirError: naming the folder, what it holds and how to proceed.
    """
    if os.path.lexists(out) and not os.path.isdir(out):
        raise OutputDirError(f"{out}: exists and is not a folder: choose another output folder")
    if force or not os.path.isdir(out) or not os.listdir(out):
        return
    found = kind_of(out)
    if found != kind:
        what = f"nsim {found} output" if found else "files nsim did not write"
        raise OutputDirError(f"{out}: not empty and holds {what}, not nsim {kind} output: choose another output "
                             f"folder, or pass --force (force=True) to write there anyway")


def mark(out: str, kind: str) -> None:
    """Record that ``out`` holds nsim ``kind`` output."""
    write_file(os.path.join(out, MARKER), kind + "\n")


def write_via(path: str, writer: "Callable[[str], object]") -> None:
    """Call ``writer(tmp)`` to write a temporary file in ``path``'s folder, then rename it over
    ``path``: a symlink (or anything else) at ``path`` is replaced, never written through, and
    an interrupted write leaves the old file."""
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        writer(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise


def write_file(path: str, data: str | bytes) -> None:
    """Write text or bytes to ``path`` through :func:`write_via`."""
    def write(tmp: str) -> None:
        if isinstance(data, bytes):
            with open(tmp, "wb") as f:
                f.write(data)
        else:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(data)
    write_via(path, write)


def _remove_tree(path: str) -> None:
    """Remove a folder nsim wrote, bottom up, never following a link (``shutil`` would import
    ``re``, which ``nsim run`` avoids)."""
    for root, dirs, files in os.walk(path, topdown=False):
        for name in files + dirs:
            p = os.path.join(root, name)
            try:
                os.rmdir(p) if name in dirs and not os.path.islink(p) else os.unlink(p)
            except OSError:
                pass
    try:
        os.rmdir(path)
    except OSError:
        pass


class StagedDir:
    """A run folder written whole and swapped in: ``path`` is a fresh sibling of ``out``;
    :meth:`commit` marks it and puts it in ``out``'s place when ``out`` is absent, empty or
    marked as nsim's (the old folder is removed). Into any other folder it may write (one of an
    older nsim, recognised by its files; one nsim did not write, with ``force``) the new files
    are moved beside what is there, with no marker, so nothing but nsim's own files is ever
    removed (from an older nsim's folder, the run files the new run does not write); :meth:`abandon`
    removes ``path``. Use as ``with StagedDir(out, "run") as staged: write(staged.path); staged.commit()``
    (leaving the block without commit abandons)."""

    def __init__(self, out: str, kind: str, force: bool = False) -> None:
        check_dir(out, kind, force)
        self.out, self.kind = out, kind
        # A folder is replaced whole only when nsim's marker says it holds nothing else. Anything
        # else that may be written (an unmarked folder of an older nsim, or one nsim did not write,
        # with --force) gets the new files moved in beside what is there, and no marker.
        occupied = os.path.isdir(out) and bool(os.listdir(out))
        self.merge = occupied and _marked(out) != kind
        self.stale = self.merge and kind_of(out) == kind
        # Merging into a folder nsim did not write (-o . --force): stage inside it, not beside it.
        parent = os.path.abspath(out) if self.merge else os.path.dirname(os.path.abspath(out))
        try:
            os.makedirs(parent, exist_ok=True)
            self.path = os.path.join(parent, f".{os.path.basename(os.path.abspath(out))}.partial-{os.getpid()}")
            if os.path.lexists(self.path):
                _remove_tree(self.path)
            os.mkdir(self.path)
        except FileExistsError as e:
            raise OutputDirError(f"{out}: cannot write results: {e.filename} is a file, not a folder") from None
        except OSError as e:
            raise OutputDirError(f"{out}: cannot write results: {e.strerror or e}") from None
        self.done = False

    def commit(self) -> None:
        """Put the staged folder in ``out``'s place (marked), or move its files into ``out``."""
        try:
            if self.merge:
                new = set(os.listdir(self.path))
                for name in os.listdir(self.out) if self.stale else []:
                    if name not in new and (name in _RUN_FILES or name.startswith("series_")) \
                            and os.path.isfile(os.path.join(self.out, name)):
                        os.unlink(os.path.join(self.out, name))
                for name in new:
                    os.replace(os.path.join(self.path, name), os.path.join(self.out, name))
                os.rmdir(self.path)
            else:
                self._swap()
        except OSError as e:
            raise OutputDirError(f"{self.out}: cannot write results: {e.strerror or e}") from None
        self.done = True

    def _swap(self) -> None:
        """Mark the staged folder and put it in place of ``out`` (removing the old one)."""
        mark(self.path, self.kind)
        if os.path.lexists(self.out):
            old = f"{self.path}.old"
            os.rename(self.out, old)
            os.rename(self.path, self.out)
            _remove_tree(old)
        else:
            os.rename(self.path, self.out)

    def abandon(self) -> None:
        """Remove the staged folder (nothing reaches ``out``)."""
        if not self.done:
            _remove_tree(self.path)

    def __enter__(self) -> "StagedDir":
        return self

    def __exit__(self, *exc: object) -> None:
        self.abandon()
