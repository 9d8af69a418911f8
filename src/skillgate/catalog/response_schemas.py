"""The compact success-response schemas of the compiled integrations, read on demand.

`skillgate catalog build` writes, beside each compiled integration, the JSON schema
of each endpoint's 2xx answer where the pinned source documents one, compacted
(`importers.responses`), to `catalog/compiled/responses/<slug>.json`, keyed by
`importers.compile.response_key` (the source operation id, else `METHOD path`:
neither changes under an overlay). Loading the catalog never reads these files: the
MCP door asks for an integration's schemas the first time it lists that
integration's endpoint tools (`?tools=endpoints`), and a few integrations' are kept.
Hand-written endpoints, and integrations not compiled from a source, have none.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from skillgate.catalog.models import Endpoint

RESPONSES_DIR = Path(__file__).parent / "compiled" / "responses"


@lru_cache(maxsize=8)
def _of_integration(slug: str) -> dict[str, Any]:
    path = RESPONSES_DIR / f"{slug}.json"
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


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
    found = _of_integration(slug).get(name)
    return found if isinstance(found, dict) else None
