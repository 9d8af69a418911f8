"""Execution rows leave the request path through a queue and land in batches.

`record()` is a non-blocking put of a tuple. A background task hands up to
`batch` rows at a time to a sink (executions.sinks), at least every `interval`
seconds; `close()` drains what is left at shutdown. If the database is
down, rows wait (up to `max_pending`, then the oldest are dropped with a
warning) and are retried (one log line per failure kind per 10 s). A row the
database refuses for its content is set aside in the dead-letter file
(executions.deadletter) and the rows around it are stored: one bad row never
holds up the queue.

With a `spool_dir`, each row is first appended to this process's write-ahead
file (executions.spool), emptied whenever the queue has reached the database;
at start and every `replay_every` seconds the writer inserts the rows of files
left by dead processes. Inserts ignore ids already stored, so replay is safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from datetime import datetime
from pathlib import Path

import structlog

from skillgate.db.base import new_sortable_id, utcnow
from skillgate.executions import deadletter, spool
from skillgate.executions.sinks import Row, Sink
from skillgate.kit import outage
from skillgate.metrics import Metrics

log = structlog.get_logger(__name__)


class ExecutionWriter:
    def __init__(
        self,
        sink: Sink,
        *,
        batch: int = 200,
        interval: float = 0.25,
        max_pending: int = 100_000,
        spool_dir: Path | None = None,
        replay_every: float = 60.0,
        metrics: Metrics | None = None,
    ) -> None:
        self._sink = sink
        self._spool = spool.Spool(spool_dir) if spool_dir is not None else None
        self.dead_letter = deadletter.DeadLetter(spool_dir, metrics)
        self._replay_every = replay_every
        self._replay_at = 0.0
        self._batch = batch
        self._interval = interval
        self._pending: deque[Row] = deque(maxlen=max_pending)
        self._wake = asyncio.Event()
        # One flush at a time: a caller that reads the log (GET /v1/executions, the
        # Activity page) waits for a batch already being written instead of returning
        # before it lands, and the spool is only emptied once every taken row is stored.
        self._flushing = asyncio.Lock()
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
        approval_id: str | None = None,
        decided_by: str | None = None,
    ) -> None:
        if len(self._pending) == self._pending.maxlen:
            outage.OUTAGES.warning(
                "execution-log-backlog", "execution log backlog full; dropping the oldest row"
            )
        row: Row = (
            new_sortable_id("exe"),
            user_id,
            key_id,
            integration,
            endpoint,
            upstream_status,
            error,
            round(duration_ms),
            approval_id,
            decided_by,
            at or utcnow(),
        )
        if self._spool is not None and self._spool.is_open:
            self._spool.append(row)
        self._pending.append(row)
        if len(self._pending) >= self._batch:
            self._wake.set()

    async def flush(self) -> None:
        """Write every queued row; returns once they are stored (or the sink failed)."""
        async with self._flushing:
            await self._flush()

    async def _flush(self) -> None:
        self.dead_letter.save()  # refused rows its file could not take last time
        while self._pending:
            rows = [self._pending.popleft() for _ in range(min(self._batch, len(self._pending)))]
            failed = await deadletter.store(self._sink, rows, self.dead_letter)
            if failed is not None:  # unavailable: every row stays queued and spooled
                described = deadletter.describe(failed)
                outage.OUTAGES.warning(
                    f"execution-log-write:{described['error']}",
                    "execution log write failed; will retry",
                    rows=len(rows),
                    **described,
                )
                self._pending.extendleft(reversed(rows))
                return
            self.written += len(rows)
            if not self._pending:  # no await since the check: no row can arrive in between
                if self._spool is not None and self._spool.is_open and not self.dead_letter.pending:
                    self._spool.truncate()
                return
            await asyncio.sleep(0)  # let requests run between batches (no long loop stalls)

    async def replay(self) -> int:
        """Insert the rows that dead processes left in their spool files."""
        if self._spool is None:
            return 0
        self._replay_at = time.monotonic() + self._replay_every
        try:
            return await spool.replay(
                self._spool.directory,
                self._sink,
                own=self._spool.path,
                batch=self._batch,
                dead=self.dead_letter,
            )
        except Exception as exc:  # an unreadable directory, ...: the next round retries
            outage.OUTAGES.warning(
                "execution-log-replay",
                "execution log replay failed; will retry",
                error=type(exc).__name__,
            )
            return 0

    async def _run(self) -> None:
        await self.replay()
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._interval)
            self._wake.clear()
            await self.flush()
            if self._spool is not None and time.monotonic() >= self._replay_at:
                await self.replay()

    def start(self) -> None:
        self._stopping = False
        if self._spool is not None and not self._spool.is_open:
            try:
                self._spool.open()
            except OSError as exc:
                log.warning(
                    "execution log spool unavailable: a crash can lose queued rows",
                    directory=str(self._spool.directory),
                    error=str(exc),
                )
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
        if self._spool is not None:  # kept (for the next start to replay) if rows remain
            self._spool.close(remove=not self._pending and not self.dead_letter.pending)
        await self._sink.close()
