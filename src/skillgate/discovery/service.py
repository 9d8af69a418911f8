"""Discovery for a caller: the pre-rendered catalog (discovery.rendered) filtered by
the key's scopes, with the caller's connection status. Every door's discovery
(the agent API, MCP) goes through here; the answers are JSON bytes."""

from __future__ import annotations

from skillgate.connections.status import StatusCache
from skillgate.discovery.rendered import RenderedCatalog
from skillgate.kit.principal import Principal

# The caller's connection status, spliced into the endpoint's pre-rendered object
# (rendering each document per status would double a catalog of thousands).
_STATUS_TAIL = {True: b',"status":"connected"}', False: b',"status":"not_connected"}'}


class Discovery:
    def __init__(self, rendered: RenderedCatalog, statuses: StatusCache) -> None:
        self.rendered = rendered
        self.statuses = statuses

    async def listing(self, principal: Principal) -> bytes:
        connected = await self.statuses.connected(principal.user_id)
        return self.rendered.listing(principal.scopes, connected)

    async def integration(self, principal: Principal, slug: str) -> bytes:
        rendered, access = self.rendered.integration(slug, principal.scopes)
        connected = await self.statuses.connected(principal.user_id)
        status = "connected" if slug in connected else "not_connected"
        return rendered.detail[(status, access)]

    async def endpoint(self, principal: Principal, slug: str, name: str) -> bytes:
        doc = self.rendered.endpoint_doc(slug, name, principal.scopes)
        connected = await self.statuses.connected(principal.user_id)
        return doc[:-1] + _STATUS_TAIL[slug in connected]

    def bundle(self, principal: Principal, slug: str) -> bytes:
        rendered, access = self.rendered.integration(slug, principal.scopes)
        return rendered.bundles[access]
