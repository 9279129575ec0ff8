"""Reading a scenario or sweep file's text, with errors that name the file, the line and the
byte. A module of its own so that ``nsim run`` reads its scenario without importing
:mod:`nsim.scenario` (and what that imports)."""

from __future__ import annotations

from .errors import ScenarioError


def read_text(path: str) -> str:
    """The text of a scenario or sweep file as UTF-8 (a leading byte-order mark is accepted
    and dropped). Raises :class:`ScenarioError` naming the file and the byte offset and line
    of the first byte that is not UTF-8."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ScenarioError(f"{path}: cannot read: {e.strerror}", file=path, reason=str(e.strerror)) from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        reason = f"not valid UTF-8 text: byte 0x{data[e.start]:02x} at offset {e.start}"
        raise ScenarioError(f"{path}:{line}: {reason}", file=path, line=line, reason=reason) from None
