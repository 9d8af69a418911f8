"""`Grants`: a user's consent to an MCP client, the codes and tokens it yields, and
revocation. The SDK's handlers reach it through `provider.GatewayProvider`; the
dashboard's consent page and its list of connected apps call it directly.

A grant holds what an API key holds (scopes from `api_keys/scopes.py`, the
confirmation policy, a policy of rules from `api_keys/policy.py`): its tokens act
exactly as a key with those scopes and that policy would. The policy is a person's
to set (`policy_for`, `put_policy_for`, `delete_policy_for`: the /oauth-grants API,
a session or access token only), and is compiled with the token's cache entry
(`verifier.py`), like a key's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from mcp.server.auth.provider import construct_redirect_uri
from mcp.shared import auth as oauth
from pydantic import AnyUrl, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.api_keys import policy as policy_mod
from skillgate.api_keys import scopes as key_scopes
from skillgate.api_keys.service import check_confirm
from skillgate.api_keys.verifier import stored_policy
from skillgate.catalog.loader import Catalog
from skillgate.db.base import utcnow
from skillgate.db.session import on_commit
from skillgate.errors import BadRequest, NotFound, ScopeNotAllowed
from skillgate.kit.principal import KeyIdentity, Principal
from skillgate.kit.public import PublicUrls
from skillgate.mcpauth import tokens
from skillgate.mcpauth.clients import Client, Clients, redirect_host
from skillgate.mcpauth.models import OAuthCode, OAuthGrant, OAuthToken
from skillgate.mcpauth.repository import OAuthRepository
from skillgate.mcpauth.schemas import GrantOut, GrantPolicy
from skillgate.users.models import User

MCP_PATH = "/mcp"
_CHALLENGE = re.compile(r"^[A-Za-z0-9_-]{43}$")  # base64url of a SHA-256 digest (S256)
CONSENT_FIELDS = ("client_id", "redirect_uri", "explicit", "code_challenge", "state", "resource")


@dataclass(frozen=True)
class ConsentRequest:
    """An authorization request the SDK's handler checked, carried to the consent page
    (and its form) and checked again there: the client, its exact redirect URI, the PKCE
    challenge, the client's `state` and the resource."""

    client_id: str
    redirect_uri: str
    explicit: bool
    code_challenge: str
    state: str | None
    resource: str

    def query(self) -> str:
        values = {
            "client_id": self.client_id,
            "redirect_uri": self.redirect_uri,
            "explicit": "1" if self.explicit else "0",
            "code_challenge": self.code_challenge,
            "resource": self.resource,
        }
        if self.state is not None:
            values["state"] = self.state
        return urlencode(values)


@dataclass(frozen=True)
class Consent:
    """A checked request and its client, for the consent page."""

    request: ConsentRequest
    client: Client

    @property
    def client_name(self) -> str:
        return (self.client.client_name or "An unnamed client")[:200]

    @property
    def redirect_host(self) -> str:
        return redirect_host(self.request.redirect_uri)


class Grants:
    def __init__(
        self,
        clients: Clients,
        public: PublicUrls,
        digest: Callable[[str], str],
        catalog: Catalog,
        *,
        access_ttl: int,
        refresh_ttl: int,
        forget: Callable[[str], None],
    ) -> None:
        self.clients = clients
        self.public = public
        self.digest = digest
        self.catalog = catalog  # what a scope and a policy may name (the live catalog)
        self.access_ttl = access_ttl
        self.refresh_ttl = refresh_ttl
        self._forget = forget  # the MCP door's cached verifications of a grant

    @property
    def issuer(self) -> str:
        return self.public.base

    @property
    def resource(self) -> str:
        return self.public.base + MCP_PATH

    def resource_ok(self, resource: str | None) -> bool:
        """RFC 8707: a token is only for this server's `/mcp` (a trailing slash aside)."""
        return resource is None or resource.rstrip("/") == self.resource

    async def consent(self, fields: Callable[[str], str | None]) -> Consent:
        """The request of the consent page's query or form, checked again: 400 naming the
        field when it is not one the authorization endpoint would have let through."""
        client_id = fields("client_id") or ""
        client = await self.clients.get(client_id[:2000]) if client_id else None
        if client is None:
            raise BadRequest("client_id: unknown client; start again from the application.")
        raw = fields("redirect_uri") or ""
        try:
            redirect = str(client.validate_redirect_uri(AnyUrl(raw)))
        except (ValidationError, oauth.InvalidRedirectUriError):
            raise BadRequest("redirect_uri: not a redirect URI this client registered.") from None
        challenge = fields("code_challenge") or ""
        if not _CHALLENGE.match(challenge):
            raise BadRequest("code_challenge: a PKCE S256 challenge (43 characters) is needed.")
        resource = fields("resource") or self.resource
        if not self.resource_ok(resource):
            raise BadRequest(f"resource: this server issues tokens for {self.resource} only.")
        state = fields("state")
        request = ConsentRequest(
            client_id, redirect, fields("explicit") != "0", challenge, state, self.resource
        )
        return Consent(request, client)

    async def approve(
        self,
        db: AsyncSession,
        user_id: str,
        consent: Consent,
        scopes: list[str],
        confirm: str,
        policy: dict[str, Any] | None = None,
    ) -> str:
        """The grant (with `policy`, a document the person chose) and its single-use
        code; the URL the browser is sent back to."""
        checked = key_scopes.normalize(scopes, self.catalog.integrations.keys())
        check_confirm(confirm, None)
        document = policy_mod.checked(policy, self.catalog)
        request = consent.request
        grant = OAuthGrant(
            user_id=user_id,
            client_id=request.client_id,
            client_name=consent.client_name,
            redirect_host=consent.redirect_host[:300],
            resource=request.resource,
            scopes=checked,
            confirm=confirm,
            policy=document,
        )
        code = tokens.new(tokens.CODE_PREFIX)
        repo = OAuthRepository(db)
        await repo.purge_expired(utcnow())  # spent codes and expired tokens go
        await repo.add(grant)
        await repo.add(
            OAuthCode(
                code_hash=self.digest(code),
                grant_id=grant.id,
                client_id=request.client_id,
                redirect_uri=request.redirect_uri,
                redirect_uri_explicit=request.explicit,
                code_challenge=request.code_challenge,
                expires_at=utcnow() + timedelta(seconds=tokens.CODE_TTL_SECONDS),
            )
        )
        return construct_redirect_uri(
            request.redirect_uri, code=code, state=request.state, iss=self.issuer
        )

    def denied(self, consent: Consent) -> str:
        request = consent.request
        return construct_redirect_uri(
            request.redirect_uri,
            error="access_denied",
            error_description="The user denied the request.",
            state=request.state,
            iss=self.issuer,
        )

    async def issue(self, db: AsyncSession, grant: OAuthGrant) -> oauth.OAuthToken:
        """A new access token and refresh token of `grant`."""
        now = utcnow()
        access, refresh = tokens.new(tokens.ACCESS_PREFIX), tokens.new(tokens.REFRESH_PREFIX)
        await OAuthRepository(db).add(
            OAuthToken(
                token_hash=self.digest(access),
                grant_id=grant.id,
                kind="access",
                expires_at=now + timedelta(seconds=self.access_ttl),
            ),
            OAuthToken(
                token_hash=self.digest(refresh),
                grant_id=grant.id,
                kind="refresh",
                expires_at=now + timedelta(seconds=self.refresh_ttl),
            ),
        )
        return oauth.OAuthToken(
            access_token=access,
            token_type="Bearer",
            expires_in=self.access_ttl,
            scope=tokens.SCOPE,
            refresh_token=refresh,
        )

    async def list_for(self, db: AsyncSession, user_id: str) -> Sequence[OAuthGrant]:
        return await OAuthRepository(db).grants_of(user_id)

    async def owned(self, db: AsyncSession, user_id: str, grant_id: str) -> OAuthGrant:
        """One of the user's grants; another user's (or none) is 404."""
        grant = await OAuthRepository(db).owned_grant(user_id, grant_id[:64])
        if grant is None:
            raise NotFound("This connected app does not exist, or is not yours.")
        return grant

    async def revoke(self, db: AsyncSession, user_id: str, grant_id: str) -> OAuthGrant:
        """Revoke one of the user's grants (its tokens stop at once here, within the key
        cache's TTL elsewhere); another user's grant is 404."""
        grant = await self.owned(db, user_id, grant_id)
        await self.revoke_grant(db, grant.id)
        return grant

    async def set_policy(
        self, db: AsyncSession, user_id: str, grant_id: str, document: Any
    ) -> None:
        """Give the grant `document` as its policy (checked against the catalog; 400
        naming the field), or none (None). Its tokens' cached verifications are dropped
        here once the change commits, elsewhere within the key cache's TTL."""
        grant = await self.owned(db, user_id, grant_id)
        grant.policy = policy_mod.checked(document, self.catalog)
        await db.flush()
        changed = grant.id
        on_commit(db, lambda: self._forget(changed))

    # -- the /oauth-grants API (a person's session or access token, never an API key)

    async def listing(self, db: AsyncSession, principal: Principal) -> list[GrantOut]:
        """GET /oauth-grants."""
        _person(principal)
        return [GrantOut.of(g) for g in await self.list_for(db, principal.user_id)]

    async def policy_for(
        self, db: AsyncSession, principal: Principal, grant_id: str
    ) -> GrantPolicy:
        """GET /oauth-grants/{grant_id}/policy."""
        _person(principal)
        grant = await self.owned(db, principal.user_id, grant_id)
        return GrantPolicy(grant_id=grant.id, policy=grant.policy)

    async def put_policy_for(
        self, db: AsyncSession, principal: Principal, grant_id: str, document: Any
    ) -> GrantPolicy:
        """PUT /oauth-grants/{grant_id}/policy."""
        _person(principal)
        await self.set_policy(db, principal.user_id, grant_id, document)
        return await self.policy_for(db, principal, grant_id)

    async def delete_policy_for(
        self, db: AsyncSession, principal: Principal, grant_id: str
    ) -> None:
        """DELETE /oauth-grants/{grant_id}/policy."""
        _person(principal)
        await self.set_policy(db, principal.user_id, grant_id, None)

    async def revoke_grant(self, db: AsyncSession, grant_id: str) -> None:
        await OAuthRepository(db).revoke_grant(grant_id, utcnow())
        on_commit(db, lambda: self._forget(grant_id))

    @staticmethod
    def status(grant: OAuthGrant, now: datetime | None = None) -> str:
        return "revoked" if grant.revoked_at is not None else "active"


def _person(principal: Principal) -> None:
    """A grant's policy is a person's to read and change: never an API key's (nor an
    app's own token: the routes take a session or an access token only)."""
    if principal.key is not None:
        raise ScopeNotAllowed(
            "A connected app's policy is changed with your own sign-in (the dashboard, or "
            "an access token from POST /auth/login), not with an API key."
        )


def principal_of(grant: OAuthGrant, user: User) -> Principal:
    """Who calls with one of the grant's access tokens: the grant as its key (its id,
    the client's name, the scopes, confirmation policy and policy the user chose; the
    policy compiled here, once per cache fill of the token verifier)."""
    policy = None if grant.policy is None else stored_policy(grant.policy)
    identity = KeyIdentity(
        key_id=grant.id,
        name=grant.client_name,
        key_prefix="oauth",
        scopes=tuple(grant.scopes),
        expires_at=None,
        revoked=grant.revoked_at is not None,
        user_id=user.id,
        email=user.email,
        display_name=user.display_name,
        plan=user.plan,
        confirm=grant.confirm,
        policy=policy,
    )
    return Principal.of_key(identity)  # via "oauth": the grant's id says so
