"""The MCP SDK's `OAuthAuthorizationServerProvider` over the gateway's tables.

The SDK's handlers (`mcp.server.auth.handlers`) parse and check the requests
(PKCE S256 required, the redirect URI against the client's, the code's expiry and
its client, the code verifier); this provider stores and looks up, and decides what
the SDK leaves to it: the consent page, single-use codes, rotation of refresh
tokens with a grace window, and the resource (RFC 8707) every token is bound to.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import structlog
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    IdentityAssertionParams,
    RefreshToken,
    RegistrationError,
    TokenError,
)
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.db.base import utcnow
from skillgate.db.session import unit_of_work
from skillgate.mcpauth import tokens
from skillgate.mcpauth.clients import ClientRefused
from skillgate.mcpauth.repository import OAuthRepository
from skillgate.mcpauth.service import ConsentRequest, Grants

log = structlog.get_logger(__name__)
CONSENT_PATH = "/oauth/consent"


class GatewayProvider:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], grants: Grants) -> None:
        self._sessionmaker = sessionmaker
        self.grants = grants

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return await self.grants.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        try:
            await self.grants.clients.register(client_info)
        except ClientRefused as exc:
            raise RegistrationError("invalid_redirect_uri", str(exc)) from None

    async def authorize(
        self, client: OAuthClientInformationFull, params: AuthorizationParams
    ) -> str:
        """Where the browser goes next: the dashboard's consent page (sign-in first)."""
        if not self.grants.resource_ok(params.resource):
            raise AuthorizeError(
                "invalid_target", f"resource: this server issues tokens for {self.grants.resource}"
            )
        request = ConsentRequest(
            client_id=client.client_id or "",
            redirect_uri=str(params.redirect_uri),
            explicit=params.redirect_uri_provided_explicitly,
            code_challenge=params.code_challenge,
            state=params.state,
            resource=self.grants.resource,
        )
        return f"{self.grants.public.app}{CONSENT_PATH}?{request.query()}"

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        """The code, spent in the same step: a second exchange (or one after a wrong
        verifier) finds nothing."""
        if not authorization_code.startswith(tokens.CODE_PREFIX):
            return None
        async with unit_of_work(self._sessionmaker) as db:
            repo = OAuthRepository(db)
            code = await repo.take_code(self.grants.digest(authorization_code), utcnow())
            if code is None:
                return None
            grant = await repo.grant(code.grant_id)
            if grant is None or grant.revoked_at is not None:
                return None
            return AuthorizationCode(
                code=authorization_code,
                scopes=[tokens.SCOPE],
                expires_at=code.expires_at.timestamp(),
                client_id=code.client_id,
                code_challenge=code.code_challenge,
                redirect_uri=code.redirect_uri,
                redirect_uri_provided_explicitly=code.redirect_uri_explicit,
                resource=grant.resource,
                subject=grant.id,
            )

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        async with unit_of_work(self._sessionmaker) as db:
            grant = await OAuthRepository(db).grant(authorization_code.subject or "")
            if grant is None or grant.revoked_at is not None:
                raise TokenError("invalid_grant", "this authorization was revoked")
            return await self.grants.issue(db, grant)

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> RefreshToken | None:
        if not refresh_token.startswith(tokens.REFRESH_PREFIX):
            return None
        fields = await self._live(refresh_token, "refresh")
        return None if fields is None else RefreshToken(**fields)

    async def _live(self, value: str, kind: str) -> dict[str, Any] | None:
        """What the SDK is told of a live token of a live grant (an access or refresh
        token alike), or None."""
        async with self._sessionmaker() as db:
            found = await OAuthRepository(db).token_with_grant(self.grants.digest(value), kind)
        if found is None:
            return None
        row, grant, _ = found
        if grant.revoked_at is not None or row.expires_at <= utcnow():
            return None
        return {
            "token": value,
            "client_id": grant.client_id,
            "scopes": [tokens.SCOPE],
            "expires_at": int(row.expires_at.timestamp()),
            "resource": grant.resource,
            "subject": grant.id,
        }

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        """Rotation: the first exchange marks the old token rotated and answers a new pair.
        The same old token again within the grace window (the client lost the answer)
        gets another pair; later, it is a stolen copy: the grant is revoked."""
        digest = self.grants.digest(refresh_token.token)
        now = utcnow()
        async with unit_of_work(self._sessionmaker) as db:
            repo = OAuthRepository(db)
            found = await repo.token_with_grant(digest, "refresh")
            if found is None or found[1].revoked_at is not None:
                raise TokenError("invalid_grant", "refresh token does not exist")
            token, grant, _ = found
            first = await repo.rotate(digest, now)
            rotated = token.rotated_at or now  # when it was rotated before, if it was
            if first or now - rotated <= timedelta(seconds=tokens.REFRESH_GRACE_SECONDS):
                return await self.grants.issue(db, grant)
            await self.grants.revoke_grant(db, grant.id)  # committed: the raise is below
            log.warning("refresh token re-used after rotation: grant revoked", grant=grant.id)
        raise TokenError("invalid_grant", "refresh token was already used; sign in again")

    async def load_access_token(self, token: str) -> AccessToken | None:
        if not tokens.is_access_token(token):
            return None
        fields = await self._live(token, "access")
        return None if fields is None else AccessToken(**fields)

    async def exchange_identity_assertion(
        self, client: OAuthClientInformationFull, params: IdentityAssertionParams
    ) -> OAuthToken:
        """SEP-990's enterprise grant is not offered (the routes do not enable it)."""
        raise TokenError("unsupported_grant_type", "the JWT bearer grant is not supported")

    async def revoke_token(self, token: Any) -> None:
        """RFC 7009 from the client: the whole grant ends (its access and refresh tokens)."""
        grant_id = getattr(token, "subject", None)
        if not grant_id:
            return
        async with unit_of_work(self._sessionmaker) as db:
            await self.grants.revoke_grant(db, grant_id)
