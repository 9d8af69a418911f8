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

`Connections` takes a user id and answers rows: the dashboard and the browser
routes (a signed-in user) call it directly. The API's routes call
`ScopedConnections` (scoped.py), which takes a `Principal`, checks its key's
scopes and answers the API's schema objects, with the same action names.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.catalog import hosts
from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Integration
from skillgate.connections import oauth, stored, verify
from skillgate.connections.cache import CredentialCache
from skillgate.connections.credentials import Credentials
from skillgate.connections.models import Connection, ConnectRequest
from skillgate.connections.repository import ConnectionRepository, ConnectRequestRepository
from skillgate.connections.status import StatusCache
from skillgate.db.base import utcnow
from skillgate.db.session import on_commit
from skillgate.errors import BadRequest, NotFound
from skillgate.kit.outbound import Outbound
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

    # -- integrations and URLs

    def integration(self, slug: str) -> Integration:
        integration = self.catalog.get(slug)
        if integration is None:
            raise NotFound(f"Unknown integration {slug[:64]!r}.")
        return integration

    def oauth_ready(self, integration: Integration) -> bool:
        """Whether this server has the OAuth app the integration needs configured."""
        return oauth.oauth_app(self.settings, integration) is not None

    def _callback_url(self, slug: str) -> str:
        return f"{self.public.base}/connect/{slug}/callback"

    def dashboard_url(self, slug: str) -> str:
        return self.public.integration_page(slug)

    def connect_url(self, req: ConnectRequest) -> str:
        return f"{self.public.app}/connect/{req.integration}?request={req.id}"

    def _check_connectable(self, integration: Integration) -> None:
        """Say now, not mid-flow, when this server cannot connect the integration."""
        if integration.auth.pasted is None and not self.oauth_ready(integration):
            slug = integration.slug.upper()
            raise BadRequest(
                f"OAuth for {integration.name} is not configured on this server: the operator "
                f"must set SKILLGATE_{slug}_CLIENT_ID and SKILLGATE_{slug}_CLIENT_SECRET."
            )

    # -- stored connections

    async def list_connections(self, db: AsyncSession, user_id: str) -> Sequence[Connection]:
        return await ConnectionRepository(db).list_for_user(user_id)

    async def get_connection(self, db: AsyncSession, user_id: str, slug: str) -> Connection | None:
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
        variables: Mapping[str, str] | None = None,
    ) -> Connection:
        """Create or replace the connection; this instance's caches drop it on commit."""
        connection = await stored.store(
            db,
            self.vault,
            user_id,
            slug,
            auth_type,
            credentials,
            scopes=scopes,
            account=account,
            variables=variables,
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

    async def open_request(
        self,
        db: AsyncSession,
        user_id: str,
        slug: str,
        variables: Mapping[str, str] | None = None,
    ) -> ConnectRequest:
        """A pending connect request, valid `REQUEST_TTL`, with the connection variables
        when given (all of them, checked: 400 naming the field)."""
        integration = self.integration(slug)
        self._check_connectable(integration)
        values = (
            hosts.check_values(integration.variables, variables, credentials_later=True)
            if variables
            else {}
        )
        now = utcnow()
        req = ConnectRequest(
            user_id=user_id,
            integration=slug,
            variables=values,
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
        self,
        db: AsyncSession,
        user_id: str,
        slug: str,
        request_id: str | None,
        add: str | None = None,
        variables: Mapping[str, str] | None = None,
    ) -> str | None:
        """The provider URL to send the browser to; None when the integration uses a token.
        `add` names a scope set to ask for besides what the connection has (step-up).
        The connection's variables: the request's, else `variables` (checked)."""
        integration = self.integration(slug)
        self._check_connectable(integration)
        app = oauth.oauth_app(self.settings, integration)
        if app is None:
            return None  # token integration: the dashboard's form takes over
        if request_id:
            req = await self.get_request(db, user_id, request_id)
            if req.integration != slug or request_status(req) != "pending":
                raise BadRequest("This connect link has expired or was used; start again.")
        else:
            req = await self.open_request(db, user_id, slug)
        if integration.variables and not req.variables:
            req.variables = hosts.check_values(integration.variables, variables)
        current = await ConnectionRepository(db).get(user_id, slug)
        granted = current.scopes if current is not None and current.auth_type == "oauth2" else []
        req.scopes = oauth.requested_scopes(app, granted or [], add)
        state, verifier = oauth.new_state(), oauth.new_verifier()
        req.state_hash = _hash(state)
        req.code_verifier = verifier
        await db.flush()
        callback = self._callback_url(slug)
        return oauth.authorize_redirect(app, state, verifier, callback, req.scopes)

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
            requested = req.scopes if req.scopes is not None else list(app.auth.scopes)
            creds, scopes = await oauth.exchange_code(
                self.outbound, app, code, req.code_verifier, self._callback_url(slug), requested
            )
        except oauth.OAuthError as exc:
            await self._fail(db, req, str(exc))
            raise BadRequest(
                f"{integration.name} refused the authorization; start again."
            ) from None
        req.code_verifier = None
        connection = await self.store(
            db, user_id, slug, "oauth2", creds, scopes=scopes, variables=req.variables
        )
        await ConnectRequestRepository(db).mark_connected(user_id, slug, utcnow())
        return connection

    async def connect_token(
        self,
        db: AsyncSession,
        user_id: str,
        slug: str,
        token: str,
        *,
        username: str | None = None,
        key: str | None = None,
        variables: Mapping[str, str] | None = None,
    ) -> Connection:
        """Store pasted credentials (a token, HTTP Basic's username and password, a
        two-part key and token) and the connection's variables, once the integration's
        verification request accepts them."""
        integration = self.integration(slug)
        given = {"token": token, "username": username, "key": key}
        auth_type = verify.pasted_type(integration, given)
        creds = verify.pasted(integration, given)
        values = hosts.check_values(integration.variables, variables, creds.username)
        account = await verify.verify_token(
            self.outbound, self.settings, integration, creds, auth_type, values
        )
        connection = await self.store(
            db, user_id, slug, auth_type, creds, account=account, variables=values
        )
        await ConnectRequestRepository(db).mark_connected(user_id, slug, utcnow())
        return connection

    @staticmethod
    async def _fail(db: AsyncSession, req: ConnectRequest, error: str) -> None:
        req.status, req.error = "failed", error[:200]
        await db.flush()
