"""`svc run ... --NAME @./path`: a local file as the value of a file parameter.

A value that starts with `@` is read as a path only when the endpoint's
documentation (GET /v1/skills/:integration/:endpoint, asked once, no rate limit)
marks that parameter `"file": true`; anywhere else it stays text (`--text
@here`). `@@` escapes a leading `@` (`--pic @@me` sends the text `@me`). The
file is sent as {"base64", "filename", "content_type"} (the type guessed from
the name by `mimetypes`); the gateway caps its size (SKILLGATE_MAX_UPLOAD_BYTES,
413 naming the parameter). Standard library only.
"""

from __future__ import annotations

import base64
import mimetypes
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skillgate_cli.errors import CliError

MAX_FILE_BYTES = 64 * 1024 * 1024  # far above any gateway's cap: never read more


def _read(name: str, text: str) -> dict[str, str]:
    path = Path(text).expanduser()
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise CliError(
                f"--{name}: {text} is {size:,} bytes, over svc's {MAX_FILE_BYTES:,}",
                error="bad_params",
            )
        data = path.read_bytes()
    except OSError as exc:
        raise CliError(
            f"--{name}: cannot read {text}: {exc.strerror or exc}", error="bad_params"
        ) from None
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return {"base64": base64.b64encode(data).decode(), "filename": path.name, "content_type": kind}


def attach(
    params: dict[str, Any], as_typed: dict[str, str], files: Callable[[], set[str] | None]
) -> None:
    """Replace `@path` values of file parameters by the files' contents, in place;
    `files` gives the endpoint's file parameters (None: its documentation is unknown)."""
    marked = [k for k, v in params.items() if isinstance(v, str) and v.startswith("@")]
    if not marked:
        return
    known = files()
    for name in marked:
        value: str = params[name]
        if value.startswith("@@"):
            params[name] = value[1:]
        elif known is None:
            raise CliError(
                f"--{name}: cannot tell whether it is a file (the endpoint's documentation "
                "could not be read); retry, or write @@ for a leading @ in text",
                error="bad_params",
            )
        elif name in known:
            params[name] = _read(name, value[1:])
        else:
            continue
        as_typed.pop(name, None)
