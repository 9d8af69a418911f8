"""Creating, listing and revoking API keys. Services flush; the request commits."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.api_keys import keyformat, scopes
from skillgate.api_keys.models import ApiKey
from skillgate.api_keys.repository import ApiKeyRepository
from skillgate.db.base import utcnow
from skillgate.errors import BadRequest, NotFound, PlanLimitReached, ScopeNotAllowed
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


class ApiKeyService:
    def __init__(self, session: AsyncSession, pepper: bytes) -> None:
        self.session = session
        self.keys = ApiKeyRepository(session)
        self.users = UserRepository(session)
        self.pepper = pepper

    async def create(
        self,
        user_id: str,
        name: str,
        scope_list: list[str] | None,
        known_slugs: Collection[str],
        expires_at: datetime | None = None,
        parent_scopes: Sequence[str] | None = None,
    ) -> tuple[ApiKey, str]:
        """The new key and its full value, which is never available again.
        `parent_scopes`: the scopes of the API key making the call (None for a session or
        an access token); the new key may not be broader."""
        name = check_name(name)
        normalized = scopes.normalize(scope_list, known_slugs)
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
        # Serialise key creation per user so the plan limit holds under concurrency.
        await self.users.lock(user_id)
        user = await self.users.get(user_id)
        if user is None:
            raise NotFound("User not found.")
        limit = max_active_keys(user.plan)
        if limit is not None and await self.keys.count_active(user_id, now) >= limit:
            raise PlanLimitReached(
                f"The {user.plan} plan allows {limit} active API key"
                f"{'s' if limit != 1 else ''}; revoke one or upgrade the plan."
            )
        full_key = keyformat.generate()
        key = ApiKey(
            user_id=user_id,
            name=name,
            key_prefix=keyformat.display_prefix(full_key),
            key_hash=keyformat.digest(full_key, self.pepper),
            scopes=normalized,
            expires_at=expires_at,
            created_at=now,
        )
        await self.keys.add(key)
        return key, full_key

    async def list(self, user_id: str) -> Sequence[ApiKey]:
        return await self.keys.list_for_user(user_id)

    async def revoke(self, user_id: str, key_id: str) -> ApiKey:
        key = await self.keys.get_for_user(key_id, user_id)
        if key is None:
            raise NotFound("API key not found.")
        if key.revoked_at is None:
            key.revoked_at = utcnow()
            await self.session.flush()
        return key
