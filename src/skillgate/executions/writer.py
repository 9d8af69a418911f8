"""Execution rows leave the request path through a queue and land in batches.

`record()` is a non-blocking put of a tuple. A background task inserts up to
`batch` rows at a time (small batches: preparing them runs on the event loop,
and a big batch stalls every request behind it), at least every `interval`
seconds; `close()` drains what is left at shutdown. If the database is
down, rows wait (up to `max_pending`, then the oldest are dropped with a
warning) and are retried.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from datetime import UTC, datetime
from typing import cast

import orjson
import structlog
from sqlalchemy import Table, insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.db.base import new_sortable_id, utcnow
from skillgate.executions.models import Execution

log = structlog.get_logger(__name__)
_TABLE = cast(Table, Execution.__table__)


Row = tuple[str, str, str | None, str, str, int | None, str | None, int, datetime]
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
# Built from the constant column list above, never from input: the whole batch is
# one JSON parameter, unpacked by SQLite itself (json_each/json_extract: the JSON1
# functions, in every SQLite build Python has shipped for years).

_SQLITE_INSERT = (
    f"INSERT INTO executions ({', '.join(_COLUMNS)}) SELECT "  # noqa: S608
    + ", ".join(f"json_extract(value, '$[{i}]')" for i in range(len(_COLUMNS)))
    + " FROM json_each(?)"
)


def _sqlite_time(at: datetime) -> str:
    """The text SQLAlchemy itself writes for a SQLite DATETIME: naive UTC, microseconds."""
    if at.tzinfo is not UTC:
        at = at.astimezone(UTC)
    return at.isoformat(" ", "microseconds")[:26]


async def _insert(session: AsyncSession, rows: list[Row]) -> None:
    """One statement per batch. On SQLite, straight to the driver with the rows as one
    JSON array: a single bind and a single step. `executemany` released and re-took
    the GIL around every row, and its thread and the event loop handed the GIL back
    and forth: measured ~13 us more server CPU per proxied request
    (bench/results/report.md). SQLAlchemy's per-row bind processing on the event loop
    had cost more still."""
    conn = await session.connection()
    if conn.dialect.name != "sqlite":
        await session.execute(insert(_TABLE), [dict(zip(_COLUMNS, r, strict=True)) for r in rows])
        return
    payload = orjson.dumps([(*r[:-1], _sqlite_time(r[-1])) for r in rows])
    await conn.exec_driver_sql(_SQLITE_INSERT, (payload.decode(),))


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
        self._pending: deque[Row] = deque(maxlen=max_pending)
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
            (
                new_sortable_id("exe"),
                user_id,
                key_id,
                integration,
                endpoint,
                upstream_status,
                error,
                round(duration_ms),
                at or utcnow(),
            )
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
