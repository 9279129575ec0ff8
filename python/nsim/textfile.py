"""Reading a scenario or sweep file's text, with errors that name the file, the line and the
byte. A module of its own so that ``nsim run`` reads its scenario without importing
:mod:`nsim.scenario` (and what that imports)."""

from __future__ import annotations

import os
import stat

from .errors import ScenarioError

#: Largest scenario or sweep file read (bytes). The largest shipped scenario, the generated
#: 100,002-node benchmark, is a few MB; a file past this is refused before it is read, so
#: ``/dev/zero`` or a mistaken multi-GB path cannot exhaust memory.
MAX_TEXT_BYTES = 64 * 1024 * 1024


def _refuse(path: str, reason: str) -> ScenarioError:
    return ScenarioError(f"{path}: {reason}", file=path, reason=reason)


def read_text(path: str) -> str:
    """The text of a scenario or sweep file as UTF-8 (a leading byte-order mark is accepted
    and dropped). Raises :class:`ScenarioError` naming the file and the byte offset and line
    of the first byte that is not UTF-8; or naming the file when it is not a regular file (a
    FIFO, a device, a directory: opened without blocking and refused) or is larger than
    :data:`MAX_TEXT_BYTES`."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise _refuse(path, f"cannot read: {e.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file (a FIFO, socket or device)"
            raise _refuse(path, f"cannot read: {kind}")
        if info.st_size > MAX_TEXT_BYTES:
            raise _refuse(path, f"cannot read: {info.st_size:,} bytes, more than the {MAX_TEXT_BYTES:,} a scenario may have")
        with os.fdopen(fd, "rb") as f:
            fd = -1
            data = f.read(MAX_TEXT_BYTES + 1)
    except OSError as e:
        raise _refuse(path, f"cannot read: {e.strerror}") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > MAX_TEXT_BYTES:
        raise _refuse(path, f"cannot read: more than the {MAX_TEXT_BYTES:,} bytes a scenario may have")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        reason = f"not valid UTF-8 text: byte 0x{data[e.start]:02x} at offset {e.start}"
        raise ScenarioError(f"{path}:{line}: {reason}", file=path, line=line, reason=reason) from None
