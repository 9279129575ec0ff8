"""``nsim run script.tcl``: runs an ns-2 OTcl script (:mod:`nsim.ns2`) and writes its results
like a TOML scenario's. The script writes its own files (``trace-all``, traced variables)
where it opens them, relative to the working directory, as under ns-2."""

from __future__ import annotations

import os

from .common import echo, invalid_input_exits_2


def execute_tcl(script: str, out: str | None, seed: int | None, until: str | None, trace: bool, pcap: bool,
                pcap_links: str | None, parquet: bool, quiet: bool, no_limits: bool, force: bool,
                script_args: tuple[str, ...] = ()) -> None:
    """Runs the script with ``script_args`` as its ``$argv``, saves its results to OUT (default ``out/<script name>``) and prints
    the summary; exits 2 on a script nsim cannot run, naming the line and the command."""
    from ..errors import ScenarioError
    from ..ns2 import run_script
    from .summary import summary_lines

    with invalid_input_exits_2():
        given = [name for name, value in (("--seed", seed), ("--until", until), ("--trace", trace), ("--pcap", pcap),
                                          ("--pcap-links", pcap_links), ("--no-limits", no_limits)) if value]
        if given:
            reason = f"{', '.join(given)}: not for ns-2 scripts (the script sets its run, seed and traces itself)"
            raise ScenarioError(f"{script}: {reason}", file=script, reason=reason)
        out = out or os.path.join("out", os.path.splitext(os.path.basename(script))[0])
        notices: list[str] = []
        res = run_script(script, script_args, notice=notices.append)
        res.save(out, parquet=parquet, force=force)
    if not quiet:
        for line in summary_lines({**res.summary, "accounting": res.accounting}, os.path.join(out, "flows.csv")):
            echo(line)
        for note in notices:
            echo(f"notice: {note}")
        echo(f"results in {out}/")
