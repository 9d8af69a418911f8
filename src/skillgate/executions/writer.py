"""Execution rows leave the request path through a queue and land in batches.

`record()` is a non-blocking put. A background task inserts up to `batch`
rows at a time (small batches: binding parameters runs on the event loop, and
a big batch stalls every request behind it), at least every `interval`
seconds; `close()` drains what is left at shutdown. If the database is
down, rows wait (up to `max_pending`, then the oldest are dropped with a
warning) and are retried.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from datetime import UTC, datetime
from typing import Any, cast

import structlog
from sqlalchemy import Table, insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.db.base import new_sortable_id, utcnow
from skillgate.executions.models import Execution

log = structlog.get_logger(__name__)
_TABLE = cast(Table, Execution.__table__)


_COLUMNS = (
    "id",
    "user_id",
    "key_id",
    "integration",
    "endpoint",
    "upstream_status",
    "error",
    "duration_ms",
    "created_at",
)
# Built from the constant column list above, never from input.
_SQLITE_INSERT = (
    f"INSERT INTO executions ({', '.join(_COLUMNS)}) "  # noqa: S608
    f"VALUES ({', '.join('?' * len(_COLUMNS))})"
)


async def _insert(session: AsyncSession, rows: list[dict[str, Any]]) -> None:
    """executemany; on SQLite straight to the driver with pre-formatted values.

    SQLAlchemy's per-row bind processing ran on the event loop and cost ~15% of
    a proxied request's CPU at full load (bench/results/report.md). The text
    format is the one SQLAlchemy itself writes for SQLite DATETIME (naive UTC).
    """
    conn = await session.connection()
    if conn.dialect.name != "sqlite":
        await session.execute(insert(_TABLE), rows)
        return
    params = [
        (
            *(r[c] for c in _COLUMNS[:-1]),
            r["created_at"].astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f"),
        )
        for r in rows
    ]
    await conn.exec_driver_sql(_SQLITE_INSERT, params)


class ExecutionWriter:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        *,
        batch: int = 200,
        interval: float = 0.25,
        max_pending: int = 100_000,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._batch = batch
        self._interval = interval
        self._pending: deque[dict[str, Any]] = deque(maxlen=max_pending)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

        self.written = 0

    def record(
        self,
        *,
        user_id: str,
        key_id: str | None,
        integration: str,
        endpoint: str,
        upstream_status: int | None,
        error: str | None,
        duration_ms: float,
        at: datetime | None = None,
    ) -> None:
        if len(self._pending) == self._pending.maxlen:
            log.warning("execution log backlog full; dropping the oldest row")
        self._pending.append(
            {
                "id": new_sortable_id("exe"),
                "user_id": user_id,
                "key_id": key_id,
                "integration": integration,
                "endpoint": endpoint,
                "upstream_status": upstream_status,
                "error": error,
                "duration_ms": round(duration_ms),
                "created_at": at or utcnow(),
            }
        )
        if len(self._pending) >= self._batch:
            self._wake.set()

    async def flush(self) -> None:
        while self._pending:
            rows = [self._pending.popleft() for _ in range(min(self._batch, len(self._pending)))]
            try:
                async with self._sessionmaker() as session, session.begin():
                    await _insert(session, rows)
            except Exception:
                log.warning("execution log write failed; will retry", rows=len(rows))
                self._pending.extendleft(reversed(rows))
                return
            self.written += len(rows)
            await asyncio.sleep(0)  # let requests run between batches (no long loop stalls)

    async def _run(self) -> None:
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._interval)
            self._wake.clear()
            await self.flush()

    def start(self) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name="execution-writer")

    async def close(self) -> None:
        """Stop the loop without cancelling it mid-write (a cancelled INSERT leaks its
        connection and, on SQLite, the write lock), then write what is left."""
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            await self._task
            self._task = None
        await self.flush()
