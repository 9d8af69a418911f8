"""Operator CLI output: JSON when stdout is not a terminal, a readable table when it is."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import click


def _default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def is_tty() -> bool:
    return sys.stdout.isatty()


def emit(data: Any, *, columns: Sequence[str] | None = None) -> None:
    """Print `data` (a dict or a list of dicts) for a person or a program."""
    if not is_tty():
        click.echo(json.dumps(data, default=_default, ensure_ascii=False))
        return
    rows = data if isinstance(data, list) else [data]
    if not rows:
        click.echo("(none)")
        return
    cols = list(columns or rows[0].keys())
    cells = [[_cell(row.get(c)) for c in cols] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(cols)]
    click.echo("  ".join(c.upper().ljust(w) for c, w in zip(cols, widths, strict=True)))
    for r in cells:
        click.echo("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)))


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def fail(message: str, code: int = 1) -> None:
    click.echo(f"skillgate: {message}", err=True)
    raise SystemExit(code)
