"""Execution rows leave the request path through a queue and land in batches.

`record()` is a non-blocking put of a tuple. A background task hands up to
`batch` rows at a time to a sink (executions.sinks), at least every `interval`
seconds; `close()` drains what is left at shutdown. If the database is
down, rows wait (up to `max_pending`, then the oldest are dropped with a
warning) and are retried.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from datetime import datetime

import structlog

from skillgate.db.base import new_sortable_id, utcnow
from skillgate.executions.sinks import Row, Sink

log = structlog.get_logger(__name__)


class ExecutionWriter:
    def __init__(
        self,
        sink: Sink,
        *,
        batch: int = 200,
        interval: float = 0.25,
        max_pending: int = 100_000,
    ) -> None:
        self._sink = sink
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
                await self._sink.insert(rows)
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
        await self._sink.close()
