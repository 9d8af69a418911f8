"""One async engine per process, configured for the backend it talks to."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from sqlalchemy import event, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import ConnectionPoolEntry

SQLITE_BUSY_TIMEOUT_MS = 30_000


def normalize_url(url: str) -> str:
    """Accept the URLs people paste (`postgresql://`, `sqlite:///`) and pick the async driver."""
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


def sqlite_pragmas(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry | None) -> None:

    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cur.close()


def sqlite_file(url: str) -> str | None:
    """The database file of a SQLite URL; None for other backends and in-memory SQLite."""
    parsed = make_url(normalize_url(url))
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return parsed.database


def create_private_file(path: str) -> None:
    """Create the SQLite file owner-only (0600), like the secrets file, before SQLite
    does (it would use 0644); its -wal and -shm files take the database file's mode.
    An existing file is left as it is (see `loose_mode`)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def loose_mode(path: str) -> int | None:
    """The permission bits of an existing database file readable or writable by other
    users (group or world); None when it is owner-only or absent."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return None
    return mode if mode & 0o077 else None


def create_engine(url: str, *, echo: bool = False) -> AsyncEngine:

    url = normalize_url(url)
    db_file = sqlite_file(url)
    if db_file is not None:
        create_private_file(db_file)
    # Parameters are key hashes, password hashes, sealed credentials: an error's
    # text (and so a logged traceback) must never carry them.
    kwargs: dict[str, Any] = {"echo": echo, "hide_parameters": True}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
    else:
        kwargs.update(pool_size=10, max_overflow=10, pool_pre_ping=True, pool_recycle=1800)
    engine = create_async_engine(url, **kwargs)
    if url.startswith("sqlite"):
        event.listen(engine.sync_engine, "connect", sqlite_pragmas)
    return engine


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=False)
