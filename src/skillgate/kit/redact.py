"""Scrub secrets from text bound for the log.

The first defence is at the source (the engine hides SQL parameters, no code
logs a key or a body); this is the second: every log line, structlog's and the
standard library's (uvicorn, SQLAlchemy, asyncpg, asyncio), passes through
`redact` before it is written. It replaces, whatever the surrounding text:

- API keys (`sk_` + 36 base62 characters),
- 64-hex digests (API key hashes, token hashes),
- argon2 hashes (`$argon2id$v=19$m=...,t=...,p=...$salt$hash`),
- `Bearer <credential>`,
- JWT-shaped tokens (`eyJ...`.`...`.`...`),
- the values of PostgreSQL's `DETAIL:  Key (column)=(value)`.
"""

from __future__ import annotations

import re
from typing import Any

MASK = "[redacted]"

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\$argon2(?:id|i|d)\$[A-Za-z0-9+/=,.$-]*"), MASK),
    (re.compile(r"(?i)\b(bearer)(\s+|%20|\+)[^\s'\"\\,;]+"), rf"\1\2{MASK}"),
    (re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*"), MASK),
    (re.compile(r"\bsk_[0-9A-Za-z]{36}(?![0-9A-Za-z])"), MASK),
    (re.compile(r"(?<![0-9A-Fa-f])[0-9A-Fa-f]{64}(?![0-9A-Fa-f])"), MASK),
    (re.compile(r"(Key \([^)]*\))=\((?:[^()]|\([^()]*\))*\)"), rf"\1=({MASK})"),
)
# The cheap tests that let most strings through without running every pattern:
# the marked shapes, and a 64-hex run only in strings long enough to hold one
# (the access log's values are all shorter).
_MARKS = re.compile(r"sk_|eyJ|argon2|[Bb]earer|BEARER|Key \(")
_HEX_RUN = re.compile(r"[0-9A-Fa-f]{64}")


def redact(text: str) -> str:
    if not _MARKS.search(text) and (len(text) < 64 or not _HEX_RUN.search(text)):
        return text
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def redact_value(value: Any) -> Any:
    """`redact` applied to every string inside a log event's values."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: redact_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    if isinstance(value, tuple):
        return tuple(redact_value(v) for v in value)
    return value
