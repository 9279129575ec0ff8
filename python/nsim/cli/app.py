"""The ``nsim`` click app. Each subcommand lives in its own module and is registered here."""

from __future__ import annotations

import click

from . import bench, plot, report, reproduce, run, schema, sweep, validate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="nsim")
def main() -> None:
    """nsim: packet-level network simulation for transport and queue research.

    Invalid scenarios exit with status 2 and a message naming the file, field and reason.
    """


main.add_command(run.command)
main.add_command(validate.command)
main.add_command(schema.command)
main.add_command(bench.command)
main.add_command(plot.command)
main.add_command(report.command)
main.add_command(sweep.command)
main.add_command(reproduce.command)
