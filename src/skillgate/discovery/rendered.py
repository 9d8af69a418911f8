"""Discovery responses rendered once per catalog and served as bytes.

The catalog changes only on a reload, which renders it again (`prepare`, off the
event loop) and switches in one step (`swap`). Only two things vary per caller:
the connection status of each integration and the key's access (`full`, or
`read` for a `slug:read` scope). Listing rows are rendered for the four
combinations; an integration's endpoint list and each endpoint's document once
per access with the status spliced in; a listing is a join of ready fragments.
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


# The caller's connection status, spliced into a pre-rendered object's closing brace
# (rendering each document per status would double a catalog of thousands).
STATUS_TAIL = {True: b',"status":"connected"}', False: b',"status":"not_connected"}'}


def with_status(rendered: bytes, connected: bool) -> bytes:
    return rendered[:-1] + STATUS_TAIL[connected]


class RenderedIntegration:
    """One integration's discovery answers as bytes: rendered once at start-up for
    what every caller asks (listing rows, the endpoint list), and on first use, then
    kept, for the rest (an endpoint's document, a category's endpoint list, the
    download bundle): memory grows with what is asked for, not with callers.
    """

    def __init__(self, integration: Integration) -> None:
        self.integration = integration
        # By name and by former name (`Endpoint.aliases`): a call naming either is served.
        self.endpoints: dict[str, Endpoint] = integration.named
        self.visible: dict[Access, list[Endpoint]] = {
            access: visible_endpoints(integration, read_only=access == "read")
            for access in ACCESSES
        }
        self.listing: dict[tuple[str, Access], bytes] = {
            (status, access): orjson.dumps(
                {
                    "slug": integration.slug,
                    "name": integration.name,
                    "status": status,
                    "endpoints": len(self.visible[access]),
                    "description": integration.description,
                }
            )
            for access in ACCESSES
            for status in STATUSES
        }
        self.detail: dict[Access, bytes] = {
            access: self._detail(self.visible[access]) for access in ACCESSES
        }
        # Each endpoint's document, rendered when first asked for (most never are).
        self._docs: dict[str, bytes] = {}
        self.category_names = list(dict.fromkeys(e.category for e in integration.endpoints))
        self._by_category: dict[tuple[str, Access], bytes] = {}
        self._bundles: dict[Access, bytes] = {}

    def _detail(self, endpoints: list[Endpoint]) -> bytes:
        """GET /v1/skills/:integration without its `status` (`with_status` adds it)."""
        i = self.integration
        return orjson.dumps(
            {
                "integration": i.slug,
                "name": i.name,
                "description": i.description,
                "categories": categories(endpoints),
            }
        )

    def category_detail(self, category: str, access: Access) -> bytes:
        """The endpoint list of one category (`?category=`); 404 names the closest."""
        found = self._by_category.get((category, access))
        if found is None:
            if category not in self.category_names:
                raise _unknown(
                    "category",
                    category,
                    self.category_names,
                    _listing(self.integration.slug, "categories"),
                    where=f" for {self.integration.slug!r}",
                )
            chosen = [e for e in self.visible[access] if e.category == category]
            found = self._by_category[(category, access)] = self._detail(chosen)
        return found

    def endpoint_doc(self, name: str) -> bytes:
        """The endpoint's documentation object (the endpoint exists)."""
        found = self._docs.get(name)
        if found is None:
            doc = endpoint_doc(self.integration, self.endpoints[name])
            found = self._docs[name] = orjson.dumps(doc)
        return found

    def bundle(self, access: Access) -> bytes:
        """SKILL.md and every endpoint's file (`svc pull`), rendered on first download."""
        found = self._bundles.get(access)
        if found is None:
            found = self._bundles[access] = orjson.dumps(
                bundle(self.integration, self.visible[access])
            )
        return found


def _echo(name: str) -> str:
    return name if len(name) <= _MAX_NAME_ECHO else name[:_MAX_NAME_ECHO] + "…"


def closest(name: str, candidates: list[str]) -> str | None:
    if len(name) > _MAX_NAME_ECHO or not name.isascii():
        return None
    match = difflib.get_close_matches(name.lower(), candidates, n=1, cutoff=0.5)
    return match[0] if match else None


def _unknown(
    what: str, name: str, candidates: list[str], steps: dict[str, str], where: str = ""
) -> NotFound:
    """404 naming what was asked for (shortened) and the closest existing name; how to
    list the names depends on the caller's door (`steps`)."""
    hint = closest(name, candidates)
    return NotFound(
        f"Unknown {what} {_echo(name)!r}{where}" + (f"; did you mean {hint!r}?" if hint else "."),
        steps=steps,
    )


def _listing(slug: str, what: str) -> dict[str, str]:
    """Per door, how to list an integration's `what` (endpoints or categories)."""
    return {
        "svc": f"Run `svc skills {slug}` to list its {what}.",
        "mcp": f"Call search_skills with integration {slug!r} to find its endpoints.",
        "http": f"GET /v1/skills/{slug} lists its {what}.",
    }


_INTEGRATIONS = {
    "svc": "Run `svc skills` to list integrations.",
    "mcp": "Call list_integrations to list them.",
    "http": "GET /v1/skills lists them.",
}


@dataclass
class RenderedCatalog:
    catalog: Catalog
    by_slug: dict[str, RenderedIntegration] = field(init=False)
    _visible: dict[tuple[str, ...], list[tuple[str, Access]]] = field(init=False)

    def __post_init__(self) -> None:
        self.swap(self.prepare(self.catalog))

    @staticmethod
    def prepare(catalog: Catalog) -> dict[str, RenderedIntegration]:
        """Everything rendered for `catalog` (pure: a reload runs it off the event loop)."""
        return {slug: RenderedIntegration(i) for slug, i in catalog.integrations.items()}

    def swap(self, by_slug: dict[str, RenderedIntegration]) -> None:
        """Serve what `prepare` rendered from now on."""
        self.by_slug = by_slug
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
            raise _unknown("integration", slug, list(self.by_slug), _INTEGRATIONS)
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
                [e.name for e in rendered.integration.endpoints],
                _listing(slug, "endpoints"),
                where=f" for {slug!r}",
            )
        if access == "read" and endpoint.mutates:
            raise ScopeNotAllowed(
                f"This API key is read-only for {slug!r} and {name!r} changes data."
            )
        return rendered, endpoint

    def endpoint_doc(self, slug: str, name: str, scopes: tuple[str, ...]) -> bytes:
        rendered, endpoint = self.endpoint(slug, name, scopes)
        return rendered.endpoint_doc(endpoint.name)
