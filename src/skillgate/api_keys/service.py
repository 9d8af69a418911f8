"""The API keys service: creating, listing and revoking a user's keys.

One instance per server (built in skillgate.gateway). Every method takes the
caller's database session: the caller commits; the service flushes, and drops
a revoked key from this instance's verification cache once the revocation has
committed (`on_commit`). The methods taking a `Principal` are the /api-keys API
(a key manager only; answers are the API's schema objects).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.api_keys import keyformat, scopes
from skillgate.api_keys import policy as policy_mod
from skillgate.api_keys.models import ApiKey
from skillgate.api_keys.policy import PolicyDoc
from skillgate.api_keys.repository import ApiKeyRepository
from skillgate.api_keys.schemas import (
    ApiKeyOut,
    CreateKeyRequest,
    CreateKeyResponse,
    KeyPolicy,
)
from skillgate.api_keys.verifier import KeyVerifier
from skillgate.catalog.loader import Catalog
from skillgate.db.base import utcnow
from skillgate.db.session import on_commit
from skillgate.errors import BadRequest, NotFound, PlanLimitReached, ScopeNotAllowed
from skillgate.kit.principal import Principal
from skillgate.users.plans import max_active_keys
from skillgate.users.repository import UserRepository

MAX_NAME_LENGTH = 200


def check_name(name: str) -> str:
    value = name.strip()
    if not value:
        raise BadRequest("name: must not be empty.")
    if len(value) > MAX_NAME_LENGTH:
        raise BadRequest(f"name: use at most {MAX_NAME_LENGTH} characters.")
    return value


# How much a confirmation policy asks for: a key may not create a key that asks less.
_STRICTNESS = {"never": 0, "destructive": 1, "writes": 2}


def check_confirm(policy: str, parent: str | None) -> None:
    if policy not in _STRICTNESS:
        raise BadRequest("confirm: must be one of destructive, writes, never.")
    if parent is not None and _STRICTNESS[policy] < _STRICTNESS.get(parent, 1):
        raise ScopeNotAllowed(
            f"confirm: {policy!r} asks for less confirmation than this API key's own "
            f"{parent!r}; a key cannot create a key that confirms less."
        )


class ApiKeys:
    """`pepper`: the keyed digest's secret; `slugs`: the catalog's integrations (what a
    scope may name); `verifier`: the server's key cache, None off-server (the operator
    CLI has no cache to drop)."""

    def __init__(
        self,
        *,
        pepper: bytes,
        slugs: Collection[str],
        verifier: KeyVerifier | None,
        catalog: Catalog | None = None,
    ) -> None:
        self._digest = keyformat.Digester(pepper)
        self.slugs = slugs
        self.verifier = verifier
        self.catalog = catalog  # what a policy may name; None off-server (no policies)

    # -- the /api-keys API

    async def listing(self, db: AsyncSession, principal: Principal) -> Sequence[ApiKeyOut]:
        """GET /api-keys."""
        scopes.require_key_manager(principal)
        return [ApiKeyOut.of(k) for k in await self.list_for(db, principal.user_id)]

    async def create_for(
        self, db: AsyncSession, principal: Principal, body: CreateKeyRequest
    ) -> CreateKeyResponse:
        """POST /api-keys: a key no broader than the calling key's own scopes."""
        scopes.require_key_manager(principal)
        key, full_key = await self.create(
            db,
            principal.user_id,
            body.name,
            body.scopes,
            body.expires_at,
            parent_scopes=principal.key.scopes if principal.key is not None else None,
            confirm=body.confirm,
            parent_confirm=principal.key.confirm if principal.key is not None else None,
            # a key under a policy makes keys under the same policy
            policy=principal.policy.document if principal.policy is not None else None,
        )
        return CreateKeyResponse.of(key, full_key)

    async def policy_for(self, db: AsyncSession, principal: Principal, key_id: str) -> KeyPolicy:
        """GET /api-keys/{key_id}/policy."""
        key = await self._person_owned(db, principal, key_id)
        return KeyPolicy(key_id=key.id, policy=key.policy)

    async def put_policy_for(
        self, db: AsyncSession, principal: Principal, key_id: str, document: PolicyDoc
    ) -> KeyPolicy:
        """PUT /api-keys/{key_id}/policy."""
        key = await self._person_owned(db, principal, key_id)
        await self.set_policy(db, principal.user_id, key.id, document)
        return KeyPolicy(key_id=key.id, policy=key.policy)

    async def delete_policy_for(self, db: AsyncSession, principal: Principal, key_id: str) -> None:
        """DELETE /api-keys/{key_id}/policy."""
        key = await self._person_owned(db, principal, key_id)
        await self.set_policy(db, principal.user_id, key.id, None)

    async def _person_owned(self, db: AsyncSession, principal: Principal, key_id: str) -> ApiKey:
        """The caller's key `key_id`; a policy is a person's to change (a session or an
        access token), never an API key's: a key could loosen its own."""
        if principal.key is not None:
            raise ScopeNotAllowed(
                "A policy is changed with your own sign-in (the dashboard, or an access "
                "token from POST /auth/login), not with an API key."
            )
        key = await self.owned(db, principal.user_id, key_id)
        if key is None:
            raise NotFound("API key not found.")
        return key

    async def revoke_for(self, db: AsyncSession, principal: Principal, key_id: str) -> None:
        """DELETE /api-keys/{key_id}."""
        scopes.require_key_manager(principal)
        await self.revoke(db, principal.user_id, key_id)

    # -- a user's keys

    async def create(
        self,
        db: AsyncSession,
        user_id: str,
        name: str,
        scope_list: Sequence[str] | None,
        expires_at: datetime | None = None,
        parent_scopes: Sequence[str] | None = None,
        confirm: str = "destructive",
        parent_confirm: str | None = None,
        policy: dict[str, Any] | None = None,
    ) -> tuple[ApiKey, str]:
        """The new key and its full value, which is never available again.
        `parent_scopes`, `parent_confirm`: the scopes and confirmation policy of the API
        key making the call (None for a session or an access token); the new key may not
        be broader nor confirm less. `policy`: the new key's (a checked document)."""
        name = check_name(name)
        check_confirm(confirm, parent_confirm)
        normalized = scopes.normalize(scope_list, self.slugs)
        if parent_scopes is not None and not scopes.covers(parent_scopes, normalized):
            raise ScopeNotAllowed(
                f"scopes: {normalized} is broader than this API key's own scopes "
                f"{list(parent_scopes)}; a key cannot create a broader key."
            )
        now = utcnow()
        if expires_at is not None:
            if expires_at.tzinfo is None:
                raise BadRequest("expires_at: give a timezone, e.g. 2027-01-01T00:00:00Z.")
            if expires_at <= now:
                raise BadRequest("expires_at: must be in the future.")
        await self._check_plan_limit(db, user_id, now)
        full_key = keyformat.generate()
        key = ApiKey(
            user_id=user_id,
            name=name,
            key_prefix=keyformat.display_prefix(full_key),
            key_hash=self._digest(full_key),
            scopes=normalized,
            confirm=confirm,
            policy=policy,
            expires_at=expires_at,
            created_at=now,
        )
        await ApiKeyRepository(db).add(key)
        return key, full_key

    async def set_confirm(self, db: AsyncSession, user_id: str, key_id: str, policy: str) -> None:
        """Change a key's confirmation policy (the dashboard); every instance sees it
        within the key cache's TTL, this one at once."""
        check_confirm(policy, None)
        key = await self.owned(db, user_id, key_id)
        if key is None:
            raise NotFound("API key not found.")
        key.confirm = policy
        await db.flush()
        if self.verifier is not None:
            verifier, changed = self.verifier, key.id
            on_commit(db, lambda: verifier.forget_key(changed))

    async def set_policy(self, db: AsyncSession, user_id: str, key_id: str, document: Any) -> None:
        """Give the key `document` as its policy (checked against the catalog; 400 naming
        the field), or none (None). Like a revocation: this instance forgets the cached
        key once the change commits, every other within the key cache's TTL."""
        key = await self.owned(db, user_id, key_id)
        if key is None:
            raise NotFound("API key not found.")
        key.policy = policy_mod.checked(document, self.catalog)
        await db.flush()
        if self.verifier is not None:
            verifier, changed = self.verifier, key.id
            on_commit(db, lambda: verifier.forget_key(changed))

    async def _check_plan_limit(self, db: AsyncSession, user_id: str, now: datetime) -> None:
        users = UserRepository(db)
        # Serialise key creation per user so the plan limit holds under concurrency.
        await users.lock(user_id)
        user = await users.get(user_id)
        if user is None:
            raise NotFound("User not found.")
        limit = max_active_keys(user.plan)
        if limit is not None and await ApiKeyRepository(db).count_active(user_id, now) >= limit:
            raise PlanLimitReached(
                f"The {user.plan} plan allows {limit} active API key"
                f"{'s' if limit != 1 else ''}; revoke one or upgrade the plan."
            )

    async def list_for(self, db: AsyncSession, user_id: str) -> Sequence[ApiKey]:
        return await ApiKeyRepository(db).list_for_user(user_id)

    async def owned(self, db: AsyncSession, user_id: str, key_id: str) -> ApiKey | None:
        """The user's key `key_id`, revoked or not; None when there is no such key."""
        return await ApiKeyRepository(db).get_for_user(key_id, user_id)

    async def revoke(self, db: AsyncSession, user_id: str, key_id: str) -> ApiKey:
        """Revoke (idempotent); this instance forgets the key once the revocation commits."""
        key = await self.owned(db, user_id, key_id)
        if key is None:
            raise NotFound("API key not found.")
        if key.revoked_at is None:
            key.revoked_at = utcnow()
            await db.flush()
        if self.verifier is not None:
            verifier, gone = self.verifier, key.id
            on_commit(db, lambda: verifier.forget_key(gone))
        return key
