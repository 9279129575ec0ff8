"""`python -m nsim` is the `nsim` command."""

from nsim.cli import entry

entry()
