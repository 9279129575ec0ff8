"""``nsim run`` without click: the work of the command, and a strict parser for its plain form.

The core reads the scenario, runs it and writes every results file itself, so this path
imports neither pandas nor numpy nor click (issue 14: their import cost more than a small
run), nor the standard modules that bring ``re``, ``enum`` and ``typing`` along (``json``,
``csv``, ``signal``, ``contextlib``): about half of the command's Python start-up
(docs/performance.md). :func:`nsim.cli.entry` hands a plain ``nsim run SCENARIO [options]`` to
:func:`parse_plain_run` and :func:`execute`; anything the parser is not sure of (``--help``,
an unknown or repeated option, a value click would reject) goes to the click command in
:mod:`nsim.cli.run`, which calls the same :func:`execute`, so outputs, exit statuses and error
messages are the same either way. Ctrl-C stops the run at the simulated time reached, writes
what was done marked ``interrupted`` and exits 130.
"""

from __future__ import annotations

import os
import stat
import sys

from .common import EXIT_INTERRUPTED, echo, invalid_input_exits_2
from .summary import summary_lines

#: `typing` only for type checkers (importing it costs more than the rest of this module).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


#: Options of ``nsim run`` taking a value -> parameter name (as declared in :mod:`.run`).
VALUE_OPTIONS = {"-o": "out", "--out": "out", "--seed": "seed", "--until": "until", "--pcap-links": "pcap_links"}
#: Flags of ``nsim run`` -> parameter name.
FLAG_OPTIONS = {"--trace": "trace", "--pcap": "pcap", "--parquet": "parquet", "-q": "quiet", "--quiet": "quiet",
                "--no-limits": "no_limits", "--force": "force"}


def _click_accepts_path(path: str, want_dir: bool) -> bool:
    """Whether click.Path(file_okay=want_dir, dir_okay=not want_dir) takes ``path`` as is."""
    try:
        st = os.stat(path)
    except OSError:
        return True
    if want_dir and stat.S_ISREG(st.st_mode) or not want_dir and stat.S_ISDIR(st.st_mode):
        return False
    return os.access(path, os.R_OK)


def parse_plain_run(argv: list[str]) -> dict[str, Any] | None:
    """The keyword arguments of :func:`execute` for ``argv = ["run", SCENARIO, options...]``
    when every argument is in a form this parser knows (``--opt VALUE``, ``--opt=VALUE``,
    ``-o DIR``, flags, once each) and click would accept every value; None otherwise."""
    if not argv or argv[0] != "run" or "_NSIM_COMPLETE" in os.environ:
        return None
    kwargs: dict[str, Any] = {}
    positional: list[str] = []
    args = iter(argv[1:])
    for arg in args:
        if arg in ("-", "--"):
            return None
        if not arg.startswith("-"):
            positional.append(arg)
            continue
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in FLAG_OPTIONS and not eq:
            key, value = FLAG_OPTIONS[name], True
        elif name in VALUE_OPTIONS:
            key = VALUE_OPTIONS[name]
            if not eq:
                value = next(args, None)
                if value is None or value.startswith("-"):
                    return None
        else:
            return None
        if key in kwargs:
            return None
        kwargs[key] = value
    if len(positional) != 1 or not _click_accepts_path(positional[0], want_dir=False):
        return None
    kwargs["scenario"] = positional[0]
    if "out" in kwargs and not _click_accepts_path(kwargs["out"], want_dir=True):
        return None
    if "seed" in kwargs:
        try:
            kwargs["seed"] = int(kwargs["seed"])
        except ValueError:
            return None
    return kwargs


def _pcap_choice(pcap: bool, pcap_links: str | None) -> bool | list[str] | None:
    """``--pcap`` -> all link directions; ``--pcap-links a-b,c->d`` -> those; else the file's."""
    if pcap_links:
        return [s.strip() for s in pcap_links.split(",") if s.strip()]
    return True if pcap else None


def _scenario_json(text: str) -> str:
    """scenario.json's text: the scenario file as ``tomllib`` reads it, written by
    ``json.dumps(..., indent=2, default=str)``. The core writes the same text when it can, so
    this path imports neither ``tomllib`` (1.2 MB of a 15 MB run) nor ``json``; dates, NaN and
    infinities need both."""
    from .. import _core

    doc = _core.toml_document_json(text)
    if doc is not None:
        return doc
    import json
    import tomllib

    return json.dumps(tomllib.loads(text), indent=2, default=str)


def _echo_notices(text: str, core: list[str]) -> None:
    """Prints the scenario's notices (:mod:`nsim.notices`, then the core's `core`), one
    ``notice:`` line each."""
    from .. import _core
    from ..notices import notices

    doc = _core.toml_document(text)
    if doc is None:  # dates, NaN or infinities: only tomllib reads them as Python does
        import tomllib

        doc = tomllib.loads(text)
    for note in notices(doc) + core:
        echo(f"notice: {note}")


def _write_parquet(out: str) -> None:
    """Parquet copies of the CSV tables (needs pandas and pyarrow: only when asked)."""
    import pandas as pd

    for name in sorted(os.listdir(out)):
        if name.endswith(".csv"):
            pd.read_csv(os.path.join(out, name)).to_parquet(os.path.join(out, name[:-4] + ".parquet"), index=False)


def execute(scenario: str, out: str | None = None, seed: int | None = None, until: str | None = None,
            trace: bool = False, pcap: bool = False, pcap_links: str | None = None, parquet: bool = False,
            quiet: bool = False, no_limits: bool = False, force: bool = False,
            script_args: tuple[str, ...] = ()) -> None:
    """Runs SCENARIO, writes its results to OUT (default ``out/<scenario name>``) and prints
    the summary; exits 2 on invalid input (or an output folder that holds something else,
    unless ``force``) and 130 after Ctrl-C. The results are written to a fresh folder and
    swapped in whole (:mod:`nsim.outdir`): nothing of an earlier run is left beside them.
    A ``.tcl`` SCENARIO is an ns-2 script (:mod:`.run_tcl`), ``script_args`` its arguments."""
    if scenario.endswith(".tcl"):
        from .run_tcl import execute_tcl

        return execute_tcl(scenario, out, seed, until, trace, pcap, pcap_links, parquet, quiet, no_limits, force,
                           script_args)
    if script_args:
        from ..errors import ScenarioError

        with invalid_input_exits_2():
            reason = f"extra arguments {' '.join(script_args)!r}: only an ns-2 script (.tcl) takes arguments"
            raise ScenarioError(f"{scenario}: {reason}", file=scenario, reason=reason)
    from .. import _core
    from ..errors import ResultsError, from_core
    from ..outdir import StagedDir
    from ..progress import RunProgress
    from ..textfile import read_text

    with invalid_input_exits_2():
        text = read_text(scenario)
        out = out or os.path.join("out", os.path.splitext(os.path.basename(scenario))[0])
        duration_s = None
        if until is not None:
            from ..units import seconds

            duration_s = seconds(until, "until")
        with StagedDir(out, "run", force) as staged:
            trace_path = os.path.join(staged.path, "trace.tr") if trace else None
            progress = RunProgress(os.path.basename(scenario), enabled=not quiet)
            with progress, progress.stop_on_sigint():
                try:
                    summary = _core.run_to_dir(text, scenario, staged.path, "toml", seed, duration_s, trace_path,
                                               _pcap_choice(pcap, pcap_links), progress, not no_limits)
                except _core.ConfigError as e:
                    raise from_core(e) from None
                except _core.ResultsError as e:
                    raise ResultsError(str(e).replace(staged.path, out)) from None
            with open(os.path.join(staged.path, "scenario.json"), "w", encoding="utf-8") as f:
                f.write(_scenario_json(text))
            from ..flow_columns import write_narrow_flows

            write_narrow_flows(staged.path)
            if parquet:
                _write_parquet(staged.path)
            staged.commit()
    if not quiet:
        for line in summary_lines(summary, os.path.join(out, "flows.csv")):
            echo(line)
        _echo_notices(text, summary["notices"])
        echo(f"results in {out}/")
    if summary["interrupted"] or progress.interrupted:
        if quiet:
            echo(f"interrupted: partial results in {out}/", err=True)
        sys.exit(EXIT_INTERRUPTED)
