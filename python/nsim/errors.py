"""Errors raised for invalid scenarios."""

from __future__ import annotations


class ScenarioError(ValueError):
    """A scenario is invalid.

    The message always names the source (file name, or ``<python>`` for built scenarios), the
    field path (e.g. ``links[2].rate``) and the reason.

    Attributes:
        file: Where the scenario came from.
        path: Dotted field path, or ``""`` for whole-file problems (e.g. malformed TOML).
        line: 1-based line in the file, when known.
        reason: What is wrong, without the location.
    """

    def __init__(self, message: str, file: str = "", path: str = "", line: int | None = None, reason: str = "") -> None:
        super().__init__(message)
        self.file = file
        self.path = path
        self.line = line
        self.reason = reason or message


def from_core(err: Exception) -> ScenarioError:
    """Converts the extension's ConfigError (args: message, file, path, line, reason)."""
    args = list(err.args) + [None] * 5
    message, file, path, line, reason = args[:5]
    return ScenarioError(str(message), file or "", path or "", line, reason or "")


class ResultsError(ValueError):
    """A results directory cannot be read or written (missing files, unwritable path)."""
