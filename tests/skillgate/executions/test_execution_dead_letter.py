"""A row the database refuses is set aside, never retried in a loop (issue 22, item 1).

The writer stores the rows around a refused one and keeps the refused row in the
dead-letter file; spool replay moves an unreadable file aside and replays the
files behind it; an outage (not the rows' fault) keeps every row queued.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select
from structlog.testing import capture_logs

from skillgate.executions import deadletter
from skillgate.executions.models import Execution
from skillgate.executions.sinks import Row
from skillgate.executions.writer import ExecutionWriter
from skillgate.kit import outage
from tests.conftest import Harness


def _row(user_id: str, n: int, endpoint: str = "get_user") -> Row:
    at = datetime(2026, 11, 23, 12, 0, n % 60, 123456, tzinfo=UTC)
    return (f"exe_dead{n:06d}", user_id, "key_x", "sample", endpoint, 200, None, n, None, None, at)


def _record(writer: ExecutionWriter, user_id: str, endpoint: str = "get_user") -> None:
    writer.record(
        user_id=user_id,
        key_id=None,
        integration="sample",
        endpoint=endpoint,
        upstream_status=200,
        error=None,
        duration_ms=1,
    )


async def _stored(harness: Harness) -> dict[str, str]:
    """id -> user id of every stored row."""
    async with harness.sessionmaker() as s:
        rows = (await s.execute(select(Execution.id, Execution.user_id))).all()
    return {i: u for i, u in rows}


def _kept(spool_dir: Path) -> list[list[object]]:
    path = spool_dir / deadletter.DIRECTORY / deadletter.ROWS_FILE
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def _refused_rows(harness: Harness) -> list[str]:
    """Endpoint names of rows this database refuses: a user that does not exist (a
    foreign key, both databases), and on PostgreSQL a NUL in the text."""
    if harness.engine.dialect.name == "postgresql":
        return ["no-such-user", "nul"]
    return ["no-such-user"]


async def _record_batch(writer: ExecutionWriter, user_id: str, refused: list[str]) -> None:
    """Five good rows, the refused ones, five good rows."""
    for _ in range(5):
        _record(writer, user_id)
    for kind in refused:
        if kind == "nul":
            _record(writer, user_id, endpoint="get\x00user")
        else:
            _record(writer, "usr_gone000000000000000000000")
    for _ in range(5):
        _record(writer, user_id)


async def test_a_refused_row_in_the_middle_of_a_batch_is_set_aside(
    harness: Harness, tmp_path: Path
) -> None:
    user = await harness.user()
    refused = _refused_rows(harness)
    spool_dir = tmp_path / "spool"
    writer = ExecutionWriter(harness.executions._sink, interval=60, spool_dir=spool_dir)
    writer.start()
    with capture_logs() as log:
        await _record_batch(writer, user.id, refused)
        await writer.flush()
        stored = await _stored(harness)
        [own] = list(spool_dir.glob("executions-*.jsonl"))
        spooled = own.stat().st_size
        kept = _kept(spool_dir)
        _record(writer, user.id)  # and the log goes on
        await writer.close()
    assert sorted(stored.values()) == [user.id] * 10  # the rows around it are stored
    assert spooled == 0  # every row stored or kept: the spool empties
    assert len(kept) == len(refused)
    assert {str(r[0]) for r in kept}.isdisjoint(stored)
    if "nul" in refused:
        assert [r[4] for r in kept if r[1] == user.id] == ["get\x00user"]
    dead_file = spool_dir / deadletter.DIRECTORY / deadletter.ROWS_FILE
    assert dead_file.stat().st_mode & 0o777 == 0o600
    metrics = writer.dead_letter.metrics.render().decode()
    count = f'skillgate_execution_log_dead_letter_total{{kind="row"}} {len(refused)}.0'
    assert count in metrics
    assert len(await _stored(harness)) == 11
    assert _kept(spool_dir) == kept  # each refused row kept once

    lines = [e for e in log if e["event"].startswith("execution log row refused")]
    assert [line["id"] for line in lines] == [r[0] for r in kept]  # one line each (kinds)
    assert not [e for e in log if "will retry" in e["event"]]


async def test_replay_sets_a_bad_spool_file_aside_and_goes_on(
    harness: Harness, tmp_path: Path
) -> None:
    """Dead writers' files, in the order replay reads them: one it cannot read at all,
    one with a line that is not a row and a row the database refuses, then good ones.
    Before: replay stopped at the first, and the good files were never replayed."""
    user = await harness.user()
    spool_dir = tmp_path / "spool"
    spool_dir.mkdir()
    (spool_dir / "executions-1-0000.jsonl").mkdir()  # read(2) fails: EISDIR
    bad = [_row(user.id, 1), _row("usr_gone000000000000000000000", 2), _row(user.id, 3)]
    (spool_dir / "executions-2-0000.jsonl").write_bytes(
        b"not json\n" + b"".join(deadletter.encode(r) for r in bad)
    )
    good = [_row(user.id, n) for n in range(10, 20)]
    for i in range(2):
        path = spool_dir / f"executions-3-000{i}.jsonl"
        path.write_bytes(b"".join(deadletter.encode(r) for r in good[i * 5 : i * 5 + 5]))

    writer = ExecutionWriter(harness.executions._sink, spool_dir=spool_dir)
    await writer.replay()
    stored = await _stored(harness)
    assert sorted(stored) == sorted([bad[0][0], bad[2][0], *(r[0] for r in good)])
    assert list(spool_dir.glob("executions-*.jsonl")) == []
    aside = spool_dir / deadletter.DIRECTORY
    assert sorted(os.listdir(aside)) == [
        "executions-1-0000.jsonl",
        "executions-2-0000.jsonl",
        deadletter.ROWS_FILE,
    ]
    assert [r[0] for r in _kept(spool_dir)] == [bad[1][0]]
    metrics = writer.dead_letter.metrics.render().decode()
    assert 'skillgate_execution_log_dead_letter_total{kind="file"} 2.0' in metrics
    assert 'skillgate_execution_log_dead_letter_total{kind="row"} 1.0' in metrics


async def test_an_outage_keeps_every_row_queued_and_sets_none_aside(
    harness: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not the rows' fault: nothing is set aside, every row waits; and the retries log
    "execution log write failed" once per failure kind per interval, like the other
    outage lines (before: one line per attempt, four a second)."""
    monkeypatch.setattr(outage, "OUTAGES", outage.ThrottledLog())
    user = await harness.user()

    class Down:
        calls = 0

        async def insert(self, rows: list[Row]) -> None:
            Down.calls += 1
            raise ConnectionRefusedError("database down")

        async def close(self) -> None:
            return None

    spool_dir = tmp_path / "spool"
    writer = ExecutionWriter(Down(), interval=60, spool_dir=spool_dir)
    writer.start()
    for _ in range(3):
        _record(writer, user.id)
    with capture_logs() as log:
        for _ in range(20):
            await writer.flush()
    assert len(writer._pending) == 3
    assert Down.calls == 20  # one attempt a flush: no halving for an outage
    assert not (spool_dir / deadletter.DIRECTORY).exists()
    lines = [e for e in log if e["event"] == "execution log write failed; will retry"]
    assert len(lines) == 1, lines
    assert lines[0]["error"] == "builtins.ConnectionRefusedError"
    writer._sink = harness.executions._sink  # the database is back
    await writer.close()
    assert len(await _stored(harness)) == 3
