"""Read and update a `.env` file without disturbing what else is in it.

Understood syntax (the common subset of python-dotenv and docker compose):
`KEY=value`, `export KEY=value`, spaces around `=`, `'single'` (literal) and
`"double"` (with `\\n`, `\\t`, `\\"`, `\\\\` escapes) quoted values, quoted
values spanning lines, `# comments` on their own line or after an unquoted
value. When a key appears twice, the last one wins.

`update` rewrites only the entries it changes: other lines, comments, blank
lines, quoting, the `export` prefix and the file's line endings (LF or CRLF)
are kept byte for byte. The file is replaced atomically and left mode 0600,
because it holds the API key. A read-only file is refused, never overwritten.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

_ENTRY_RE = re.compile(r"^(\s*)(export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$", re.DOTALL)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "$": "$"}
_SAFE_RE = re.compile(r"[A-Za-z0-9_./:@%+,=-]*")  # `fullmatch`: "$" would pass a final "\n"


class EnvFileError(OSError):
    """The file cannot be read or written; the message says what to do."""


@dataclass
class Entry:
    """One logical entry: `raw` is its exact text, line endings included."""

    raw: str
    key: str | None = None
    value: str = ""
    quote: str = ""  # "", "'" or '"'
    export: bool = False
    trailer: str = ""  # what follows the value on its last line, e.g. "  # comment"


def _unquote_double(body: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body) and body[i + 1] in _ESCAPES:
            out.append(_ESCAPES[body[i + 1]])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _closing_quote(text: str, quote: str) -> int:
    """Index of the quote that closes `text` (which starts after the opening one), or -1."""
    i = 0
    while i < len(text):
        if quote == '"' and text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i
        i += 1
    return -1


def parse(text: str) -> list[Entry]:
    """Split `text` into entries; anything that is not `KEY=value` is kept as-is."""
    # Only "\n" ends a line ("\r\n" too); str.splitlines would also split on \x1e, \u2028 ...
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    if not lines[-1]:
        lines.pop()
    entries: list[Entry] = []
    i = 0
    while i < len(lines):
        raw = lines[i]
        i += 1
        body = raw.rstrip("\r\n")
        if not entries and body.startswith("\ufeff"):
            body = body[1:]
        match = _ENTRY_RE.match(body)
        if match is None or body.lstrip().startswith("#"):
            entries.append(Entry(raw))
            continue
        export, key, rest = bool(match.group(2)), match.group(3), match.group(4)
        quote = rest[:1] if rest[:1] in ("'", '"') else ""
        if quote:
            # A quoted value may continue on the following lines.
            inner = rest[1:]
            end = _closing_quote(inner, quote)
            while end < 0 and i < len(lines):
                raw += lines[i]
                inner += "\n" + lines[i].rstrip("\r\n")
                i += 1
                end = _closing_quote(inner, quote)
            if end < 0:
                entries.append(Entry(raw))  # unterminated: not ours to interpret
                continue
            trailer = inner[end + 1 :]
            inner = inner[:end]
            value = _unquote_double(inner) if quote == '"' else inner
        else:
            comment = re.search(r"\s+#", rest)
            cut = comment.start() if comment else len(rest)
            value, trailer = rest[:cut].strip(), rest[cut:]
        entries.append(Entry(raw, key, value, quote, export, trailer))
    return entries


def read_values(path: Path) -> dict[str, str]:
    """The file's values (last occurrence wins); empty when the file does not exist."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise EnvFileError(f"cannot read {path}: {exc}") from None
    return {e.key: e.value for e in parse(text) if e.key is not None}


def _render(key: str, value: str, quote: str, export: bool, newline: str, trailer: str = "") -> str:
    single_ok = not any(c in value for c in "'\n\r")
    if quote == "'" and not single_ok:
        quote = '"'
    if quote == "" and not _SAFE_RE.fullmatch(value):
        quote = "'" if single_ok else '"'
    if quote == '"':
        escaped = (
            value.replace("\\", "\\\\")
            .replace('"', '\\"')
            .replace("\n", "\\n")
            .replace("\r", "\\r")
        )
        body = f'"{escaped}"'
    elif quote == "'":
        body = f"'{value}'"
    else:
        body = value
    return f"{'export ' if export else ''}{key}={body}{trailer}{newline}"


def updated_text(text: str, changes: dict[str, str | None]) -> str:
    """`text` with each key of `changes` set (or removed when None); the rest untouched."""
    newline = "\r\n" if "\r\n" in text else "\n"
    entries = parse(text)
    out: list[str] = []
    done: set[str] = set()
    for e in entries:
        if e.key is None or e.key not in changes:
            out.append(e.raw)
            continue
        new = changes[e.key]
        if new is None or e.key in done:
            continue  # removed, or a duplicate of a line already rewritten
        ending = e.raw[len(e.raw.rstrip("\r\n")) :] or ""
        indent = e.raw[: len(e.raw) - len(e.raw.lstrip(" \t\ufeff"))]
        out.append(indent + _render(e.key, new, e.quote, e.export, ending, e.trailer))
        done.add(e.key)
    missing = [(k, v) for k, v in changes.items() if v is not None and k not in done]
    if missing and out and not out[-1].endswith("\n"):
        out[-1] += newline
    for key, value in missing:
        out.append(_render(key, value, "", False, newline))
    return "".join(out)


def check_writable(path: Path) -> None:
    """Refuse a read-only file (even for root, who could write it anyway)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return
    if not os.access(path, os.W_OK) or not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | 0o002):
        raise EnvFileError(
            f"{path} is read-only: make it writable (chmod u+w {path.name}) and try again"
        )


def update(path: Path, changes: dict[str, str | None]) -> bool:
    """Apply `changes` to the file atomically, mode 0600; False when nothing changed."""
    target = Path(os.path.realpath(path))
    check_writable(target)
    try:
        old = target.read_bytes().decode("utf-8")
    except FileNotFoundError:
        old = None
    except (OSError, UnicodeDecodeError) as exc:
        raise EnvFileError(f"cannot read {path}: {exc}") from None
    new = updated_text(old or "", changes)
    if old is not None and new == old:
        os.chmod(target, 0o600)
        return False
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(prefix=".env.", dir=target.parent)
    except OSError as exc:
        raise EnvFileError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(new.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise EnvFileError(f"cannot write {path}: {exc.strerror or exc}") from None
    return True
