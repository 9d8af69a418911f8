"""Bounded output: `svc run` never floods a caller that is not a terminal.

When stdout is not a terminal and the answer's JSON (compact, UTF-8) is larger than
`--max-output` (default 65536 bytes; 0: no bound), the full JSON is written to

    <project root>/<skill dir>/out/<integration>-<endpoint>-<UTC stamp>.json

(the platform's skill directory, as `svc pull` finds it, when it exists; else a
file of the system's temp directory), mode 0600, and stdout gets instead

    {"status": <the envelope's status>, "saved_to": <path>, "bytes": <size>,
     "items": <count of the data's items or null>,
     "preview": <the first items and cut strings of `data` (else `error`), <= 2 KB>}

`out/` is added to the project's .gitignore (`/<skill dir>/out/`) inside a git
work tree. The exit code is the one the full answer has.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from skillgate_cli.output import dumps, print_json, write_stdout

PREVIEW_BYTES = 2048
# (list items, object keys, string characters, depth) kept, loosest first.
_CUTS = (
    (50, 100, 500, 8),
    (20, 50, 200, 6),
    (10, 30, 100, 5),
    (5, 20, 60, 4),
    (3, 12, 40, 3),
    (2, 8, 30, 3),
    (1, 5, 20, 2),
    (1, 3, 10, 1),
)


def _payload(document: Any) -> Any:
    """What the preview shows: an envelope's `data` (else its `error`), or the whole."""
    if isinstance(document, dict) and "status" in document:
        for key in ("data", "error"):
            if key in document:
                return document[key]
    return document


def count_items(document: Any) -> int | None:
    """The number of items: of `data` when it is a list, or of its one list field."""
    if not (isinstance(document, dict) and "data" in document):
        return None
    payload = document["data"]
    if isinstance(payload, list):
        return len(payload)
    if isinstance(payload, dict):
        lists = [v for v in payload.values() if isinstance(v, list)]
        if len(lists) == 1:
            return len(lists[0])
    return None


def _cut(value: Any, items: int, keys: int, chars: int, depth: int) -> Any:
    if isinstance(value, str):
        return value if len(value) <= chars else value[:chars] + "…"
    if isinstance(value, list | dict) and depth <= 0:
        return "…"
    if isinstance(value, list):
        return [_cut(v, items, keys, chars, depth - 1) for v in value[:items]]
    if isinstance(value, dict):
        kept = list(value.items())[:keys]
        return {k: _cut(v, items, keys, chars, depth - 1) for k, v in kept}
    return value


def preview(document: Any, limit: int = PREVIEW_BYTES) -> Any:
    """The first items of the data and cut strings, within `limit` bytes of JSON."""
    payload = _payload(document)
    for items, keys, chars, depth in _CUTS:
        cut = _cut(payload, items, keys, chars, depth)
        if len(dumps(cut, pretty=False).encode("utf-8")) <= limit:
            return cut
    return dumps(payload, pretty=False)[: limit // 4] + "…"  # a cut of the text


def _out_dir() -> tuple[Path, str, Path] | None:
    """(project root, the skill directory's out/ relative to it, shown-as base) or None."""
    from skillgate_cli import platforms
    from skillgate_cli.config import Config
    from skillgate_cli.errors import CliError

    try:
        config = Config.load()
        try:
            platform = platforms.resolve(config.root, config.platform)
        except CliError:
            platform = platforms.detect(config.root)
    except (CliError, OSError):
        return None
    skills = platforms.skill_dir(platform)
    if not (config.root / skills).is_dir():
        return None
    return config.root, (skills / "out").as_posix(), config.cwd


def _write_new(path: Path, data: bytes) -> bool:
    """Create `path` (never an existing file) with `data`, mode 0600; False if it exists."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return True


def save(data: bytes, integration: str, endpoint: str) -> str:
    """Write the full answer; the path as the caller should read it."""
    from skillgate_cli import gitignore

    stem = f"{integration}-{endpoint}-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
    where = _out_dir()
    if where is not None:
        root, relative, cwd = where
        try:
            (root / relative).mkdir(exist_ok=True)
            with contextlib.suppress(OSError):
                gitignore.ensure_dir_ignored(root, relative)
            for n in range(1000):
                path = root / relative / (f"{stem}.json" if n == 0 else f"{stem}-{n}.json")
                if _write_new(path, data):
                    return os.path.relpath(path, cwd)
        except OSError:
            pass  # a read-only project: the temp directory
    import tempfile

    fd, name = tempfile.mkstemp(prefix=f"svc-{stem}-", suffix=".json")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return name


def print_bounded(document: Any, limit: int, integration: str, endpoint: str) -> None:
    """Print `document` as `print_json` does, or, piped and above `limit` bytes, save it
    and print the summary."""
    if limit <= 0 or sys.stdout.isatty():
        print_json(document)
        return
    text = dumps(document, pretty=False).encode("utf-8")
    if len(text) <= limit:
        write_stdout(text.decode("utf-8"))
        return
    saved_to = save(text + b"\n", integration, endpoint)
    status = document.get("status") if isinstance(document, dict) else None
    summary = {
        "status": status,
        "saved_to": saved_to,
        "bytes": len(text),
        "items": count_items(document),
        "preview": preview(document),
    }
    write_stdout(json.dumps(summary, ensure_ascii=False, separators=(",", ":")))
