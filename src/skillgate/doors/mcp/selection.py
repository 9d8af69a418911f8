"""Which tools a `/mcp` URL asks for: the five generic ones, or also one per endpoint.

    /mcp                                         the five tools
    /mcp?tools=endpoints                         also one tool per endpoint the key may call
    /mcp?tools=endpoints&integration=github      only these integrations' endpoints
    /mcp?tools=endpoints&category=issues,pulls   only endpoints of these categories

`integration` and `category` take comma-separated lists (or repeat); together they
intersect. They narrow the endpoint tools of a large integration under the cap
(`schemas.MAX_ENDPOINT_TOOLS`) that clients handle well; the key's scopes still decide
what may be called. The URL is the client's configuration, so the list is fixed per
credential and URL (tools/list says how long it may be cached, `LIST_TTL_MS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl

from starlette.types import Scope

# How long a client may cache tools/list (2026-07-28 `ttlMs`): the list changes only
# when the key's scopes or the catalog change (an operator's reload).
LIST_TTL_MS = 300_000
MAX_FILTERS = 50


@dataclass(frozen=True, slots=True)
class Selection:
    endpoints: bool = False
    integrations: frozenset[str] | None = None
    categories: frozenset[str] | None = None

    @property
    def filtered(self) -> bool:
        return self.integrations is not None or self.categories is not None


GENERIC = Selection()


def _names(pairs: list[tuple[str, str]], key: str) -> frozenset[str] | None:
    found = {
        part.strip()
        for name, value in pairs
        if name == key
        for part in value.split(",")
        if part.strip()
    }
    return frozenset(sorted(found)[:MAX_FILTERS]) if found else None


def of(scope: Scope) -> Selection:
    """The selection a request's query string asks for (GENERIC without `tools=endpoints`)."""
    query = scope.get("query_string", b"")
    if not query:
        return GENERIC
    pairs = parse_qsl(query.decode("latin-1"))
    if ("tools", "endpoints") not in pairs:
        return GENERIC
    return Selection(True, _names(pairs, "integration"), _names(pairs, "category"))
