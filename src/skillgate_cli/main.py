"""`svc`: the agent-facing command line (commands arrive with issue 6)."""

from __future__ import annotations

import click

from skillgate_cli import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="svc")
def cli() -> None:
    """Discover and call third-party APIs through Skill Gateway."""


def main() -> None:
    cli(prog_name="svc")
