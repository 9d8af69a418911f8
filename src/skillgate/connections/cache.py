"""Decrypted connections, cached per instance like key verifications.

The executor reads credentials on every call; this keeps the database and the
decryption off that path. Entries live `ttl` seconds (so a change made on
another instance, e.g. a refresh or a disconnect, is seen within it) and are
dropped at once on this instance when the connection changes here. No connection
is not kept: a call refused as not connected sends the user to connect, perhaps on
another instance or with the operator command, and the retry right after must find
the new connection (it is the rare path; the cache is for the calls that run).
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.connections.repository import ConnectionRepository
from skillgate.connections.stored import ActiveConnection, active_of
from skillgate.kit.cache import TTLCache
from skillgate.kit.vault import Vault


class CredentialCache:
    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], vault: Vault, ttl: float
    ) -> None:
        self._sessionmaker = sessionmaker
        self._vault = vault
        self._cache: TTLCache[tuple[str, str], ActiveConnection | None] = TTLCache(
            ttl, keep=lambda conn: conn is not None
        )

    async def get(self, user_id: str, integration: str) -> ActiveConnection | None:
        return await self._cache.get(
            (user_id, integration), lambda: self._load(user_id, integration)
        )

    async def _load(self, user_id: str, integration: str) -> ActiveConnection | None:
        async with self._sessionmaker() as session:
            connection = await ConnectionRepository(session).get(user_id, integration)
        return active_of(self._vault, connection) if connection is not None else None

    def forget(self, user_id: str, integration: str) -> None:
        self._cache.forget((user_id, integration))
