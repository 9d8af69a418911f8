"""API key verification, kept off the database on the hot path.

A verified key is cached in process memory for `key_cache_ttl` seconds (1 s by
default): a revocation takes effect at once on the instance that made it (the
entry is dropped) and within the TTL on every other instance. Malformed keys
and bad checksums are rejected before any lookup. The key's policy is read with
the key and compiled once per cache fill, so a policy costs no query per call and
a change to it travels exactly as a revocation does.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.api_keys import keyformat
from skillgate.api_keys.policy import Policy, compile_
from skillgate.api_keys.repository import ApiKeyRepository
from skillgate.api_keys.usage import UsageRecorder
from skillgate.db.base import utcnow
from skillgate.errors import BadRequest, CredentialRefused, Unauthorized
from skillgate.kit.cache import TTLCache
from skillgate.kit.principal import KeyIdentity, Principal, bearer_token

# What to do about a refused key depends on where the caller keeps it (errors.DOORS).
_NEW_KEY = {
    "svc": "Create a new key on the dashboard's API keys page and run `svc login`.",
    "mcp": "Create a new key on the dashboard's API keys page and put it in your MCP "
    "client's configuration (its `Authorization: Bearer` header).",
    "http": "Create a new key on the dashboard's API keys page (or `POST /api-keys`) and "
    "send it as `Authorization: Bearer <key>`.",
}
_CHECK_KEY = {
    "svc": "Check SVC_API_KEY (or the project's .env), or create a new key and run `svc login`.",
    "mcp": "Check the key in your MCP client's configuration (its `Authorization: Bearer` "
    "header), or create a new one on the dashboard's API keys page.",
    "http": "Check the key you send as `Authorization: Bearer <key>`, or create a new one "
    "on the dashboard's API keys page.",
}


def stored_policy(document: Any) -> Policy:
    """The compiled policy of a key, compiled once per cache fill. A stored document
    this server cannot read (written by a newer one) refuses every call: a policy
    fails closed."""
    try:
        return compile_(document)
    except BadRequest:
        return Policy((), "deny", document)


class KeyVerifier:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        secret_key: str,
        usage: UsageRecorder,
        ttl: float = 1.0,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._digest = keyformat.Digester(keyformat.derive_pepper(secret_key))
        self._usage = usage
        # The principal is built once per cache fill, not per request.
        self._cache: TTLCache[str, Principal | None] = TTLCache(ttl)
        self.lookups = 0  # database lookups made, for tests and metrics

    def digest(self, key: str) -> str:
        return self._digest(key)

    async def principal_from_key(self, authorization: str | None) -> Principal:
        """The caller of an `Authorization: Bearer sk_...` header: how every door
        authenticates an API key. Anything else is 401."""
        token = bearer_token(authorization)
        if token is None:
            raise Unauthorized()
        if not token.startswith("sk_"):
            raise CredentialRefused()
        known = self._known(token)  # the usual case, without another coroutine
        return known if known is not None else await self._verify_uncached(token)

    async def verify(self, key: str) -> Principal:
        """The principal of a well-formed, known, live key (`via == "api_key"`)."""
        known = self._known(key)
        return known if known is not None else await self._verify_uncached(key)

    def _known(self, key: str) -> Principal | None:
        """The principal of a key verified in the last TTL (no more checks but that it
        is still live), or None."""
        principal = self._cache.peek(self.digest(key))
        return None if principal is None else self._admit(principal)

    async def _verify_uncached(self, key: str) -> Principal:
        if not keyformat.is_well_formed(key):  # before any lookup
            raise CredentialRefused("Invalid API key.", steps=_CHECK_KEY)
        digest = self.digest(key)
        principal = await self._cache.get(digest, lambda: self._load(digest))
        if principal is None:
            raise CredentialRefused("Invalid API key.", steps=_CHECK_KEY)
        return self._admit(principal)

    def _admit(self, principal: Principal) -> Principal:
        """`principal` while its key is live (its use recorded), else 401."""
        identity = principal.key
        assert identity is not None
        if identity.revoked:
            raise CredentialRefused("This API key was revoked.", steps=_NEW_KEY)
        if identity.expires_at is not None and identity.expires_at <= utcnow():
            raise CredentialRefused("This API key expired.", steps=_NEW_KEY)
        self._usage.record(identity.key_id)
        return principal

    async def _load(self, digest: str) -> Principal | None:
        self.lookups += 1
        async with self._sessionmaker() as session:
            found = await ApiKeyRepository(session).find_with_user(digest)
        if found is None:
            return None
        key, user = found
        return Principal.of_key(
            KeyIdentity(
                key_id=key.id,
                name=key.name,
                key_prefix=key.key_prefix,
                scopes=tuple(key.scopes),
                expires_at=key.expires_at,
                revoked=key.revoked_at is not None,
                user_id=user.id,
                email=user.email,
                display_name=user.display_name,
                plan=user.plan,
                confirm=key.confirm,
                policy=None if key.policy is None else stored_policy(key.policy),
            )
        )

    def forget_key(self, key_id: str) -> None:
        self._cache.forget_where(
            lambda p: p is not None and p.key is not None and p.key.key_id == key_id
        )
