"""The compact success-response schemas of the compiled integrations, read on demand.

`skillgate catalog build` writes, beside each compiled integration, the JSON schema
of each endpoint's 2xx answer where the pinned source documents one, compacted
(`importers.responses`), to `catalog/compiled/responses/<slug>.json`, keyed by
`importers.compile.response_key` (the source operation id, else `METHOD path`:
neither changes under an overlay). Loading the catalog never reads these files: the
MCP door asks for an integration's schemas the first time it lists that
integration's endpoint tools (`?tools=endpoints`). A file is kept as its bytes, one
line an endpoint (`sources.render_responses`), indexed by key, and a schema is
decoded when asked for: decoding all of GitHub's 1,200 at once costs ~10 times the
file's size in Python objects; a few integrations' files are kept. Hand-written
endpoints, and integrations not compiled from a source, have none.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from skillgate.catalog.models import Endpoint

RESPONSES_DIR = Path(__file__).parent / "compiled" / "responses"


_SEPARATOR = b'": '


def _entry(line: bytes) -> tuple[str, bytes] | None:
    """(key, the schema's JSON) of one line `"key": {...},`; None if it is not one."""
    line = line.rstrip(b",")
    at = line.find(_SEPARATOR)
    while at != -1:  # the first `": ` whose left part is a whole JSON string
        try:
            key = orjson.loads(line[: at + 1])
        except orjson.JSONDecodeError:
            at = line.find(_SEPARATOR, at + 1)
            continue
        return (key, line[at + len(_SEPARATOR) :]) if isinstance(key, str) else None
    return None


@lru_cache(maxsize=8)
def _of_integration(slug: str) -> dict[str, bytes]:
    """Each endpoint's schema, still JSON, by key; {} without a file."""
    try:
        data = (RESPONSES_DIR / f"{slug}.json").read_bytes()
    except OSError:
        return {}
    found = (_entry(line) for line in data.splitlines()[1:-1])
    return dict(e for e in found if e is not None)


def key(endpoint: Endpoint) -> str:
    """As `importers.compile.response_key` names a compiled endpoint."""
    return endpoint.operation or f"{endpoint.method} {endpoint.path}"


def schema_of(slug: str, endpoint: Endpoint) -> dict[str, Any] | None:
    """The compact JSON schema of `endpoint`'s success answer, or None."""
    return schema_by_key(slug, key(endpoint))


def schema_by_key(slug: str, name: str) -> dict[str, Any] | None:
    """The schema of the endpoint `key` names in integration `slug`, or None."""
    if "/" in slug or slug.startswith("."):
        return None
    raw = _of_integration(slug).get(name)
    if raw is None:
        return None
    try:
        found = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return found if isinstance(found, dict) else None
