"""Discovery responses rendered once at start-up and served as bytes.

The catalog does not change while the server runs. Only two things vary per
caller: the connection status of each integration and the key's access
(`full`, or `read` for a `slug:read` scope). Each integration is rendered for
the four combinations; a listing is a join of ready fragments.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

import orjson

from skillgate.api_keys.scopes import Access, access_for
from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Endpoint, Integration
from skillgate.discovery.bundle import bundle
from skillgate.discovery.documents import categories, endpoint_doc, visible_endpoints
from skillgate.errors import NotFound, ScopeNotAllowed

STATUSES = ("connected", "not_connected")
ACCESSES: tuple[Access, ...] = ("full", "read")
_MAX_NAME_ECHO = 64


@dataclass(frozen=True)
class RenderedIntegration:
    integration: Integration
    listing: dict[tuple[str, Access], bytes]
    detail: dict[tuple[str, Access], bytes]
    endpoint_docs: dict[str, bytes]
    endpoints: dict[str, Endpoint]

    bundles: dict[Access, bytes]


def _render(integration: Integration) -> RenderedIntegration:
    listing: dict[tuple[str, Access], bytes] = {}
    detail: dict[tuple[str, Access], bytes] = {}
    bundles: dict[Access, bytes] = {}
    for access in ACCESSES:
        endpoints = visible_endpoints(integration, read_only=access == "read")
        cats = categories(endpoints)
        bundles[access] = orjson.dumps(bundle(integration, endpoints))
        for status in STATUSES:
            listing[(status, access)] = orjson.dumps(
                {
                    "slug": integration.slug,
                    "name": integration.name,
                    "status": status,
                    "endpoints": len(endpoints),
                    "description": integration.description,
                }
            )
            detail[(status, access)] = orjson.dumps(
                {
                    "integration": integration.slug,
                    "name": integration.name,
                    "description": integration.description,
                    "status": status,
                    "categories": cats,
                }
            )
    return RenderedIntegration(
        integration=integration,
        listing=listing,
        detail=detail,
        endpoint_docs={
            e.name: orjson.dumps(endpoint_doc(integration, e)) for e in integration.endpoints
        },
        endpoints={e.name: e for e in integration.endpoints},
        bundles=bundles,
    )


def _echo(name: str) -> str:
    return name if len(name) <= _MAX_NAME_ECHO else name[:_MAX_NAME_ECHO] + "…"


def closest(name: str, candidates: list[str]) -> str | None:
    if len(name) > _MAX_NAME_ECHO or not name.isascii():
        return None
    match = difflib.get_close_matches(name.lower(), candidates, n=1, cutoff=0.5)
    return match[0] if match else None


def _unknown(what: str, name: str, candidates: list[str], advice: str, where: str = "") -> NotFound:
    """404 naming what was asked for (shortened) and the closest existing name."""
    hint = closest(name, candidates)
    return NotFound(
        f"Unknown {what} {_echo(name)!r}{where}"
        + (f"; did you mean {hint!r}?" if hint else ".")
        + f" {advice}"
    )


@dataclass
class RenderedCatalog:
    catalog: Catalog
    by_slug: dict[str, RenderedIntegration] = field(init=False)
    _visible: dict[tuple[str, ...], list[tuple[str, Access]]] = field(init=False)

    def __post_init__(self) -> None:
        self.by_slug = {slug: _render(i) for slug, i in self.catalog.integrations.items()}
        self._visible = {}

    def visible(self, scopes: tuple[str, ...]) -> list[tuple[str, Access]]:
        """(slug, access) for every integration the scopes allow, in slug order (memoised)."""
        found = self._visible.get(scopes)
        if found is None:
            found = []
            for slug in self.by_slug:
                access = access_for(scopes, slug)
                if access is not None:
                    found.append((slug, access))
            if len(self._visible) < 10_000:
                self._visible[scopes] = found
        return found

    def listing(self, scopes: tuple[str, ...], connected: frozenset[str]) -> bytes:
        parts = [
            self.by_slug[slug].listing[
                ("connected" if slug in connected else "not_connected", access)
            ]
            for slug, access in self.visible(scopes)
        ]
        return b'{"integrations":[' + b",".join(parts) + b"]}"

    def integration(self, slug: str, scopes: tuple[str, ...]) -> tuple[RenderedIntegration, Access]:
        """The integration and the key's access to it; 404 unknown, 403 out of scope."""
        rendered = self.by_slug.get(slug)
        if rendered is None:
            raise _unknown(
                "integration", slug, list(self.by_slug), "Run `svc skills` to list integrations."
            )
        access = access_for(scopes, slug)
        if access is None:
            raise ScopeNotAllowed(
                f"This API key's scopes do not include {slug!r}; use a key with that scope."
            )
        return rendered, access

    def endpoint(
        self, slug: str, name: str, scopes: tuple[str, ...]
    ) -> tuple[RenderedIntegration, Endpoint]:
        """The endpoint a key may use: 404 unknown (closest name), 403 out of scope or
        read-only on an endpoint that changes data. Discovery and execution both ask here."""
        rendered, access = self.integration(slug, scopes)
        endpoint = rendered.endpoints.get(name)
        if endpoint is None:
            raise _unknown(
                "endpoint",
                name,
                list(rendered.endpoints),
                f"Run `svc skills {slug}` to list its endpoints.",
                where=f" for {slug!r}",
            )
        if access == "read" and endpoint.mutates:
            raise ScopeNotAllowed(
                f"This API key is read-only for {slug!r} and {name!r} changes data."
            )
        return rendered, endpoint

    def endpoint_doc(self, slug: str, name: str, scopes: tuple[str, ...]) -> bytes:
        rendered, endpoint = self.endpoint(slug, name, scopes)
        return rendered.endpoint_docs[endpoint.name]
