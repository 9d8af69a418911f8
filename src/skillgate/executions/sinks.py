"""Where execution rows land: one INSERT per batch.

- `SqliteSink`: a connection and a thread of its own. The batch crosses to the
  thread once, as one JSON parameter that SQLite unpacks itself (json_each):
  one bind and one step, so the event loop neither binds rows nor hands the
  GIL back and forth with a driver thread row by row. Through SQLAlchemy's
  async session each batch cost ~0.9 ms of event-loop CPU in fixed overhead
  alone (measured; see docs/execution.md, "The execution log").
- `SessionSink`: an executemany through SQLAlchemy (PostgreSQL and asyncpg).

Both ignore rows whose id is already stored (`INSERT OR IGNORE`, `ON CONFLICT
DO NOTHING`): a spool replay (executions.spool) may send a row twice.
"""

from __future__ import annotations

import asyncio
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Protocol, cast

import orjson
from sqlalchemy import Insert, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.db.engine import SQLITE_BUSY_TIMEOUT_MS, sqlite_pragmas
from skillgate.executions.models import Execution

Row = tuple[
    str, str, str | None, str, str, int | None, str | None, int, str | None, str | None, datetime
]
COLUMNS = (
    "id",
    "user_id",
    "key_id",
    "integration",
    "endpoint",
    "upstream_status",
    "error",
    "duration_ms",
    "approval_id",
    "decided_by",
    "created_at",  # last: the spool and the SQLite sink convert it
)
_TABLE = cast(Table, Execution.__table__)
# Built from the constant column list above, never from input (json_each and
# json_extract: the JSON1 functions, in every SQLite build Python has shipped for years).
_SQLITE_INSERT = (
    f"INSERT OR IGNORE INTO executions ({', '.join(COLUMNS)}) SELECT "  # noqa: S608
    + ", ".join(f"json_extract(value, '$[{i}]')" for i in range(len(COLUMNS)))
    + " FROM json_each(?)"
)


class Sink(Protocol):
    async def insert(self, rows: list[Row]) -> None: ...

    async def close(self) -> None: ...


def sqlite_time(at: datetime) -> str:
    """The text SQLAlchemy itself writes for a SQLite DATETIME: naive UTC, microseconds."""
    if at.tzinfo is not UTC:
        at = at.astimezone(UTC)
    return at.isoformat(" ", "microseconds")[:26]


class SqliteSink:
    def __init__(self, path: str) -> None:
        self._path = path
        self._conn: sqlite3.Connection | None = None
        self._thread: ThreadPoolExecutor | None = None  # started by the first batch

    def _write(self, rows: list[Row]) -> None:  # in the sink's thread
        if self._conn is None:
            conn = sqlite3.connect(
                self._path, timeout=SQLITE_BUSY_TIMEOUT_MS / 1000, isolation_level=None
            )
            sqlite_pragmas(cast(DBAPIConnection, conn), None)  # WAL, busy timeout, FKs

            self._conn = conn
        payload = orjson.dumps([(*r[:-1], sqlite_time(r[-1])) for r in rows]).decode()
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            self._conn.execute(_SQLITE_INSERT, (payload,))
            self._conn.execute("COMMIT")
        except sqlite3.Error:
            self._conn.close()  # start the next attempt from a fresh connection
            self._conn = None
            raise

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    async def insert(self, rows: list[Row]) -> None:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="execution-log")
        await asyncio.get_running_loop().run_in_executor(self._thread, self._write, rows)

    async def close(self) -> None:
        """Close the connection in its thread and stop the thread (a later batch starts
        them again)."""
        thread, self._thread = self._thread, None
        if thread is not None:
            await asyncio.get_running_loop().run_in_executor(thread, self._close)
            thread.shutdown(wait=True)


def _insert_ignoring_known_ids(dialect: str) -> Insert:
    if dialect == "postgresql":
        return postgresql.insert(_TABLE).on_conflict_do_nothing(index_elements=["id"])
    return sqlite.insert(_TABLE).on_conflict_do_nothing(index_elements=["id"])


class SessionSink:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker

    async def insert(self, rows: list[Row]) -> None:
        async with self._sessionmaker() as session, session.begin():
            await session.execute(
                _insert_ignoring_known_ids(session.get_bind().dialect.name),
                [dict(zip(COLUMNS, r, strict=True)) for r in rows],
            )

    async def close(self) -> None:
        return None
