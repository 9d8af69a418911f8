"""The caller's connections, as the API serves them: `ScopedConnections`.

Each method takes the caller's `Principal`, checks its key's scopes (a connect
request or connection outside them is 404, as if it did not exist) and answers
the API's schema objects; the work is done by `Connections` (service.py), which
takes a user id and serves the dashboard and the browser routes too. The two
layers name each action the same: `open_request`, `get_request`,
`list_connections`, `connect_token`, `disconnect`.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.api_keys.scopes import can_see, require_access
from skillgate.connections.schemas import (
    ConnectionList,
    ConnectionOut,
    ConnectRequestOut,
    ConnectStarted,
    TokenBody,
    Variables,
)
from skillgate.connections.service import REQUEST_TTL, Connections, request_status
from skillgate.errors import NotFound
from skillgate.kit.principal import Principal


class ScopedConnections:
    def __init__(self, connections: Connections) -> None:
        self.connections = connections

    async def open_request(
        self, db: AsyncSession, principal: Principal, slug: str, variables: Variables | None = None
    ) -> ConnectStarted:
        """POST /v1/connect: a connect request and the link the user opens."""
        require_access(principal, slug, "full")
        req = await self.connections.open_request(db, principal.user_id, slug, variables)
        return ConnectStarted(
            id=req.id,
            integration=req.integration,
            connect_url=self.connections.connect_url(req),
            expires_in=int(REQUEST_TTL.total_seconds()),
        )

    async def get_request(
        self, db: AsyncSession, principal: Principal, request_id: str
    ) -> ConnectRequestOut:
        """GET /v1/connect/{id}: the request's status (404 outside the key's scopes)."""
        req = await self.connections.get_request(db, principal.user_id, request_id)
        if not can_see(principal, req.integration):  # as if it did not exist
            raise NotFound("Connect request not found.")
        return ConnectRequestOut.of(req, request_status(req))

    async def list_connections(self, db: AsyncSession, principal: Principal) -> ConnectionList:
        """GET /v1/connections: the caller's connections its key may see."""
        rows = await self.connections.list_connections(db, principal.user_id)
        return ConnectionList(
            connections=[ConnectionOut.of(c) for c in rows if can_see(principal, c.integration)]
        )

    async def connect_token(
        self, db: AsyncSession, principal: Principal, slug: str, body: TokenBody
    ) -> ConnectionOut:
        """PUT /v1/connections/{integration}: store pasted credentials the upstream accepts."""
        require_access(principal, slug, "full")
        connection = await self.connections.connect_token(
            db,
            principal.user_id,
            slug,
            body.token,
            username=body.username,
            key=body.key,
            variables=body.variables,
        )
        return ConnectionOut.of(connection)

    async def disconnect(self, db: AsyncSession, principal: Principal, slug: str) -> None:
        """DELETE /v1/connections/{integration}."""
        require_access(principal, slug, "full")
        await self.connections.disconnect(db, principal.user_id, slug)
