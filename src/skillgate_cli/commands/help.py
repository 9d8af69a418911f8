"""`svc help [command]`: the same text as `--help`."""

from __future__ import annotations

import click

from skillgate_cli.errors import CliError


@click.command("help")
@click.argument("name", required=False)
@click.pass_context
def command(ctx: click.Context, name: str | None) -> int:
    """Show help for svc, or for one command (`svc help run`)."""
    group = ctx.parent.command if ctx.parent else None
    if not isinstance(group, click.Group) or ctx.parent is None:
        raise CliError("help is only available as `svc help`")
    if name is None:
        click.echo(group.get_help(ctx.parent))
        return 0
    sub = group.get_command(ctx.parent, name)
    if sub is None:
        raise CliError(f"no command {name!r}: run `svc help` for the list")
    with click.Context(sub, info_name=name, parent=ctx.parent) as sub_ctx:
        click.echo(sub.get_help(sub_ctx))
    return 0
