"""The Tcl interpreter that runs an ns-2 script: Python's standard-library Tcl 8.6
(``tkinter.Tcl()``, no Tk window), the OTcl object layer (``otcl.tcl``) and the bridge to
the Python side (:mod:`nsim.ns2.simulator`).

Python answers the methods the Tcl side does not define (``$ns duplex-link``, ``$tcp
attach``...) through one command, ``::ns2::py``; an error there becomes a Tcl error whose
message is kept, and every error leaving the script becomes one :class:`Ns2ScriptError`
naming the script line and the command.
"""

from __future__ import annotations

import os
import re

try:
    import tkinter
except ImportError:  # a Python built without Tcl/Tk (e.g. Debian's python3 without python3-tk)
    tkinter = None  # type: ignore[assignment]
from typing import Callable

from ..errors import ScenarioError

#: What ``::ns2::py`` returns when the Python side raised (the message is fetched apart).
_FAILED = "::ns2::failed::"
#: What ``::ns2::py`` returns when the script called ``exit`` inside it (unwinds the script).
_EXIT = "::ns2::exit::"

_BRIDGE = r"""
namespace eval ::ns2 {}
proc ::ns2::call {args} {
    set r [::ns2::py {*}$args]
    if {$r eq "%s"} { return -code error -errorcode {NSIM ERROR} [::ns2::py lasterror] }
    if {$r eq "%s"} { return -code error -errorcode {NSIM EXIT} "exit" }
    return $r
}
proc ::ns2::native {o m args} { return [::ns2::call native $o $m {*}$args] }
proc ::ns2::created {o cls} { ::ns2::call created $o $cls }
proc ::ns2::deleted {o} { ::ns2::call deleted $o }
proc ::ns2::getvar {o v} { return [::ns2::call getvar $o $v] }
proc ::ns2::setvar {o v val} { ::ns2::call setvar $o $v $val }
catch {rename exit {}}
proc exit {{code 0}} {
    set ::ns2::exiting $code
    ::ns2::call exit $code
    return -code error -errorcode {NSIM EXIT} "exit $code"
}
# `exit` ends the script even inside `catch`, as the process ends under ns-2.
rename catch ::ns2::tcl_catch
proc catch {args} {
    set rc [uplevel 1 [list ::ns2::tcl_catch {*}$args]]
    if {[info exists ::ns2::exiting]} { return -code error -errorcode {NSIM EXIT} "exit $::ns2::exiting" }
    return $rc
}
rename exec {}
proc exec {args} { ::ns2::call exec {*}$args; return "" }
rename close ::ns2::tcl_close
proc close {ch args} {
    ::ns2::call closing $ch
    return [::ns2::tcl_close $ch {*}$args]
}
""" % (_FAILED, _EXIT)


class Ns2ScriptError(ScenarioError):
    """An ns-2 script stopped: a Tcl error, or a command nsim cannot model. The message
    names the script, the line and the command (``script.tcl:12: `$ns ...`: reason``)."""


class ScriptExit(Exception):
    """The script called ``exit`` (the run is over; not an error)."""


#: A Python handler of ``::ns2::py NAME args...``.
Handler = Callable[..., object]


class Interp:
    """A Tcl interpreter with the OTcl layer and the ``::ns2::py`` bridge.

    Args:
        script: Path of the script (used in error messages and to find its lines).
        handlers: ``name -> f(*args)`` answering ``::ns2::py name args...``; ``f`` returns
            the command's result (converted with ``str``) or raises :class:`Ns2Error`.
    """

    def __init__(self, script: str, handlers: dict[str, Handler]) -> None:
        self.script = os.path.abspath(script)
        if tkinter is None:
            raise Ns2ScriptError(f"{script}: running ns-2 scripts needs Python's tkinter (Tcl 8.6): uv's Python has"
                                 " it; for a system Python install python3-tk", file=script, reason="no tkinter")
        self.tcl = tkinter.Tcl()
        self._handlers = handlers
        self._error = ""
        #: The ``$ns at`` event being evaluated (its scheduling line and text), and the Tcl
        #: frame depth it started at.
        self.event: tuple[int, str] | None = None
        self.event_depth = 0
        self.tcl.createcommand("::ns2::py", self._py)
        self.tcl.eval(_BRIDGE)
        with open(os.path.join(os.path.dirname(__file__), "otcl.tcl"), encoding="utf-8") as f:
            self.tcl.eval(f.read())

    def _py(self, name: str, *args: str) -> str:
        if name == "lasterror":
            return self._error
        try:
            out = self._handlers[name](*args)
        except Ns2Error as e:
            self._error = self.locate(str(e))
            return _FAILED
        except Ns2ScriptError as e:
            self._error = str(e)
            return _FAILED
        except ScriptExit:
            return _EXIT
        except Exception as e:  # a bug of ours: keep its trace in the script's error
            import traceback

            self._error = f"internal error of nsim.ns2: {e!r}\n{traceback.format_exc()}"
            return _FAILED
        return "" if out is None else str(out)

    def where(self) -> tuple[int, str] | None:
        """The line and text of the innermost command of the script being run now: a line
        of the file, or, inside a ``$ns at`` event's text, the line that scheduled it (None
        if neither is known)."""
        depth = int(self.tcl.eval("info frame"))
        for k in range(depth, self.event_depth, -1):
            frame = self.tcl.eval(f"info frame {k}")
            d = dict(zip(*[iter(self.tcl.splitlist(frame))] * 2))
            if d.get("type") == "source" and os.path.abspath(d.get("file", "")) == self.script:
                return int(d["line"]), d["cmd"]
        return self.event

    def eval_event(self, text: str, origin: tuple[int, str] | None) -> None:
        """Evaluates a ``$ns at`` event's text; errors name ``origin`` (the line and command
        that scheduled it), unless they come from a line of the file (a procedure's body)."""
        outer = (self.event, self.event_depth)
        self.event = origin
        self.event_depth = int(self.tcl.eval("info frame"))
        try:
            self.eval(text, origin, at_global=True)
        finally:
            self.event, self.event_depth = outer

    def locate(self, reason: str) -> str:
        """``script:LINE: `command`: reason`` for an error raised by a Python handler now."""
        if reason.startswith(f"{os.path.basename(self.script)}:"):
            return reason
        here = self.where()
        if here is None:
            return reason
        return f"{os.path.basename(self.script)}:{here[0]}: `{_short(here[1])}`: {reason}"

    def run_file(self) -> None:
        """Sources the script (in its own directory, as ns-2 users run it)."""
        self.eval(f"source {{{self.script}}}")

    def eval(self, text: str, origin: tuple[int, str] | None = None, at_global: bool = False) -> str:
        """Evaluates Tcl text, in the global scope with ``at_global`` (as ns-2's scheduler
        runs an event); errors become :class:`Ns2ScriptError` (``origin``: the script line
        and command to name when the text is not the script's own, e.g. an event)."""
        try:
            return str(self.tcl.call("uplevel", "#0", text)) if at_global else self.tcl.eval(text)
        except tkinter.TclError as e:
            code = self.tcl.eval("set ::errorCode")
            if code == "NSIM EXIT":
                raise ScriptExit() from None
            raise self._script_error(str(e), origin, text) from None

    def _script_error(self, message: str, origin: tuple[int, str] | None, text: str) -> Ns2ScriptError:
        name = os.path.basename(self.script)
        if message.startswith(f"{name}:"):
            return Ns2ScriptError(message, file=self.script, reason=message)
        info = self.tcl.eval("set ::errorInfo")
        lines = re.findall(r'\(file "([^"]*)" line (\d+)\)', info)
        ours = [int(n) for f, n in lines if os.path.abspath(f) == self.script]
        where = origin[0] if origin is not None else (ours[-1] if ours else None)
        cmd = origin[1] if origin is not None else text
        for quoted, f, _ in [] if origin is not None else re.findall(r'"((?:[^"\\]|\\.)*)"\n\s*\(file "([^"]*)" line (\d+)\)', info):
            if os.path.abspath(f) == self.script:
                cmd = quoted
        head = f"{name}:{where}" if where is not None else name
        return Ns2ScriptError(f"{head}: `{_short(cmd)}`: {message}", file=self.script, line=where, reason=message)


class Ns2Error(Exception):
    """Raised by a Python handler: the script asked for something nsim cannot do (the
    interpreter adds the script line and command)."""


def _short(cmd: str, width: int = 100) -> str:
    """A command's text on one line, cut to ``width`` characters."""
    one = " ".join(cmd.split())
    return one if len(one) <= width else one[: width - 3] + "..."
