"""Idempotency-Key: a repeated request is answered from storage, never sent twice.

Per user, for `TTL` (24 hours): the first call with a key claims it (a `pending`
row; the primary key makes the claim atomic on every backend) and stores the
envelope it answered. A repeat of the same request (same integration, endpoint,
params and options) gets that envelope back; a different request with the key
is 422 idempotency_key_reused; a repeat that arrives while the first is still
running waits for it. When the first call ends without reaching the upstream
(a gateway error: bad params, not connected, rate limited, confirmation
needed), its claim is released and a retry runs afresh. Keys are stored as
their SHA-256; no credential or parameter value is stored.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.db.base import utcnow
from skillgate.errors import Conflict, IdempotencyKeyReused
from skillgate.executor.models import IdempotentCall
from skillgate.executor.repository import IdempotencyRepository

TTL = timedelta(hours=24)
# A first call still pending after this long died with its process: its key is freed.
ABANDONED = timedelta(minutes=10)


@dataclass(frozen=True, slots=True)
class Stored:
    upstream_status: int
    envelope: bytes


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class Idempotency:
    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], *, wait: float = 60.0
    ) -> None:
        self._sessionmaker = sessionmaker
        self._wait = wait  # how long a repeat waits for the first call to finish
        self._purge_at = 0.0

    async def begin(self, user_id: str, key: str, digest: str) -> Stored | None:
        """The stored answer of an earlier call with `key`, or None once this call
        holds the key (then `finish` or `release` it)."""
        key_hash = _hash(key)
        deadline = time.monotonic() + self._wait
        pause = 0.02
        while True:
            row = await self._claim(user_id, key_hash, digest)
            if row is None:
                return None
            if row.digest != digest:
                raise IdempotencyKeyReused(
                    "This Idempotency-Key was used for a different request in the last 24 "
                    "hours: use a new key for a new request."
                )
            if row.state == "done" and row.envelope is not None:
                return Stored(row.upstream_status or 0, row.envelope)
            if time.monotonic() + pause > deadline:
                raise Conflict(
                    "A call with this Idempotency-Key is still running; retry it shortly."
                )
            await asyncio.sleep(pause)
            pause = min(pause * 1.5, 0.25)

    async def _claim(self, user_id: str, key_hash: str, digest: str) -> IdempotentCall | None:
        """None when this call now holds the key; else the row that holds it."""
        now = utcnow()
        async with self._sessionmaker() as session, session.begin():
            repo = IdempotencyRepository(session)
            if time.monotonic() >= self._purge_at:  # every other user's expired keys
                self._purge_at = time.monotonic() + 600
                await repo.purge_expired_before(now)
            await repo.drop_expired(user_id, key_hash, now, now - ABANDONED)
            row = IdempotentCall(
                user_id=user_id,
                key_hash=key_hash,
                digest=digest,
                state="pending",
                created_at=now,
                expires_at=now + TTL,
            )
            if await repo.claim(row):
                return None
            found = await repo.find(user_id, key_hash)
        if found is None:  # released or expired between the two statements: try again
            return await self._claim(user_id, key_hash, digest)
        return found

    async def finish(self, user_id: str, key: str, upstream_status: int, envelope: bytes) -> None:
        async with self._sessionmaker() as session, session.begin():
            await IdempotencyRepository(session).finish(
                user_id, _hash(key), upstream_status, envelope
            )

    async def release(self, user_id: str, key: str) -> None:
        async with self._sessionmaker() as session, session.begin():
            await IdempotencyRepository(session).release(user_id, _hash(key))
