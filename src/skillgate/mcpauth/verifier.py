"""An access token to the `Principal` the MCP door serves, off the database on the hot
path like an API key (`api_keys.verifier`): a verification is cached for the key
cache's TTL (1 s), a revocation drops it here at once and elsewhere within the TTL.

The principal carries the grant as its key (`KeyIdentity`: the grant's id, the
client's name, the scopes, confirmation policy and policy the user chose), so the
scope matrix, plan limits, confirmation, the policy and the execution log treat it
as a key. The policy is compiled once per cache fill, as a key's: no query per call. Only
`/mcp` calls this: every other route takes `sk_` keys and refuses the token.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.db.base import utcnow
from skillgate.db.session import unit_of_work
from skillgate.errors import CredentialRefused
from skillgate.kit.cache import TTLCache
from skillgate.kit.principal import Principal
from skillgate.mcpauth.repository import OAuthRepository
from skillgate.mcpauth.service import Grants, principal_of

TOUCH_SECONDS = 60  # `last_used_at` is written at most this often per grant and instance
_STEPS = {
    "mcp": "Sign in again from your MCP client (disconnect and reconnect the server); "
    "the dashboard's API keys page lists the apps you allowed.",
}


@dataclass(frozen=True, slots=True)
class Verified:
    principal: Principal
    expires_at: datetime
    resource: str
    revoked: bool


class TokenVerifier:
    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], grants: Grants, ttl: float = 1.0
    ) -> None:
        self._sessionmaker = sessionmaker
        self._grants = grants
        self._cache: TTLCache[str, Verified | None] = TTLCache(ttl)
        self._touched: dict[str, datetime] = {}

    async def principal_from_token(self, token: str) -> Principal:
        digest = self._grants.digest(token)
        found = await self._cache.get(digest, lambda: self._load(digest))
        if found is None:
            raise CredentialRefused("Invalid access token.", steps=_STEPS)
        if found.revoked:
            raise CredentialRefused("This access was revoked.", steps=_STEPS)
        if found.expires_at <= utcnow():
            raise CredentialRefused("This access token expired; refresh it.", steps=_STEPS)
        if not self._grants.resource_ok(found.resource):
            raise CredentialRefused(
                f"This access token is for {found.resource}, not this server.", steps=_STEPS
            )
        return found.principal

    async def _load(self, digest: str) -> Verified | None:
        now = utcnow()
        async with unit_of_work(self._sessionmaker) as db:
            repo = OAuthRepository(db)
            found = await repo.token_with_grant(digest, "access")
            if found is None:
                return None
            token, grant, user = found
            last = self._touched.get(grant.id)
            if grant.revoked_at is None and (
                last is None or now - last > timedelta(seconds=TOUCH_SECONDS)
            ):
                if len(self._touched) >= 50_000:
                    self._touched.clear()
                self._touched[grant.id] = now
                await repo.touch(grant.id, now)
        principal = principal_of(grant, user)
        return Verified(principal, token.expires_at, grant.resource, grant.revoked_at is not None)

    def forget_grant(self, grant_id: str) -> None:
        self._cache.forget_where(
            lambda v: v is not None and v.principal.key is not None
            and v.principal.key.key_id == grant_id
        )  # fmt: skip
