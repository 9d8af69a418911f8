"""Which integrations a user has connected, cached like key verifications.

Discovery answers `status` on every listing; this keeps that off the database.
Entries live `ttl` seconds (1 s by default) and are dropped at once on this
instance when a connection changes.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.connections.repository import ConnectionRepository
from skillgate.kit.cache import TTLCache


class StatusCache:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], ttl: float = 1.0) -> None:
        self._sessionmaker = sessionmaker
        self._cache: TTLCache[str, frozenset[str]] = TTLCache(ttl)

    async def connected(self, user_id: str) -> frozenset[str]:
        """Slugs whose connection is usable (status `connected`)."""
        found = self._cache.peek(user_id)  # the usual case, without a load's coroutine
        if found is not None:
            return found
        return await self._cache.get(user_id, lambda: self._load(user_id))

    async def _load(self, user_id: str) -> frozenset[str]:
        async with self._sessionmaker() as session:
            statuses = await ConnectionRepository(session).statuses(user_id)
        return frozenset(slug for slug, status in statuses.items() if status == "connected")

    def forget(self, user_id: str) -> None:
        self._cache.forget(user_id)
