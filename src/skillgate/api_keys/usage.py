"""`last_used_at`, written at most once a minute per key and never on the request path.

`record()` is a dictionary operation; a background task (`start`) writes the
pending timestamps every few seconds, and `close()` writes the rest at shutdown.
The UPDATE itself only moves `last_used_at` when it is a minute old, so several
instances together still write at most about once a minute per key.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import datetime

import structlog
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.db.base import utcnow

MIN_GAP_SECONDS = 60
log = structlog.get_logger(__name__)


class UsageRecorder:
    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], interval: float = 5.0
    ) -> None:
        self._sessionmaker = sessionmaker
        self._interval = interval
        self._recorded: dict[str, float] = {}
        self._pending: dict[str, datetime] = {}
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self.writes = 0

    def record(self, key_id: str) -> None:
        now = time.monotonic()
        last = self._recorded.get(key_id)
        if last is not None and now - last < MIN_GAP_SECONDS:
            return
        self._recorded[key_id] = now
        self._pending[key_id] = utcnow()

    async def flush(self) -> None:
        if not self._pending:
            return
        from skillgate.api_keys.repository import ApiKeyRepository

        pending, self._pending = self._pending, {}
        try:
            async with self._sessionmaker() as session, session.begin():
                await ApiKeyRepository(session).touch_many(pending, MIN_GAP_SECONDS)
            self.writes += len(pending)
        except Exception:
            log.warning("last_used_at update failed; will retry", keys=len(pending))
            for key_id, when in pending.items():
                self._pending.setdefault(key_id, when)

    def start(self) -> None:
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name="usage-recorder")

    async def _run(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self._interval)
            with contextlib.suppress(Exception):
                await self.flush()

    async def close(self) -> None:
        """Stop without cancelling a write in progress, then write what is left."""
        if self._task is not None:
            self._stop.set()
            await self._task
            self._task = None
        await self.flush()
