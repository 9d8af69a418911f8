"""Which integrations a user has connected, cached like key verifications.

Discovery answers `status` on every listing; this keeps that off the database.
Entries live `ttl` seconds (1 s by default) and are dropped at once on this
instance when a connection changes.
"""

from __future__ import annotations

import time

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.connections.repository import ConnectionRepository

_MAX_ENTRIES = 50_000


class StatusCache:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], ttl: float = 1.0) -> None:
        self._sessionmaker = sessionmaker
        self._ttl = ttl
        self._cache: dict[str, tuple[frozenset[str], float]] = {}

    async def connected(self, user_id: str) -> frozenset[str]:
        """Slugs whose connection is usable (status `connected`)."""
        now = time.monotonic()
        cached = self._cache.get(user_id)
        if cached is not None and now - cached[1] < self._ttl:
            return cached[0]
        async with self._sessionmaker() as session:
            statuses = await ConnectionRepository(session).statuses(user_id)
        value = frozenset(slug for slug, status in statuses.items() if status == "connected")
        if len(self._cache) >= _MAX_ENTRIES:
            self._cache.clear()
        self._cache[user_id] = (value, now)
        return value

    def forget(self, user_id: str) -> None:
        self._cache.pop(user_id, None)
