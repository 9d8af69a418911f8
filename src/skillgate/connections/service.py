"""The connections service: a user's connections to integrations, and connecting them.

svc connect github  ->  POST /v1/connect  ->  {id, connect_url, expires_in}
browser             ->  GET /connect/github?request=<id>  (dashboard session)
                    ->  provider (state + PKCE)  ->  GET /connect/github/callback
                    ->  connection stored, request `connected`, back to the dashboard
svc                 ->  GET /v1/connect/<id>  until connected | failed | expired

One instance per server (built in skillgate.gateway). Every method takes the
caller's database session: the caller owns the transaction and commits; the
service flushes, and registers with `on_commit` what must follow the commit
(dropping this instance's cached status and credentials for the connection).
The methods taking a `Principal` check its API key's scopes and answer the
API's schema objects; the others serve the dashboard and the browser routes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.api_keys.scopes import can_see, require_access
from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Integration
from skillgate.connections import oauth, stored
from skillgate.connections.cache import CredentialCache
from skillgate.connections.credentials import Credentials
from skillgate.connections.models import Connection, ConnectRequest
from skillgate.connections.repository import ConnectionRepository, ConnectRequestRepository
from skillgate.connections.schemas import (
    ConnectionList,
    ConnectionOut,
    ConnectRequestOut,
    ConnectStarted,
)
from skillgate.connections.status import StatusCache
from skillgate.connections.verify import verify_token
from skillgate.db.base import utcnow
from skillgate.db.session import on_commit
from skillgate.errors import BadRequest, NotFound
from skillgate.kit.outbound import Outbound
from skillgate.kit.principal import Principal
from skillgate.kit.public import PublicUrls
from skillgate.kit.vault import Vault
from skillgate.settings import Settings

REQUEST_TTL = timedelta(minutes=10)


def _hash(state: str) -> str:
    return hashlib.sha256(state.encode()).hexdigest()


def request_status(req: ConnectRequest) -> str:
    """pending, connected or failed as stored; a pending request past its time: expired."""
    if req.status == "pending" and req.expires_at <= utcnow():
        return "expired"
    return req.status


class Connections:
    def __init__(
        self,
        *,
        settings: Settings,
        catalog: Catalog,
        vault: Vault,
        outbound: Outbound,
        statuses: StatusCache,
        credentials: CredentialCache,
        public: PublicUrls,
    ) -> None:
        self.settings = settings  # OAuth apps, token verification
        self.catalog = catalog
        self.vault = vault
        self.outbound = outbound  # token checks and the OAuth code exchange
        self.statuses = statuses
        self.credentials = credentials
        self.public = public  # the links' address, for the request being served

    # -- the JSON API (a Principal, its key's scopes checked; answers are the API's schemas)

    async def start(self, db: AsyncSession, principal: Principal, slug: str) -> ConnectStarted:
        """POST /v1/connect: a connect request and the link the user opens."""
        require_access(principal, slug, "full")
        req = await self.create_request(db, principal.user_id, slug)
        return ConnectStarted(
            id=req.id,
            integration=req.integration,
            connect_url=self.connect_url(req),
            expires_in=int(REQUEST_TTL.total_seconds()),
        )

    async def request_of(
        self, db: AsyncSession, principal: Principal, request_id: str
    ) -> ConnectRequestOut:
        """GET /v1/connect/{id}: the request's status (404 outside the key's scopes)."""
        req = await self.get_request(db, principal.user_id, request_id)
        if not can_see(principal, req.integration):  # as if it did not exist
            raise NotFound("Connect request not found.")
        return ConnectRequestOut.of(req, request_status(req))

    async def listing(self, db: AsyncSession, principal: Principal) -> ConnectionList:
        """GET /v1/connections: the caller's connections its key may see."""
        rows = await self.connections(db, principal.user_id)
        return ConnectionList(
            connections=[ConnectionOut.of(c) for c in rows if can_see(principal, c.integration)]
        )

    async def put_token(
        self, db: AsyncSession, principal: Principal, slug: str, token: str
    ) -> ConnectionOut:
        """PUT /v1/connections/{integration}: store a pasted token the upstream accepts."""
        require_access(principal, slug, "full")
        return ConnectionOut.of(await self.connect_token(db, principal.user_id, slug, token))

    async def remove(self, db: AsyncSession, principal: Principal, slug: str) -> None:
        """DELETE /v1/connections/{integration}."""
        require_access(principal, slug, "full")
        await self.disconnect(db, principal.user_id, slug)

    # -- integrations and URLs

    def integration(self, slug: str) -> Integration:
        integration = self.catalog.get(slug)
        if integration is None:
            raise NotFound(f"Unknown integration {slug[:64]!r}.")
        return integration

    def oauth_ready(self, integration: Integration) -> bool:
        """Whether this server has the OAuth app the integration needs configured."""
        return oauth.oauth_app(self.settings, integration) is not None

    def callback_url(self, slug: str) -> str:
        return f"{self.public.base}/connect/{slug}/callback"

    def dashboard_url(self, slug: str) -> str:
        return self.public.integration_page(slug)

    def connect_url(self, req: ConnectRequest) -> str:
        return f"{self.public.app}/connect/{req.integration}?request={req.id}"

    def check_connectable(self, integration: Integration) -> None:
        """Say now, not mid-flow, when this server cannot connect the integration."""
        if integration.auth.token is None and not self.oauth_ready(integration):
            slug = integration.slug.upper()
            raise BadRequest(
                f"OAuth for {integration.name} is not configured on this server: the operator "
                f"must set SKILLGATE_{slug}_CLIENT_ID and SKILLGATE_{slug}_CLIENT_SECRET."
            )

    # -- stored connections

    async def connections(self, db: AsyncSession, user_id: str) -> Sequence[Connection]:
        return await ConnectionRepository(db).list_for_user(user_id)

    async def connection(self, db: AsyncSession, user_id: str, slug: str) -> Connection | None:
        return await ConnectionRepository(db).get(user_id, slug)

    async def store(
        self,
        db: AsyncSession,
        user_id: str,
        slug: str,
        auth_type: str,
        credentials: Credentials,
        *,
        scopes: Sequence[str] = (),
        account: str | None = None,
    ) -> Connection:
        """Create or replace the connection; this instance's caches drop it on commit."""
        connection = await stored.store(
            db, self.vault, user_id, slug, auth_type, credentials, scopes=scopes, account=account
        )
        self._changed_on_commit(db, user_id, slug)
        return connection

    async def disconnect(self, db: AsyncSession, user_id: str, slug: str) -> None:
        """Remove the connection (NotFound when there is none); caches drop it on commit."""
        await stored.remove(db, user_id, slug)
        self._changed_on_commit(db, user_id, slug)

    def changed(self, user_id: str, slug: str) -> None:
        """Drop what this instance cached about a user's connection (also the refresher's
        `on_change`)."""
        self.statuses.forget(user_id)
        self.credentials.forget(user_id, slug)

    def _changed_on_commit(self, db: AsyncSession, user_id: str, slug: str) -> None:
        on_commit(db, lambda: self.changed(user_id, slug))

    # -- connect requests, OAuth and pasted tokens

    async def create_request(self, db: AsyncSession, user_id: str, slug: str) -> ConnectRequest:
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
        return await ConnectRequestRepository(db).add(req)

    async def get_request(self, db: AsyncSession, user_id: str, request_id: str) -> ConnectRequest:
        req = await ConnectRequestRepository(db).get(request_id)
        if req is None or req.user_id != user_id:
            raise NotFound("Connect request not found.")
        return req

    async def begin_oauth(
        self, db: AsyncSession, user_id: str, slug: str, request_id: str | None
    ) -> str | None:
        """The provider URL to send the browser to; None when the integration uses a token."""
        integration = self.integration(slug)
        self.check_connectable(integration)
        app = oauth.oauth_app(self.settings, integration)
        if app is None:
            return None  # token integration: the dashboard's form takes over
        if request_id:
            req = await self.get_request(db, user_id, request_id)
            if req.integration != slug or request_status(req) != "pending":
                raise BadRequest("This connect link has expired or was used; start again.")
        else:
            req = await self.create_request(db, user_id, slug)
        state, verifier = oauth.new_state(), oauth.new_verifier()
        req.state_hash = _hash(state)
        req.code_verifier = verifier
        await db.flush()
        return oauth.authorize_redirect(app, state, verifier, self.callback_url(slug))

    async def complete_oauth(
        self, db: AsyncSession, user_id: str, slug: str, params: dict[str, Any]
    ) -> Connection:
        """Back from the provider: exchange the code and store the connection. A refusal
        marks the request `failed` (flushed: the caller commits it) and is a BadRequest."""
        integration = self.integration(slug)
        state = str(params.get("state") or "")
        req = await ConnectRequestRepository(db).by_state_hash(_hash(state)) if state else None
        if req is None or req.user_id != user_id or req.integration != slug:
            raise BadRequest("This sign-in link is not valid for your session; start again.")
        req.state_hash = None  # one use
        if request_status(req) != "pending":
            raise BadRequest("This connect attempt expired; start again.")
        if params.get("error"):
            await self._fail(db, req, str(params["error"]))
            raise BadRequest(f"{integration.name} did not grant access ({req.error}).")
        app = oauth.oauth_app(self.settings, integration)
        code = str(params.get("code") or "")
        if app is None or not code or req.code_verifier is None:
            await self._fail(db, req, "missing code")
            raise BadRequest("The provider's answer had no authorization code; start again.")
        try:
            creds, scopes = await oauth.exchange_code(
                self.outbound, app, code, req.code_verifier, self.callback_url(slug)
            )
        except oauth.OAuthError as exc:
            await self._fail(db, req, str(exc))
            raise BadRequest(
                f"{integration.name} refused the authorization; start again."
            ) from None
        req.code_verifier = None
        connection = await self.store(db, user_id, slug, "oauth2", creds, scopes=scopes)
        await ConnectRequestRepository(db).mark_connected(user_id, slug, utcnow())
        return connection

    async def connect_token(
        self, db: AsyncSession, user_id: str, slug: str, token: str
    ) -> Connection:
        """Store a pasted token once the integration's verification request accepts it."""
        integration = self.integration(slug)
        account = await verify_token(self.outbound, self.settings, integration, token)
        connection = await self.store(
            db, user_id, slug, "token", Credentials(access_token=token.strip()), account=account
        )
        await ConnectRequestRepository(db).mark_connected(user_id, slug, utcnow())
        return connection

    @staticmethod
    async def _fail(db: AsyncSession, req: ConnectRequest, error: str) -> None:
        req.status, req.error = "failed", error[:200]
        await db.flush()
