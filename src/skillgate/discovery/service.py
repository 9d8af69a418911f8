"""Discovery for a caller: the pre-rendered catalog (discovery.rendered) filtered by
the key's scopes, with the caller's connection status. Every door's discovery
(the agent API, MCP) goes through here; the answers are JSON bytes."""

from __future__ import annotations

from skillgate.connections.status import StatusCache
from skillgate.discovery.answer import SearchAnswer
from skillgate.discovery.arguments import SearchArgs
from skillgate.discovery.rendered import RenderedCatalog, with_status
from skillgate.discovery.search import SearchIndex
from skillgate.kit.principal import Principal


class Discovery:
    def __init__(
        self, rendered: RenderedCatalog, statuses: StatusCache, index: SearchIndex
    ) -> None:
        self.rendered = rendered
        self.statuses = statuses
        self.index = index

    async def listing(self, principal: Principal) -> bytes:
        connected = await self.statuses.connected(principal.user_id)
        return self.rendered.listing(principal.scopes, connected)

    async def integration(
        self, principal: Principal, slug: str, category: str | None = None
    ) -> bytes:
        """The integration's endpoints by category (all, or the one `category`)."""
        rendered, access = self.rendered.integration(slug, principal.scopes)
        body = (
            rendered.detail[access]
            if category is None
            else rendered.category_detail(category, access)
        )
        connected = await self.statuses.connected(principal.user_id)
        return with_status(body, slug in connected)

    async def endpoint(self, principal: Principal, slug: str, name: str) -> bytes:
        doc = self.rendered.endpoint_doc(slug, name, principal.scopes)
        connected = await self.statuses.connected(principal.user_id)
        return with_status(doc, slug in connected)

    def bundle(self, principal: Principal, slug: str) -> bytes:
        rendered, access = self.rendered.integration(slug, principal.scopes)
        return rendered.bundle(access)

    async def search(self, principal: Principal, args: SearchArgs) -> bytes:
        """`{"query", "results", "no_match"}`: the endpoints the key may see that best
        match the query, best first, each with the caller's connection status of its
        integration. 404 for an unknown `integration` (naming the closest), 403 for one
        out of scope. The arguments come checked (discovery.arguments), as every door
        makes them."""
        answer, connected = await self._search(principal, args)
        return answer.body(connected)

    async def search_both(self, principal: Principal, args: SearchArgs) -> tuple[bytes, str]:
        """`search`'s JSON and the same answer as compact lines (SearchAnswer.text)."""
        answer, connected = await self._search(principal, args)
        return answer.body(connected), answer.text(connected)

    async def _search(
        self, principal: Principal, args: SearchArgs
    ) -> tuple[SearchAnswer, frozenset[str]]:
        query, integration = args.query, args.integration
        if integration is not None:
            self.rendered.integration(integration, principal.scopes)
        # The caller's connected integrations come first among near-equal matches when the
        # query names no product (search.CONNECTED_BOOST); a warm cache look-up.
        connected = await self.statuses.connected(principal.user_id)
        answer = self.index.answer(query, principal.scopes, integration, args.limit, connected)
        return answer, connected
