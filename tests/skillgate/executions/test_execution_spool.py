"""The execution log's write-ahead spool: each row is on disk before it is queued, the
file empties once the queue is written, and a dead writer's file is replayed (once,
idempotently) by the next writer; a live writer's file is left alone."""

from __future__ import annotations

import asyncio
import os
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import func, select

from skillgate.executions.models import Execution
from skillgate.executions.sinks import Row, SessionSink
from skillgate.executions.spool import Spool
from skillgate.executions.writer import ExecutionWriter
from tests.conftest import Harness


def _row(user_id: str, n: int) -> tuple[object, ...]:
    at = datetime(2026, 11, 23, 12, 0, n, 123456, tzinfo=UTC)
    return (
        f"exe_spool{n:06d}",
        user_id,
        "key_x",
        "sample",
        "get_user",
        200,
        None,
        n,
        None,
        None,
        at,
    )


async def _rows(harness: Harness) -> list[tuple[object, ...]]:
    async with harness.sessionmaker() as s:
        found = (await s.execute(select(Execution).order_by(Execution.id))).scalars().all()
    return [
        (
            r.id,
            r.user_id,
            r.key_id,
            r.integration,
            r.endpoint,
            r.upstream_status,
            r.error,
            r.duration_ms,
            r.approval_id,
            r.decided_by,
            r.created_at,
        )
        for r in found
    ]


async def test_each_row_is_spooled_before_it_is_queued_and_the_file_empties(
    harness: Harness,
) -> None:
    user = await harness.user()
    spool_dir = harness.settings.data_dir / "spool"
    [own] = list(spool_dir.glob("executions-*.jsonl"))
    assert own.name.startswith(f"executions-{os.getpid()}-")
    assert own.stat().st_mode & 0o777 == 0o600
    writer = harness.executions
    for i in range(3):
        writer.record(
            user_id=user.id,
            key_id=None,
            integration="sample",
            endpoint="get_user",
            upstream_status=200,
            error=None,
            duration_ms=i,
        )
    lines = own.read_bytes().splitlines()
    assert len(lines) == 3  # written at once, not at the next flush
    assert b"get_user" in lines[0]
    await writer.flush()
    assert own.stat().st_size == 0
    async with harness.sessionmaker() as s:
        assert await s.scalar(select(func.count()).select_from(Execution)) == 3


async def test_a_dead_writers_file_is_replayed_once_and_removed(
    harness: Harness, tmp_path: Path
) -> None:
    user = await harness.user()
    spool_dir = tmp_path / "other-spool"
    dead = Spool(spool_dir)
    dead.open()
    rows = [_row(user.id, n) for n in range(5)]
    for row in rows:
        dead.append(row)  # type: ignore[arg-type]
    assert dead.path is not None
    with dead.path.open("ab") as f:
        f.write(b'["exe_short", 1]\n')  # not a row: skipped, counted as unreadable
        f.write(b'["exe_torn", "usr')  # a last line cut short (a power loss)
    dead.close(remove=False)  # the process died: its lock is free, its file stays
    alive = Spool(spool_dir)
    alive.open()
    alive.append(_row(user.id, 9))  # type: ignore[arg-type]

    sink = harness.executions._sink
    await sink.insert(rows[:2])  # already stored before the crash: ignored on replay
    writer = ExecutionWriter(sink, spool_dir=spool_dir)
    assert await writer.replay() == 5
    assert await _rows(harness) == rows
    assert not dead.path.exists()
    assert alive.path is not None
    assert alive.path.exists()  # its writer holds the lock
    assert await writer.replay() == 0  # nothing twice
    assert await _rows(harness) == rows
    alive.close(remove=True)


async def test_rows_left_at_shutdown_stay_in_the_spool_for_the_next_start(
    harness: Harness, tmp_path: Path
) -> None:
    user = await harness.user()
    spool_dir = tmp_path / "shutdown-spool"
    sink = harness.executions._sink

    class Refusing:
        async def insert(self, rows: list[object]) -> None:
            raise ConnectionError("database down")

        async def close(self) -> None:
            return None

    first = ExecutionWriter(Refusing(), spool_dir=spool_dir)  # type: ignore[arg-type]
    first.start()
    first.record(
        user_id=user.id, key_id=None, integration="sample", endpoint="get_user",
        upstream_status=200, error=None, duration_ms=1,
    )  # fmt: skip
    await first.close()  # the database refused: the row stays on disk
    assert len(list(spool_dir.glob("executions-*.jsonl"))) == 1
    second = ExecutionWriter(sink, spool_dir=spool_dir)
    second.start()  # replays at start
    await second.close()
    assert [r[4] for r in await _rows(harness)] == ["get_user"]
    assert list(spool_dir.glob("executions-*.jsonl")) == []  # clean shutdown: no file left


class _SlowSink:
    """The real sink, slowed down: a batch stays in flight long enough to race it."""

    def __init__(self, inner: SessionSink) -> None:
        self.inner = inner
        self.started = asyncio.Event()

    async def insert(self, rows: list[Row]) -> None:
        self.started.set()
        await asyncio.sleep(0.2)
        await self.inner.insert(rows)

    async def close(self) -> None:
        await self.inner.close()


async def test_a_flush_waits_for_a_batch_already_being_written(
    harness: Harness, tmp_path: Path
) -> None:
    """A reader's flush (GET /v1/executions, the Activity page) while the background task
    writes a batch: it returns only once that batch is stored, and the spool still holds
    the rows until then (a kill in between loses nothing)."""
    user = await harness.user()
    sink = _SlowSink(SessionSink(harness.sessionmaker))
    writer = ExecutionWriter(sink, interval=60, spool_dir=tmp_path / "race-spool")
    writer.start()
    try:
        for i in range(3):
            writer.record(
                user_id=user.id,
                key_id=None,
                integration="sample",
                endpoint="get_user",
                upstream_status=200,
                error=None,
                duration_ms=i,
            )
        [own] = list((tmp_path / "race-spool").glob("executions-*.jsonl"))
        in_flight = asyncio.create_task(writer.flush())
        await sink.started.wait()
        assert len(own.read_bytes().splitlines()) == 3  # taken, not yet stored: still spooled
        await writer.flush()
        async with harness.sessionmaker() as s:
            assert await s.scalar(select(func.count()).select_from(Execution)) == 3
        assert own.stat().st_size == 0
        await in_flight
    finally:
        await writer.close()
