"""Operator commands whose text options refuse control characters (`kit/text.py`).

`CheckedGroup` makes every command under it a `CheckedCommand`, which checks each
string option before the command runs: a usage error (exit 2) naming the option.
Passwords may hold anything but NUL (which no command line can carry anyway).
"""

from __future__ import annotations

from typing import Any

import click

from skillgate.errors import BadRequest
from skillgate.kit import text

SECRET_OPTIONS = frozenset({"password", "access_token", "refresh_token"})


class CheckedCommand(click.Command):
    def invoke(self, ctx: click.Context) -> Any:
        for name, value in ctx.params.items():
            if isinstance(value, str):
                try:
                    text.check(name, value, secret=name in SECRET_OPTIONS)
                except BadRequest as exc:
                    message = exc.message.split(": ", 1)[-1]
                    raise click.BadParameter(
                        message, ctx=ctx, param_hint="--" + name.replace("_", "-")
                    ) from None
        return super().invoke(ctx)


class CheckedGroup(click.Group):
    command_class = CheckedCommand
    group_class = type  # groups under it are CheckedGroups too
