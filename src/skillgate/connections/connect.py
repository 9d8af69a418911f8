"""Connecting an integration: the CLI's connect requests, OAuth, pasted tokens.

svc connect github  ->  POST /v1/connect  ->  {id, connect_url, expires_in}
browser             ->  GET /connect/github?request=<id>  (dashboard session)
                    ->  provider (state + PKCE)  ->  GET /connect/github/callback
                    ->  connection stored, request `connected`, back to the dashboard
svc                 ->  GET /v1/connect/<id>  until connected | failed | expired
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Integration
from skillgate.connections import oauth
from skillgate.connections.credentials import Credentials
from skillgate.connections.models import Connection, ConnectRequest
from skillgate.connections.service import ConnectionService
from skillgate.connections.verify import verify_token
from skillgate.db.base import utcnow
from skillgate.errors import BadRequest, NotFound
from skillgate.kit.outbound import Outbound
from skillgate.kit.vault import Vault
from skillgate.settings import Settings

REQUEST_TTL = timedelta(minutes=10)


def _hash(state: str) -> str:
    return hashlib.sha256(state.encode()).hexdigest()


def request_status(req: ConnectRequest) -> str:
    if req.status == "pending" and req.expires_at <= utcnow():
        return "expired"
    return req.status


class ConnectFlow:
    def __init__(
        self,
        session: AsyncSession,
        settings: Settings,
        catalog: Catalog,
        vault: Vault,
        outbound: Outbound,
    ) -> None:
        self.session = session
        self.settings = settings
        self.catalog = catalog
        self.outbound = outbound  # token verification and the OAuth code exchange
        self.connections = ConnectionService(session, vault)

    def integration(self, slug: str) -> Integration:
        integration = self.catalog.get(slug)
        if integration is None:
            raise NotFound(f"Unknown integration {slug[:64]!r}.")
        return integration

    def callback_url(self, slug: str) -> str:
        return f"{self.settings.base_url}/connect/{slug}/callback"

    def dashboard_url(self, slug: str) -> str:
        return f"{self.settings.resolved_app_url}/integrations/{slug}"

    def check_connectable(self, integration: Integration) -> None:
        """Say now, not mid-flow, when this server cannot connect the integration."""
        if integration.auth.token is None and oauth.oauth_app(self.settings, integration) is None:
            slug = integration.slug.upper()
            raise BadRequest(
                f"OAuth for {integration.name} is not configured on this server: the operator "
                f"must set SKILLGATE_{slug}_CLIENT_ID and SKILLGATE_{slug}_CLIENT_SECRET."
            )

    async def create_request(self, user_id: str, slug: str) -> ConnectRequest:
        integration = self.integration(slug)
        self.check_connectable(integration)
        now = utcnow()
        req = ConnectRequest(
            user_id=user_id,
            integration=slug,
            status="pending",
            expires_at=now + REQUEST_TTL,
            created_at=now,
        )
        self.session.add(req)
        await self.session.flush()
        return req

    def connect_url(self, req: ConnectRequest) -> str:
        return f"{self.settings.resolved_app_url}/connect/{req.integration}?request={req.id}"

    async def get_request(self, user_id: str, request_id: str) -> ConnectRequest:
        req = await self.session.get(ConnectRequest, request_id)
        if req is None or req.user_id != user_id:
            raise NotFound("Connect request not found.")
        return req

    async def begin_oauth(self, user_id: str, slug: str, request_id: str | None) -> str | None:
        """The provider URL to send the browser to; None when the integration uses a token."""
        integration = self.integration(slug)
        self.check_connectable(integration)
        app = oauth.oauth_app(self.settings, integration)
        if app is None:
            return None  # token integration: the dashboard's form takes over
        if request_id:
            req = await self.get_request(user_id, request_id)
            if req.integration != slug or request_status(req) != "pending":
                raise BadRequest("This connect link has expired or was used; start again.")
        else:
            req = await self.create_request(user_id, slug)
        state, verifier = oauth.new_state(), oauth.new_verifier()
        req.state_hash = _hash(state)
        req.code_verifier = verifier
        await self.session.flush()
        return oauth.authorize_redirect(app, state, verifier, self.callback_url(slug))

    async def complete_oauth(self, user_id: str, slug: str, params: dict[str, Any]) -> Connection:
        integration = self.integration(slug)
        state = str(params.get("state") or "")
        result = (
            await self.session.execute(
                select(ConnectRequest).where(ConnectRequest.state_hash == _hash(state))
            )
            if state
            else None
        )
        req = result.scalar_one_or_none() if result is not None else None
        if req is None or req.user_id != user_id or req.integration != slug:
            raise BadRequest("This sign-in link is not valid for your session; start again.")
        req.state_hash = None  # one use
        if request_status(req) != "pending":
            raise BadRequest("This connect attempt expired; start again.")
        if params.get("error"):
            req.status, req.error = "failed", str(params["error"])[:200]
            await self.session.flush()
            raise BadRequest(f"{integration.name} did not grant access ({req.error}).")
        app = oauth.oauth_app(self.settings, integration)
        code = str(params.get("code") or "")
        if app is None or not code or req.code_verifier is None:
            req.status, req.error = "failed", "missing code"
            await self.session.flush()
            raise BadRequest("The provider's answer had no authorization code; start again.")
        try:
            creds, scopes = await oauth.exchange_code(
                self.outbound, app, code, req.code_verifier, self.callback_url(slug)
            )
        except oauth.OAuthError as exc:
            req.status, req.error = "failed", str(exc)[:200]
            await self.session.flush()
            raise BadRequest(
                f"{integration.name} refused the authorization; start again."
            ) from None
        req.code_verifier = None
        connection = await self.connections.store(user_id, slug, "oauth2", creds, scopes=scopes)
        await self._mark_connected(user_id, slug)
        return connection

    async def connect_token(self, user_id: str, slug: str, token: str) -> Connection:
        integration = self.integration(slug)
        account = await verify_token(self.outbound, self.settings, integration, token)
        connection = await self.connections.store(
            user_id, slug, "token", Credentials(access_token=token.strip()), account=account
        )
        await self._mark_connected(user_id, slug)
        return connection

    async def _mark_connected(self, user_id: str, slug: str) -> None:
        await self.session.execute(
            update(ConnectRequest)
            .where(
                ConnectRequest.user_id == user_id,
                ConnectRequest.integration == slug,
                ConnectRequest.status == "pending",
                ConnectRequest.expires_at > utcnow(),
            )
            .values(status="connected", code_verifier=None, state_hash=None)
        )
