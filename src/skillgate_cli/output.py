"""Streams: data on stdout, everything said to a person on stderr.

Rich is imported only when stdout is a terminal (an agent never pays for it),
and the output falls back to plain text when Rich is not installed.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()


def color_allowed() -> bool:
    return "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def dumps(data: Any, *, pretty: bool) -> str:
    if pretty:
        return json.dumps(data, indent=2, ensure_ascii=False)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def write_stdout(text: str) -> None:
    """UTF-8 whatever the locale says, one trailing newline."""
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()


def print_json(data: Any, *, color: bool = False) -> None:
    """Compact JSON when piped; indented on a terminal (and coloured when `color`)."""
    if not stdout_is_tty():
        write_stdout(dumps(data, pretty=False))
        return
    text = dumps(data, pretty=True)
    if color and color_allowed():
        try:
            from rich.console import Console
        except ImportError:
            pass
        else:
            Console(soft_wrap=True).print_json(text)
            return
    write_stdout(text)


def say(message: str) -> None:
    """A message for the person at the terminal (stderr)."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
